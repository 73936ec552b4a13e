"""What a review says: frozen values for each decision, hand and match, their grades and
accuracy, and their JSON form (English keys; player-facing words are in :mod:`.text`).

Everything here is plain data over the core, so the terminal and web games can hold,
store and redraw a review without the search behind it.
The grades and accuracy that turn expected points lost into words are in :mod:`.grades`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action, parse_action
from ..cards import Card, parse_card, parse_cards
from ..errors import HollywoodGinError
from ..hand import HandView, Phase
from ..rules import Rules
from .grades import GROUPS, Grade, Kind, accuracy_of, decision_accuracy

__all__ = [
    "ChoiceValue",
    "DecisionReview",
    "HandReview",
    "Hindsight",
    "MatchReview",
    "ReviewError",
    "view_from_dict",
    "view_to_dict",
]

REVIEW_FORMAT = "hollywood-gin-review"
REVIEW_VERSION = 1


class ReviewError(HollywoodGinError):
    """A review cannot be made or read: no such hand or player, an unfinished hand, bad JSON."""


# -- one decision ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One legal choice of a decision and what it is worth.

    ``points`` is the expected points of the hand for the reviewed player after this
    choice (won positive, lost negative, a dead hand 0), ``points_se`` its standard
    error over ``deals`` deals.  ``loss`` is how many expected points it gives up
    against the best choice, measured on the deals both were played on (paired), with
    the 95% interval ``[loss_low, loss_high]``; ``grade`` is what it would have earned.
    ``equity`` is its value on the score sheet in a match (the expert's pricing, see
    :class:`hollywood_gin.bots.equity.SheetValue`), None outside a match.
    """

    action: Action
    points: float
    points_se: float
    deals: int
    loss: float
    loss_low: float
    loss_high: float
    grade: Grade
    equity: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "points": self.points,
            "points_se": _finite(self.points_se),
            "deals": self.deals,
            "loss": self.loss,
            "loss_interval": [_finite(self.loss_low), _finite(self.loss_high)],
            "grade": self.grade.value,
            "equity": self.equity,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChoiceValue:
        low, high = data["loss_interval"]
        return cls(
            action=parse_action(data["action"]), points=float(data["points"]),
            points_se=_number(data["points_se"], math.inf), deals=int(data["deals"]),
            loss=float(data["loss"]), loss_low=_number(low, -math.inf),
            loss_high=_number(high, math.inf),
            grade=Grade(data["grade"]),
            equity=None if data.get("equity") is None else float(data["equity"]),
        )


