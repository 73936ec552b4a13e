"""Discard decisions judged from the true position, cached so that many variants (and
many weights of one evaluator) are screened on the same positions (issue 14).

``build`` plays seeded ``eaai`` hands (``--player`` in seat 0 against ``--opponent``) and
keeps seat 0's discard decisions where no knock is legal (the expert decides those
without a search, so every variant answers at once).  ``score`` asks each variant for
its discard at every kept position; where it differs from the first variant's, both
discards are played on from the TRUE position (the opponent's real hand, the stock
reshuffled the same way for both, ``--rollouts`` times, ``--player`` and the opponent
continuing, as in ``decision_eval.py``), and the paired difference in points is the
variant's gain on that decision.  Rollout results are cached in the file by position
and discard, so a second variant that picks the same discards costs nothing more.

    PYTHONPATH=src python3 benchmarks/discard_values.py build --hands 200 --seed 1 \\
        --opponent greedy /tmp/dv-greedy-1.pkl
    PYTHONPATH=src python3 benchmarks/discard_values.py score /tmp/dv-greedy-1.pkl \\
        expert "expert:discard_eval=1" "expert:discard_eval=1,de_depth=1"

The judge plays on as ``--player`` would (greedy by default), so it favours discards
that suit greedy's plans; confirm a gain with ``paired_screen.py``.
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decision_eval import value

from hollywood_gin.actions import Action, Knock
from hollywood_gin.bots import make_bot
from hollywood_gin.hand import Hand, Phase
from hollywood_gin.rules import Rules


def build(args: argparse.Namespace) -> int:
    rules = Rules.preset("eaai")
    positions: list[Hand] = []
    for k in range(args.hands):
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=args.seed * 100_003 + k)
        bots = [make_bot(args.player, seed=k), make_bot(args.opponent, seed=k + 1)]
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if (seat == 0 and view.phase is Phase.DISCARD and len(view.legal_actions) > 1
                    and not any(isinstance(a, Knock) for a in view.legal_actions)):
                positions.append(hand.clone())
            hand.apply(bots[seat].choose(view, None), seat)
    data = {"args": vars(args), "positions": positions, "values": {}}
    with open(args.file, "wb") as f:
        pickle.dump(data, f)
    print(f"{len(positions)} discard positions from {args.hands} hands -> {args.file}")
    return 0


def score(args: argparse.Namespace) -> int:
    with open(args.file, "rb") as f:
        data: dict[str, Any] = pickle.load(f)
    meta = data["args"]
    positions: list[Hand] = data["positions"][: args.limit or None]
    values: dict[tuple[int, str, int], list[float]] = data["values"]
    rollouts = args.rollouts or meta.get("rollouts", 32)
    base = args.variants[0]
    choices: dict[str, list[Action]] = {}
    secs: dict[str, float] = {}
    for v in args.variants:
        t0 = time.perf_counter()
        out = []
        for n, hand in enumerate(positions):
            out.append(make_bot(v, seed=meta["seed"] * 7919 + n).choose(hand.view(0), None))
        secs[v] = time.perf_counter() - t0
        choices[v] = out
    fresh = 0

    def val(n: int, a: Action) -> float:
        nonlocal fresh
        key = (n, str(a), rollouts)
        if key not in values:
            values[key] = value(positions[n], a, rollouts, meta["seed"] * 7919 + n,
                                meta["player"], meta["opponent"])
            fresh += 1
        xs = values[key]
        return sum(xs) / len(xs)

    print(f"{len(positions)} discard positions ({meta['player']} against {meta['opponent']}, "
          f"seed {meta['seed']}, {rollouts} rollouts); gain in points per decision over {base}")
    for v in args.variants[1:]:
        gains = []
        differ = 0
        for n in range(len(positions)):
            a, b = choices[v][n], choices[base][n]
            if a == b:
                gains.append(0.0)
                continue
            differ += 1
            gains.append(val(n, a) - val(n, b))
        m = sum(gains) / len(gains)
        sd = math.sqrt(sum((x - m) ** 2 for x in gains) / max(1, len(gains) - 1))
        h = 1.96 * sd / math.sqrt(len(gains))
        per = sum(gains) / differ if differ else 0.0
        print(f"{v:72s} {m:+.4f} +- {h:.4f}  differs on {differ} ({per:+.2f} each)  "
              f"{1000 * secs[v] / len(positions):.1f} ms", flush=True)
        if fresh:
            with open(args.file, "wb") as f:
                pickle.dump(data, f)
    if args.oracle:
        # The headroom: the best discard of each position chosen on half the rollouts and
        # judged on the other half (no winner's curse), against the first variant's.
        gains = []
        half = rollouts // 2
        for n in range(min(args.oracle, len(positions))):
            view = positions[n].view(0)
            acts = [a for a in view.legal_actions if not isinstance(a, Knock)]
            xs = {str(a): (a, val(n, a)) for a in acts}
            runs = {k: values[(n, k, rollouts)] for k in xs}
            pick = max(runs, key=lambda k: sum(runs[k][:half]))
            b = str(choices[base][n])
            gains.append((sum(runs[pick][half:]) - sum(runs[b][half:])) / (rollouts - half))
        m = sum(gains) / len(gains)
        sd = math.sqrt(sum((x - m) ** 2 for x in gains) / max(1, len(gains) - 1))
        print(f"{'oracle (best on half the rollouts, judged on the rest)':72s} {m:+.4f} +- "
              f"{1.96 * sd / math.sqrt(len(gains)):.4f}  on {len(gains)} positions", flush=True)
        with open(args.file, "wb") as f:
            pickle.dump(data, f)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("file")
    b.add_argument("--hands", type=int, default=200)
    b.add_argument("--opponent", default="greedy")
    b.add_argument("--player", default="greedy")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--rollouts", type=int, default=32)
    s = sub.add_parser("score")
    s.add_argument("file")
    s.add_argument("variants", nargs="+")
    s.add_argument("--rollouts", type=int, default=0, help="default: the build's")
    s.add_argument("--limit", type=int, default=0, help="only the first N positions")
    s.add_argument("--oracle", type=int, default=0, help="also every discard of the first N "
                   "positions: how much the best would gain")
    args = ap.parse_args()
    return build(args) if args.cmd == "build" else score(args)


if __name__ == "__main__":
    raise SystemExit(main())
