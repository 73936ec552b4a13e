"""Determinized Monte Carlo for the expert: re-deal what a player cannot see, consistently
with the opponent model, and play each deal out with a fast policy.

Determinizations start from :meth:`Hand.sample_from_view`; the opponent's unknown
cards are then re-drawn by weight (his picks, passes and discards, see
:mod:`.cardsense`) and nudged by a few Metropolis steps toward hands as melded as
a player's usually is after that many draws, because a uniform re-deal gives the
opponent hands far weaker than real ones and makes every knock look safe.
The playouts run on bare masks, not on :class:`Hand`, for speed; they follow the
rules of the view (knock limit, R4.3, dead hand, bonuses).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..cards import indexes_of_mask
from ..hand import Hand, HandView
from ..melds import (
    arrangement_of_mask,
    deadwood_of_mask,
    defender_layout_of_masks,
    least_deadwood_discard_of_mask,
)
from .cardsense import CardSense, in_some_meld

__all__ = ["Deal", "Playout", "sample_deals"]

OFFER, DRAW, DISCARD = 0, 1, 2
_FLOOR_PENALTY = 1.5  # energy per point of deadwood under the no-knock floor


@dataclass(slots=True)
class Deal:
    """One determinization: the opponent's whole hand and the stock order (top last)."""

    opp: int
    stock: list[int]


def meld_pressure(opp_draws: int, base: float, slope: float) -> float:
    """The Metropolis strength pulling sampled opponent hands toward low deadwood."""
    return base + slope * opp_draws


def sample_deals(
    view: HandView,
    sense: CardSense,
    rng: random.Random,
    count: int,
    *,
    pressure: float,
    steps: int,
    floor: int = -1,
) -> list[Deal]:
    """``count`` determinizations of ``view`` drawn from the opponent model.

    ``floor``: the opponent, who could have knocked at his last discard and did not,
    is held to have more deadwood than this (-1: no such evidence).
    """
    template = Hand.sample_from_view(view, rng)  # the consistent skeleton of every deal
    live = sense.unseen & ~sense.opp_known
    live_cards = indexes_of_mask(live)
    weights = [max(1e-6, sense.weight[i]) for i in live_cards]
    need = view.opponent_card_count - len(view.opponent_known)
    known = sense.opp_known
    deals = []
    stock_size = len(template.stock)
    assert stock_size + need == len(live_cards)
    for _ in range(count):
        # Weighted sampling without replacement (exponential keys), then Metropolis swaps.
        keys = [math.log(rng.random() + 1e-300) / w for w in weights]
        keyed = sorted(range(len(live_cards)), key=keys.__getitem__, reverse=True)
        chosen = keyed[:need]
        rest = keyed[need:]
        hand = known
        for k in chosen:
            hand |= 1 << live_cards[k]
        if need and rest and (pressure > 0 or floor >= 0):
            dead = deadwood_of_mask(hand)
            energy = pressure * dead + _FLOOR_PENALTY * max(0, floor + 1 - dead)
            for _ in range(steps):
                a = rng.randrange(need)
                b = rng.randrange(len(rest))
                ca, cb = live_cards[chosen[a]], live_cards[rest[b]]
                trial = hand ^ (1 << ca) ^ (1 << cb)
                tdead = deadwood_of_mask(trial)
                tenergy = pressure * tdead + _FLOOR_PENALTY * max(0, floor + 1 - tdead)
                ratio = weights[rest[b]] / weights[chosen[a]]
                if (tenergy <= energy and ratio >= 1) or rng.random() < ratio * math.exp(
                    energy - tenergy
                ):
                    hand, dead, energy = trial, tdead, tenergy
                    chosen[a], rest[b] = rest[b], chosen[a]
        stock = [live_cards[k] for k in rest]
        rng.shuffle(stock)
        deals.append(Deal(hand, stock))
    return deals


@dataclass(slots=True)
class PlayoutRules:
    """The rule options a playout needs, read once per decision."""

    limit: int
    discard_taken: bool
    dead_stock: int
    gin_bonus: int
    undercut_bonus: int
    early: tuple[int, int]  # knock schedule by seat: opponent draws before it tightens,
    slope: tuple[float, float]  # points of limit per draw after that,
    floor: tuple[int, int]  # and the lowest it goes