@dataclass(frozen=True, slots=True)
class Hindsight:
    """After the fact, and never used for a grade: the opponent's actual cards at that
    moment, and what the choice made and the best choice would have scored on the real
    deal (the actual stock order), both seats then playing the review's continuation."""

    opponent_hand: tuple[Card, ...]
    chosen_points: int
    best_points: int

    @property
    def worked_out(self) -> bool:
        """True if, on the real cards, the choice made did at least as well as the best."""
        return self.chosen_points >= self.best_points

    def to_dict(self) -> dict[str, Any]:
        return {
            "opponent_hand": [c.text for c in self.opponent_hand],
            "chosen_points": self.chosen_points,
            "best_points": self.best_points,
            "worked_out": self.worked_out,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hindsight:
        return cls(tuple(parse_card(t) for t in data["opponent_hand"]),
                   int(data["chosen_points"]), int(data["best_points"]))


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision of the reviewed player, analysed from his view at that moment.

    ``view`` is exactly what he could know then (the position to redraw); ``choices``
    are all his legal choices in the engine's order, with ``chosen`` the one he made
    and ``best`` the best one found (indexes into ``choices``).  ``ply`` is the
    action's place in the hand's log (0 first).  In a match ``equity_best`` is the
    best choice by sheet equity, which may differ from the best by points near the end
    of a game, and ``equity_loss`` (interval ``equity_low``, ``equity_high``) the
    equity the choice made gives up against it; the grade is by points only.
    """

    hand_number: int
    ply: int
    kind: Kind
    view: HandView
    choices: tuple[ChoiceValue, ...]
    chosen: int
    best: int
    deals: int
    equity_best: int | None = None
    equity_loss: float | None = None
    equity_low: float | None = None
    equity_high: float | None = None
    hindsight: Hindsight | None = None

    @property
    def player(self) -> int:
        return self.view.player

    @property
    def chosen_action(self) -> Action:
        return self.choices[self.chosen].action

    @property
    def best_action(self) -> Action:
        return self.choices[self.best].action

    @property
    def loss(self) -> float:
        """Expected points the choice made gave up against the best (0 if it was the best)."""
        return self.choices[self.chosen].loss

    @property
    def points_gap(self) -> float:
        """How far the best's points are above the choice made's on these deals (its loss,
        measured on held-out deals, may be 0 where this is not)."""
        return self.choices[self.best].points - self.choices[self.chosen].points

    @property
    def loss_below_gap(self) -> bool:
        """True if the loss shown (one decimal) is below the points gap shown: the held-out
        loss charges none of the review's own luck, and the screens then say so."""
        return self.chosen != self.best and self.points_gap - self.loss >= 0.05

    @property
    def loss_interval(self) -> tuple[float, float]:
        c = self.choices[self.chosen]
        return c.loss_low, c.loss_high

    @property
    def grade(self) -> Grade:
        return self.choices[self.chosen].grade

    @property
    def accuracy(self) -> float:
        return decision_accuracy(self.loss)

    def to_dict(self, *, standalone: bool = True) -> dict[str, Any]:
        """JSON-ready; ``standalone=False`` (inside a hand's review) leaves out the rules
        and the log, which the hand holds once."""
        out: dict[str, Any] = {
            "hand": self.hand_number,
            "ply": self.ply,
            "player": self.player,
            "kind": self.kind.value,
            "chosen": str(self.chosen_action),
            "best": str(self.best_action),
            "loss": self.loss,
            "loss_interval": [_finite(x) for x in self.loss_interval],
            "grade": self.grade.value,
            "accuracy": self.accuracy,
            "deals": self.deals,
            "choices": [c.to_dict() for c in self.choices],
            "view": view_to_dict(self.view, with_log=standalone),
        }
        if self.equity_best is not None:
            out["equity"] = {
                "best": str(self.choices[self.equity_best].action),
                "loss": self.equity_loss,
                "loss_interval": [_finite(self.equity_low), _finite(self.equity_high)],
            }
        if self.hindsight is not None:
            out["hindsight"] = self.hindsight.to_dict()
        return out

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        *,
        rules: Rules | None = None,
        history: Sequence[tuple[int, Action]] | None = None,
    ) -> DecisionReview:
        """Read :meth:`to_dict`'s output; a hand's review passes its rules and log."""
        try:
            choices = tuple(ChoiceValue.from_dict(c) for c in data["choices"])
            texts = [str(c.action) for c in choices]
            view = view_from_dict(data["view"], rules=rules, history=history)
            equity = data.get("equity")
            eq_best = eq_loss = eq_low = eq_high = None
            if equity is not None:
                eq_best = texts.index(equity["best"])
                eq_loss = float(equity["loss"])
                eq_low = _number(equity["loss_interval"][0], -math.inf)
                eq_high = _number(equity["loss_interval"][1], math.inf)
            hindsight = data.get("hindsight")
            return cls(
                hand_number=int(data["hand"]), ply=int(data["ply"]), kind=Kind(data["kind"]),
                view=view, choices=choices, chosen=texts.index(data["chosen"]),
                best=texts.index(data["best"]), deals=int(data["deals"]),
                equity_best=eq_best, equity_loss=eq_loss, equity_low=eq_low,
                equity_high=eq_high,
                hindsight=None if hindsight is None else Hindsight.from_dict(hindsight),
            )
        except (KeyError, TypeError, ValueError, HollywoodGinError) as exc:
            raise ReviewError(f"cannot read a decision's review: {exc!r}") from None


def _finite(x: float | None) -> float | None:
    """JSON has no infinity: an interval no deal could bound is written as null."""
    return None if x is None or not math.isfinite(x) else x


def _number(x: object, unbounded: float) -> float:
    return unbounded if x is None else float(x)  # type: ignore[arg-type]


def view_to_dict(view: HandView, *, with_log: bool = True) -> dict[str, Any]:
    """A player's view as JSON (cards and actions in their text form): enough to redraw
    the table as he saw it.  Without the log, the rules and history are left out."""
    out: dict[str, Any] = {
        "player": view.player,
        "dealer": view.dealer,
        "knock_limit": view.knock_limit,
        "phase": view.phase.value,
        "to_act": view.to_act,
        "hand": [c.text for c in view.hand],
        "discard_pile": [c.text for c in view.discard_pile],
        "stock_count": view.stock_count,
        "opponent_card_count": view.opponent_card_count,
        "opponent_known": [c.text for c in view.opponent_known],
        "known_to_opponent": [c.text for c in view.known_to_opponent],
        "taken_card": None if view.taken_card is None else view.taken_card.text,
        "drawn_card": None if view.drawn_card is None else view.drawn_card.text,
        "upcard_refused": view.upcard_refused,
        "legal_actions": [str(a) for a in view.legal_actions],
        "history_length": len(view.history),
    }
    if with_log:
        out["rules"] = view.rules.to_dict()
        out["history"] = [[p, str(a)] for p, a in view.history]
    return out


