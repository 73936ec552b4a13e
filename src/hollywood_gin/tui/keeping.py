"""The score keeper's arithmetic and its saved sheets, with no widgets in it.

People playing with real cards enter each hand either as "who won, how many
points" or as the two deadwood counts, the kind of win and who knocked; the
points then follow the rule book §5 from the rule options: a knock scores the
difference (R5.5), an undercut the undercut bonus plus the difference (R5.6),
gin the gin bonus plus the defender's deadwood (R5.7).  A sheet is stored as
a match of kind ``keeper`` whose actions are ``"PLAYER POINTS"`` strings, and
is rebuilt by replaying them into a :class:`~hollywood_gin.sheet.ScoreSheet`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from ..errors import HollywoodGinError
from ..rules import Rules
from ..sheet import ScoreSheet, SheetEntry, SheetError
from ..store import Store, StoredMatch

__all__ = ["EntryError", "HandEntry", "KeptSheet", "hand_points", "parse_entry"]

Kind = Literal["points", "knock", "undercut", "gin", "big_gin"]
KINDS: tuple[Kind, ...] = ("points", "knock", "undercut", "gin", "big_gin")
MAX_DEADWOOD = 98  # the most ten unmelded cards can count: two each of K Q J 10 9 (R1.3)


class EntryError(HollywoodGinError):
    """A hand entered in the score keeper does not make sense under the rules."""


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A hand as it goes on the sheet: the winner, the points, and how they came."""

    player: int
    points: int
    how: str


def hand_points(
    rules: Rules,
    *,
    knocker: int,
    kind: Kind,
    knocker_deadwood: int,
    defender_deadwood: int,
    names: tuple[str, str] = ("Player 1", "Player 2"),
) -> HandEntry:
    """Who wins a knocked hand and by how much (R5.5–R5.7), from the counts alone.

    ``kind`` "knock" also covers an undercut, found from the counts; "undercut"
    and "gin" are checked against them.  Raises :class:`EntryError` saying why.
    """
    if knocker not in (0, 1):
        raise EntryError(f"the knocker must be {names[0]} or {names[1]}")
    k, d = knocker_deadwood, defender_deadwood
    for label, value in (("knocker's", k), ("defender's", d)):
        if not 0 <= value <= MAX_DEADWOOD:
            raise EntryError(f"the {label} deadwood must be 0 to {MAX_DEADWOOD}, not {value}")
    who, other = names[knocker], names[1 - knocker]
    if kind in ("gin", "big_gin"):
        if k != 0:
            raise EntryError(f"gin means no deadwood, but {who} has {k} (R2.5)")
        if kind == "big_gin":
            if rules.big_gin_bonus is None:
                raise EntryError("big gin is not played under these rules (R5.7)")
            bonus = rules.big_gin_bonus
            return HandEntry(knocker, bonus + d,
                             f"{who} big gin: {bonus} + {d} = {bonus + d} (R5.7)")
        return HandEntry(knocker, rules.gin_bonus + d,
                         f"{who} gin: {rules.gin_bonus} + {d} = {rules.gin_bonus + d} (R5.7)")
    if kind not in ("knock", "undercut"):
        raise EntryError(f"unknown kind of win {kind!r}: knock, undercut, gin or points")
    if k > rules.knock_limit and not rules.oklahoma:
        raise EntryError(f"{who} cannot knock with {k}: the knock limit is "
                         f"{rules.knock_limit} (R5.1)")
    if k == 0:
        if kind == "undercut":
            raise EntryError(f"{who} has no deadwood: that is gin, which cannot be undercut "
                             "(R5.7)")
        return hand_points(rules, knocker=knocker, kind="gin", knocker_deadwood=0,
                           defender_deadwood=d, names=names)
    if k < d:
        if kind == "undercut":
            raise EntryError(f"no undercut: {who}'s {k} is less than {other}'s {d} (R5.5)")
        return HandEntry(knocker, d - k, f"{who} knock: {d} − {k} = {d - k} (R5.5)")
    bonus = rules.undercut_bonus
    return HandEntry(1 - knocker, bonus + k - d,
                     f"{other} undercuts: {bonus} + ({k} − {d}) = {bonus + k - d} (R5.6)")


def _player(token: str, names: tuple[str, str]) -> int:
    t = token.strip().lower()
    if t in ("1", "2"):
        return int(t) - 1
    exact = [i for i, name in enumerate(names) if name.lower() == t]
    hits = exact or [i for i, name in enumerate(names) if t and name.lower().startswith(t)]
    if len(hits) == 1:
        return hits[0]
    raise EntryError(f"who is {token!r}? Give a name ({names[0]} or {names[1]}), or 1 or 2")


