"""How good a decision was: grades and accuracy from the expected points it gave up.

The numbers are defined here, once; :mod:`.model` holds the reviews that carry them.

- **Grades** of a choice by its loss ``L``, the expected points it gives up against
  the best choice (paired over the same deals, see :mod:`.engine`), with a 95%
  interval ``[low, high]``:

  ============  ==============================================================
  best          the best choice found (or one that did exactly as well on every deal)
  good          ``L < 1``, or the interval reaches 0: it may be as good as the best
  inaccuracy    ``1 <= L < 3``
  mistake       ``3 <= L < 8``
  blunder       ``L >= 8``
  ============  ==============================================================

- **Accuracy** of a decision is ``100 * exp(-L / 4)``: 100 for the best, 78 for a
  one-point loss, 47 for three, 14 for eight.  A hand's or a match's accuracy is
  the mean over its decisions (a decision is a turn with more than one legal choice).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import StrEnum
from typing import Protocol

from ..i18n import N_

__all__ = [
    "ACCURACY_SCALE",
    "BLUNDER",
    "GROUPS",
    "INACCURACY",
    "MISTAKE",
    "Grade",
    "Kind",
    "accuracy_of",
    "decision_accuracy",
    "grade_of",
]

#: Expected points lost from which a choice is an inaccuracy, a mistake, a blunder.
INACCURACY = 1.0
MISTAKE = 3.0
BLUNDER = 8.0
#: Points of loss that take a decision's accuracy from 100 down to 100/e (37).
ACCURACY_SCALE = 4.0


class _Graded(Protocol):
    @property
    def loss(self) -> float: ...


class Grade(StrEnum):
    """How good a choice was, from its expected loss against the best (module docstring)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def label(self) -> str:
        """The grade's name for people (translate with ``_`` where shown)."""
        return _GRADE_LABELS[self]

    @property
    def severity(self) -> int:
        """0 for best up to 4 for a blunder."""
        return list(Grade).index(self)


_GRADE_LABELS = {
    Grade.BEST: N_("best"),
    Grade.GOOD: N_("good"),
    Grade.INACCURACY: N_("inaccuracy"),
    Grade.MISTAKE: N_("mistake"),
    Grade.BLUNDER: N_("blunder"),
}


class Kind(StrEnum):
    """What a decision was about: the position decides it, not the choice made.

    ``upcard``: take the upcard in the opening or pass (R4.1); ``draw``: take the
    discard or draw from the stock (R4.2); ``discard``: which card to throw, with no
    knock possible; ``knock``: a knock is possible (not gin): knock now, and with which
    discard, or play on (R5.1); ``gin``: gin is possible: go gin now or play on (R5.7).
    """

    UPCARD = "upcard"
    DRAW = "draw"
    DISCARD = "discard"
    KNOCK = "knock"
    GIN = "gin"

    @property
    def group(self) -> str:
        """The summary group it is counted in (:data:`GROUPS`)."""
        return _KIND_GROUP[self]


_KIND_GROUP = {
    Kind.UPCARD: "upcard_and_draw",
    Kind.DRAW: "upcard_and_draw",
    Kind.DISCARD: "discards",
    Kind.KNOCK: "knock_timing",
    Kind.GIN: "going_for_gin",
}

#: The groups losses are summed in, with their names for people.
GROUPS: dict[str, str] = {
    "upcard_and_draw": N_("upcard and draw choices"),
    "discards": N_("discards"),
    "knock_timing": N_("knock timing"),
    "going_for_gin": N_("going for gin"),
}


def grade_of(loss: float, low: float, *, best: bool) -> Grade:
    """The grade of a choice losing ``loss`` expected points (95% interval from ``low``):
    never worse than good while the interval reaches 0 (it may be as good as the best)."""
    if best:
        return Grade.BEST
    if low <= 0 or loss < INACCURACY:
        return Grade.GOOD
    if loss < MISTAKE:
        return Grade.INACCURACY
    if loss < BLUNDER:
        return Grade.MISTAKE
    return Grade.BLUNDER


def decision_accuracy(loss: float) -> float:
    """One decision's accuracy, 0 to 100: ``100 * exp(-loss / ACCURACY_SCALE)``."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def accuracy_of(decisions: Iterable[_Graded]) -> float | None:
    """The mean accuracy of some decisions (None if there are none)."""
    values = [decision_accuracy(d.loss) for d in decisions]
    return sum(values) / len(values) if values else None
