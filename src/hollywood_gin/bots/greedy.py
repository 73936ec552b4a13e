"""``greedy``: a fast heuristic player that watches the opponent.

It keeps cards with live chances of melding, throws the cards the opponent is
unlikely to use (judged from what he took, refused and threw), takes the
upcard when that beats a blind draw, and knocks with judgement: early with
anything the rules allow, later only with a count low enough not to fear an
undercut, and not at all while a gin is cheap to reach.  Well under a
millisecond a decision: it is also the expert's rollout policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import CARDS, indexes_of_mask
from ..hand import HandView, Phase
from ..i18n import N_, N_plural
from ..melds import deadwood_of_mask, meld_gains_of_mask
from ..sheet import ScoreSheet
from .base import GIN, ONLY_LEGAL, Bot, Hint, Reason, only_choice, settings_with
from .cardsense import CardSense, danger, read_view
from .opponent import KnockStyle

__all__ = ["GreedyBot", "GreedySettings", "Plan", "plan_discard"]


#: What each greedy setting may be set to from a bot spec.
GREEDY_LIMITS: dict[str, tuple[float, float]] = {
    "potential": (0, 10), "danger": (0, 100), "take_margin": (-20, 20),
    "knock_early": (0, 60), "knock_slope": (0, 10), "knock_floor": (0, 10),
    "gin_hunt": (0, 10), "gin_hunt_stock": (0, 52),
}


@dataclass(frozen=True, slots=True)
class GreedySettings:
    """The knobs of the greedy heuristic (tuned against ``basic`` on the ``eaai`` rules)."""

    potential: float = 0.2  # weight of the deadwood live cards could soak up
    danger: float = 6.0  # cost, in deadwood points, of a discard the opponent surely wants
    take_margin: float = 1.0  # how much better than a blind draw the upcard must look
    knock_early: int = 4  # opponent draws before the knock limit starts to tighten
    knock_slope: float = 0.8  # points of knock limit lost per opponent draw after that
    knock_floor: int = 2  # never demand a lower count than this to knock
    gin_hunt: int = 2  # with this much deadwood or less, early, play on for gin
    gin_hunt_stock: int = 20  # ... while at least this many cards remain in the stock

    @classmethod
    def from_overrides(cls, values: dict[str, float], spec: str) -> GreedySettings:
        """These settings with some fields changed by name (from a bot spec)."""
        return settings_with(cls(), values, spec, GREEDY_LIMITS)

    @property
    def knock_style(self) -> KnockStyle:
        """The knock schedule and gin hunt of these settings."""
        return KnockStyle(self.knock_early, self.knock_slope, self.knock_floor,
                          gin_hunt=self.gin_hunt, gin_hunt_stock=self.gin_hunt_stock,
                          name="greedy")


@dataclass(frozen=True, slots=True)
class Plan:
    """A scored discard: the card, the deadwood it leaves and the heuristic cost."""

    card: int
    deadwood: int
    cost: float
    danger: float


def _potential(rest: int, live: int, p_live: list[float]) -> float:
    """Deadwood that the live cards could soak up, weighted by their chance to be live."""
    total = 0.0
    for u, gain in meld_gains_of_mask(rest, live):
        total += p_live[u] * gain
    return total


def plan_discard(
    mask: int,
    allowed: list[int],
    sense: CardSense,
    probs: list[float],
    s: GreedySettings,
) -> list[Plan]:
    """Every allowed discard from the 11-card ``mask`` with its cost, best first."""
    live = sense.unseen & ~sense.opp_known
    p_live = [1.0 - p for p in probs]
    draws_left = max(1.0, min(sense.stock / 2.0, 10.0))
    scale = s.potential * draws_left / max(1.0, float(sense.stock))
    plans = []
    for i in allowed:
        rest = mask & ~(1 << i)
        dead = deadwood_of_mask(rest)
        pot = _potential(rest, live, p_live) if scale else 0.0
        d = danger(sense, i, probs) if s.danger else 0.0
        cost = dead - scale * pot + s.danger * d
        plans.append(Plan(i, dead, cost, d))
    plans.sort(key=lambda p: (p.cost, p.deadwood, p.card))
    return plans


def knock_threshold(sense: CardSense, limit: int, s: GreedySettings) -> float:
    """The highest count worth knocking with now: the limit early, less as the hand ages."""
    return s.knock_style.threshold(limit, sense.opp_draws)


class GreedyBot(Bot):
    """The greedy heuristic player (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, *, settings: GreedySettings | None = None) -> None:
        super().__init__(seed)
        self.settings = settings or GreedySettings()
        self._last_reason = Reason.of(ONLY_LEGAL)

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        forced = only_choice(view)
        if forced is not None:
            self._last_reason = Reason.of(ONLY_LEGAL)
            return forced
        sense = read_view(view)
        probs = sense.opp_probs()
        if view.phase is Phase.DISCARD:
            return self._discard(view, sense, probs)
        return self._draw(view, sense, probs)

    # -- drawing --------------------------------------------------------------------------

    def _draw(self, view: HandView, sense: CardSense, probs: list[float]) -> Action:
        s = self.settings
        upcard = view.upcard
        assert upcard is not None
        mask = view.hand_mask
        x = upcard.index
        with_x = mask | (1 << x)
        allowed = [i for i in indexes_of_mask(mask)]  # the taken card may not be thrown back (R4.3)
        if view.rules.discard_taken_card:
            allowed.append(x)
        plans = plan_discard(with_x, allowed, sense, probs, s)
        take = plans[0]
        now = deadwood_of_mask(mask)
        # A blind draw keeps this hand plus one random card: its cost is the hand's cost
        # now less the average worth of one draw (its share of the potential).
        live = sense.unseen & ~sense.opp_known
        p_live = [1.0 - p for p in probs]
        pot = _potential(mask, live, p_live)
        stock = max(1.0, float(sense.stock))
        scale = s.potential * max(1.0, min(sense.stock / 2.0, 10.0)) / stock
        blind = now - scale * pot - pot / stock
        can_knock_now = take.deadwood <= view.knock_limit < now
        wants = take.card != x and (can_knock_now or take.cost + s.take_margin < blind)
        # Translators: hint reasons (the terminal game's h key), shown after the action they
        # explain; {card} is the upcard, like 7♥.
        if view.phase is Phase.OFFER:
            self._last_reason = (
                Reason.of(N_("{card} makes a meld"), card=upcard) if wants
                else Reason.of(N_("{card} is of no use to this hand"), card=upcard)
            )
            return TakeUpcard() if wants else Pass()
        if wants and TakeDiscard() in view.legal_actions:
            self._last_reason = Reason.of(N_("{card} makes a meld and lowers the deadwood"),
                                          card=upcard)
            return TakeDiscard()
        self._last_reason = Reason.of(N_("{card} does not help enough"), card=upcard)
        return DrawStock()

    # -- discarding and knocking ----------------------------------------------------------

    def _discard(self, view: HandView, sense: CardSense, probs: list[float]) -> Action:
        s = self.settings
        mask = view.hand_mask
        legal = view.legal_actions
        allowed = [a.card.index for a in legal if isinstance(a, Discard)]
        knockable = {a.card.index for a in legal if isinstance(a, Knock) and a.card is not None}
        plans = plan_discard(mask, allowed, sense, probs, s)
        if knockable:
            knock_plans = [p for p in plans if p.card in knockable]
            best_knock = min(knock_plans, key=lambda p: (p.deadwood, p.cost, p.card))
            if best_knock.deadwood == 0:
                self._last_reason = Reason.of(GIN)
                return Knock(CARDS[best_knock.card])
            if self.should_knock(view, sense, best_knock.deadwood):
                # Translators: a hint's reason for a knock: {deadwood} is what the knocker
                # keeps, {n} how many cards the opponent has drawn this hand.
                self._last_reason = Reason.of(N_plural(
                    "knock with {deadwood}: the opponent has had {n} draw, an undercut is "
                    "unlikely",
                    "knock with {deadwood}: the opponent has had {n} draws, an undercut is "
                    "unlikely"), deadwood=best_knock.deadwood, n=sense.opp_draws)
                return Knock(CARDS[best_knock.card])
        best = plans[0]
        card = CARDS[best.card]
        highest = best.deadwood == min(p.deadwood for p in plans)
        # Translators: hint reasons for a discard (the action is named before them).
        if best.danger < 0.1:
            self._last_reason = Reason.of(
                N_("the highest deadwood card, and the opponent is unlikely to want it")
                if highest else
                N_("it keeps the hand's live chances, and the opponent is unlikely to want it"))
        else:
            self._last_reason = Reason.of(N_("the highest deadwood card") if highest
                                          else N_("it keeps the hand's live chances"))
        return Discard(card)

    def should_knock(self, view: HandView, sense: CardSense, dead: int) -> bool:
        """Knock with ``dead`` deadwood now, or play on?"""
        style = self.settings.knock_style
        if style.hunts_gin(dead, sense.opp_draws, sense.stock):
            return False
        return dead <= style.threshold(view.knock_limit, sense.opp_draws)

    def explain(self, view: HandView, sheet: ScoreSheet | None = None) -> Hint:
        action = self.choose(view, sheet)
        return Hint(action, self._last_reason)

    def explain_last(self) -> Reason:
        """Why the last :meth:`choose` chose as it did."""
        return self._last_reason
