"""The review's accuracy orders the bots as play does: expert > greedy > basic > random.

Reviewing whole matches of every bot would take minutes, so the test reviews decisions,
not hands.  For each pair of neighbours (basic and random, greedy and basic, the expert
and greedy), positions are sampled from a few hundred self-play hands of both, both bots
are asked what they would play, and where they disagree the position is reviewed once,
every choice on the same deals, so the two answers are judged on the same deals.  Where
they agree their accuracies are equal by definition and the difference is 0.  The
difference in accuracy, position by position, must have a 95% interval above zero.

The expert plays greedy's heuristic except where it searches (a knock, a card worth
taking, and a discard where greedy's best two are close), so its positions are sampled
among the upcard, draw and knock decisions, and reviewed with more deals; its discard
search is not judged here (its gain is measured in play: docs/bots.md).
"""

from __future__ import annotations

import math
import random
import statistics

from hollywood_gin.bots import make_bot
from hollywood_gin.hand import Hand, HandView
from hollywood_gin.review import Kind, ReviewSettings, decision_accuracy, decision_kind
from hollywood_gin.review import review_decision as review
from hollywood_gin.rules import Rules

BOTS = ("random", "basic", "greedy", "expert")
RULES = Rules()


def self_play(spec: str, hands: int, seed: int) -> list[HandView]:
    """Every position with a choice in ``hands`` self-play hands of ``spec``."""
    out = []
    for n in range(hands):
        bots = [make_bot(spec, seed=seed + 2 * n), make_bot(spec, seed=seed + 2 * n + 1)]
        hand = Hand.deal(rules=RULES, dealer=n % 2, seed=seed * 1000 + n)
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if len(view.legal_actions) > 1:
                out.append(view)
            hand.apply(bots[seat].choose(view), seat)
    return out


def interval(diffs: list[float]) -> tuple[float, float]:
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return mean - half, mean + half


def paired_difference(better: str, worse: str, positions: list[HandView], deals: int
                      ) -> tuple[float, float, int]:
    """The 95% interval of ``better``'s accuracy minus ``worse``'s over ``positions``, and
    how many positions they disagreed on."""
    diffs = []
    for k, view in enumerate(positions):
        mine = make_bot(better, seed=k).choose(view)
        theirs = make_bot(worse, seed=k).choose(view)
        if mine.id == theirs.id:
            diffs.append(0.0)
            continue
        settings = ReviewSettings(seed=k, min_deals=deals, max_deals=deals)
        loss = {c.action.id: c.loss for c in review(view, mine, settings=settings).choices}
        diffs.append(decision_accuracy(loss[mine.id]) - decision_accuracy(loss[theirs.id]))
    low, high = interval(diffs)
    return low, high, sum(d != 0 for d in diffs)


def sample(specs: tuple[tuple[str, int, int], ...], count: int, seed: int,
           kinds: tuple[Kind, ...] = tuple(Kind)) -> list[HandView]:
    """``count`` positions of the given kinds from the self-play of each (spec, hands,
    seed), shared equally."""
    rng = random.Random(seed)
    out = []
    for spec, hands, spec_seed in specs:
        positions = [v for v in self_play(spec, hands, spec_seed) if decision_kind(v) in kinds]
        out += rng.sample(positions, min(len(positions), count // len(specs)))
    return out


def test_basic_is_more_accurate_than_random() -> None:
    positions = sample((("random", 30, 100), ("basic", 30, 200)), 160, seed=1)
    low, high, _ = paired_difference("basic", "random", positions, deals=16)
    assert low > 0, (low, high)


def test_greedy_is_more_accurate_than_basic() -> None:
    """They differ on about one position in five (greedy's discards watch the opponent,
    basic throws any least-deadwood card and knocks at once), so many positions."""
    positions = sample((("greedy", 150, 300), ("basic", 150, 400)), 1000, seed=2)
    low, high, differ = paired_difference("greedy", "basic", positions, deals=48)
    assert low > 0, (low, high, differ)


def test_the_expert_is_more_accurate_than_greedy() -> None:
    searched = (Kind.UPCARD, Kind.DRAW, Kind.KNOCK)
    positions = sample((("greedy", 100, 500), ("expert", 20, 600)), 600, seed=3,
                       kinds=searched)
    low, high, differ = paired_difference("expert", "greedy", positions, deals=96)
    assert low > 0, (low, high, differ)
