"""A hand-strength evaluator for the expert's discards (issue 14).

The greedy heuristic prices a discard by the deadwood it leaves less a crude sum of what
one live card could soak up.  Here a discard is priced by a short expectimax over my own
next draws: for each card the stock could bring (weighted by how likely it is still in
the stock, from the opponent model, so a card he holds or the pile has buried counts for
nothing), the best discard after it, and so on for one or two draws; the leaves are
scored by what the hand is worth when it stops, its deadwood less a bonus for a count I
could knock with (R5.1) and more for gin (R2.5).  Each step the hand may end before my
next draw (he knocks), with a chance that grows as his draws go on, so late in a hand
the deadwood now is what counts and early its chances do.  The danger of the discard
(the chance he melds it) is added as the greedy heuristic does.

It is the winning idea of the EAAI-21 challenge (MARJJ's hand-strength estimator for
discards, from own cards, known opponent cards, the pile and the stage of the hand),
built on the fast mask solver so that a decision stays within milliseconds.  It is off by
default (``discard_eval=0``): on every screen it played no better than the greedy
heuristic's discards (docs/bots.md has the figures).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import indexes_of_mask
from ..solve import deadwood_of_mask, least_discards_of_mask
from .cardsense import POINTS, RELATED, CardSense, danger
from .greedy import Plan

__all__ = ["HandValue", "HandValueSettings", "rank_discards"]


@dataclass(frozen=True, slots=True)
class HandValueSettings:
    """The evaluator's weights (in deadwood points, like the greedy heuristic's)."""

    depth: int = 2  # my draws looked ahead (0: the deadwood now, 1 or 2)
    knock_bonus: float = 10.0  # worth of a hand I could knock with, over its deadwood
    gin_bonus: float = 20.0  # and of a gin hand, over that
    danger: float = 6.0  # cost of a discard the opponent surely melds
    hazard: float = 0.05  # chance the hand ends before my next draw ...
    hazard_slope: float = 0.02  # ... growing by this with each of his draws
    width: int = 4  # discards looked at two draws deep (the best by one draw)
    inner: int = 2  # second discards tried, of those leaving the least deadwood
    pile: float = 0.0  # weight of taking his next discard when it beats a blind draw
    reach: float = 1.0  # the draws' gain is counted this many times (more draws will come)


class HandValue:
    """The worth of 10-card hands for one position (the cards I may draw and the stage
    of the hand are fixed; values of hands are cached, the same hands recur)."""

    def __init__(self, sense: CardSense, probs: list[float], limit: int, dead_stock: int,
                 s: HandValueSettings) -> None:
        self.s = s
        self.limit = limit
        # The draws: each unseen card not known in his hand, by its chance to be drawn.
        live = sense.unseen & ~sense.opp_known
        raw = [(u, 1.0 - probs[u]) for u in indexes_of_mask(live)]
        total = sum(w for _, w in raw)
        self.draws = [(u, 1 << u, POINTS[u], w / total) for u, w in raw if w > 0] if total > 0 \
            else []
        self.live = 0
        self.q = [0.0] * 52
        self.q_points = [0.0] * 11  # the chance of drawing a card worth so many points
        for u, bit, points, q in self.draws:
            self.live |= bit
            self.q[u] = q
            self.q_points[points] += q
        # His next discard, as a card of his hand I do not know (by the opponent model).
        held = sum(probs[u] for u in indexes_of_mask(self.live))
        self.pile = s.pile if held > 0 else 0.0
        self.h = [probs[u] / held if held > 0 and self.live >> u & 1 else 0.0
                  for u in range(52)]
        self.h_points = [0.0] * 11
        for u in indexes_of_mask(self.live):
            self.h_points[POINTS[u]] += self.h[u]
        hazard = min(1.0, max(0.0, s.hazard + s.hazard_slope * sense.opp_draws))
        self.go_on = 1.0 - hazard  # the chance I draw again before the hand ends
        # My draws left before the stock runs down to the dead hand (R6.1): he draws
        # first, then I do.
        mine_left = max(0, (sense.stock - dead_stock) // 2)
        self.depth = min(s.depth, mine_left) if self.draws else 0
        self.leaf = [self._leaf(d) for d in range(200)]
        self._v1: dict[int, float] = {}
        self._least: dict[int, int] = {}

    def _leaf(self, dead: int) -> float:
        """What a hand with ``dead`` deadwood is worth when play stops (lower is better)."""
        value = float(dead)
        if dead <= self.limit:
            value -= self.s.knock_bonus
        if dead == 0:
            value -= self.s.gin_bonus
        return value

    def value(self, hand: int, depth: int) -> float:
        """The expected leaf value of the 10-card ``hand`` after ``depth`` more draws."""
        if depth <= 0:
            return self.leaf[deadwood_of_mask(hand)]
        if depth == 1:
            return self.one_draw(hand)
        return self.two_draws(hand)

    def one_draw(self, hand: int) -> float:
        """Expected value after one draw and the least-deadwood discard that follows."""
        cached = self._v1.get(hand)
        if cached is not None:
            return cached
        leaf = self.leaf
        q = self.q
        least = self._least  # the same 11 cards recur: H + u - d + v is H + v - d + u
        dead = deadwood_of_mask(hand)
        near = 0
        for i in indexes_of_mask(hand):
            near |= RELATED[i]
        acc = 0.0
        # Cards related to the hand: solved one by one.
        unrelated = self.q_points[:]
        took: list[tuple[int, float]] = []
        rel = near & self.live
        while rel:
            bit = rel & -rel
            rel ^= bit
            u = bit.bit_length() - 1
            m = hand | bit
            best = least.get(m)
            if best is None:
                best = least[m] = least_discards_of_mask(m, m)[0]
            acc += q[u] * leaf[best]
            unrelated[POINTS[u]] -= q[u]
            took.append((u, leaf[best]))
        # A drawn card that melds with nothing is kept only in place of the card whose
        # going leaves the least deadwood (``least9``), so only its points matter.
        least9 = least_discards_of_mask(hand, hand)[0]
        by_points = [leaf[min(dead, least9 + points)] for points in range(11)]
        for points in range(1, 11):
            w = unrelated[points]
            if w > 1e-12:
                acc += w * by_points[points]
        if self.pile:
            acc = self._with_pile(acc, took, by_points)
        out = (1.0 - self.go_on) * leaf[dead] + self.go_on * acc
        self._v1[hand] = out
        return out

    def _with_pile(self, blind: float, took: list[tuple[int, float]],
                   by_points: list[float]) -> float:
        """The draw's worth when his discard (a card of his hand) is taken whenever it
        beats the blind draw's ``blind``: ``took`` holds the worth of taking each related
        card, ``by_points`` that of an unrelated card by its points."""
        h = self.h
        unrelated = self.h_points[:]
        pile = 0.0
        for u, v in took:
            pile += h[u] * (v if v < blind else blind)
            unrelated[POINTS[u]] -= h[u]
        for points in range(1, 11):
            w = unrelated[points]
            if w > 1e-12:
                v = by_points[points]
                pile += w * (v if v < blind else blind)
        return (1.0 - self.pile) * blind + self.pile * pile

    def _likely_drops(self, at: int, count: int) -> list[int]:
        """Up to ``count`` cards of ``at`` (discards that leave the same least deadwood),
        those with the least chance of a related draw first."""
        cards = indexes_of_mask(at)
        if len(cards) <= count:
            return cards
        q = self.q
        live = self.live

        def chances(i: int) -> float:
            rel = RELATED[i] & live
            total = 0.0
            while rel:
                bit = rel & -rel
                rel ^= bit
                total += q[bit.bit_length() - 1]
            return total

        return sorted(cards, key=lambda i: (chances(i), i))[:count]

    def two_draws(self, hand: int) -> float:
        """Expected value after two draws; after the first, the best (by its one-draw
        value, or knocking now) of up to ``inner`` discards leaving the least deadwood."""
        leaf = self.leaf
        dead = deadwood_of_mask(hand)
        near = 0
        for i in indexes_of_mask(hand):
            near |= RELATED[i]
        least9 = least_discards_of_mask(hand, hand)[0]
        stay = self.one_draw(hand)
        limit = self.limit
        inner = self.s.inner
        acc = 0.0
        took: list[tuple[int, float]] = []
        for u, bit, points, q in self.draws:
            if bit & near:
                m = hand | bit
                best, at = least_discards_of_mask(m, m)
                if at == bit:
                    v = stay  # the drawn card goes straight back
                else:
                    v = 1e9
                    for i in self._likely_drops(at, inner):
                        w = self.one_draw(m & ~(1 << i))
                        if w < v:
                            v = w
                    if best <= limit and leaf[best] < v:
                        v = leaf[best]  # knocking (or gin) now beats playing on
            elif least9 + points < dead:
                # An unrelated lower card replaces the card that goes most cheaply; its
                # own chances are not looked at (the hand's stay as they were).
                d = least9 + points
                v = stay - (dead - d)
                if d <= limit and leaf[d] < v:
                    v = leaf[d]
            else:
                v = stay
            acc += q * v
            took.append((u, v))
        if self.pile:
            acc = self._with_pile(acc, took, [0.0] * 11)  # every card is in ``took``
        return (1.0 - self.go_on) * leaf[dead] + self.go_on * acc


def rank_discards(
    mask: int,
    allowed: list[int],
    sense: CardSense,
    probs: list[float],
    limit: int,
    dead_stock: int,
    s: HandValueSettings,
) -> list[Plan]:
    """Every allowed discard from the 11-card ``mask`` as a :class:`Plan` whose cost is the
    evaluator's (expected leaf value plus danger), best first; the ``width`` best by one
    draw are looked at two draws deep when ``depth`` is 2."""
    hv = HandValue(sense, probs, limit, dead_stock, s)
    first = min(hv.depth, 1)
    leaf = hv.leaf

    def worth(rest: int, dead: int, depth: int) -> float:
        """The look-ahead's value, its gain over stopping now counted ``reach`` times."""
        now = leaf[dead]
        return now + s.reach * (hv.value(rest, depth) - now)

    plans: list[Plan] = []
    for i in allowed:
        rest = mask & ~(1 << i)
        dead = deadwood_of_mask(rest)
        d = danger(sense, i, probs) if s.danger else 0.0
        plans.append(Plan(i, dead, worth(rest, dead, first) + s.danger * d, d))
    plans.sort(key=lambda p: (p.cost, p.deadwood, p.card))
    if hv.depth >= 2 and s.width > 0:
        deep = [
            Plan(p.card, p.deadwood,
                 worth(mask & ~(1 << p.card), p.deadwood, 2) + s.danger * p.danger, p.danger)
            for p in plans[: s.width]
        ]
        deep.sort(key=lambda p: (p.cost, p.deadwood, p.card))
        # The deep values are on another scale from the shallow ones: the deep ones lead.
        plans = deep + plans[s.width:]
    return plans
