"""Decision-level screens of bot variants (issue 14): where two variants choose
differently, which choice is worth more, judged from the true position.

Single-hand arena screens drown a small change of policy in the luck of the deal (300
mirrored pairs measure a difference to about +-1.5 points a hand).  Here positions come
from seeded ``eaai`` hands (``--player`` in seat 0 against ``--opponent``); at each of
seat 0's decisions of the chosen kind every variant is asked for its choice (from the view
only); where a variant differs from the first, both choices are played on from the TRUE
position (the opponent's real hand; the stock re-shuffled the same way for both choices,
``--rollouts`` times) with ``--player`` and ``--opponent`` continuing, and the paired
difference in points is the variant's gain on that decision.  The report: the mean gain
per decision (every decision, differing or not) with a 95% interval over positions.

    PYTHONPATH=src python3 benchmarks/decision_eval.py --hands 100 --opponent greedy \\
        "expert:time_cap_ms=0" "expert:time_cap_ms=0,search_discards=3,switch_z=1"
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from hollywood_gin.actions import Action, Knock
from hollywood_gin.bots import make_bot
from hollywood_gin.hand import Hand, Phase
from hollywood_gin.rules import Rules


def play_on(hand: Hand, bots: list, seat: int) -> float:
    """Points to ``seat`` once ``bots`` play ``hand`` to its end."""
    while not hand.is_over:
        p = hand.to_act
        hand.apply(bots[p].choose(hand.view(p), None), p)
    result = hand.result
    assert result is not None
    if result.winner is None:
        return 0.0
    return float(result.points if result.winner == seat else -result.points)


def value(hand: Hand, action: Action, rollouts: int, seed: int, player: str,
          opponent: str) -> list[float]:
    out = []
    for r in range(rollouts):
        h = hand.clone()
        random.Random(seed * 1_000_003 + r).shuffle(h.stock)
        h.apply(action, 0)
        bots = [make_bot(player, seed=r), make_bot(opponent, seed=r + 7)]
        out.append(play_on(h, bots, 0))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--player", default="greedy", help="who plays seat 0 between decisions "
                    "and in the rollouts")
    ap.add_argument("--kind", default="discard", choices=("discard", "draw", "knock", "all"),
                    help="knock: the discards where a knock is legal")
    ap.add_argument("--rollouts", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = Rules.preset("eaai")
    base = args.variants[0]
    gains: dict[str, list[float]] = {v: [] for v in args.variants[1:]}
    differ = dict.fromkeys(args.variants[1:], 0)
    secs = dict.fromkeys(args.variants, 0.0)
    decisions = 0
    for k in range(args.hands):
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=args.seed * 100_003 + k)
        bots = [make_bot(args.player, seed=k), make_bot(args.opponent, seed=k + 1)]
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            kind = "discard" if view.phase is Phase.DISCARD else "draw"
            kinds = {kind, "all"}
            if kind == "discard" and any(isinstance(a, Knock) for a in view.legal_actions):
                kinds.add("knock")
            if seat == 0 and len(view.legal_actions) > 1 and args.kind in kinds:
                decisions += 1
                pos_seed = args.seed * 7919 + decisions
                choices = {}
                for v in args.variants:
                    t0 = time.perf_counter()
                    choices[v] = make_bot(v, seed=pos_seed).choose(view, None)
                    secs[v] += time.perf_counter() - t0
                cache: dict[str, list[float]] = {}

                def val(a: Action, hand: Hand = hand, seed: int = pos_seed,
                        cache: dict[str, list[float]] = cache) -> list[float]:
                    key = str(a)
                    if key not in cache:
                        cache[key] = value(hand, a, args.rollouts, seed, args.player,
                                           args.opponent)
                    return cache[key]

                for v in args.variants[1:]:
                    if choices[v] == choices[base]:
                        gains[v].append(0.0)
                        continue
                    differ[v] += 1
                    a, b = val(choices[v]), val(choices[base])
                    gains[v].append(sum(a) / len(a) - sum(b) / len(b))
            hand.apply(bots[seat].choose(view, None), seat)
        if (k + 1) % 20 == 0:
            print(f"  {k + 1} hands", file=sys.stderr, flush=True)
    print(f"{decisions} {args.kind} decisions of {args.player} in {args.hands} hands against "
          f"{args.opponent} (seed {args.seed}, {args.rollouts} rollouts); gain in points per "
          f"decision over {base} ({secs[base]:.0f}s)")
    for v, g in gains.items():
        n = len(g)
        m = sum(g) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in g) / max(1, n - 1))
        print(f"{v:70s} {m:+.4f} +- {1.96 * sd / math.sqrt(n):.4f}  differs on {differ[v]}"
              f"  ({secs[v]:.0f}s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