def _number(token: str, what: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise EntryError(f"{what} must be a whole number, not {token!r}") from None


def parse_entry(text: str, names: tuple[str, str], rules: Rules) -> HandEntry:
    """Read one quick-entry line.

    ``bob 25`` (Bob won 25 points), ``bob knock 3 10`` (Bob knocked with 3
    against 10), ``bob undercut 8 5``, ``bob gin 12`` (Bob went gin, the other
    held 12), ``bob big-gin 12``.  The player is a name, its start, or 1 / 2.
    """
    words = text.split()
    if not words:
        raise EntryError("type a hand, like 'bob 25', 'bob knock 3 10' or 'bob gin 12'")
    if len(words) == 2:
        player = _player(words[0], names)
        points = _number(words[1], "the points")
        if points < 1:
            raise EntryError("a won hand scores at least 1 point (R5.8)")
        return HandEntry(player, points, f"{names[player]} +{points}")
    if len(words) < 3:
        raise EntryError(f"cannot read {text!r}: try 'bob 25', 'bob knock 3 10' or 'bob gin 12'")
    player = _player(words[0], names)
    kind = words[1].lower().replace("-", "_")
    if kind in ("gin", "big_gin") and len(words) == 3:
        return hand_points(rules, knocker=player, kind=kind,  # type: ignore[arg-type]
                           knocker_deadwood=0,
                           defender_deadwood=_number(words[2], "the defender's deadwood"),
                           names=names)
    if kind in ("knock", "undercut") and len(words) == 4:
        return hand_points(rules, knocker=player, kind=kind,  # type: ignore[arg-type]
                           knocker_deadwood=_number(words[2], "the knocker's deadwood"),
                           defender_deadwood=_number(words[3], "the defender's deadwood"),
                           names=names)
    raise EntryError(f"cannot read {text!r}: try 'bob 25', 'bob knock 3 10', 'bob undercut 8 5' "
                     "or 'bob gin 12'")


class KeptSheet:
    """A score keeper's sheet saved in the store: one stored action per hand entered."""

    def __init__(self, store: Store, stored: StoredMatch) -> None:
        if stored.kind != "keeper":
            raise HollywoodGinError(f"saved match {stored.id[:8]} is not a score-keeper sheet")
        self.store = store
        self.id = stored.id
        self.names = stored.players
        self.rules = stored.rules
        self.created_at = stored.created_at
        self.sheet = ScoreSheet(stored.rules)
        self.hows: list[str] = []
        for act in stored.actions:
            try:
                player_text, points_text = act.action.split()
                self.sheet.record(int(player_text), int(points_text))
            except (ValueError, SheetError) as exc:
                raise HollywoodGinError(
                    f"saved sheet {stored.id[:8]} is damaged at entry {act.seq}: {exc}"
                ) from None
            self.hows.append(str(stored.meta.get("hows", {}).get(str(act.seq), "")))

    @classmethod
    def new(cls, store: Store, *, names: tuple[str, str], rules: Rules) -> KeptSheet:
        match_id = store.create_match(rules=rules, seed=0, first_dealer=0, players=names,
                                      kind="keeper", meta={"preset": rules.preset_name,
                                                           "hows": {}})
        return cls(store, store.load(match_id))

    @classmethod
    def open(cls, store: Store, match_id: str) -> KeptSheet:
        return cls(store, store.load(match_id))

    @staticmethod
    def latest_unfinished(store: Store) -> StoredMatch | None:
        rows = store.matches(kind="keeper", status="playing")
        return rows[0] if rows else None

    def add(self, entry: HandEntry) -> SheetEntry:
        """Save the hand, then enter it (a refused hand is neither saved nor entered)."""
        trial = self.sheet.copy()
        recorded = trial.record(entry.player, entry.points)  # raises SheetError, no change
        seq = len(self.sheet.entries)
        finished = (trial.winner, trial.totals) if trial.finished else None
        self.store.append_action(self.id, seq, hand_number=seq + 1, player=entry.player,
                                 action=f"{entry.player} {entry.points}", finished=finished)
        hows = {str(i): how for i, how in enumerate([*self.hows, entry.how])}
        self.store.set_meta(self.id, hows=hows)
        self.sheet = trial
        self.hows.append(entry.how)
        return recorded

    def undo(self) -> SheetEntry:
        """Take back the last hand entered, in the store too."""
        if not self.sheet.entries:
            raise EntryError("nothing to undo: no hand has been entered")
        keep = len(self.sheet.entries) - 1
        self.store.truncate(self.id, keep)
        removed = self.sheet.undo()
        self.hows = self.hows[:keep]
        self.store.set_meta(self.id, hows={str(i): h for i, h in enumerate(self.hows)})
        return removed

    def started(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.created_at))
