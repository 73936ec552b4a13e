"""The analysis behind a review: every legal choice of every decision played out on deals
drawn from what the player could know, and compared deal by deal.

**What a decision is worth.**  At each of the player's turns with more than one legal
choice, the view he had then (:meth:`Hand.view`: his cards, the public pile and log,
never the opponent's cards) is re-dealt many times: the cards he could not see are
shared out between the opponent's hand and the stock by the expert's opponent model
(:func:`~hollywood_gin.bots.search.sample_deals`: each card weighted by the learned
model's chance that he holds it, read from his picks, passes and throws (``handnet``),
and as melded as a real hand is by then).  On each deal every choice is played, then
the hand is played to its end by the **continuation policy**.  A knock short of gin is
valued, the same on every deal, by the learned distribution of his deadwood after
lay-offs (``knocknet``): re-deals give a late opponent too weak a hand, so on them every
knock looked safer than it is, and a player who rightly played on was charged for it.

**The continuation policy** is the expert's playout (:class:`~hollywood_gin.bots.search.
Playout`) for both seats: take a pile card only if it melds and lowers the deadwood,
throw the card leaving the least deadwood, always go gin, knock by a schedule (the
player's: any count the rules allow for four opponent draws, then 0.8 less per draw,
never demanding below 2; the opponent's: at once on 70% of the deals, by the same
schedule on 30%).  So a choice's value is "what this choice is worth if, from the next
decision on, both players play that sensible, fast, opponent-blind heuristic".  It is
not a perfect player: it never throws a safe card to starve the opponent, never breaks
a meld to go for gin, and it rates a choice by where it leaves the hand under *that*
continuation.  A choice that only pays off with clever play later is under-rated, and
the loss is "points lost against the best choice, both then played sensibly", not
against perfect play.  The expert, which searches with this very policy and these
models, therefore agrees with the review more than any player could against a perfect
judge.

**Paired comparison.**  All choices are played on the same deals, so the loss of the
choice made against the best one is measured per deal (the luck of the deal cancels)
with a 95% interval from the per-deal differences.  Sampling is adaptive: every choice
is played on ``min_deals`` deals, then only the contenders (the choice made, the leader
and any choice that may still beat it) go on, in batches, until the grade of the choice
made is settled or ``max_deals`` is reached.

Grades, accuracy and their thresholds are defined in :mod:`.model`.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from ..actions import Action, Knock
from ..bots.search import ChoiceSampler, Continuation, Deal, play_choice
from ..cards import cards_from_mask
from ..hand import Hand, HandView, Phase
from ..i18n import _
from ..match import Match
from ..melds import deadwood_of_mask
from ..sheet import ScoreSheet
from .grades import ACCURACY_SCALE, BLUNDER, INACCURACY, MISTAKE, Kind, grade_of
from .model import (
    ChoiceValue,
    DecisionReview,
    HandResultSummary,
    HandReview,
    Hindsight,
    MatchReview,
    ReviewError,
)

__all__ = [
    "ReviewSettings",
    "decision_kind",
    "review_decision",
    "review_hand",
    "review_match",
    "review_record",
]

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How hard to look: the seed of every deal, deals per decision and the interval.

    The defaults review a hand in about a second on one core; more deals narrow the
    intervals (and settle more grades) at proportional cost.
    """

    seed: int = 0
    min_deals: int = 24  # every choice is played on this many deals ...
    max_deals: int = 192  # ... the contenders on up to this many
    batch: int = 24  # deals added at a time to the contenders
    z: float = 1.96  # the intervals' width in standard errors (95%)
    continuation: Continuation = field(default_factory=Continuation)

    def __post_init__(self) -> None:
        # Two deals at least: a choice is picked on some deals and priced on the others
        # (held out, against the winner's curse); on one deal there are no others.
        for name, least in (("min_deals", 2), ("max_deals", 2), ("batch", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not (
                    least <= value <= 100_000):
                raise ReviewError(f"{name} must be a whole number from {least} to 100000, "
                                  f"not {value!r}")
        if self.max_deals < self.min_deals:
            raise ReviewError(f"max_deals ({self.max_deals}) is below min_deals "
                              f"({self.min_deals})")
        if not (isinstance(self.z, int | float) and 0 < self.z < 10):
            raise ReviewError(f"z must be a number between 0 and 10, not {self.z!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ReviewError(f"the seed must be a whole number, not {self.seed!r}")

    def method(self) -> dict[str, object]:
        """How a review was made, for its JSON (same record + same method = same review)."""
        return {
            "seed": self.seed,
            "min_deals": self.min_deals,
            "max_deals": self.max_deals,
            "batch": self.batch,
            "z": self.z,
            "continuation": "expert playout policy for both seats",
            "continuation_settings": asdict(self.continuation),
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "accuracy": f"mean of 100*exp(-loss/{ACCURACY_SCALE:g}) over decisions",
        }


def decision_kind(view: HandView) -> Kind:
    """What the decision in ``view`` is about (see :class:`Kind`)."""
    if view.phase is Phase.OFFER:
        return Kind.UPCARD
    if view.phase is Phase.DRAW:
        return Kind.DRAW
    mask = view.hand_mask
    kind = Kind.DISCARD
    for action in view.legal_actions:
        if isinstance(action, Knock):
            if action.card is None or deadwood_of_mask(mask & ~action.card.bit) == 0:
                return Kind.GIN
            kind = Kind.KNOCK
    return kind


# -- statistics over shared deals --------------------------------------------------------------


def _paired(a: list[float], b: list[float]) -> tuple[float, float, int]:
    """Mean and standard error of ``a - b`` over the deals both were played on."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, math.inf, 0
    diffs = [a[i] - b[i] for i in range(n)]
    mean = sum(diffs) / n
    if n == 1:
        return mean, math.inf if mean else 0.0, 1
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n), n


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def _t(z: float, n: int) -> float:
    """The two-sided quantile of Student's t with ``n - 1`` degrees of freedom matching the
    normal one ``z``: a mean of few deals is far less sure than ``z`` says (two deals
    graded a right pass a confident blunder; a QA pass).  Exact for one and two degrees
    of freedom, a Cornish-Fisher series (Abramowitz and Stegun 26.7.5) past them."""
    df = n - 1
    if df <= 0:
        return math.inf
    p = 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) * math.sqrt(2.0 / (4 * p * (1 - p)))
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def _half(z: float, se: float, n: int) -> float:
    """Half an interval's width: ``t × se`` (none when every deal agreed)."""
    return 0.0 if se == 0 else _t(z, n) * se


def _band(loss: float) -> int:
    return 0 if loss < INACCURACY else 1 if loss < MISTAKE else 2 if loss < BLUNDER else 3


def _leader(values: list[list[float]], among: Iterable[int], prefer: int) -> int:
    """The choice with the highest mean (ties go to ``prefer``, then the lowest index)."""
    return max(among, key=lambda c: (sum(values[c]) / max(1, len(values[c])), c == prefer, -c))


def _settled(values: list[list[float]], active: set[int], leader: int, chosen: int,
             z: float) -> bool:
    """True once more deals could not change the chosen choice's grade: the least loss it
    may have and the most it may have fall in the same band (best and good together)."""
    mean, se, n = _paired(values[leader], values[chosen])
    low = mean - _half(z, se, n)
    most = 0.0
    for c in active:
        if c == chosen:
            continue
        m, s, k = _paired(values[c], values[chosen])
        most = max(most, m + _half(z, s, k))
    if low <= 0:  # good (or best) now; settled only if it could not be worse than good
        return most < INACCURACY
    return _band(low) == _band(most)


# -- one decision ----------------------------------------------------------------------------


def _decision_rng(settings: ReviewSettings, hand_number: int, view: HandView) -> random.Random:
    """The deals of a decision depend on the seed and on where the decision is, never on a
    hidden card (twin records with different hidden cards get the same deals)."""
    return random.Random(f"review:{settings.seed}:{hand_number}:{len(view.history)}:"
                         f"{view.player}")


def review_decision(
    view: HandView,
    chosen: Action,
    *,
    sheet: ScoreSheet | None = None,
    settings: ReviewSettings | None = None,
    hand_number: int = 1,
) -> DecisionReview:
    """Analyse one decision from the player's ``view`` alone: every legal choice's value,
    the best, the loss of ``chosen`` and its grade.  ``sheet`` (the score sheet when the
    hand was dealt) adds sheet equity.  Raises :class:`ReviewError` if ``chosen`` is not
    legal or there is no choice to make."""
    settings = settings or ReviewSettings()
    legal = list(view.legal_actions)
    if len(legal) < 2:
        raise ReviewError("there is no decision to review: the player had one legal action "
                          "or none")
    ids = [a.id for a in legal]
    if chosen.id not in ids:
        raise ReviewError(f"{chosen} was not a legal choice in this position")
    pick = ids.index(chosen.id)
    sampler = ChoiceSampler(view, legal, _decision_rng(settings, hand_number, view),
                            sheet=sheet, continuation=settings.continuation)
    values = sampler.points
    z = settings.z
    everyone = list(range(len(legal)))
    n = settings.min_deals
    sampler.run(everyone, n)
    active = set(everyone)
    while True:
        leader = _leader(values, active, pick)
        keep = {leader, pick}
        # Every choice against this leader, those dropped before too: one dropped against
        # an earlier leader may be ahead of this one (it was shown with more points than
        # the best, above it in the table; a QA pass), and is played on again.
        for c in set(everyone) - keep:
            m, s, k = _paired(values[leader], values[c])
            if m - _half(z, s, k) <= 0 and not (m == 0 and s == 0):  # may still beat it
                keep.add(c)
        active = keep
        short = sorted(c for c in active if len(values[c]) < n)
        if short:  # taken back: on the deals the others were played on first
            sampler.run(short, n)
            continue
        if n >= settings.max_deals or _settled(values, active, leader, pick, z):
            break
        n = min(settings.max_deals, n + settings.batch)
        sampler.run(sorted(active), n)
    return _summarise(view, legal, pick, sampler, z, hand_number)


def _crossfit(values: list[list[float]], contenders: list[int], prefer: int
              ) -> Callable[[list[float]], tuple[float, float, int]]:
    """The loss of a choice against the best, measured on deals that did not pick the best.

    The best of many noisy means is flattered by its noise (the winner's curse), and so
    would be every loss measured against it.  So the best is picked twice, on the even
    deals and on the odd ones, and each choice is compared on the even deals with the
    odd deals' pick and on the odd deals with the even deals' pick.  If the pick is
    wrong the loss comes out low, never high: a player is not charged for noise.
    """
    n = min(len(values[c]) for c in contenders)

    def pick(parity: int) -> int:
        rows = range(parity, n, 2)
        if not rows:
            return _leader(values, contenders, prefer)
        return max(contenders, key=lambda c: (sum(values[c][i] for i in rows), c == prefer, -c))

    on_even, on_odd = pick(1), pick(0)  # the pick that judges even deals is made on odd ones

    def loss(own: list[float]) -> tuple[float, float, int]:
        judge = (values[on_even], values[on_odd])
        diffs = [judge[i % 2][i] - own[i] for i in range(min(len(own), n))]
        return (*_mean_se(diffs), len(diffs))

    return loss


def _summarise(view: HandView, legal: list[Action], pick: int, sampler: ChoiceSampler,
               z: float, hand_number: int) -> DecisionReview:
    values = sampler.points
    longest = max(len(v) for v in values)
    full = [c for c in range(len(legal)) if len(values[c]) == longest]
    best = _leader(values, full, pick)
    best_mean = sum(values[best]) / longest
    held_out = _crossfit(values, full, pick)
    choices = []
    for c, action in enumerate(legal):
        m, s, _shared = _paired(values[best], values[c])
        mean, se = _mean_se(values[c])
        if len(values[c]) < longest:  # fewer deals: its value through the best's, paired
            mean = best_mean - m
        is_best = c == best or (m == 0 and s == 0)  # or the same result on every deal
        if is_best:
            loss = low = high = 0.0
        else:
            loss, low, high = _loss_interval(*held_out(values[c]), z)
        equity = None
        if sampler.priced:
            equity = sum(sampler.equity[c]) / len(sampler.equity[c])
        choices.append(ChoiceValue(
            action=action, points=mean, points_se=se, deals=len(values[c]),
            loss=loss, loss_low=low, loss_high=high,
            grade=grade_of(loss, low, best=is_best), equity=equity,
        ))
    eq_best = eq_loss = eq_low = eq_high = None
    if sampler.priced:
        eq = sampler.equity
        eq_best = _leader(eq, full, pick)
        if eq_best == pick:
            eq_loss = eq_low = eq_high = 0.0
        else:
            eq_loss, eq_low, eq_high = _loss_interval(*_crossfit(eq, full, pick)(eq[pick]), z)
    return DecisionReview(
        hand_number=hand_number, ply=len(view.history), kind=decision_kind(view), view=view,
        choices=tuple(choices), chosen=pick, best=best,
        deals=min(len(values[pick]), len(values[best])),
        equity_best=eq_best, equity_loss=eq_loss, equity_low=eq_low, equity_high=eq_high,
    )


def _loss_interval(mean: float, se: float, n: int, z: float) -> tuple[float, float, float]:
    """A held-out loss and its interval, never below 0: a choice loses nothing or more.
    Held out, near-equal choices can measure below 0 (each half's pick does badly on the
    other half); the loss was shown as 0.0 and its interval as [-7.6, -0.9], outside it
    (a QA pass)."""
    half = _half(z, se, n)
    return max(0.0, mean), max(0.0, mean - half), max(0.0, mean + half)


def hindsight_of(review: DecisionReview, truth: Hand, continuation: Continuation) -> Hindsight:
    """What the choice made and the best one would have scored on the real cards (``truth``
    is the hand at that moment), both seats then playing the continuation policy."""
    view = review.view
    me = view.player
    sampler = ChoiceSampler(view, [review.chosen_action], random.Random(0),
                            continuation=continuation)
    deal = Deal(truth.hands[1 - me], list(truth.stock))
    playout = sampler.models[0][0]

    def points(action: Action) -> int:
        winner, won = play_choice(view, sampler.sense, playout, deal, action)
        return 0 if winner is None else (won if winner == me else -won)

    return Hindsight(
        opponent_hand=cards_from_mask(truth.hands[1 - me]),
        chosen_points=points(review.chosen_action),
        best_points=points(review.best_action),
    )


# -- hands and matches -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Task:
    """One decision to review, as a worker process gets it."""

    hand_number: int
    view: HandView
    chosen: Action
    sheet: ScoreSheet
    settings: ReviewSettings
    truth: Hand | None  # the real hand at that moment, for the hindsight line only


def _run_task(task: _Task) -> DecisionReview:
    review = review_decision(task.view, task.chosen, sheet=task.sheet, settings=task.settings,
                             hand_number=task.hand_number)
    if task.truth is None:
        return review
    return replace(review, hindsight=hindsight_of(review, task.truth, task.settings.continuation))


def _tasks(match: Match, number: int, player: int, sheet: ScoreSheet, settings: ReviewSettings,
           hindsight: bool) -> list[_Task]:
    hand = match.hands[number - 1]
    if hand.deck is None:  # pragma: no cover - hands of a match are always dealt from a deck
        raise ReviewError(f"hand {number} has no deck to replay")
    replay = Hand.from_deck(hand.deck, rules=hand.rules, dealer=hand.dealer)
    tasks = []
    for p, action in hand.history:
        if p == player:
            view = replay.view(player)
            if len(view.legal_actions) > 1:
                tasks.append(_Task(number, view, action, sheet, settings,
                                   replay.clone() if hindsight else None))
        replay.apply(action, p)
    return tasks


def hands_to_review(match: Match, player: object, hands: Sequence[int] | None) -> list[int]:
    """The hands a review of ``player`` covers: those asked for, each finished (R3.4: a
    hand in play keeps its cards hidden), or every finished one; refused in the player's
    language otherwise."""
    if player not in (0, 1) or isinstance(player, bool):
        raise ReviewError(_("there is no player {player!r}; players are 0 and 1").format(
            player=player))
    count = len(match.hands)
    if hands is None:
        return [k for k in range(1, count + 1) if match.hands[k - 1].is_over]
    wanted = list(hands)
    for k in wanted:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= count:
            raise ReviewError(_("there is no hand {hand!r}; the match has hands 1 to "
                                "{count}").format(hand=k, count=count))
        if not match.hands[k - 1].is_over:
            raise ReviewError(_("hand {hand} is not over yet: only finished hands are "
                                "reviewed").format(hand=k))
    return wanted


def review_match(
    match: Match,
    player: int,
    *,
    hands: Sequence[int] | None = None,
    settings: ReviewSettings | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    hindsight: bool = False,
    names: tuple[str, str] = ("Player 0", "Player 1"),
) -> MatchReview:
    """Review ``player``'s decisions in the finished hands of ``match`` (or in the hands
    numbered ``hands``, 1 first, which must be finished).  ``jobs`` processes share the
    work; the review is the same for any number of them.  ``progress(done, total)`` is
    called as decisions are done.  ``hindsight`` adds the labelled after-the-fact line
    to each decision (it never changes a grade)."""
    settings = settings or ReviewSettings()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ReviewError(f"jobs must be a whole number, 1 or more, not {jobs!r}")
    wanted = hands_to_review(match, player, hands)
    sheet = ScoreSheet(match.rules)
    sheets: dict[int, ScoreSheet] = {}
    for k, hand in enumerate(match.hands, 1):
        sheets[k] = sheet.copy()
        result = hand.result
        if result is not None and result.winner is not None:
            sheet.record(result.winner, result.points)
    tasks = [t for k in wanted for t in _tasks(match, k, player, sheets[k], settings, hindsight)]
    reviews = _run_all(tasks, jobs, progress)
    by_hand: dict[int, list[DecisionReview]] = {k: [] for k in wanted}
    for review in reviews:
        by_hand[review.hand_number].append(review)
    out = []
    for k in wanted:
        hand = match.hands[k - 1]
        result = hand.result
        out.append(HandReview(
            hand_number=k, player=player, dealer=hand.dealer, rules=hand.rules,
            history=tuple(hand.history),
            result=None if result is None else HandResultSummary(
                result.kind, result.winner, result.knocker, result.points),
            sheet_before=tuple((e.player, e.points) for e in sheets[k].entries),
            hand_decisions=tuple(by_hand[k]),
        ))
    return MatchReview(player=player, names=names, rules=match.rules, hands=tuple(out),
                       method=settings.method())


def _run_all(tasks: list[_Task], jobs: int, progress: Progress | None) -> list[DecisionReview]:
    total = len(tasks)
    if progress:
        progress(0, total)
    if jobs == 1 or total < 2:
        out = []
        for task in tasks:
            out.append(_run_task(task))
            if progress:
                progress(len(out), total)
        return out
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    out = []
    with ctx.Pool(min(jobs, total)) as pool:
        for review in pool.imap(_run_task, tasks, chunksize=1):
            out.append(review)
            if progress:
                progress(len(out), total)
    return out


def review_hand(
    match: Match,
    number: int,
    player: int,
    *,
    settings: ReviewSettings | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    hindsight: bool = False,
) -> HandReview:
    """Review ``player``'s decisions in hand ``number`` (1 first) of ``match``, which must
    be over: what a game shows at the end of a hand."""
    review = review_match(match, player, hands=[number], settings=settings, jobs=jobs,
                          progress=progress, hindsight=hindsight)
    return review.hands[0]


def review_record(
    path: str | Path,
    player: int,
    *,
    hands: Sequence[int] | None = None,
    settings: ReviewSettings | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    hindsight: bool = False,
) -> MatchReview:
    """Review a match record file (docs/record-format.md); a bad record raises
    :class:`~hollywood_gin.errors.RecordError`."""
    import json

    from ..record import loads_record, players_of_record, read_record_file

    raw = read_record_file(path)  # read once, in any JSON encoding (a BOM, UTF-16)
    match = loads_record(raw)
    data = json.loads(raw)
    return review_match(match, player, hands=hands, settings=settings, jobs=jobs,
                        progress=progress, hindsight=hindsight, names=players_of_record(data))
