"""Benchmarks of the bots (issue 3): strength, decision times and self-play throughput.

Run from the repository root (needs ``open-spiel`` for the OpenSpiel parts)::

    PYTHONPATH=src python3 benchmarks/bench_bots.py --pairs-basic 2000 --pairs-greedy 2000 \\
        --os-hands 2000 --jobs 2 --json benchmarks/results/bench_bots.json

What it measures:

1. ``expert`` against ``basic``, ``greedy`` and ``expert-v1`` (the expert of issue 3):
   ``eaai`` matches to 100 on mirrored pairs (targets of issue 14: at least 80%, 66%
   and 60% of the matches); against ``greedy`` in ``hollywood`` matches (three
   columns) too; and the levels, each against the one below (``--pairs-ladder``).
2. ``expert`` against OpenSpiel's ``make_simple_gin_rummy_bot`` inside OpenSpiel's
   own ``gin_rummy`` engine: points per hand with a 95% interval.
3. Decision times of every bot in those runs (median and 99th percentile; targets for
   the expert 50 ms and 500 ms, for greedy 1 ms).
4. Self-play throughput: ``basic`` against ``basic`` on our engine, single process,
   hands per second, beside OpenSpiel's ``evaluate_bots`` on two simple bots (C++).

Every count is an option, so a short run can be honest about its size.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from hollywood_gin.arena import ArenaReport, run_arena
from hollywood_gin.bots import make_bot
from hollywood_gin.hand import Hand
from hollywood_gin.rules import Rules


def summary(report: ArenaReport) -> dict[str, Any]:
    a, b = report.bots
    return {
        "matchup": f"{a.name} vs {b.name}",
        "engine": report.engine,
        "rules": report.rules,
        "games": report.games,
        "pairs": report.pairs,
        "seconds": round(report.seconds, 1),
        "a_match_win_rate": a.match_win_rate,
        "a_match_win_ci": a.match_win_ci,
        "a_hand_win_rate": a.hand_win_rate,
        "a_points_per_hand": a.points_per_hand,
        "b_points_per_hand": b.points_per_hand,
        "margin_per_hand": report.margin_per_hand,
        "margin_ci": report.margin_ci,
        "a_decision_ms": [a.decision_ms_median, a.decision_ms_p99, a.decision_ms_max],
        "b_decision_ms": [b.decision_ms_median, b.decision_ms_p99, b.decision_ms_max],
        "a_endings": {k: getattr(a, k) for k in (
            "knock_wins", "gins", "undercuts_given", "undercuts_suffered", "ties", "dead")},
        "b_endings": {k: getattr(b, k) for k in (
            "knock_wins", "gins", "undercuts_given", "undercuts_suffered", "ties", "dead")},
    }


def ours_basic_selfplay(hands: int, seed: int) -> float:
    """Hands per second of basic against basic on our engine (checked path, one process)."""
    rules = Rules.preset("eaai")
    bots = (make_bot("basic", seed=seed), make_bot("basic", seed=seed + 1))
    rng = random.Random(seed)
    start = time.perf_counter()
    for n in range(hands):
        hand = Hand.deal(rules=rules, dealer=n % 2, seed=rng.getrandbits(63))
        while not hand.is_over:
            seat = hand.to_act
            hand.apply(bots[seat].choose(hand.view(seat)), seat)
    return hands / (time.perf_counter() - start)


def openspiel_simple_selfplay(hands: int, seed: int) -> float:
    """Hands per second of OpenSpiel's simple bot against itself via ``evaluate_bots``."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in (0, 1)]
    template = game.new_initial_state()
    start = time.perf_counter()
    for n in range(hands):
        pyspiel.evaluate_bots(template.clone(), bots, seed + n)
    return hands / (time.perf_counter() - start)


