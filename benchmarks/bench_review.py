"""Benchmark of the game review (issue 13): one hand's review and a whole match's.

Run from the repository root::

    PYTHONPATH=src python3 benchmarks/bench_review.py --repeat 3 --jobs 2 \\
        --json benchmarks/results/bench_review.json

What it measures, on matches the expert plays against greedy (Hollywood rules):

1. One hand's review (``review_hand``, one process): every hand in which the reviewed
   player made 10 to 15 decisions; wall and CPU seconds per hand, median over hands
   and repeats (target: under 2 seconds, so a game can show it at the end of a hand).
2. A whole match (``review_match`` with ``--jobs``): both players' decisions of the
   longest of a few matches, wall seconds, median over repeats, and the same scaled to
   1,000 decisions (target: a match of about 1,000 decisions in under 60 seconds with
   two jobs).

The machine may be shared: every figure is the median of ``--repeat`` runs, CPU time is
reported beside wall time (a busy machine stretches wall time far more than CPU time),
with the CPU time of the worker processes shared out over ``--jobs`` cores as the wall
time idle cores would give, and the load average at the start and end is recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from hollywood_gin.bots import make_bot
from hollywood_gin.match import Match
from hollywood_gin.review import ReviewSettings, review_hand, review_match
from hollywood_gin.rules import Rules


def play_match(seed: int) -> Match:
    """A whole Hollywood match, the expert (player 0) against greedy."""
    match = Match(rules=Rules(), seed=seed)
    bots = [make_bot("expert", seed=seed), make_bot("greedy", seed=seed + 1)]
    while True:
        hand = match.hand
        while not hand.is_over:
            seat = hand.to_act
            match.apply(bots[seat].choose(hand.view(seat), match.sheet), seat)
        if match.finished:
            return match
        match.next_hand()


def decisions_of(match: Match, number: int, player: int) -> int:
    from hollywood_gin.hand import Hand

    hand = match.hands[number - 1]
    assert hand.deck is not None
    replay = Hand.from_deck(hand.deck, rules=hand.rules, dealer=hand.dealer)
    count = 0
    for p, action in hand.history:
        if p == player and len(replay.view(p).legal_actions) > 1:
            count += 1
        replay.apply(action, p)
    return count


def timed(fn: Any) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def bench_hands(matches: list[Match], settings: ReviewSettings, repeat: int,
                most: int) -> dict[str, Any]:
    cases = [(m, k, p) for m in matches for k in range(1, len(m.hands) + 1) for p in (0, 1)
             if 10 <= decisions_of(m, k, p) <= 15][:most]
    walls: list[float] = []
    cpus: list[float] = []
    per_decision: list[float] = []
    for _ in range(repeat):
        for match, number, player in cases:
            wall, cpu, review = timed(lambda m=match, k=number, p=player: review_hand(
                m, k, p, settings=settings))
            walls.append(wall)
            cpus.append(cpu)
            per_decision.append(cpu / max(1, len(review.decisions)))
    return {
        "hands": len(cases),
        "repeats": repeat,
        "wall_s_median": round(statistics.median(walls), 3),
        "wall_s_p90": round(sorted(walls)[int(0.9 * (len(walls) - 1))], 3),
        "cpu_s_median": round(statistics.median(cpus), 3),
        "cpu_s_max": round(max(cpus), 3),
        "cpu_ms_per_decision_median": round(1000 * statistics.median(per_decision), 1),
    }


def _cpu_with_children() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def bench_match(match: Match, settings: ReviewSettings, repeat: int, jobs: int
                ) -> dict[str, Any]:
    walls: list[float] = []
    cpus: list[float] = []
    decisions = 0
    for _ in range(repeat):
        start, cpu = time.perf_counter(), _cpu_with_children()
        decisions = 0
        for player in (0, 1):
            review = review_match(match, player, settings=settings, jobs=jobs)
            decisions += len(review.decisions)
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu_with_children() - cpu)
    median = statistics.median(walls)
    cpu_median = statistics.median(cpus)
    return {
        "hands": len(match.hands),
        "decisions": decisions,
        "jobs": jobs,
        "repeats": repeat,
        "wall_s": [round(w, 1) for w in walls],
        "wall_s_median": round(median, 1),
        "wall_s_per_1000_decisions": round(1000 * median / max(1, decisions), 1),
        "cpu_s_median": round(cpu_median, 1),
        # what the wall time would be with ``jobs`` idle cores: CPU time shared out
        "idle_cores_s_per_1000_decisions": round(1000 * cpu_median / jobs / max(1, decisions), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3, help="matches to play (default 3)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measure")
    parser.add_argument("--hands", type=int, default=12, help="hands timed per repeat")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args()
    settings = ReviewSettings()
    load_start = os.getloadavg()
    matches = [play_match(args.seed + k) for k in range(args.matches)]
    longest = max(matches, key=lambda m: sum(
        decisions_of(m, k, p) for k in range(1, len(m.hands) + 1) for p in (0, 1)))
    results = {
        "settings": settings.method(),
        "cpus": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in load_start],
        "one_hand": bench_hands(matches, settings, args.repeat, args.hands),
        "whole_match": bench_match(longest, settings, args.repeat, args.jobs),
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(results, indent=1))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