def view_from_dict(
    data: dict[str, Any],
    *,
    rules: Rules | None = None,
    history: Sequence[tuple[int, Action]] | None = None,
) -> HandView:
    """The view :func:`view_to_dict` wrote; ``rules`` and ``history`` (the whole hand's
    log, cut to the view's length) stand in for what a compact form left out."""

    def cards(key: str) -> tuple[Card, ...]:
        return parse_cards(" ".join(data[key])) if data[key] else ()

    def card(key: str) -> Card | None:
        return None if data.get(key) is None else parse_card(data[key])

    if "rules" in data:
        rules = Rules.from_dict(data["rules"])
    if "history" in data:
        log = tuple((int(p), parse_action(a)) for p, a in data["history"])
    else:
        if history is None or rules is None:
            raise ReviewError("a compact view needs its hand's rules and log")
        log = tuple(history[: int(data["history_length"])])
    assert rules is not None
    return HandView(
        player=int(data["player"]), rules=rules, dealer=int(data["dealer"]),
        knock_limit=int(data["knock_limit"]), phase=Phase(data["phase"]),
        to_act=int(data["to_act"]), hand=cards("hand"), discard_pile=cards("discard_pile"),
        stock_count=int(data["stock_count"]),
        opponent_card_count=int(data["opponent_card_count"]),
        opponent_known=cards("opponent_known"), known_to_opponent=cards("known_to_opponent"),
        taken_card=card("taken_card"), upcard_refused=bool(data["upcard_refused"]),
        history=log, legal_actions=tuple(parse_action(a) for a in data["legal_actions"]),
        result=None, drawn_card=card("drawn_card"),
    )


# -- summaries -------------------------------------------------------------------------------


class _Summary:
    """What a hand's and a match's review both say about their decisions."""

    __slots__ = ()

    @property
    def decisions(self) -> tuple[DecisionReview, ...]:
        raise NotImplementedError

    @property
    def accuracy(self) -> float | None:
        """Mean decision accuracy, 0 to 100 (None with no decision to review)."""
        return accuracy_of(self.decisions)

    @property
    def points_lost(self) -> float:
        """Expected points lost over all decisions, against the best choice each time."""
        return sum(d.loss for d in self.decisions)

    def worst(self, count: int = 3) -> tuple[DecisionReview, ...]:
        """The decisions that lost the most (ties: earliest first), only those that lost."""
        ranked = sorted((d for d in self.decisions if d.loss > 0),
                        key=lambda d: (-d.loss, d.hand_number, d.ply))
        return tuple(ranked[:count])

    @property
    def losses_by_group(self) -> dict[str, float]:
        """Expected points lost in each group of :data:`GROUPS`."""
        out = dict.fromkeys(GROUPS, 0.0)
        for d in self.decisions:
            out[d.kind.group] += d.loss
        return out

    @property
    def grade_counts(self) -> dict[Grade, int]:
        out = dict.fromkeys(Grade, 0)
        for d in self.decisions:
            out[d.grade] += 1
        return out

    def _summary_dict(self) -> dict[str, Any]:
        acc = self.accuracy
        return {
            "accuracy": None if acc is None else round(acc, 2),
            "points_lost": round(self.points_lost, 3),
            "decision_count": len(self.decisions),
            "grades": {g.value: n for g, n in self.grade_counts.items()},
            "losses_by_group": {k: round(v, 3) for k, v in self.losses_by_group.items()},
            "worst": [{"hand": d.hand_number, "ply": d.ply} for d in self.worst()],
        }


@dataclass(frozen=True, slots=True)
class HandResultSummary:
    """How the hand ended (public once it is over)."""

    kind: str
    winner: int | None
    knocker: int | None
    points: int


