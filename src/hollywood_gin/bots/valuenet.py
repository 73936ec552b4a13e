"""A learned value of a position after a discard, for the expert (issue 14, ``value_net``).

The greedy heuristic prices a discard by the deadwood it leaves, the live cards that
could lower it and the danger of feeding the opponent.  This is a small neural network
trained instead on outcomes (``benchmarks/value_net.py``): self-play of seeded ``eaai``
hands on the engine, where at each discard the features of the seat's information set
after the discard are kept with the points the hand finally gave that seat.  Its output
is the expected points of the hand from there, as the policy that played the data goes
on.  The expert may throw the card, among the heuristic's best few, after which the
network expects the most.

Only the view is read (through :class:`~.cardsense.CardSense`): my cards, the pile,
what he took, passed and threw, the counts; never his hand or the stock.  The weights
live in ``value_net.json`` beside this module, written by the training script with its
seed.  The forward pass is pure Python: most inputs are cards (10 of 52 bits for my
hand), so the first layer is the sum of a few weight rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..cards import indexes_of_mask
from ..melds import deadwood_of_mask, meld_gains_of_mask
from .cardsense import POINTS, CardSense, danger
from .shipped import check, matrix, read_shipped, same_inputs, vector

__all__ = ["CARD_GROUPS", "DENSE", "SPARSE_SIZE", "ValueNet", "load_net", "net_from_dict",
           "value_features"]

#: The shipped network's file, beside this module.
FILE = "value_net.json"
#: The card inputs, 52 each, in order: my ten cards after the discard, the cards he
#: took from the pile and still holds, the pile under my discard (out of play), my
#: discard (his to take), and the cards he threw or passed (what he does not collect).
CARD_GROUPS: tuple[str, ...] = ("mine", "opp_known", "buried", "discard", "opp_shed")
#: The other inputs, in the order of :func:`value_features`.
DENSE: tuple[str, ...] = (
    "stock",  # cards left in the stock, over 32
    "opp_draws",  # his draws this hand, over 10
    "my_draws",  # mine, over 10
    "dead",  # my deadwood after the discard, over 10
    "can_knock",  # 1 if that is within the knock limit
    "gin",  # 1 if it is nothing
    "danger",  # the heuristic's chance that he melds my discard
    "potential",  # deadwood the live cards could soak up (the heuristic's), over 10
    "opp_known_n",  # cards he took and still holds, over 3
    "discard_points",  # the value of my discard, over 10
)
SPARSE_SIZE = 52 * len(CARD_GROUPS)


def value_features(
    sense: CardSense, probs: list[float], card: int, knock_limit: int
) -> tuple[list[int], list[float]]:
    """The inputs for throwing ``card`` from my eleven cards in ``sense`` (a discard
    decision's view): the indexes of the card inputs that are on, and the others."""
    keep = sense.mine & ~(1 << card)
    active = indexes_of_mask(keep)
    active += [52 + i for i in indexes_of_mask(sense.opp_known)]
    active += [104 + i for i in indexes_of_mask(sense.pile)]
    active.append(156 + card)
    active += [208 + i for i in indexes_of_mask(sense.opp_discards | sense.opp_refused)]
    dead = deadwood_of_mask(keep)
    live = sense.unseen & ~sense.opp_known
    pot = 0.0
    for u, gain in meld_gains_of_mask(keep, live):
        pot += (1.0 - probs[u]) * gain
    dense = [
        sense.stock / 32.0,
        sense.opp_draws / 10.0,
        sense.my_draws / 10.0,
        dead / 10.0,
        1.0 if dead <= knock_limit else 0.0,
        1.0 if dead == 0 else 0.0,
        danger(sense, card, probs),
        pot / 10.0,
        sense.opp_known.bit_count() / 3.0,
        POINTS[card] / 10.0,
    ]
    return active, dense


@dataclass(frozen=True, slots=True)
class ValueNet:
    """One hidden layer of rectified units: the expected points of the hand for me."""

    sparse: tuple[tuple[float, ...], ...]  # one row of hidden weights per card input
    dense: tuple[tuple[float, ...], ...]  # one row per other input
    bias: tuple[float, ...]
    out: tuple[float, ...]
    out_bias: float
    scale: float  # points per unit of output

    def value(self, active: list[int], dense: list[float]) -> float:
        """The expected points of the hand for me after the discard these inputs describe."""
        acc = list(self.bias)
        rows = self.sparse
        for i in active:
            acc = [a + w for a, w in zip(acc, rows[i], strict=True)]
        for x, row in zip(dense, self.dense, strict=True):
            if x:
                acc = [a + x * w for a, w in zip(acc, row, strict=True)]
        total = self.out_bias
        for a, w in zip(acc, self.out, strict=True):
            if a > 0.0:
                total += a * w
        return total * self.scale


def net_from_dict(data: dict[str, Any]) -> ValueNet:
    """A :class:`ValueNet` from its JSON form, checked against the inputs of this code."""
    same_inputs(FILE, (tuple(data["card_groups"]), tuple(data["dense_features"])),
                (CARD_GROUPS, DENSE))
    sparse, dense = matrix(data, "sparse"), matrix(data, "dense")
    bias, out = vector(data, "bias"), vector(data, "out")
    width = len(bias)
    check(FILE, len(sparse) == SPARSE_SIZE and len(dense) == len(DENSE) and len(out) == width
          and all(len(r) == width for r in sparse + dense))
    return ValueNet(sparse, dense, bias, out, float(data["out_bias"]), float(data["scale"]))


@cache
def load_net() -> ValueNet:
    """The shipped network (``value_net.json``)."""
    return net_from_dict(read_shipped(FILE))
