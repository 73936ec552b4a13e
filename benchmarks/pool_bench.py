"""Pool ``bench_bots.py --json`` results run on different seeds (independent deals).

A shared machine finishes many short runs more surely than one long one: run
``bench_bots.py`` on seeds S, S+1, ... each with ``--json``, then::

    python3 benchmarks/pool_bench.py [--json POOLED] results/*.json

Match wins are pooled as counts (95% Wilson interval); the margin per hand by
inverse-variance weights of the runs' intervals; decision times as the median of
the runs' medians and the largest of their 99th percentiles (an upper bound).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from typing import Any


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def pool(runs: list[dict[str, Any]]) -> dict[str, Any]:
    games = sum(r["games"] for r in runs)
    out: dict[str, Any] = {"matchup": runs[0]["matchup"], "rules": runs[0]["rules"],
                           "engine": runs[0]["engine"], "runs": len(runs), "games": games}
    if runs[0]["a_match_win_rate"] is not None:
        wins = sum(round(r["a_match_win_rate"] * r["games"]) for r in runs)
        out["match_wins"] = wins
        out["match_win_rate"] = wins / games
        out["match_win_ci"] = wilson(wins, games)
    # Inverse-variance weights; a run of one pair has no interval (no spread to weigh by)
    # and a zero-width one would take all the weight, so both are left out of the margin.
    weighed = [r for r in runs if r["margin_ci"] is not None
               and r["margin_ci"][1] > r["margin_ci"][0]]
    num = den = 0.0
    for r in weighed:
        lo, hi = r["margin_ci"]
        se = (hi - lo) / (2 * 1.96)
        num += r["margin_per_hand"] / se**2
        den += 1 / se**2
    if den:
        margin, se = num / den, math.sqrt(1 / den)
        out["margin_per_hand"] = margin
        out["margin_ci"] = (margin - 1.96 * se, margin + 1.96 * se)
    else:
        out["margin_per_hand"] = sum(r["margin_per_hand"] for r in runs) / len(runs)
        out["margin_ci"] = None
    out["margin_runs"] = len(weighed)
    medians = sorted(r["a_decision_ms"][0] for r in runs)
    out["a_decision_ms_median"] = medians[len(medians) // 2]
    out["a_decision_ms_p99_max"] = max(r["a_decision_ms"][1] for r in runs)
    out["a_decision_ms_max"] = max(r["a_decision_ms"][2] for r in runs)
    out["seconds"] = sum(r["seconds"] for r in runs)
    return out


def main(paths: list[str], out_path: str | None = None) -> int:
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    seeds = []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        seeds.append(data["seed"])
        for r in data["runs"]:
            groups[(r["matchup"], r["rules"], r["engine"])].append(r)
    print(f"seeds {min(seeds)}..{max(seeds)} ({len(seeds)} files)")
    pooled = []
    for runs in groups.values():
        s = pool(runs)
        pooled.append(s)
        wins = ""
        if "match_win_rate" in s:
            lo, hi = s["match_win_ci"]
            wins = (f"matches {100 * s['match_win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
                    f"({s['match_wins']}/{s['games']}) ")
        spread = "(no interval)" if s["margin_ci"] is None else \
            "[{:+.2f}, {:+.2f}]".format(*s["margin_ci"])
        kind = "matches" if wins else "hands"
        print(f"{s['matchup']:28s} {s['rules'][:9]:9s} {s['games']:5d} {kind:7s} {wins}"
              f"margin {s['margin_per_hand']:+.2f} {spread} pts/hand; ms median "
              f"{s['a_decision_ms_median']:.2f} p99 <= {s['a_decision_ms_p99_max']:.0f} "
              f"max {s['a_decision_ms_max']:.0f} ({s['runs']} runs, {s['seconds']:.0f} s)")
    if out_path:
        with open(out_path, "w") as f:
            json.dump({"seeds": sorted(seeds), "pooled": pooled}, f, indent=1)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", help="bench_bots.py --json files")
    parser.add_argument("--json", metavar="POOLED", help="write the pooled figures here")
    options = parser.parse_args()
    sys.exit(main(options.results, options.json))
