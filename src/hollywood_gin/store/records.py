"""What the store keeps and gives back: its errors, the stored match, action and
review, and an action ready to commit."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HollywoodGinError
from ..hand import HandResult
from ..rules import Rules

DB_ENV = "HOLLYWOOD_GIN_DB"


class StoreError(HollywoodGinError):
    """The database cannot be used, or a stored match is missing or does not replay."""


class StoreConflict(StoreError):
    """Another writer appended to the match first; reload and try again."""


class MatchAbandoned(StoreConflict):
    """The match was abandoned (in another window, perhaps): nothing more is saved to it,
    and nothing taken back, so the loss it counts for stands."""


def abandoned(match_id: str) -> MatchAbandoned:
    return MatchAbandoned(f"match {match_id} was abandoned: nothing more can be saved to "
                          f"it or taken back from it")


def default_url() -> str:
    """``HOLLYWOOD_GIN_DB`` if set, else a SQLite file in the user's data directory."""
    env = os.environ.get(DB_ENV)
    if env:
        return env
    import platformdirs

    folder = Path(platformdirs.user_data_dir("hollywood-gin", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.db'}"


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredAction:
    seq: int
    hand_number: int
    player: int
    action: str


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match row and its log, as stored."""

    id: str
    kind: str
    status: str
    created_at: float
    updated_at: float
    rules: Rules
    seed: int
    first_dealer: int
    players: tuple[str, str]
    meta: dict[str, Any]
    actions: tuple[StoredAction, ...] = field(default=())
    winner: int | None = None
    totals: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """The summary of a stored hand review (its JSON is read with :meth:`Store.reviews`)."""

    match_id: str
    hand_number: int
    seat: int
    method: str
    created_at: float
    decisions: int
    accuracy: float | None
    points_lost: float


@dataclass(frozen=True, slots=True)
class PendingAction:
    """One checked action, ready to commit: what :meth:`Store.append_action` takes."""

    match_id: str
    seq: int
    hand_number: int
    player: int
    action: str
    hand_result: HandResult | None = None
    finished: tuple[int | None, tuple[int, int]] | None = None



#: The meta values every layer reads, with their bounds: a damaged one is refused here
#: once, rather than crash each reader (the terminal game read level "abc" with int()).
_META_WHOLE: dict[str, tuple[int, int | None]] = {"level": (1, 5), "dealt": (1, None)}


def _checked_meta(text: str) -> dict[str, Any]:
    meta = json.loads(text)
    if not isinstance(meta, dict):
        raise ValueError(f"its meta is not an object: {text[:40]!r}")
    for key, (low, high) in _META_WHOLE.items():
        value = meta.get(key)
        if key in meta and (not isinstance(value, int) or isinstance(value, bool)
                            or value < low or (high is not None and value > high)):
            raise ValueError(f"its {key} is {value!r}, not a whole number "
                             + (f"from {low} to {high}" if high else f"from {low} on"))
    return meta


STATUSES = ("playing", "finished", "abandoned")


def _checked_summary(row: Any) -> tuple[int | None, tuple[int, int] | None]:
    """The stored winner and totals, the statistics' reading of a match: damage to them
    (edited by hand, a half-restored backup) raises ValueError naming it."""
    if row.status not in STATUSES:
        raise ValueError(f"its status is {str(row.status)[:20]!r}, not one of "
                         f"{', '.join(STATUSES)}")
    if row.winner not in (None, 0, 1) or isinstance(row.winner, bool):
        raise ValueError(f"its winner is {row.winner!r}, not 0, 1 or none")
    if row.totals is None:
        return row.winner, None
    totals = json.loads(row.totals)
    if not (isinstance(totals, list) and len(totals) == 2
            and all(type(t) is int for t in totals)):
        raise ValueError(f"its totals are not two whole numbers: {str(row.totals)[:40]!r}")
    return row.winner, (totals[0], totals[1])


def _stored(row: Any, actions: tuple[StoredAction, ...]) -> StoredMatch:
    try:
        players = json.loads(row.players)
        if not isinstance(players, list) or len(players) != 2:
            raise ValueError(f"its players are not a pair: {row.players[:40]!r}")
        winner, totals = _checked_summary(row)
        return StoredMatch(
            id=row.id, kind=row.kind, status=row.status, created_at=row.created_at,
            updated_at=row.updated_at, rules=Rules.from_dict(json.loads(row.rules)),
            seed=int(row.seed), first_dealer=int(row.first_dealer),
            players=(str(players[0]), str(players[1])), meta=_checked_meta(row.meta),
            actions=actions, winner=winner, totals=totals,
        )
    except (ValueError, TypeError, IndexError, HollywoodGinError) as exc:
        raise StoreError(f"saved match {row.id} is damaged: {exc}") from None


def _safe_url(url: str) -> str:
    """A URL without its password, for error messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url