@dataclass(frozen=True, slots=True)
class HandReview(_Summary):
    """The review of one player's decisions in one finished hand.

    ``history`` is the hand's whole public log and ``sheet_before`` the score sheet's
    entries (``(winner, points)`` per won hand) when the hand was dealt, so a game can
    redraw the table at any decision.
    """

    hand_number: int
    player: int
    dealer: int
    rules: Rules
    history: tuple[tuple[int, Action], ...]
    result: HandResultSummary | None
    sheet_before: tuple[tuple[int, int], ...]
    hand_decisions: tuple[DecisionReview, ...]

    @property
    def decisions(self) -> tuple[DecisionReview, ...]:
        return self.hand_decisions

    @property
    def points_won(self) -> int:
        """The hand's result for the reviewed player: + won, - lost, 0 dead."""
        r = self.result
        if r is None or r.winner is None:
            return 0
        return r.points if r.winner == self.player else -r.points

    def to_dict(self, *, standalone: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand_number,
            "player": self.player,
            "dealer": self.dealer,
            "history": [[p, str(a)] for p, a in self.history],
            "result": None if self.result is None else {
                "kind": self.result.kind, "winner": self.result.winner,
                "knocker": self.result.knocker, "points": self.result.points,
            },
            "points_won": self.points_won,
            "sheet_before": [list(e) for e in self.sheet_before],
            **self._summary_dict(),
            "decisions": [d.to_dict(standalone=False) for d in self.decisions],
        }
        if standalone:
            out = {"format": REVIEW_FORMAT, "version": REVIEW_VERSION,
                   "rules": self.rules.to_dict(), **out}
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, rules: Rules | None = None) -> HandReview:
        try:
            if "rules" in data:
                rules = Rules.from_dict(data["rules"])
            if rules is None:
                raise ReviewError("a hand's review needs its rules")
            history = tuple((int(p), parse_action(a)) for p, a in data["history"])
            result = data.get("result")
            return cls(
                hand_number=int(data["hand"]), player=int(data["player"]),
                dealer=int(data["dealer"]), rules=rules, history=history,
                result=None if result is None else HandResultSummary(
                    str(result["kind"]), result["winner"], result["knocker"],
                    int(result["points"])),
                sheet_before=tuple((int(p), int(n)) for p, n in data["sheet_before"]),
                hand_decisions=tuple(DecisionReview.from_dict(d, rules=rules, history=history)
                                     for d in data["decisions"]),
            )
        except (KeyError, TypeError, ValueError, HollywoodGinError) as exc:
            if isinstance(exc, ReviewError):
                raise
            raise ReviewError(f"cannot read a hand's review: {exc!r}") from None


@dataclass(frozen=True, slots=True)
class MatchReview(_Summary):
    """The review of one player's decisions over the finished hands of a match.

    ``method`` records how it was made (seed, deals, continuation, thresholds), so the
    same record and method give the same review.
    """

    player: int
    names: tuple[str, str]
    rules: Rules
    hands: tuple[HandReview, ...]
    method: dict[str, Any]

    @property
    def decisions(self) -> tuple[DecisionReview, ...]:
        return tuple(d for h in self.hands for d in h.decisions)

    def hand(self, number: int) -> HandReview:
        """The review of hand ``number`` (1 first)."""
        for h in self.hands:
            if h.hand_number == number:
                return h
        raise ReviewError(f"hand {number} was not reviewed")

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "version": REVIEW_VERSION,
            "player": self.player,
            "names": list(self.names),
            "rules": self.rules.to_dict(),
            "method": self.method,
            **self._summary_dict(),
            "hands": [h.to_dict(standalone=False) for h in self.hands],
        }

    @classmethod
    def from_dict(cls, data: object) -> MatchReview:
        """Read :meth:`to_dict`'s output (a :class:`ReviewError` says what is wrong)."""
        try:
            assert isinstance(data, dict)
            if data.get("format") != REVIEW_FORMAT or data.get("version") != REVIEW_VERSION:
                raise ReviewError(f"not a {REVIEW_FORMAT} version {REVIEW_VERSION} document")
            rules = Rules.from_dict(data["rules"])
            names = data["names"]
            return cls(
                player=int(data["player"]), names=(str(names[0]), str(names[1])), rules=rules,
                hands=tuple(HandReview.from_dict(h, rules=rules) for h in data["hands"]),
                method=dict(data["method"]),
            )
        except (AssertionError, KeyError, TypeError, ValueError, HollywoodGinError) as exc:
            if isinstance(exc, ReviewError):
                raise
            raise ReviewError(f"cannot read a match review: {exc!r}") from None
