"""A Hollywood match: hands one after another under the dealer rule, filling the sheet.

The match owns the chance: one ``random.Random`` seeded from the match seed
picks the first dealer (R3.1) and shuffles every deck, so a seed reproduces
the whole match.  A hand's result enters the sheet as soon as the hand ends;
the next hand is dealt by :meth:`Match.next_hand`, so an interface can show
the end of a hand first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action
from .cards import CARDS, Card
from .errors import IllegalActionError
from .hand import Hand, HandResult, HandView, seat_number
from .i18n import _
from .rules import Rules
from .sheet import ScoreSheet
from .shuffle import checked_seed

__all__ = ["Match", "MatchView", "next_dealer"]


def next_dealer(rules: Rules, dealer: int, result: HandResult) -> int:
    """Who deals the next hand (R3.1 and option ``next_dealer``)."""
    if rules.next_dealer == "alternate":
        return 1 - dealer
    if result.winner is None:  # R3.1: after a dead hand the same dealer deals again
        return dealer
    return result.winner if rules.next_dealer == "winner" else 1 - result.winner


@dataclass(frozen=True, slots=True)
class MatchView:
    """What one player may know of the match: the current hand's view and the public sheet."""

    player: int
    hand: HandView
    sheet: ScoreSheet
    hand_number: int
    finished: bool


class Match:
    """Hands under one set of rules until the sheet is finished (R7.5)."""

    def __init__(
        self,
        *,
        rules: Rules = Rules(),
        seed: int | None = None,
        first_dealer: int | None = None,
        decks: Sequence[Sequence[Card]] = (),
    ) -> None:
        """``seed`` None draws an unpredictable one, kept in ``.seed`` for the record.

        ``decks`` deal the first hands from given orders (records of real or scripted
        deals); later hands are shuffled from the seed.
        """
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        seed = checked_seed(seed, "a match seed")
        if not isinstance(rules, Rules):
            raise IllegalActionError(f"rules must be a Rules, not {rules!r} (see Rules.preset)")
        self.rules = rules
        self.seed = seed
        self._rng = random.Random(seed)
        chosen = self._rng.randrange(2)  # R3.1: the first dealer is chosen at random
        if first_dealer is not None:
            seat = seat_number(first_dealer)
            if seat is None:
                raise IllegalActionError(f"the first dealer must be 0 or 1, not {first_dealer!r}")
            chosen = seat
        self.first_dealer = chosen
        self._decks = [tuple(d) for d in decks]
        self.sheet = ScoreSheet(rules)
        self.hands: list[Hand] = []
        self._deal(chosen)

    def _deal(self, dealer: int) -> None:
        deck = list(CARDS)
        self._rng.shuffle(deck)  # always drawn, so given decks do not shift later shuffles
        index = len(self.hands)
        if index < len(self._decks):
            deck = list(self._decks[index])
        self.hands.append(Hand.from_deck(deck, rules=self.rules, dealer=dealer))

    @property
    def hand(self) -> Hand:
        """The current hand (the last one dealt; it may be over)."""
        return self.hands[-1]

    @property
    def finished(self) -> bool:
        return self.sheet.finished

    @property
    def winner(self) -> int | None:
        return self.sheet.winner

    @property
    def results(self) -> tuple[HandResult, ...]:
        return tuple(h.result for h in self.hands if h.result is not None)

    def apply(self, action: Action, player: int | None = None) -> HandResult | None:
        """Play an action in the current hand; returns the hand's result if it just ended."""
        hand = self.hand
        hand.apply(action, player)
        return self._after_action(hand)

    def apply_id(self, action_id: int) -> HandResult | None:
        """The unchecked fast path of :meth:`apply`."""
        hand = self.hand
        hand.apply_id(action_id)
        return self._after_action(hand)

    def _after_action(self, hand: Hand) -> HandResult | None:
        result = hand.result
        if result is None:
            return None
        if result.winner is not None:
            self.sheet.record(result.winner, result.points)
        return result

    def next_hand(self) -> Hand:
        """Deal the next hand after one has ended (R3.1)."""
        result = self.hand.result
        if result is None:
            raise IllegalActionError(_("cannot deal the next hand: this one is not over"))
        if self.finished:
            raise IllegalActionError(_("cannot deal the next hand: the match is over (R7.5)"))
        self._deal(next_dealer(self.rules, self.hand.dealer, result))
        return self.hand

    def view(self, player: int) -> MatchView:
        return MatchView(
            player=player,
            hand=self.hand.view(player),
            sheet=self.sheet.copy(),
            hand_number=len(self.hands),
            finished=self.finished,
        )

