"""Baiting a watcher: an opponent who reads my throws (as ``greedy`` and the expert do)
takes each card I throw as a sign that I hold none of its neighbours, and then feeds me
those neighbours more readily.  A discard that lowers his fear of the cards my hand waits
for is worth something beyond its own deadwood (issue 14)."""

from __future__ import annotations

from ..cards import indexes_of_mask
from ..hand import HandView
from ..solve import meld_gains_of_mask
from .cardsense import CardSense, danger, nudged_odds
from .greedy import Plan

__all__ = ["baited", "his_read", "lure"]


def his_read(sense: CardSense, known: int, thrown: int = 0) -> list[float]:
    """The chance he puts on my holding each card, read the way :func:`.cardsense.read_view`
    reads a player (my picks, passes and throws, plus ``thrown``): he cannot see my hand
    bar ``known`` (cards he saw me take) nor the unseen cards he does not hold himself."""
    mine = sense.mine & ~thrown
    hidden = mine & ~known
    base = [0.0] * 52
    for i in indexes_of_mask(hidden):
        base[i] = 1.0
    for i in indexes_of_mask(sense.unseen & ~sense.opp_known):
        base[i] = 1.0 - sense.weight[i]
    # Every card he saw me take counts, the first upcard too (read_view resolves that
    # only for the opponent's picks).
    odds = nudged_odds(base, sense.my_taken | known & mine, sense.my_refused,
                       sense.my_thrown | thrown, hidden.bit_count())
    for i in indexes_of_mask(known & mine):
        odds[i] = 1.0
    return odds


def lure(sense: CardSense, probs: list[float], known: int, allowed: list[int]
         ) -> dict[int, float]:
    """For each discard, how much it lowers his fear of the cards my hand would then wait
    for: over each such card, the chance he holds it times the deadwood it would soak up
    times the fall in his danger of it (:func:`.cardsense.danger` on :func:`his_read`)."""
    before = his_read(sense, known)
    live = sense.unseen & ~sense.opp_known
    out: dict[int, float] = {}
    for x in allowed:
        rest = sense.mine & ~(1 << x)
        after = his_read(sense, known, 1 << x)
        total = 0.0
        for u, gain in meld_gains_of_mask(rest, live):
            held = probs[u]
            if held > 0.0:
                total += held * gain * (danger(sense, u, before) - danger(sense, u, after))
        out[x] = total
    return out


def baited(plans: list[Plan], sense: CardSense, probs: list[float], view: HandView,
           weight: float) -> list[Plan]:
    """The discard heuristic's plans with each cost lowered by ``weight`` times its
    :func:`lure`, best first again."""
    known = sum(c.bit for c in view.known_to_opponent)
    lures = lure(sense, probs, known, [p.card for p in plans])
    out = [Plan(p.card, p.deadwood, p.cost - weight * lures[p.card], p.danger) for p in plans]
    out.sort(key=lambda p: (p.cost, p.deadwood, p.card))
    return out
