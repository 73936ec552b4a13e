"""A learned distribution of the knock's outcome, for the expert (issue 14, ``knock_net``).

The expert values a knock on re-dealt opponent hands, and its re-deals give a late
opponent a weaker hand than real ones, so its knocks look safer than they are
(docs/bots.md).  What the knock's value needs is one number of his true hand: his
deadwood after laying off onto my melds.  This network predicts its distribution from
what I can see, trained on exact labels (``benchmarks/knock_net.py``): self-play of
seeded ``eaai`` hands where, at each discard with a knock possible, the knock's melds
are scored against the opponent's real hand (no rollouts, so hundreds of thousands
of positions are cheap).  The knock's value is then the sum over his deadwood of its
probability times the sheet value of the result: a knock win of ``d - k`` if he has
more than my ``k``, an undercut otherwise (R5.5, R5.6).

Only the view is read (through :class:`~.cardsense.CardSense`): my cards, the pile,
what he took, passed and threw, the counts; never his hand or the stock.  The weights
live in ``knock_net.json`` beside this module, written by the training script with its
seed.  The forward pass is pure Python (the package core does not import NumPy): the
card inputs are sparse, so the first layer is the sum of a few weight rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..cards import indexes_of_mask
from ..hand import HandView
from ..melds import arrangement_of_mask, deadwood_of_mask, layoff_cards_of_masks
from .cardsense import CardSense
from .equity import SheetValue
from .shipped import check, matrix, read_shipped, same_inputs, vector

__all__ = ["BINS", "CARD_GROUPS", "DENSE", "SPARSE_SIZE", "KnockNet", "bin_of",
           "knock_features", "knock_outcomes", "knock_points", "knock_value", "load_net",
           "net_from_dict", "priced"]

#: The shipped network's file, beside this module.
FILE = "knock_net.json"
#: The card inputs, 52 each, in order: my melded and unmatched cards after the knock
#: discard, the cards that could lay off on my melds (his to hold: unseen or known his),
#: the cards he took and still holds, refused, threw, the pile, and my knock discard.
CARD_GROUPS: tuple[str, ...] = ("melded", "unmatched", "layoff", "opp_known", "opp_refused",
                                "opp_thrown", "pile", "knock_card")
SPARSE_SIZE = 52 * len(CARD_GROUPS)
#: The other inputs after the 52 per-card odds of his holding each card (CardSense.weight,
#: 1 for a card he is known to hold), in the order of :func:`knock_features`.
DENSE: tuple[str, ...] = (
    "dead",  # the deadwood I would knock with, over 10
    "opp_draws",  # his draws this hand, over 10
    "my_draws",  # mine, over 10
    "stock",  # cards left in the stock, over 32
    "known_n",  # cards he took and still holds, over 3
    "taken_n",  # cards he took this hand, over 3
    "unknown_n",  # his cards I do not know, over 10
    "layoff_n",  # unseen or known-his cards that could lay off on my melds, over 10
    "cautious",  # the opponent model's weight of the cautious knock style
)
DENSE_SIZE = 52 + len(DENSE)
#: His deadwood after lay-offs, by bin: one bin a point up to 40, then coarse ones
#: (lower bounds; the last is open).
BINS: tuple[int, ...] = (*range(41), 41, 51, 61, 81)


def bin_of(d: int) -> int:
    """The bin of a deadwood of ``d`` after lay-offs."""
    if d <= 40:
        return d
    for b in range(len(BINS) - 1, 40, -1):
        if d >= BINS[b]:
            return b
    return 40


def knock_features(sense: CardSense, keep: int, card: int, cautious: float
                   ) -> tuple[list[int], list[float]]:
    """The inputs for knocking with ``card`` and keeping ``keep`` (my other ten cards) in
    ``sense`` (a discard decision's view): the indexes of the card inputs that are on,
    and the others."""
    melds = arrangement_of_mask(keep)
    melded = 0
    for m in melds:
        melded |= m
    his = sense.unseen | sense.opp_known
    layoff = layoff_cards_of_masks(melds, his) & his if melds else 0
    active = indexes_of_mask(melded)
    active += [52 + i for i in indexes_of_mask(keep & ~melded)]
    active += [104 + i for i in indexes_of_mask(layoff)]
    active += [156 + i for i in indexes_of_mask(sense.opp_known)]
    active += [208 + i for i in indexes_of_mask(sense.opp_refused)]
    active += [260 + i for i in indexes_of_mask(sense.opp_discards)]
    active += [312 + i for i in indexes_of_mask(sense.pile)]
    active.append(364 + card)
    dense = [sense.p_opp(i) for i in range(52)]
    dense += [
        deadwood_of_mask(keep) / 10.0,
        sense.opp_draws / 10.0,
        sense.my_draws / 10.0,
        sense.stock / 32.0,
        sense.opp_known.bit_count() / 3.0,
        sense.opp_taken.bit_count() / 3.0,
        sense.opp_unknown / 10.0,
        layoff.bit_count() / 10.0,
        cautious,
    ]
    return active, dense


def knock_points(k: int, d: int, undercut_bonus: int) -> tuple[bool, int]:
    """(I win, points) of a knock with ``k`` against his ``d`` after lay-offs (R5.5, R5.6)."""
    if k < d:
        return True, d - k
    return False, undercut_bonus + k - d


def knock_outcomes(view: HandView, sense: CardSense, card: int, cautious: float
                   ) -> list[tuple[float, int, int]]:
    """(probability, winner, points) of knocking with ``card``, by the network's
    distribution of his deadwood after lay-offs instead of re-deals, which deal a late
    opponent too weak a hand: a knock win or an undercut for each deadwood (R5.5, R5.6).
    ``sense`` is :func:`~.cardsense.read_view`'s (the network was fitted on its hand-set
    weights); ``cautious`` the share of the cautious knock style in the opponent model."""
    keep = view.hand_mask & ~(1 << card)
    k = deadwood_of_mask(keep)
    active, dense = knock_features(sense, keep, card, cautious)
    me = view.player
    bonus = view.rules.undercut_bonus
    out = []
    for p, d in load_net().outcomes(k, active, dense):
        won, points = knock_points(k, d, bonus)
        out.append((p, me if won else 1 - me, points))
    return out


def priced(outcomes: list[tuple[float, int, int]], value: SheetValue) -> float:
    """The expected worth of :func:`knock_outcomes` priced by ``value``."""
    return sum(p * value.value(winner, points) for p, winner, points in outcomes)


def knock_value(view: HandView, sense: CardSense, card: int, cautious: float,
                value: SheetValue) -> float:
    """The worth (priced by ``value``) of knocking with ``card``: :func:`priced`
    :func:`knock_outcomes`."""
    return priced(knock_outcomes(view, sense, card, cautious), value)


@dataclass(frozen=True, slots=True)
class KnockNet:
    """One hidden layer of rectified units and a softmax over :data:`BINS`."""

    sparse: tuple[tuple[float, ...], ...]  # one row of hidden weights per card input
    dense: tuple[tuple[float, ...], ...]  # one row per other input
    bias: tuple[float, ...]
    out: tuple[tuple[float, ...], ...]  # one row of bin logits per hidden unit
    out_bias: tuple[float, ...]
    centers: tuple[float, ...]  # the mean deadwood of each bin in training

    def probs(self, active: list[int], dense: list[float]) -> list[float]:
        """P(his deadwood after lay-offs falls in each bin) for these inputs."""
        acc = list(self.bias)
        rows = self.sparse
        for i in active:
            acc = [a + w for a, w in zip(acc, rows[i], strict=True)]
        for x, row in zip(dense, self.dense, strict=True):
            if x:
                acc = [a + x * w for a, w in zip(acc, row, strict=True)]
        logits = list(self.out_bias)
        for a, row in zip(acc, self.out, strict=True):
            if a > 0.0:
                logits = [z + a * w for z, w in zip(logits, row, strict=True)]
        top = max(logits)
        exps = [math.exp(z - top) for z in logits]
        total = sum(exps)
        return [e / total for e in exps]

    def outcomes(self, k: int, active: list[int], dense: list[float]
                 ) -> list[tuple[float, int]]:
        """(probability, his deadwood) pairs: every exact bin, the coarse ones at their
        training mean (rounded)."""
        return [(p, b if b <= 40 else round(self.centers[b]))
                for b, p in enumerate(self.probs(active, dense))]


def net_from_dict(data: dict[str, Any]) -> KnockNet:
    """A :class:`KnockNet` from its JSON form, checked against the inputs of this code."""
    same_inputs(FILE, (tuple(data["card_groups"]), tuple(data["dense_features"]),
                       tuple(data["bins"])), (CARD_GROUPS, DENSE, BINS))
    sparse, dense, out = matrix(data, "sparse"), matrix(data, "dense"), matrix(data, "out")
    bias, out_bias = vector(data, "bias"), vector(data, "out_bias")
    centers = vector(data, "centers")
    width = len(bias)
    check(FILE, len(sparse) == SPARSE_SIZE and len(dense) == DENSE_SIZE and len(out) == width
          and all(len(r) == width for r in sparse + dense)
          and all(len(r) == len(BINS) for r in out)
          and len(out_bias) == len(BINS) and len(centers) == len(BINS))
    return KnockNet(sparse, dense, bias, out, out_bias, centers)


@cache
def load_net() -> KnockNet:
    """The shipped network (``knock_net.json``)."""
    return net_from_dict(read_shipped(FILE))
