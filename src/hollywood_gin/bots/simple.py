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

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import CARDS
from ..hand import HandView, Phase
from ..i18n import N_
from ..melds import deadwood_of_mask
from ..sheet import ScoreSheet
from .base import Bot, Hint, Reason, only_choice
from .cardsense import in_some_meld

__all__ = ["BasicBot", "RandomBot"]


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
        self._pairs: set[frozenset[int]] = set()  # (drawn, discarded) pairs played this hand

    def _follow(self, view: HandView) -> None:
        """Notice a new hand: the stock never grows and the log only grows within a hand."""
        history = view.history
        n = len(self._history)
        if view.stock_count > self._stock or history[:n] != self._history:
            self._pairs = set()
            self._before_draw = None
        self._history = history
        self._stock = view.stock_count

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        self._follow(view)
        forced = only_choice(view)
        legal = view.legal_actions
        if view.phase is Phase.OFFER or view.phase is Phase.DRAW:
            self._before_draw = view.hand_mask
            if forced is not None:
                return forced
            upcard = view.upcard
            wants = upcard is not None and in_some_meld(view.hand_mask, upcard.index)
            if view.phase is Phase.OFFER:
                return TakeUpcard() if wants else Pass()
            return TakeDiscard() if wants and TakeDiscard() in legal else DrawStock()
        return self._discard(view)

    def _discard(self, view: HandView) -> Action:
        mask = view.hand_mask
        taken = view.taken_card.index if view.taken_card is not None else -1
        drawn = -1
        if self._before_draw is not None:
            new = mask & ~self._before_draw
            if new.bit_count() == 1:
                drawn = new.bit_length() - 1
        allowed = {a.card.index for a in view.legal_actions if isinstance(a, Discard)}
        best = 10**9
        candidates: list[int] = []
        for i in sorted(allowed):
            if i == taken:  # never the face-up card just taken (even where the rules allow it)
                continue
            if drawn >= 0 and frozenset((drawn, i)) in self._pairs:
                continue
            dead = deadwood_of_mask(mask & ~(1 << i))
            if dead < best:
                best, candidates = dead, [i]
            elif dead == best:
                candidates.append(i)
        if not candidates:  # every card excluded: fall back to the least deadwood overall
            candidates = sorted(allowed)
            best = min(deadwood_of_mask(mask & ~(1 << i)) for i in candidates)
            candidates = [i for i in candidates if deadwood_of_mask(mask & ~(1 << i)) == best]
        choice = self.rng.choice(candidates)
        if drawn >= 0:
            self._pairs.add(frozenset((drawn, choice)))
        self._before_draw = None
        card = CARDS[choice]
        knock = Knock(card)
        if best <= view.knock_limit and knock in view.legal_actions:
            return knock
        return Discard(card)

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
