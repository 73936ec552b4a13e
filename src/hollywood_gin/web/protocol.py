"""The table protocol: strict checks of what a browser sends, and frames built only from views.

Every message a seat receives is built here from a :class:`MatchView` (the
seat's own :class:`HandView` and the public sheet) and the upcard turned at the
deal (public from the start), never from a ``Hand``, so nothing the seat may not
know can reach it.  Client messages are checked by
hand against ``schema.CLIENT_SCHEMA`` (documented in ``docs/protocol.md``); a
bad one raises :class:`ProtocolError` carrying the code of the error frame.
This module imports only the standard library and the core.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..actions import Discard, Pass, TakeDiscard, TakeUpcard
from ..cards import Card
from ..hand import HandResult, HandView, Phase
from ..match import MatchView
from ..melds import best_melds, deadwood
from ..sheet import ScoreSheet

__all__ = [
    "ERROR_CODES",
    "MAX_MESSAGE_BYTES",
    "MESSAGE_BURST",
    "MESSAGE_RATE",
    "PROTOCOL_VERSION",
    "Act",
    "ClientMessage",
    "Hello",
    "NextHand",
    "ProtocolError",
    "Rematch",
    "SharedParts",
    "Sync",
    "TableInfo",
    "error_frame",
    "parse_client_message",
    "public_log",
    "seat_frame",
    "state_frame",
]

PROTOCOL_VERSION = 1
#: Largest text frame the server reads; a longer one gets a ``too_large`` error frame.
MAX_MESSAGE_BYTES = 4096
MESSAGE_RATE = 20.0  # messages a connection may send a second on average ...
MESSAGE_BURST = 40  # ... and at once
MAX_SEQ = 1_000_000
MAX_RID = 2**31 - 1
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
ACTION_RE = re.compile(r"^[A-Za-z0-9 /-]{1,64}$")
#: A language tag in the hello (a language the server does not offer is spoken as English).
LANG_RE = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}$")

#: Codes of error frames, each with what it means (also in docs/protocol.md).
ERROR_CODES: dict[str, str] = {
    "bad_json": "the frame is not a JSON object in UTF-8 text",
    "too_large": f"the frame is longer than {MAX_MESSAGE_BYTES} bytes",
    "schema": "the message does not follow the schema (unknown type, missing or extra field)",
    "auth": "no valid seat token for this table (missing, wrong, or another table's)",
    "not_your_turn": "it is the other seat's turn",
    "illegal": "the engine refuses the action; the message says why",
    "stale": "seq is not the table's current action count: sync and decide again",
    "waiting": "the opponent has not joined the table yet",
    "conflict": "another server wrote to this table first; the state was reloaded",
    "server": "the server could not save the action; nothing changed",
    "rate": "more messages than the connection's rate allows: this one was dropped, nothing "
    "changed (said at most once a second)",
    "abandoned": "the match was abandoned: nothing more can be played at this table",
}

ErrorCode = Literal[
    "bad_json", "too_large", "schema", "auth", "not_your_turn", "illegal", "stale", "waiting",
    "conflict", "server", "rate", "abandoned",
]


class ProtocolError(ValueError):
    """A client message was refused; ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message of a connection: the seat's token, and the language the page
    speaks (a language tag; the server words anything for this seat in it)."""

    token: str
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """An intent: ``action`` in the engine's text form, at match position ``seq``."""

    action: str
    seq: int
    rid: int | None = None


@dataclass(frozen=True, slots=True)
class NextHand:
    """The seat has seen the hand's end and is ready for the next deal."""

    rid: int | None = None


@dataclass(frozen=True, slots=True)
class Sync:
    """Ask for the current state again (after an error, or to check)."""

    rid: int | None = None


@dataclass(frozen=True, slots=True)
class Rematch:
    """At the match's end: this seat wants (or accepts) a new match with the same opponent."""

    rid: int | None = None


ClientMessage = Hello | Act | NextHand | Sync | Rematch