class Playout:
    """Plays a determinized hand to its end with a fast, sensible policy for both seats.

    The policy: take the upcard only if it melds and lowers the deadwood; discard the
    card leaving the least deadwood (the higher card on ties); knock with gin always,
    otherwise when the count is within a limit that tightens as the opponent draws.
    """

    __slots__ = ("r",)

    def __init__(self, r: PlayoutRules) -> None:
        self.r = r

    def best_discard(self, mask: int, taken: int) -> tuple[int, int]:
        """(card, deadwood left) of the least-deadwood discard, higher card on ties."""
        allowed = mask
        if taken >= 0 and not self.r.discard_taken:
            allowed &= ~(1 << taken)
        return least_deadwood_discard_of_mask(mask, allowed)

    def take_plan(self, mask: int, card: int, now: int) -> tuple[int, int] | None:
        """The discard after taking ``card`` from the pile, and the deadwood it leaves, if
        the card is worth taking: only if it melds and that discard leaves less than the
        ``now`` deadwood of the hand (-1: not known yet); None otherwise."""
        if not in_some_meld(mask, card):
            return None
        plan = self.best_discard(mask | (1 << card), card)
        if now < 0:
            now = deadwood_of_mask(mask)
        return plan if plan[1] < now else None

    def knock_limit_for(self, seat: int, opp_draws: int) -> float:
        r = self.r
        late = max(0, opp_draws - r.early[seat])
        return max(min(float(r.floor[seat]), float(r.limit)), r.limit - r.slope[seat] * late)

    def score(self, knocker: int, kmask: int, dmask: int) -> tuple[int, int]:
        """(winner, points) of a knock (R5.5–R5.7)."""
        k = deadwood_of_mask(kmask)
        if k == 0:
            return knocker, self.r.gin_bonus + deadwood_of_mask(dmask)
        melds = arrangement_of_mask(kmask)
        d, _ = defender_layout_of_masks(melds, kmask, dmask)
        if k < d:
            return knocker, d - k
        return 1 - knocker, self.r.undercut_bonus + k - d

    def run(
        self,
        hands: list[int],
        stock: list[int],
        pile: list[int],
        to_act: int,
        phase: int,
        taken: int,
        passes: int,
        refused: bool,
        draws: list[int],
    ) -> tuple[int | None, int]:
        """Play on from the given state (lists are changed); (winner or None, points)."""
        r = self.r
        deads = [-1, -1]  # each hand's deadwood after its last discard (-1: not known)
        plan: tuple[int, int] | None = None  # the discard planned when the upcard was taken
        while True:
            p = to_act
            mask = hands[p]
            if phase == DISCARD:
                card, dead = plan if plan is not None else self.best_discard(mask, taken)
                plan = None
                if dead <= r.limit and (dead == 0 or dead <= self.knock_limit_for(p, draws[1 - p])):
                    return self.score(p, mask & ~(1 << card), hands[1 - p])
                hands[p] = mask & ~(1 << card)
                deads[p] = dead
                pile.append(card)
                taken = -1
                if len(stock) <= r.dead_stock:
                    return None, 0
                to_act = 1 - p
                phase = DRAW
            elif phase == DRAW:
                draws[p] += 1
                if not refused and pile:
                    plan = self.take_plan(mask, pile[-1], deads[p])
                if plan is not None:
                    taken = pile.pop()
                    hands[p] = mask | (1 << taken)
                else:
                    hands[p] = mask | (1 << stock.pop())
                    taken = -1
                refused = False
                phase = DISCARD
            else:  # the opening offer (R4.1)
                plan = self.take_plan(mask, pile[-1], -1)
                if plan is not None:
                    draws[p] += 1
                    taken = pile.pop()
                    hands[p] = mask | (1 << taken)
                    phase = DISCARD
                else:
                    passes += 1
                    if passes == 1:
                        to_act = 1 - p
                    else:
                        # Both passed: the non-dealer draws from the stock (R4.1), and
                        # that is the player who was offered the card first.
                        to_act = 1 - p
                        phase = DRAW
                        refused = True
