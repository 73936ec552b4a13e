"""A match that commits every accepted action before it changes the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import Action, parse_action
from ..errors import HollywoodGinError, IllegalActionError
from ..hand import HandResult
from ..match import Match
from .records import PendingAction, StoredAction, StoredMatch, StoreError

if TYPE_CHECKING:
    from .matches import Store


class PersistentMatch:
    """A match whose every accepted action is committed before it changes the game."""

    def __init__(self, store: Store, stored: StoredMatch) -> None:
        self.store = store
        self.id = stored.id
        self.players = stored.players
        self.meta = dict(stored.meta)
        self.kind = stored.kind
        self.opened_status = stored.status  # "playing", "finished" or "abandoned"
        self.match = Match(rules=stored.rules, seed=stored.seed, first_dealer=stored.first_dealer)
        self.action_count = 0
        self._replay(stored.actions)

    def _replay(self, actions: Sequence[StoredAction]) -> None:
        for act in actions:
            try:
                if act.seq != self.action_count:
                    raise StoreError(f"action {act.seq} follows action {self.action_count - 1}")
                if self.match.hand.is_over:
                    self.match.next_hand()
                if len(self.match.hands) != act.hand_number:
                    raise StoreError(f"action {act.seq} belongs to hand {act.hand_number}, "
                                     f"but the replay is at hand {len(self.match.hands)}")
                self.match.apply(parse_action(act.action), act.player)
            except HollywoodGinError as exc:
                raise StoreError(
                    f"saved match {self.id} does not replay at action {act.seq} "
                    f"({act.action!r}): {exc}") from None
            self.action_count += 1

    def catch_up_one(self, action: StoredAction) -> None:
        """Apply one action another writer committed, as announced: it must be the next
        one (:class:`StoreError` otherwise, and when it does not replay)."""
        self._replay((action,))

    def catch_up(self, stored: StoredMatch) -> int:
        """Apply the actions of ``stored`` (from :meth:`Store.load_since`) that this match
        has not got yet, and take its meta: another process committed them.  Returns how
        many were applied.  A log that does not follow on raises :class:`StoreError` (the
        caller opens the match again)."""
        new = [act for act in stored.actions if act.seq >= self.action_count]
        self._replay(new)
        self.meta = dict(stored.meta)
        return len(new)

    def act(self, action: Action, player: int | None = None) -> HandResult | None:
        """Check, commit, then apply an action (dealing the next hand first if one ended).

        An illegal action raises :class:`IllegalActionError` and nothing is saved or changed.
        """
        match = self.match
        if match.hand.is_over and not match.finished:
            match.next_hand()
        item = self._pending(action, player)
        self.store.append_action(
            self.id, item.seq, hand_number=item.hand_number, player=item.player,
            action=item.action, hand_result=item.hand_result, finished=item.finished,
        )
        self.action_count += 1
        return match.apply(action, player)

    def prepare(self, action: Action, player: int | None = None) -> PendingAction:
        """Check an action and say what committing it stores, changing nothing (the first
        half of :meth:`act`, for servers that commit many tables' actions together).

        The current hand must not be over.  Commit the result with
        :meth:`Store.append_actions`, then call :meth:`applied`.
        """
        if self.match.hand.is_over:
            raise IllegalActionError("the hand is over: deal the next one first")
        return self._pending(action, player)

    def _pending(self, action: Action, player: int | None) -> PendingAction:
        """The action checked in the current hand, and what committing it stores: the
        hand's result and the match's end if it brings them."""
        match = self.match
        hand = match.hand
        hand.check(action, player)
        trial = hand.clone()
        trial.apply(action, player)
        result = trial.result
        finished: tuple[int | None, tuple[int, int]] | None = None
        if result is not None and result.winner is not None:
            sheet = match.sheet.copy()
            sheet.record(result.winner, result.points)
            if sheet.finished:
                finished = (sheet.winner, sheet.totals)
        return PendingAction(self.id, self.action_count, len(match.hands), hand.to_act,
                             str(action), result, finished)

    def applied(self, pending: PendingAction, action: Action) -> HandResult | None:
        """Apply an action whose :meth:`prepare` result has been committed."""
        if pending.seq != self.action_count or pending.match_id != self.id:
            raise StoreError(f"action {pending.seq} is not the next action of match {self.id}")
        self.action_count += 1
        return self.match.apply(action, pending.player)

    def undo_to(self, keep: int) -> None:
        """Go back to the state after the first ``keep`` actions (undo against the computer)."""
        if not 0 <= keep <= self.action_count:
            raise StoreError(f"cannot undo to action {keep}: the match has {self.action_count}")
        self.store.truncate(self.id, keep, saved=self.action_count)
        fresh = self.store.open_match(self.id)
        self.match = fresh.match
        self.action_count = fresh.action_count


