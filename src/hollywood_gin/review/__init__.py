"""The game review: every decision of a finished hand or match rated from what the player
could know at that moment, with the better choice and what the difference cost.

Use :func:`review_match` / :func:`review_hand` / :func:`review_record` for whole hands
and matches, :func:`review_decision` for one position.  The results are frozen values
(:class:`DecisionReview`, :class:`HandReview`, :class:`MatchReview`) with a JSON form
(``to_dict`` / ``from_dict``).  How values, grades and accuracy are computed:
:mod:`.engine` and :mod:`.model`, and ``docs/review.md``.
"""

from __future__ import annotations

from .engine import (
    ReviewSettings,
    decision_kind,
    review_decision,
    review_hand,
    review_match,
    review_record,
)
from .grades import (
    ACCURACY_SCALE,
    BLUNDER,
    GROUPS,
    INACCURACY,
    MISTAKE,
    Grade,
    Kind,
    accuracy_of,
    decision_accuracy,
    grade_of,
)
from .model import (
    ChoiceValue,
    DecisionReview,
    HandReview,
    Hindsight,
    MatchReview,
    ReviewError,
)

__all__ = [
    "ACCURACY_SCALE",
    "BLUNDER",
    "GROUPS",
    "INACCURACY",
    "MISTAKE",
    "ChoiceValue",
    "DecisionReview",
    "Grade",
    "HandReview",
    "Hindsight",
    "Kind",
    "MatchReview",
    "ReviewError",
    "ReviewSettings",
    "accuracy_of",
    "decision_accuracy",
    "decision_kind",
    "grade_of",
    "review_decision",
    "review_hand",
    "review_match",
    "review_record",
]