_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required fields, optional fields)
    "hello": (frozenset({"token"}), frozenset({"v", "lang"})),
    "act": (frozenset({"action", "seq"}), frozenset({"rid"})),
    "next": (frozenset(), frozenset({"rid"})),
    "sync": (frozenset(), frozenset({"rid"})),
    "rematch": (frozenset(), frozenset({"rid"})),
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Read one client frame strictly; raises :class:`ProtocolError` naming what is wrong."""
    if isinstance(raw, bytes):
        raise ProtocolError("bad_json", "binary frames are not accepted: send JSON text")
    too_long = len(raw) > MAX_MESSAGE_BYTES
    if too_long or len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"the frame is longer than the limit of {MAX_MESSAGE_BYTES} bytes"
        )
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except ValueError as exc:
        raise ProtocolError("bad_json", f"the frame is not valid JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError("bad_json",
                            "the frame is not valid JSON: it nests too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", f"a message must be a JSON object, not {_kind(data)}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError(
            "schema", f"unknown message type {kind!r}: expected one of {', '.join(_FIELDS)}"
        )
    required, optional = _FIELDS[kind]
    keys = set(data) - {"type"}
    missing = required - keys
    extra = keys - required - optional
    a = "an" if kind[0] in "aeiou" else "a"  # an 'act' message
    if missing:
        raise ProtocolError("schema", f"{a} {kind!r} message needs {', '.join(sorted(missing))}")
    if extra:
        raise ProtocolError(
            "schema", f"{a} {kind!r} message has unknown field(s) {', '.join(sorted(extra))}"
        )
    rid = data.get("rid")
    if "rid" in data and not (isinstance(rid, int) and _is_int(rid) and 0 <= rid <= MAX_RID):
        raise ProtocolError("schema", f"rid must be a whole number 0 to {MAX_RID}, not {rid!r}")
    if kind == "hello":
        token = data["token"]
        if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
            raise ProtocolError("auth", "the token is missing or malformed")
        version = data.get("v", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION or not _is_int(version):
            raise ProtocolError(
                "schema", f"protocol version {version!r} is not served; this server speaks "
                f"{PROTOCOL_VERSION}"
            )
        lang = data.get("lang")
        if lang is not None and not (isinstance(lang, str) and LANG_RE.fullmatch(lang)):
            raise ProtocolError("schema", f"lang must be a language tag like 'lt' or "
                                f"'nb-NO', not {lang!r}")
        return Hello(token, lang)
    if kind == "act":
        action, seq = data["action"], data["seq"]
        if not isinstance(action, str) or not ACTION_RE.fullmatch(action):
            raise ProtocolError(
                "schema", "action must be an action's text, like 'draw' or 'discard 7h'"
            )
        if not (_is_int(seq) and 0 <= seq <= MAX_SEQ):
            raise ProtocolError("schema", f"seq must be a whole number 0 to {MAX_SEQ}")
        return Act(action, seq, rid)
    if kind == "next":
        return NextHand(rid)
    if kind == "rematch":
        return Rematch(rid)
    return Sync(rid)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _kind(value: object) -> str:
    return {list: "an array", str: "a string", int: "a number", float: "a number",
            bool: "a boolean", type(None): "null"}.get(type(value), type(value).__name__)


# -- frames to the browser ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableInfo:
    """The public facts of a table that every frame repeats."""

    table: str
    names: tuple[str, str]
    opponent: Literal["computer", "friend"]
    level: int | None
    preset: str | None


def _texts(cards: Iterable[Card]) -> list[str]:
    return [c.text for c in cards]


def _layout(
    melds: Sequence[Sequence[Card]], unmatched: Sequence[Card], dead: int,
    laid_off: Sequence[tuple[Card, Sequence[Card]]] = (),
) -> dict[str, Any]:
    return {
        "melds": [_texts(m) for m in melds],
        "unmatched": _texts(unmatched),
        "deadwood": dead,
        "laid_off": [{"card": c.text, "onto": _texts(m)} for c, m in laid_off],
    }


def _result(result: HandResult) -> dict[str, Any]:
    """The hand-end layout: both hands are shown once the hand is over (R3.4, R5)."""
    players: list[dict[str, Any]] = []
    score = result.score
    for p in (0, 1):
        if score is not None and p == result.knocker:
            players.append(_layout(score.knocker_melds, score.knocker_unmatched,
                                   score.knocker_deadwood))
        elif score is not None:
            players.append(_layout(score.defender_melds, score.defender_unmatched,
                                   score.defender_deadwood,
                                   [(lay.card, lay.meld) for lay in score.layoffs]))
        else:
            layout = best_melds(result.hands[p])
            players.append(_layout(layout.melds, layout.unmatched, layout.deadwood))
    return {
        "kind": result.kind,
        "winner": result.winner,
        "knocker": result.knocker,
        "points": result.points,
        "knock_discard": None if result.knock_discard is None else result.knock_discard.text,
        "players": players,
    }


def _sheet(sheet: ScoreSheet) -> dict[str, Any]:
    return {
        "columns": [
            {
                "points": list(c.points),
                "boxes": list(c.boxes),
                "bonuses": list(c.bonuses),
                "total": list(c.total),
                "winner": c.winner,
                "shutout": c.shutout,
            }
            for c in sheet.columns
        ],
        "entries": [[e.player, e.points, list(e.columns), list(e.closed)] for e in sheet.entries],
        "totals": list(sheet.totals),
        "games_won": list(sheet.games_won),
        "finished": sheet.finished,
        "winner": sheet.winner,
        "result": sheet.result,
    }


def public_log(view: HandView, upcard: Card | None) -> list[list[Any]]:
    """The hand's public log, each action with the card it moved when that card is public:
    ``[player, action, card]``.  The pile is face up (R4.4), so a ``pass`` names the upcard
    refused, a ``take`` or ``pick`` the card taken, a ``discard`` its card; a stock draw
    never names one.  ``upcard`` is the card
    turned up at the deal (R3.3), from which the pile is followed forward; without it the
    cards taken are named only when they can be told from the view."""
    pile: list[Card | None] = [upcard]
    out: list[list[Any]] = []
    for player, action in view.history:
        text = str(action)
        card: Card | None = None
        if isinstance(action, TakeUpcard | TakeDiscard):
            card = pile.pop() if pile else None
        elif isinstance(action, Pass):
            card = pile[-1] if pile else None
        elif isinstance(action, Discard):
            card = action.card
            pile.append(card)
        out.append([player, text, None if card is None else card.text])
    return out


@functools.lru_cache(maxsize=8192)
def _best(cards: tuple[Card, ...]) -> Any:
    """best_melds, remembered: a seat's cards do not change while the other seat plays,
    and each of its frames shows their melds again."""
    return best_melds(cards)


@dataclass(slots=True)
class SharedParts:
    """What every frame of one table repeats and both seats share (the rules, the sheet,
    the hand's public log), built once and kept until it changes: a server builds two
    frames a move for each table, and these parts are most of them."""

    rules: dict[str, Any] | None = None
    sheet_key: int = -1
    sheet: dict[str, Any] | None = None
    log_key: tuple[int, int] = (-1, -1)
    log: list[list[Any]] | None = None

    def rules_of(self, rules: Any) -> dict[str, Any]:
        if self.rules is None:
            self.rules = rules.to_dict()
        return self.rules

    def sheet_of(self, sheet: ScoreSheet) -> dict[str, Any]:
        key = len(sheet.entries)  # the sheet changes only when a hand is recorded
        if self.sheet is None or key != self.sheet_key:
            self.sheet, self.sheet_key = _sheet(sheet), key
        return self.sheet

    def log_of(self, view: HandView, upcard: Card | None, hand_number: int
               ) -> list[list[Any]]:
        key = (hand_number, len(view.history))  # public: the same for both seats
        if self.log is None or key != self.log_key:
            self.log, self.log_key = public_log(view, upcard), key
        return self.log


def _hand(view: HandView, upcard: Card | None = None,
          log: list[list[Any]] | None = None) -> dict[str, Any]:
    """The seat's hand view: own cards and their best melds, the public pile and log."""
    layout = _best(tuple(view.hand))
    legal = [str(a) for a in view.legal_actions]
    hints: list[dict[str, Any]] = []
    if view.my_turn and view.phase is Phase.DISCARD:
        legal_set = set(legal)
        for card in view.hand:
            rest = [c for c in view.hand if c != card]
            if f"discard {card.text}" not in legal_set and f"knock {card.text}" not in legal_set:
                continue
            hints.append({
                "card": card.text,
                "deadwood": deadwood(rest),
                "discard": f"discard {card.text}" in legal_set,
                "knock": f"knock {card.text}" in legal_set,
            })
    return {
        "phase": view.phase.value,
        "to_act": view.to_act,
        "dealer": view.dealer,
        "knock_limit": view.knock_limit,
        "cards": _texts(view.hand),
        "melds": [_texts(m) for m in layout.melds],
        "unmatched": _texts(layout.unmatched),
        "deadwood": layout.deadwood,
        "hints": hints,
        "pile": _texts(view.discard_pile),
        "stock": view.stock_count,
        "opponent_cards": view.opponent_card_count,
        "opponent_known": _texts(view.opponent_known),
        "known_to_opponent": _texts(view.known_to_opponent),
        "taken": None if view.taken_card is None else view.taken_card.text,
        "upcard_refused": view.upcard_refused,
        "legal": legal,
        "history": public_log(view, upcard) if log is None else log,
        "result": None if view.result is None else _result(view.result),
    }


def state_frame(
    view: MatchView,
    info: TableInfo,
    *,
    seq: int,
    joined: tuple[bool, bool],
    connected: tuple[bool, bool],
    ready: tuple[bool, bool],
    rid: int | None = None,
    upcard: Card | None = None,
    rematch: tuple[tuple[bool, bool], str | None] = ((False, False), None),
    abandoned: int | None = None,
    shared: SharedParts | None = None,
) -> dict[str, Any]:
    """The whole state one seat may know, from its match view (and the hand's upcard, public
    since the deal), plus the table's public facts: who is there, who is ready for the next
    deal, who asked for a rematch and its table, who abandoned the match.  ``shared``: the
    table's parts common to both seats' frames (never changed by the caller)."""
    rules = view.hand.rules
    if shared is None:
        shared = SharedParts()
    return {
        "type": "state",
        "v": PROTOCOL_VERSION,
        "rid": rid,
        "table": info.table,
        "seat": view.player,
        "seq": seq,
        "hand_number": view.hand_number,
        "names": list(info.names),
        "opponent": info.opponent,
        "level": info.level,
        "preset": info.preset,
        "rules": shared.rules_of(rules),
        "joined": list(joined),
        "connected": list(connected),
        "ready": list(ready),
        "finished": view.finished,
        "abandoned": abandoned,
        "rematch": {"accepted": list(rematch[0]), "table": rematch[1]},
        "hand": _hand(view.hand, upcard, shared.log_of(view.hand, upcard, view.hand_number)),
        "sheet": shared.sheet_of(view.sheet),
    }


def seat_frame(table: str, seat: int, token: str, rid: int | None = None) -> dict[str, Any]:
    """This seat's token at the rematch table: sent only to the seat's own sockets."""
    return {"type": "seat", "rid": rid, "table": table, "seat": seat, "token": token}


def error_frame(code: ErrorCode, message: str, rid: int | None = None) -> dict[str, Any]:
    """The one reply to a refused message; nothing changed at the table."""
    return {"type": "error", "code": code, "message": message, "rid": rid}