def line(s: dict[str, Any]) -> str:
    ci = s["a_match_win_ci"]
    wins = "" if s["a_match_win_rate"] is None else (
        f"matches {100 * s['a_match_win_rate']:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}] ")
    m = s["margin_ci"]
    spread = "(no interval)" if m is None else f"[{m[0]:+.2f}, {m[1]:+.2f}]"
    kind = "matches" if wins else "hands"
    return (f"{s['matchup']:28s} {s['rules'][:9]:9s} {s['games']:6d} {kind:7s} "
            f"{wins}margin {s['margin_per_hand']:+.2f} {spread} pts/hand; "
            f"ms median {s['a_decision_ms'][0]:.2f} p99 {s['a_decision_ms'][1]:.1f} "
            f"({s['seconds']:.0f} s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--expert", default="expert", help="the expert's bot spec")
    parser.add_argument("--pairs-basic", type=int, default=200,
                        help="mirrored pairs of eaai matches, expert vs basic")
    parser.add_argument("--pairs-greedy", type=int, default=200,
                        help="mirrored pairs of eaai matches, expert vs greedy")
    parser.add_argument("--pairs-greedy-basic", type=int, default=500,
                        help="mirrored pairs of eaai matches, greedy vs basic")
    parser.add_argument("--pairs-v1", type=int, default=0,
                        help="mirrored pairs of eaai matches, expert vs expert-v1 (issue 3's)")
    parser.add_argument("--pairs-hollywood", type=int, default=0,
                        help="mirrored pairs of hollywood matches (three columns), "
                        "expert vs greedy")
    parser.add_argument("--pairs-ladder", type=int, default=0,
                        help="mirrored pairs of eaai matches, each level against the one below")
    parser.add_argument("--os-hands", type=int, default=400,
                        help="hands inside OpenSpiel, expert vs its simple bot")
    parser.add_argument("--throughput-hands", type=int, default=3000,
                        help="hands of basic vs basic and simple vs simple for hands/s")
    parser.add_argument("--throughput-rounds", type=int, default=6,
                        help="interleaved rounds the throughput hands are split into")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the results here")
    args = parser.parse_args(argv)

    out: dict[str, Any] = {"seed": args.seed, "jobs": args.jobs, "runs": []}
    runs = [
        (args.expert, "basic", args.pairs_basic, "eaai"),
        (args.expert, "greedy", args.pairs_greedy, "eaai"),
        (args.expert, "expert-v1", args.pairs_v1, "eaai"),
        (args.expert, "greedy", args.pairs_hollywood, "hollywood"),
        ("greedy", "basic", args.pairs_greedy_basic, "eaai"),
        (args.expert, "openspiel-simple", args.os_hands, "openspiel"),
    ] + [(f"level{k + 1}", f"level{k}", args.pairs_ladder, "eaai") for k in range(1, 5)]
    for a, b, n, rules in runs:
        if n <= 0:
            continue
        if rules != "openspiel":
            report = run_arena(a, b, rules=rules, matches=2 * n, seed=args.seed, jobs=args.jobs)
        else:
            report = run_arena(a, b, engine="openspiel", hands=n, seed=args.seed, jobs=args.jobs)
        s = summary(report)
        out["runs"].append(s)
        print(line(s), flush=True)
        if args.json:  # after every run, so a stopped benchmark keeps what it measured
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1)
    if args.throughput_hands > 0:
        # Interleaved rounds, so drift in the shared machine's speed hits both engines alike.
        rounds = args.throughput_rounds
        per = max(1, args.throughput_hands // rounds)
        ours_s = theirs_s = 0.0
        for r in range(rounds):
            ours_s += per / ours_basic_selfplay(per, args.seed + r)
            theirs_s += per / openspiel_simple_selfplay(per, args.seed + r * per)
        ours, theirs = per * rounds / ours_s, per * rounds / theirs_s
        out["throughput"] = {
            "hands": per * rounds,
            "rounds": rounds,
            "ours_basic_vs_basic_hands_per_s": ours,
            "openspiel_simple_vs_simple_hands_per_s": theirs,
            "ratio_ours_to_openspiel": ours / theirs,
        }
        print(f"self-play hands/s: ours basic-vs-basic {ours:.0f}, OpenSpiel simple-vs-simple "
              f"{theirs:.0f} (C++ evaluate_bots), ratio {ours / theirs:.2f}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
