"""A review in words for the terminal: every phrase goes through :mod:`hollywood_gin.i18n`,
cards show with their suit symbols."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import Card
from ..cli import wrap_line
from ..i18n import N_, _, is_you, local_number, ngettext
from ..melds import deadwood
from ..replay import say_about
from .grades import GROUPS, Grade
from .model import DecisionReview, HandReview, MatchReview

__all__ = ["ReviewProgress", "describe_action", "render_decision", "render_match"]

_GRADE_MARK = {
    Grade.BEST: "  ", Grade.GOOD: "  ", Grade.INACCURACY: "?!", Grade.MISTAKE: "? ",
    Grade.BLUNDER: "??",
}


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(c.pretty for c in cards) or "–"


def describe_action(action: Action, hand: tuple[Card, ...] = ()) -> str:
    """An action in words, e.g. "knock, discarding 3♦"; ``hand`` (the eleven cards before
    a knock) tells a gin from a knock."""
    if isinstance(action, Pass):
        return _("pass the upcard")
    if isinstance(action, TakeUpcard):
        return _("take the upcard")
    if isinstance(action, DrawStock):
        return _("draw from the stock")
    if isinstance(action, TakeDiscard):
        return _("take the discard")
    if isinstance(action, Discard):
        return _("discard {card}").format(card=action.card.pretty)
    if isinstance(action, Knock):
        if action.card is None:
            return _("go big gin")
        if hand and deadwood([c for c in hand if c != action.card]) == 0:
            return _("go gin, discarding {card}").format(card=action.card.pretty)
        return _("knock, discarding {card}").format(card=action.card.pretty)
    return str(action)  # pragma: no cover


_KIND_LABELS = {
    "upcard": lambda: _("upcard"),
    "draw": lambda: _("draw"),
    "discard": lambda: _("discard"),
    "knock": lambda: _("knock or play on"),
    "gin": lambda: _("gin or play on"),
}


def _loss(d: DecisionReview) -> str:
    low, high = d.loss_interval
    return _("{loss:.1f} points [{low:.1f}, {high:.1f}]").format(
        loss=local_number(d.loss), low=local_number(low), high=local_number(high))


def render_decision(d: DecisionReview, *, number: int, position: bool = True) -> str:
    """A decision in a few lines: what was played, the best, the loss and grade, and the
    position (the player's cards, the upcard, the stock) as he saw it."""
    view = d.view
    hand = view.hand
    chosen = describe_action(d.chosen_action, hand)
    lines = [
        f"{_GRADE_MARK[d.grade]}{number:>3}. " + _("{kind}: you chose to {chosen}").format(
            kind=_KIND_LABELS[d.kind.value](), chosen=chosen)
        + " — " + _(d.grade.label)
    ]
    if d.chosen != d.best:
        lines.append("       " + _("best: {best}; you lost {loss}").format(
            best=describe_action(d.best_action, hand), loss=_loss(d)))
    if d.equity_best is not None and d.equity_best != d.best:
        lines.append("       " + _("on the score sheet the best is to {action}").format(
            action=describe_action(d.choices[d.equity_best].action, hand)))
    if position:
        where = _("your cards: {cards}").format(cards=_cards(hand))
        if view.upcard is not None and view.phase.value == "offer":
            where += "  " + _("upcard: {card}").format(card=view.upcard.pretty)
        elif view.upcard is not None and view.phase.value == "draw":  # not the upcard now
            where += "  " + _("top of the pile: {card}").format(card=view.upcard.pretty)
        if view.drawn_card is not None:
            where += "  " + _("drawn: {card}").format(card=view.drawn_card.pretty)
        if view.taken_card is not None:
            where += "  " + _("taken: {card}").format(card=view.taken_card.pretty)
        where += "  " + ngettext("{n} card in the stock", "{n} cards in the stock",
                                 view.stock_count).format(n=view.stock_count)
        if view.opponent_known:
            where += "  " + _("opponent holds {cards}").format(cards=_cards(view.opponent_known))
        lines.append("       " + where)
    h = d.hindsight
    if h is not None:
        if d.chosen == d.best:
            outcome = _("on the real cards your choice scores {mine:+d}").format(
                mine=h.chosen_points)
        else:
            worked = _("it worked out") if h.worked_out else _("it did not work out")
            outcome = _("on the real cards your choice scores {mine:+d}, the best {best:+d}: "
                        "{worked}").format(mine=h.chosen_points, best=h.best_points,
                                           worked=worked)
        lines.append("       " + _("hindsight (not used for the grade): the opponent held "
                                   "{cards}; {outcome}").format(
            cards=_cards(h.opponent_hand), outcome=outcome))
    return "\n".join(lines)


def _summary(review: HandReview | MatchReview) -> list[str]:
    acc = review.accuracy
    n = len(review.decisions)
    if isinstance(review, MatchReview) and not review.hands:
        return [_("No hand of this match is over yet: a hand is reviewed once it ends.")]
    if acc is None:
        return [_("No decision to review: every turn had a single legal action.")]
    counts = review.grade_counts
    grades = ", ".join(f"{_(g.label)} {counts[g]}" for g in Grade if counts[g])
    lines = [
        _("Accuracy {accuracy:.0f} of 100, {lost:.1f} expected points lost").format(
            accuracy=acc, lost=local_number(review.points_lost))
        + " " + ngettext("over {n} decision", "over {n} decisions", n).format(n=n)
        + f" ({grades})",
        _("Points lost by kind: {groups}").format(groups=", ".join(
            f"{_(label)} {local_number(review.losses_by_group[key]):.1f}"
            for key, label in GROUPS.items())),
    ]
    return lines


_RESULT_WORDS = {
    "knock": N_("knock"), "undercut": N_("undercut"), "gin": N_("gin"), "big_gin": N_("big gin"),
}


def _hand_title(h: HandReview, names: tuple[str, str]) -> str:
    r = h.result
    if r is None:
        how = _("unfinished")
    elif r.winner is None:
        how = _("dead hand")
    else:
        how = say_about(names[r.winner], _("you won {points} ({kind})"),
                        _("{name} won {points} ({kind})"), points=r.points,
                        kind=_(_RESULT_WORDS.get(r.kind, r.kind)))
    return _("Hand {number}: {how}").format(number=h.hand_number, how=how)


def render_match(review: MatchReview, *, every_decision: bool | None = None,
                 width: int = 80) -> str:
    """The review as text: the summary, the worst decisions and, for one hand (or with
    ``every_decision``), every decision with its position; lines wrapped at spaces to
    ``width`` columns, a wrapped line's rest indented under its start."""
    names = review.names
    who = names[review.player]
    every = len(review.hands) == 1 if every_decision is None else every_decision
    if is_you(who):  # the terminal game's own name for its player
        lines = [_("Review of your decisions (player {number})").format(number=review.player)]
    else:
        lines = [_("Review of {player}'s decisions (player {number})").format(
            player=who, number=review.player)]
    lines += _summary(review)
    lines.append(_("Grades are expected points lost against the best choice, both players then "
                   "playing on with the expert's playout policy; intervals are 95%."))
    if every:
        for h in review.hands:
            lines += ["", _hand_title(h, names)]
            if len(review.hands) > 1:
                lines += ["  " + line for line in _summary(h)]
            for k, d in enumerate(h.decisions, 1):
                lines.append(render_decision(d, number=k))
    elif review.hands:
        lines += ["", _("Hands:")]
        for h in review.hands:
            acc = h.accuracy
            lines.append("  " + _hand_title(h, names) + "  " + (
                _("accuracy {accuracy:.0f}, lost {lost:.1f}").format(
                    accuracy=acc, lost=local_number(h.points_lost)) if acc is not None
                else _("no decision")))
    worst = review.worst()
    if worst:
        lines += ["", _("Worst decisions:")]
        for d in worst:
            hand = review.hand(d.hand_number)
            number = hand.decisions.index(d) + 1
            lines.append(_("Hand {hand}, decision {number}:").format(hand=d.hand_number,
                                                                    number=number))
            lines.append(render_decision(d, number=number))
    if not every and len(review.hands) > 1:
        lines += ["", _("See every decision of a hand with --hand K.")]
    text = "\n".join(lines)  # a decision is several lines already
    return "\n".join(wrapped for line in text.split("\n") for wrapped in wrap_line(line, width))


class ReviewProgress:
    """A one-line progress bar on a terminal, and nothing at all when not on one."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.start = time.perf_counter()
        self.last = -1.0

    def __call__(self, done: int, total: int) -> None:
        if not self.tty or total <= 0:
            return
        now = time.perf_counter()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * done // total
        elapsed = now - self.start
        left = elapsed / done * (total - done) if done else 0.0
        line = _("review [{bar}] {done}/{total} decisions, {left:.0f}s left").format(
            bar="#" * filled + "." * (width - filled), done=done, total=total, left=left)
        self.stream.write("\r" + line + ("\n" if done == total else ""))
        self.stream.flush()
