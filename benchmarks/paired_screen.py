"""Paired screens of bot variants (issue 14): each variant plays the same mirrored deals
against the same opponent, and the report is the per-pair difference of the margins
(points a hand, or match wins), so that two close variants are told apart with far less
noise than two separate arena runs.

    PYTHONPATH=src python3 benchmarks/paired_screen.py --opponent greedy --pairs 300 \\
        --seed 7 expert "expert:candidates=3"

The first variant is the baseline; every other one is compared with it pair by pair.
Deals and bot seeds depend only on the seed and the pair number (as in the arena), so
the same command gives the same report.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from hollywood_gin.arena import GameResult, _play_pair, _Task, percentile
from hollywood_gin.rules import Rules


def margin(result: GameResult, matches: bool) -> float:
    """Bot A's result in one game: points a hand over the hands, or +1/-1/0 a match."""
    a_seat = 1 if result.swapped else 0
    if matches:
        if result.match_winner is None:
            return 0.0
        return 1.0 if result.match_winner == a_seat else -1.0
    total = 0
    for h in result.hands:
        if h.winner is not None:
            total += h.points if h.winner == a_seat else -h.points
    return total / max(1, len(result.hands))


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / max(1, n - 1)
    return m, 1.96 * math.sqrt(var / n)


def main(description: str | None = None) -> int:
    """``description``: the ``--help`` text of a script that runs this one (its own)."""
    ap = argparse.ArgumentParser(description=description or __doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--matches", action="store_true", help="whole matches, not single hands")
    ap.add_argument("--engine", choices=("ours", "openspiel"), default="ours",
                    help="openspiel: single hands in OpenSpiel's gin_rummy (its rules), "
                         "e.g. against openspiel-simple")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    if args.engine == "openspiel" and args.matches:
        ap.error("--engine openspiel plays single hands (OpenSpiel's gin_rummy has no match)")
    rules = Rules.preset(args.rules)
    mode = "matches" if args.matches else "hands"
    per: dict[str, list[float]] = {v: [] for v in args.variants}
    times: dict[str, list[float]] = {v: [] for v in args.variants}
    secs: dict[str, float] = dict.fromkeys(args.variants, 0.0)
    for pair in range(args.pairs):
        for v in args.variants:
            tasks = tuple(_Task((v, args.opponent), rules, mode, args.engine, args.seed, pair, sw)
                          for sw in (False, True))
            t0 = time.perf_counter()
            r1, r2 = _play_pair((tasks[0], tasks[1]))
            secs[v] += time.perf_counter() - t0
            per[v].append((margin(r1, args.matches) + margin(r2, args.matches)) / 2)
            for r in (r1, r2):
                times[v] += r.times_ms[1 if r.swapped else 0]
        if (pair + 1) % 50 == 0:
            print(f"  {pair + 1} pairs", file=sys.stderr, flush=True)
    base = args.variants[0]
    out: dict[str, Any] = {}
    unit = "match score (+1 win, -1 loss)" if args.matches else "points a hand"
    print(f"{args.pairs} mirrored pairs against {args.opponent}, seed {args.seed}, "
          f"{args.rules}, {unit}")
    for v in args.variants:
        m, h = mean_ci(per[v])
        line = f"{v:60s} {m:+.3f} +- {h:.3f}"
        row: dict[str, Any] = {"mean": m, "ci": h}
        if v != base:
            d = [a - b for a, b in zip(per[v], per[base], strict=True)]
            dm, dh = mean_ci(d)
            line += f"   vs base {dm:+.3f} +- {dh:.3f}"
            row.update(diff=dm, diff_ci=dh)
        t = times[v]
        med, p99 = percentile(t, 0.5), percentile(t, 0.99)
        line += f"   ms {med:.2f}/{p99:.0f}  {secs[v]:.0f}s"
        row.update(median_ms=med, p99_ms=p99, seconds=secs[v])
        print(line)
        out[v] = row
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "results": out, "per_pair": per}, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
