"""Reviews of saved matches, kept in the store so that each hand is reviewed once.

A hand's review costs about a second of CPU and a whole Hollywood match about thirty,
so the games never make one twice: every hand reviewed for a seat is saved
(``Store.save_review``, keyed by match, hand, seat and :func:`method_key`), and a review
of a match reads the hands already reviewed and makes only the missing ones, saving each
as soon as it is done (leaving half-way keeps what was done).  The terminal game, the
web server and ``hollywood-gin review --saved`` / ``stats --review`` all go through
:func:`review_saved`, so they share one cache.

Hindsight lines are always computed and kept (they cost two playouts a decision); a
caller that does not want them strips them (:func:`without_hindsight`).  Reviews are of
finished hands only, where the rules have shown both hands (R3.4).

**Accuracy over time** (the statistics) is read from the kept summaries, never computed
there: :func:`match_accuracies` gives a match's accuracy for a seat once every hand of
the finished match has been reviewed the same way, as the mean over all its decisions.
Reviewing every past match lazily for a statistics page would cost half a minute of CPU
a match, so a match enters the statistics when its review is made (at its end in the
games, or with ``hollywood-gin stats --review ID``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..hand import Hand
from ..match import Match
from ..store import ReviewRow, Store
from .engine import ReviewSettings, hands_to_review, review_hand
from .model import REVIEW_VERSION, HandReview, MatchReview, ReviewError

__all__ = [
    "MatchAccuracy",
    "ReviewCancelled",
    "decision_counts",
    "match_accuracies",
    "method_key",
    "review_saved",
    "without_hindsight",
]

#: Bumped when what is kept changes shape, so that older rows are simply not found.
CACHE_VERSION = 1

Progress = Callable[[int, int], None]


class ReviewCancelled(Exception):
    """The person left the review: the work stops (hands finished so far stay saved)."""


def method_key(settings: ReviewSettings) -> str:
    """How a review was made, as a short key: reviews made otherwise are other rows."""
    text = json.dumps({"version": REVIEW_VERSION, "cache": CACHE_VERSION,
                       "method": settings.method()}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def decision_counts(match: Match, player: int, hands: Iterable[int]) -> dict[int, int]:
    """How many decisions (turns with more than one legal choice) ``player`` had in each of
    ``hands``: the work a review of them will do, for a progress bar."""
    out = {}
    for number in hands:
        hand = match.hands[number - 1]
        assert hand.deck is not None
        replay = Hand.from_deck(hand.deck, rules=hand.rules, dealer=hand.dealer)
        count = 0
        for p, action in hand.history:
            if p == player and len(replay.legal_actions()) > 1:
                count += 1
            replay.apply(action, p)
        out[number] = count
    return out


def without_hindsight(review: HandReview) -> HandReview:
    """The same review with no hindsight line."""
    return replace(review, hand_decisions=tuple(replace(d, hindsight=None)
                                                for d in review.decisions))


def _row(match_id: str, review: HandReview, method: str) -> ReviewRow:
    return ReviewRow(match_id, review.hand_number, review.player, method, time.time(),
                     len(review.decisions), review.accuracy, review.points_lost)


def stored_hand_reviews(store: Store, match_id: str, match: Match, player: int,
                        settings: ReviewSettings, hands: Sequence[int] | None = None
                        ) -> dict[int, HandReview]:
    """The hand reviews already kept for ``player`` (made with ``settings``), by hand; a
    row that cannot be read any more is left out (it will be made again)."""
    out = {}
    for number, data in store.reviews(match_id, player, method_key(settings), hands).items():
        try:
            out[number] = HandReview.from_dict(json.loads(data), rules=match.rules)
        except (ValueError, ReviewError):
            continue
    return out


def review_saved(
    store: Store,
    match_id: str,
    player: int,
    *,
    match: Match | None = None,
    names: tuple[str, str] | None = None,
    hands: Sequence[int] | None = None,
    settings: ReviewSettings | None = None,
    jobs: int = 1,
    hindsight: bool = True,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    on_hand: Callable[[HandReview], None] | None = None,
) -> MatchReview:
    """The review of ``player``'s decisions in a saved match (the finished hands, or
    ``hands``), reading the hands kept in the store and making (and keeping) the others.

    ``match`` is the match as replayed, when the caller has it already (else it is loaded);
    ``progress(done, total)`` counts the decisions still to review; ``cancelled()`` is
    asked after each decision and, when it says True, :class:`ReviewCancelled` is raised;
    ``on_hand`` is told of each hand as soon as its review is there (kept ones first).
    """
    settings = settings or ReviewSettings()
    if match is None or names is None:
        persistent = store.open_match(match_id)
        match = match if match is not None else persistent.match
        names = names if names is not None else persistent.players
    wanted = hands_to_review(match, player, hands)
    have = stored_hand_reviews(store, match_id, match, player, settings, wanted)
    for k in wanted:
        if k in have and on_hand is not None:
            on_hand(have[k])
    missing = [k for k in wanted if k not in have]
    counts = decision_counts(match, player, missing)
    total = sum(counts.values())
    done = 0

    def step(finished: int, _total: int) -> None:
        if cancelled is not None and cancelled():
            raise ReviewCancelled
        if progress is not None:
            progress(done + finished, total)

    if progress is not None:
        progress(0, total)
    method = method_key(settings)
    for k in missing:
        review = review_hand(match, k, player, settings=settings, jobs=jobs, progress=step,
                             hindsight=True)
        store.save_review(_row(match_id, review, method),
                          json.dumps(review.to_dict(standalone=False)))
        have[k] = review
        done += counts[k]
        if on_hand is not None:
            on_hand(review)
    reviews = [have[k] if hindsight else without_hindsight(have[k]) for k in wanted]
    return MatchReview(player=player, names=names, rules=match.rules, hands=tuple(reviews),
                       method=dict(settings.method()))


# -- accuracy over time ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchAccuracy:
    """A seat's accuracy over a whole finished match (every hand reviewed the same way)."""

    match_id: str
    seat: int
    accuracy: float
    decisions: int
    points_lost: float
    reviewed_at: float


