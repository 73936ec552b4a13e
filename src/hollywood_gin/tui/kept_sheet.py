"""A score keeper's sheet kept in the store (``hollywood-gin score``): one stored action a
hand entered, the hands' words in its meta, taken up again in any later session; the
entry line's reading of a hand is :mod:`.keeping`'s."""

from __future__ import annotations

import time

from ..errors import HollywoodGinError
from ..i18n import _
from ..rules import Rules
from ..sheet import ScoreSheet, SheetEntry, SheetError
from ..store import Store, StoredMatch, StoreError
from .keeping import EntryError, HandEntry, entry_how

__all__ = ["KeptSheet"]


class KeptSheet:
    """A score keeper's sheet saved in the store: one stored action per hand entered."""

    def __init__(self, store: Store, stored: StoredMatch) -> None:
        if stored.kind != "keeper":
            raise HollywoodGinError(_("saved match {id} is not a score-keeper sheet").format(
                id=stored.id[:8]))
        self.store = store
        self.id = stored.id
        self.names = stored.players
        self.rules = stored.rules
        self.created_at = stored.created_at
        self.updated_at = stored.updated_at
        self.sheet = ScoreSheet(stored.rules)
        self.hands: list[HandEntry] = []
        self.old_hows: dict[int, str] = {}  # sheets saved before the counts were kept
        saved = stored.meta.get("hands", {})
        saved = saved if isinstance(saved, dict) else {}
        hows = stored.meta.get("hows", {})
        for act in stored.actions:
            try:
                player_text, points_text = act.action.split()
                player, points = int(player_text), int(points_text)
                self.sheet.record(player, points)
            except (ValueError, SheetError) as exc:
                raise HollywoodGinError(
                    _("saved sheet {id} is damaged at entry {seq}: {error}").format(
                        id=stored.id[:8], seq=act.seq, error=exc)) from None
            entry = HandEntry.from_dict(saved.get(str(act.seq)))
            if entry is None or (entry.player, entry.points) != (player, points):
                entry = HandEntry(player, points)
                if isinstance(hows, dict) and hows.get(str(act.seq)):
                    self.old_hows[act.seq] = str(hows[str(act.seq)])
            self.hands.append(entry)

    @classmethod
    def new(cls, store: Store, *, names: tuple[str, str], rules: Rules) -> KeptSheet:
        """A new sheet, saved with its first hand (so no empty sheet is ever left over to
        be offered again); until then its ``id`` is empty."""
        now = time.time()
        return cls(store, StoredMatch(id="", kind="keeper", status="playing", created_at=now,
                                      updated_at=now, rules=rules, seed=0, first_dealer=0,
                                      players=names, meta={}))

    @property
    def saved(self) -> bool:
        """Whether the sheet is in the store (it is from its first hand on)."""
        return bool(self.id)

    @classmethod
    def open(cls, store: Store, match_id: str) -> KeptSheet:
        stored = store.load(match_id)
        if stored.status == "abandoned":  # nothing more is saved to it (the store says so)
            raise StoreError(_("it was abandoned (perhaps in another window)"))
        return cls(store, stored)

    @staticmethod
    def unfinished(store: Store) -> list[StoredMatch]:
        """Every unfinished sheet, the last played first."""
        return store.matches(kind="keeper", status="playing")

    def how(self, index: int) -> str:
        """How hand ``index`` (from 0) scored, in words."""
        return self.old_hows.get(index) or entry_how(self.hands[index], self.names)

    def add(self, entry: HandEntry) -> SheetEntry:
        """Save the hand, then enter it (a refused hand is neither saved nor entered)."""
        if self.sheet.finished:
            raise EntryError(self.over_words())
        trial = self.sheet.copy()
        try:
            recorded = trial.record(entry.player, entry.points)
        except SheetError as exc:  # no change was made
            raise EntryError(str(exc)) from None
        seq = len(self.sheet.entries)
        finished = (trial.winner, trial.totals) if trial.finished else None
        if not self.id:
            self.id = self.store.create_match(
                rules=self.rules, seed=0, first_dealer=0, players=self.names, kind="keeper",
                meta={"preset": self.rules.preset_name, "hands": {}})
        self.store.append_action(self.id, seq, hand_number=seq + 1, player=entry.player,
                                 action=f"{entry.player} {entry.points}", finished=finished)
        self.hands.append(entry)
        self._save_hands()
        self.sheet = trial
        self.updated_at = time.time()
        return recorded

    def over_words(self) -> str:
        """The sheet is finished: who won (R7.5), and what to do next."""
        winner = self.sheet.winner
        if winner is None:
            return _("The match is over, drawn; ctrl+n starts a new sheet.")
        return _("The match is over: {name} won it; ctrl+n starts a new sheet.").format(
            name=self.names[winner])

    def _save_hands(self) -> None:
        self.store.set_meta(self.id, hands={str(i): e.to_dict()
                                            for i, e in enumerate(self.hands)})

    def undo(self) -> tuple[SheetEntry, HandEntry]:
        """Take back the last hand entered, in the store too."""
        if not self.sheet.entries:
            raise EntryError(_("nothing to undo: no hand has been entered"))
        keep = len(self.sheet.entries) - 1
        self.store.truncate(self.id, keep, saved=keep + 1)
        removed = self.sheet.undo()
        entry = self.hands.pop()
        self.old_hows.pop(keep, None)
        self._save_hands()
        self.updated_at = time.time()
        if keep == 0:  # empty again: not offered to resume; a hand entered saves it anew
            self.store.set_status(self.id, "abandoned")
            self.id = ""
        return removed, entry

    def started(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.created_at))
