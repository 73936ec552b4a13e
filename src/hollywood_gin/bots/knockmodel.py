"""A learned knock rule for the expert (issue 14, ``knock_model=1``).

The expert's search prices a knock on re-dealt opponent hands, and late in a hand its
re-deals are too weak (docs/bots.md), so its knocks there run into undercuts.  This
rule is fitted instead on TRUE positions (``benchmarks/knock_model.py``): for each
position where a player could knock, the exact result of the knock against the
opponent's real hand, less the mean result of playing on (the heuristic's discard,
then both sides continuing on reshuffled stocks).  A linear model of that difference
on what the knocker can see says whether to knock.

Only the view is read (through :class:`~.cardsense.CardSense`): my cards, the pile,
what he took, passed and threw, the counts; never his hand or the stock order.
The coefficients live in ``knock_model.json`` beside this module, written by the
training script with the seed it was run with.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..cards import indexes_of_mask
from ..melds import (
    arrangement_of_mask,
    deadwood_of_mask,
    defender_layout_of_masks,
    least_deadwood_discard_of_mask,
)
from .cardsense import POINTS, RELATED, CardSense
from .shipped import read_shipped, same_inputs, vector

__all__ = ["FEATURES", "KnockModel", "knock_features", "load_model"]

#: The shipped model's file, beside this module.
FILE = "knock_model.json"

#: The names of the features, in the order of :func:`knock_features`.
FEATURES: tuple[str, ...] = (
    "bias",
    "dead",  # the deadwood I would knock with
    "dead_sq",  # ... squared, over 10
    "opp_draws",  # his draws this hand
    "dead_x_draws",  # dead times his draws, over 10
    "stock",  # cards left in the stock
    "known",  # cards he took from the pile and still holds
    "known_dead",  # their deadwood among themselves
    "known_near_mine",  # his known cards related to my knock hand (lay-offs, blocks)
    "gin_outs",  # unseen cards likely in the stock that would give me gin
    "lower_outs",  # ... that would lower my count
    "low_unseen",  # unseen cards worth less than my count (his undercut material), over 10
    "cautious",  # the opponent model's weight of the cautious knock style
    "cautious_x_dead",
    "cautious_x_draws",
    "opp_thrown_high",  # high cards (9 to K) he threw, a sign his count is falling
    "sampled_knock",  # mean points of the knock on the opponent model's re-dealt hands, /10
    "sampled_undercut",  # ... and the share of them that undercut it
)


def knock_features(
    sense: CardSense,
    probs: list[float],
    keep: int,
    cautious: float,
    opp_hands: list[int],
    undercut_bonus: int,
) -> list[float]:
    """The features of knocking with the ten cards ``keep`` (a mask), from the view only;
    ``opp_hands`` are opponent hands re-dealt from the view by the expert's sampler."""
    dead = deadwood_of_mask(keep)
    melds = arrangement_of_mask(keep)
    total = 0
    undercuts = 0
    for opp in opp_hands:
        d, _ = defender_layout_of_masks(melds, keep, opp)
        if dead < d:
            total += d - dead
        else:
            total -= undercut_bonus + dead - d
            undercuts += 1
    n = max(1, len(opp_hands))
    draws = sense.opp_draws
    known = sense.opp_known
    live = sense.unseen & ~known
    gin_outs = 0.0
    lower_outs = 0.0
    for u in indexes_of_mask(live):
        p_stock = 1.0 - probs[u]
        if not RELATED[u] & keep:
            continue
        _, left = least_deadwood_discard_of_mask(keep | 1 << u, keep | 1 << u)
        if left == 0:
            gin_outs += p_stock
        if left < dead:
            lower_outs += p_stock
    near = 0
    for i in indexes_of_mask(keep):
        near |= RELATED[i]
    low_unseen = sum(1 for u in indexes_of_mask(sense.unseen) if POINTS[u] < dead)
    high = sum(1 for i in indexes_of_mask(sense.opp_discards) if i % 13 >= 8)
    return [
        1.0,
        float(dead),
        dead * dead / 10.0,
        float(draws),
        dead * draws / 10.0,
        float(sense.stock),
        float(known.bit_count()),
        float(deadwood_of_mask(known)) / 10.0,
        float((known & near).bit_count()),
        gin_outs,
        lower_outs,
        low_unseen / 10.0,
        cautious,
        cautious * dead,
        cautious * draws,
        float(high),
        total / n / 10.0,
        undercuts / n,
    ]


@dataclass(frozen=True, slots=True)
class KnockModel:
    """Predicted points of knocking now over playing on: a linear model of the features."""

    coef: tuple[float, ...]
    threshold: float = 0.0  # knock when the prediction is above this

    def gain(self, features: list[float]) -> float:
        return sum(c * x for c, x in zip(self.coef, features, strict=True))

    def knocks(self, features: list[float], margin: float = 0.0) -> bool:
        """Knock if the predicted gain is above the threshold (raised by ``margin``)."""
        return self.gain(features) > self.threshold + margin


@cache
def load_model() -> KnockModel:
    """The shipped model (``knock_model.json``), checked against :data:`FEATURES`."""
    data = read_shipped(FILE)
    same_inputs(FILE, tuple(data["features"]), FEATURES)
    return KnockModel(vector(data, "coef"), float(data.get("threshold", 0.0)))