def match_accuracies(rows: Iterable[ReviewRow], hand_counts: dict[str, int]
                     ) -> dict[tuple[str, int], MatchAccuracy]:
    """Per (match, seat), the accuracy over all the match's decisions, from the kept
    reviews' summaries (``Store.review_rows``), for the matches whose hand count is in
    ``hand_counts`` and whose every hand has a review made the same way (the latest such
    way, if several).  A match with no decision at all has no accuracy."""
    groups: dict[tuple[str, int, str], list[ReviewRow]] = {}
    for row in rows:
        if row.match_id in hand_counts:
            groups.setdefault((row.match_id, row.seat, row.method), []).append(row)
    out: dict[tuple[str, int], MatchAccuracy] = {}
    for (match_id, seat, _method), group in groups.items():
        if {r.hand_number for r in group} != set(range(1, hand_counts[match_id] + 1)):
            continue
        decisions = sum(r.decisions for r in group)
        if not decisions:
            continue
        accuracy = sum((r.accuracy or 0.0) * r.decisions for r in group) / decisions
        when = max(r.created_at for r in group)
        found = MatchAccuracy(match_id, seat, accuracy, decisions,
                              sum(r.points_lost for r in group), when)
        old = out.get((match_id, seat))
        if old is None or old.reviewed_at < when:
            out[(match_id, seat)] = found
    return out


def summary_dict(review: MatchReview | HandReview) -> dict[str, Any]:
    """The numbers a game shows over a review (JSON-ready)."""
    acc = review.accuracy
    return {"accuracy": acc, "points_lost": review.points_lost,
            "decisions": len(review.decisions)}


# -- for a server: a hand reviewed in a worker process ------------------------------------------


def match_log(match: Match, last: int) -> list[list[tuple[int, str]]]:
    """Hands 1 to ``last`` of a match as plain data (each hand's log of ``(player,
    action)``): what a worker process needs to deal and replay them (the deal comes from
    the match's seed), and safe to hand over while the match itself goes on."""
    return [[(p, str(a)) for p, a in match.hands[k].history] for k in range(last)]


def review_from_log(rules: dict[str, Any], seed: int, first_dealer: int,
                    log: list[list[tuple[int, str]]], player: int,
                    settings: ReviewSettings) -> tuple[str, ReviewRow]:
    """Replay a match from :func:`match_log` and review ``player``'s decisions in its last
    hand (which must be over): the review's JSON and its summary row (match id left
    empty).  A module-level function, so that a process pool can run it."""
    from ..actions import parse_action
    from ..rules import Rules

    match = Match(rules=Rules.from_dict(rules), seed=seed, first_dealer=first_dealer)
    for k, hand_log in enumerate(log):
        if k:
            match.next_hand()
        for p, text in hand_log:
            match.apply(parse_action(text), p)
    review = review_hand(match, len(log), player, settings=settings, hindsight=True)
    return (json.dumps(review.to_dict(standalone=False)),
            _row("", review, method_key(settings)))
