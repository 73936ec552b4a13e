"""What a player may know of a hand: the phases, how a hand ended, and the frozen
:class:`HandView` that bots and interfaces read instead of the hand itself (R3.4, R4.4).

Apart from the state machine in :mod:`.hand` so that a reader of what is shown to a
player finds it in one place; :mod:`.hand` makes views and exports these names too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from .actions import Action
from .cards import Card
from .rules import Rules
from .scoring import HandScore

__all__ = ["HandResult", "HandView", "Phase", "ResultKind"]


class Phase(Enum):
    """The phases of a hand: the upcard offer (R4.1), a turn's draw and discard (R4.2), over."""

    OFFER = "offer"
    DRAW = "draw"
    DISCARD = "discard"
    OVER = "over"


ResultKind = Literal["knock", "undercut", "gin", "big_gin", "dead"]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended.  ``winner`` and ``knocker`` are player numbers (None if dead, R6.1)."""

    kind: ResultKind
    winner: int | None
    points: int
    knocker: int | None
    score: HandScore | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    knock_discard: Card | None = None


@dataclass(frozen=True, slots=True)
class HandView:
    """What one player may know of a hand (R3.4, R4.4); the only thing bots and UIs see.

    ``history`` is the public log: every action is public except which card
    a stock draw gave, and actions carry no such card.  ``opponent_known``
    are the cards the opponent took from the pile and still holds;
    ``known_to_opponent`` the same of this player's own cards.  ``drawn_card`` is the
    card this player has just drawn from the stock, while he decides his discard: he
    saw it arrive, so it is his to know, and it is never in the opponent's view.
    """

    player: int
    rules: Rules
    dealer: int
    knock_limit: int
    phase: Phase
    to_act: int
    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    stock_count: int
    opponent_card_count: int
    opponent_known: tuple[Card, ...]
    known_to_opponent: tuple[Card, ...]
    taken_card: Card | None
    upcard_refused: bool
    history: tuple[tuple[int, Action], ...]
    legal_actions: tuple[Action, ...]
    result: HandResult | None
    drawn_card: Card | None = None
    # The mask of ``hand``, set by :meth:`Hand.view` (bots read it at every decision); -1
    # when the view was made otherwise.  Not an argument, so ``replace`` never copies it.
    _hand_mask: int = field(default=-1, init=False, repr=False, compare=False)

    @property
    def upcard(self) -> Card | None:
        """The card on top of the discard pile (the one that may be taken)."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def my_turn(self) -> bool:
        return self.phase is not Phase.OVER and self.to_act == self.player

    @property
    def hand_mask(self) -> int:
        m = self._hand_mask
        if m < 0:
            m = 0
            for c in self.hand:
                m |= c.bit
            object.__setattr__(self, "_hand_mask", m)
        return m

    @property
    def unseen_mask(self) -> int:
        """Cards this player has not seen: the opponent's unknown cards and the stock."""
        seen = self.hand_mask
        for c in self.discard_pile:
            seen |= 1 << c.index
        for c in self.opponent_known:
            seen |= 1 << c.index
        if self.result is not None and self.result.knock_discard is not None:
            seen |= 1 << self.result.knock_discard.index
        return ((1 << 52) - 1) & ~seen
