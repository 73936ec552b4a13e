"""The two reference bots: ``random`` (uniform over legal actions) and ``basic``.

``basic`` is the yardstick of gin rummy AI research, the EAAI-2021 challenge's
``SimpleGinRummyPlayer`` (tneller/gin-rummy-eaai), kept faithful rather than clever:

- take the face-up card only if it then belongs to some meld (the opening offer too);
- discard a random card among those leaving the least deadwood, never the face-up
  card just taken, nor a card whose (drawn card, discard) pair it already played
  this hand;
- knock as soon as the discard leaves deadwood within the knock limit;
- ignore the opponent entirely.

Two differences come from our engine, not from the bot: the knocker shows the
arrangement of R8.1 (the Java bot shows a random one of its best meld sets), and
the defender's lay-offs are always the optimum (R5.4; the challenge's game lays
off greedily).
"""

from __future__ import annotations

from ..actions import (
    ACTIONS,
    DISCARD_BASE,
    DRAW_STOCK_ID,
    KNOCK_BASE,
    PASS_ID,
    TAKE_DISCARD_ID,
    TAKE_UPCARD_ID,
    Action,
    Discard,
    Knock,
    TakeDiscard,
    TakeUpcard,
)
from ..hand import HandView, Phase
from ..i18n import N_
from ..melds import deadwood_of_mask, least_discards_of_mask
from ..sheet import ScoreSheet
from .base import Bot, Hint, Reason, only_choice
from .cardsense import in_some_meld

__all__ = ["BasicBot", "RandomBot"]

# The bots answer with the engine's own action values (equal to new ones, and free).
_PASS, _TAKE_UPCARD = ACTIONS[PASS_ID], ACTIONS[TAKE_UPCARD_ID]
_DRAW_STOCK, _TAKE_DISCARD = ACTIONS[DRAW_STOCK_ID], ACTIONS[TAKE_DISCARD_ID]


class RandomBot(Bot):
    """Uniform over the legal actions: the floor every other bot must clear."""

    name = "random"

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        forced = only_choice(view)
        if forced is not None:
            return forced
        return self.rng.choice(view.legal_actions)


class BasicBot(Bot):
    """The EAAI challenge's SimpleGinRummyPlayer, faithfully (see the module docstring)."""

    name = "basic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._clear()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._clear()

    def _clear(self) -> None:
        self._history: tuple[object, ...] = ()
        self._stock = 99
        self._before_draw: int | None = None  # my hand mask before this turn's draw
        # The (drawn, discarded) pairs played this hand, unordered: for each card, the mask
        # of the cards it was paired with (a card discarded as it was drawn pairs itself).
        self._played: dict[int, int] = {}

    def _follow(self, view: HandView) -> None:
        """Notice a new hand: the stock never grows and the log only grows within a hand."""
        history = view.history
        n = len(self._history)
        if view.stock_count > self._stock or history[:n] != self._history:
            self._played = {}
            self._before_draw = None
        self._history = history
        self._stock = view.stock_count

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        self._follow(view)
        forced = only_choice(view)
        phase = view.phase
        if phase is Phase.OFFER or phase is Phase.DRAW:
            mask = view.hand_mask
            self._before_draw = mask
            if forced is not None:
                return forced
            upcard = view.upcard
            wants = upcard is not None and in_some_meld(mask, upcard.index)
            if phase is Phase.OFFER:
                return _TAKE_UPCARD if wants else _PASS
            return _TAKE_DISCARD if wants and _TAKE_DISCARD in view.legal_actions else _DRAW_STOCK
        return self._discard(view)

    def _discard(self, view: HandView) -> Action:
        mask = view.hand_mask
        taken = view.taken_card.index if view.taken_card is not None else -1
        drawn = -1
        if self._before_draw is not None:
            new = mask & ~self._before_draw
            if new.bit_count() == 1:
                drawn = new.bit_length() - 1
        allowed = 0
        for action in view.legal_actions:
            if isinstance(action, Discard):
                allowed |= action.card.bit
        # Never the face-up card just taken (even where the rules allow it), nor a card
        # already played with the card just drawn; if that leaves nothing, any card.
        barred = self._played.get(drawn, 0) if drawn >= 0 else 0
        if taken >= 0:
            barred |= 1 << taken
        if not allowed or allowed & ~mask:  # a view no engine makes: the plain way
            best, candidates = self._least_discards_one_by_one(mask, allowed, barred)
        else:
            best, at = least_discards_of_mask(mask, allowed & ~barred)
            if not at:
                best, at = least_discards_of_mask(mask, allowed)
            candidates = []
            while at:  # lowest index first, as the candidates always were
                low = at & -at
                candidates.append(low.bit_length() - 1)
                at ^= low
        choice = self.rng.choice(candidates)
        if drawn >= 0:
            played = self._played
            played[drawn] = played.get(drawn, 0) | 1 << choice
            played[choice] = played.get(choice, 0) | 1 << drawn
        self._before_draw = None
        knock = ACTIONS[KNOCK_BASE + choice]
        if best <= view.knock_limit and knock in view.legal_actions:
            return knock
        return ACTIONS[DISCARD_BASE + choice]

    @staticmethod
    def _least_discards_one_by_one(mask: int, allowed: int, barred: int) -> tuple[int, list[int]]:
        """The least deadwood and the cards leaving it, each discard solved on its own."""
        indexes = [i for i in range(52) if allowed >> i & 1]
        candidates = [i for i in indexes if not barred >> i & 1] or indexes
        left = {i: deadwood_of_mask(mask & ~(1 << i)) for i in candidates}
        best = min(left.values())
        return best, [i for i in candidates if left[i] == best]

    def explain(self, view: HandView, sheet: ScoreSheet | None = None) -> Hint:
        action = self.choose(view, sheet)
        # Translators: hint reasons (the terminal game's h key), shown after the action.
        if isinstance(action, Knock):
            return Hint(action, Reason.of(N_("knock as soon as the deadwood allows")))
        if isinstance(action, Discard):
            return Hint(action, Reason.of(N_("it leaves the least deadwood")))
        if isinstance(action, TakeUpcard | TakeDiscard):
            return Hint(action, Reason.of(N_("the card makes a meld")))
        return Hint(action, Reason.of(N_("the card makes no meld")))
