"""A learned model of the opponent's hand from the public log (issue 14, ``hand_net``).

The expert re-deals the opponent's unseen cards from per-card weights set by hand
(:func:`.cardsense.read_view`: his picks pull related cards in, his passes and throws
push them out).  This is a small neural network trained instead on positions of seeded
``eaai`` hands (``benchmarks/hand_net.py``): at each decision of an observing seat, the
public story of the hand as :class:`~.cardsense.CardSense` reads it, and as the label the
opponent's true hand.  Its output is, for each live card (unseen and not known to be
his), the chance that he holds it, shifted so that the chances sum to the number of his
unknown cards; a second head guesses the deadwood of his hand.

Only the view is read (the sense and the order of his throws in the view's history):
never his hand or the stock.  The weights live in ``hand_net.json`` beside this module,
written by the training script with its seed and counts.  The forward pass is pure
Python (the core does not import NumPy): most inputs are cards, so the first layer is
the sum of a few weight rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..actions import Discard, Knock
from ..cards import indexes_of_mask
from ..hand import HandView, Phase
from .cardsense import CardSense
from .shipped import check, matrix, read_shipped, same_inputs, vector

__all__ = [
    "BIT_PLANES",
    "FLOAT_PLANES",
    "INPUTS",
    "SCALARS",
    "HandNet",
    "hand_features",
    "load_hand_net",
    "net_from_dict",
    "net_sense",
    "normalise",
    "with_chances",
]

#: The shipped network's file, beside this module.
FILE = "hand_net.json"
#: The 0/1 card inputs, 52 each, in order.
BIT_PLANES: tuple[str, ...] = (
    "mine",  # my cards
    "pile",  # the discard pile (out of play), top included
    "top",  # the top of the pile
    "opp_known",  # cards he took from the pile and still holds
    "opp_taken_gone",  # cards he took from the pile and threw again
    "opp_refused",  # cards he could have taken and did not
    "opp_discards",  # cards he threw
    "live",  # unseen and not known to be his: the cards the model is about
)
#: The real-valued card inputs, 52 each, in order.
FLOAT_PLANES: tuple[str, ...] = (
    "weight",  # the hand-set per-card weight of read_view (0 off the live cards)
    "recent_throw",  # his throws, 0.7 ** (his throws since): what he shed lately
)
#: The other inputs, in the order of :func:`hand_features`.
SCALARS: tuple[str, ...] = (
    "stock",  # cards left in the stock, over 32
    "opp_draws",  # his draws this hand, over 10
    "my_draws",  # mine, over 10
    "opp_unknown",  # his cards I do not know, over 10
    "live_n",  # live cards, over 40
    "discard_phase",  # 1 at my discard, 0 at my draw
)
#: The number of inputs: the card planes, then the scalars.
INPUTS = 52 * (len(BIT_PLANES) + len(FLOAT_PLANES)) + len(SCALARS)
_RECENCY = 0.7


def hand_features(view: HandView, sense: CardSense) -> tuple[list[int], list[list[float]],
                                                             list[float]]:
    """The inputs of ``view`` (read by ``sense``): the bit planes as masks, the real
    planes as 52 values each, and the scalars."""
    opp = 1 - view.player
    live = sense.unseen & ~sense.opp_known
    bits = [
        sense.mine,
        sense.pile,
        (1 << sense.top) if sense.top >= 0 else 0,
        sense.opp_known,
        sense.opp_taken & ~sense.opp_known,
        sense.opp_refused,
        sense.opp_discards,
        live,
    ]
    weight = [sense.weight[i] if live >> i & 1 else 0.0 for i in range(52)]
    recent = [0.0] * 52
    throws = [a.card.index for p, a in view.history
              if p == opp and isinstance(a, Discard | Knock) and a.card is not None]
    f = 1.0
    for i in reversed(throws):
        if recent[i] == 0.0:
            recent[i] = f
        f *= _RECENCY
    scalars = [
        sense.stock / 32.0,
        sense.opp_draws / 10.0,
        sense.my_draws / 10.0,
        sense.opp_unknown / 10.0,
        live.bit_count() / 40.0,
        1.0 if view.phase is Phase.DISCARD else 0.0,
    ]
    return bits, [weight, recent], scalars


def normalise(logits: list[float], live: int, count: int) -> list[float]:
    """Chances for the live cards, ``sigmoid(logit + c)`` with the one shift ``c`` that
    makes them sum to ``count`` (his unknown cards); 0 off the live cards."""
    cards = indexes_of_mask(live)
    out = [0.0] * 52
    if not cards or count <= 0:
        return out
    if count >= len(cards):
        for i in cards:
            out[i] = 1.0
        return out
    z = [logits[i] for i in cards]
    c = 0.0
    for _ in range(30):  # Newton on the sum, from a safe bracket
        ps = [1.0 / (1.0 + math.exp(-min(max(v + c, -30.0), 30.0))) for v in z]
        s = sum(ps)
        d = sum(p * (1.0 - p) for p in ps)
        if abs(s - count) < 1e-9 or d <= 0.0:
            break
        c -= max(-5.0, min(5.0, (s - count) / d))
    for i, v in zip(cards, z, strict=True):
        out[i] = 1.0 / (1.0 + math.exp(-min(max(v + c, -30.0), 30.0)))
    return out


def _offset(weight: float) -> float:
    """The logit of a hand-set weight, which the network's card logits add to (it learns
    a correction of the hand-set model, not the model anew); 0 off the live cards."""
    if weight <= 0.0:
        return 0.0
    w = min(max(weight, _LO), _HI)
    return math.log(w / (1.0 - w))


_LO, _HI = 0.005, 0.97


@dataclass(frozen=True, slots=True)
class HandNet:
    """One hidden layer of rectified units; 52 logits of his holding each card (added to
    the logits of the hand-set weights) and a guess of his deadwood."""

    w1: tuple[tuple[float, ...], ...]  # one row of hidden weights per input
    b1: tuple[float, ...]
    w2: tuple[tuple[float, ...], ...]  # one row of 52 logit weights per hidden unit
    b2: tuple[float, ...]
    wd: tuple[float, ...]  # the deadwood head
    bd: float
    dead_scale: float  # points per unit of the deadwood head

    def forward(self, bits: list[int], planes: list[list[float]],
                scalars: list[float]) -> tuple[list[float], float]:
        """(the 52 logits, the deadwood guess) of these inputs."""
        acc = list(self.b1)
        rows = self.w1
        for p, mask in enumerate(bits):
            base = 52 * p
            for i in indexes_of_mask(mask):
                acc = [a + w for a, w in zip(acc, rows[base + i], strict=True)]
        base = 52 * len(bits)
        for q, plane in enumerate(planes):
            for i, x in enumerate(plane):
                if x:
                    acc = [a + x * w for a, w in zip(acc, rows[base + 52 * q + i], strict=True)]
        base += 52 * len(planes)
        for k, x in enumerate(scalars):
            if x:
                acc = [a + x * w for a, w in zip(acc, rows[base + k], strict=True)]
        logits = [b + _offset(w) for b, w in zip(self.b2, planes[0], strict=True)]
        dead = self.bd
        for a, row, wd in zip(acc, self.w2, self.wd, strict=True):
            if a > 0.0:
                logits = [z + a * w for z, w in zip(logits, row, strict=True)]
                dead += a * wd
        return logits, dead * self.dead_scale

    def predict(self, view: HandView, sense: CardSense) -> tuple[list[float], float]:
        """(his chance of holding each card, normalised over the live ones; his deadwood
        guessed) in ``view``."""
        logits, dead = self.forward(*hand_features(view, sense))
        live = sense.unseen & ~sense.opp_known
        return normalise(logits, live, sense.opp_unknown), max(0.0, dead)


def net_from_dict(data: dict[str, Any]) -> HandNet:
    """A :class:`HandNet` from its JSON form, checked against the inputs of this code."""
    same_inputs(FILE, (tuple(data["bit_planes"]), tuple(data["float_planes"]),
                       tuple(data["scalars"])), (BIT_PLANES, FLOAT_PLANES, SCALARS))
    w1, w2 = matrix(data, "w1"), matrix(data, "w2")
    b1, b2, wd = vector(data, "b1"), vector(data, "b2"), vector(data, "wd")
    width = len(b1)
    check(FILE, len(w1) == INPUTS and all(len(r) == width for r in w1) and len(w2) == width
          and all(len(r) == 52 for r in w2) and len(b2) == 52 and len(wd) == width)
    return HandNet(w1, b1, w2, b2, wd, float(data["bd"]), float(data["dead_scale"]))


def with_chances(sense: CardSense, probs: list[float], odds: bool = False) -> CardSense:
    """``sense`` with its per-card weights replaced by the network's chances ``probs`` (by
    their odds ``p / (1 - p)`` with ``odds``: the weights under which a swap chain's hands
    have those chances as marginals)."""
    if odds:
        probs = [p / (1.0 - p) if 0.0 < p < 1.0 else (1e6 if p >= 1.0 else 0.0)
                 for p in probs]
    return replace(sense, weight=probs)


def net_sense(view: HandView, sense: CardSense, odds: bool = False
              ) -> tuple[CardSense, float]:
    """:func:`with_chances` of the network's chances in ``view``, and its guess of his
    deadwood."""
    probs, dead = load_hand_net().predict(view, sense)
    return with_chances(sense, probs, odds), dead


@cache
def load_hand_net() -> HandNet:
    """The shipped network (``hand_net.json``)."""
    return net_from_dict(read_shipped(FILE))
