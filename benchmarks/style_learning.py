"""How fast the expert learns how its opponent knocks (issue 14): over seeded `eaai`
matches, its cautious share before each hand (the mean, and the share of matches where
it is under 0.1 or over 0.5).  The expert plays as greedy does (no search), which
changes what the opponent reveals little and costs a fraction of the time.

    PYTHONPATH=src python3 benchmarks/style_learning.py basic --matches 200
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from hollywood_gin.bots import make_bot
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.match import Match
from hollywood_gin.rules import Rules


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("opponent")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--seed", type=int, default=50_000)
    ap.add_argument("--expert", default="expert:search_draws=0,search_knocks=0")
    args = ap.parse_args()
    rules = Rules.preset("eaai")
    by_hand: dict[int, list[float]] = {}
    for m in range(args.matches):
        me = make_bot(args.expert, seed=m)
        assert isinstance(me, ExpertBot)
        bots = [me, make_bot(args.opponent, seed=m + 777)]
        match = Match(rules=rules, seed=args.seed + m)
        k = 0
        while True:
            by_hand.setdefault(k, []).append(me.cautious_share())
            hand = match.hand
            while not hand.is_over:
                seat = hand.to_act
                match.apply(bots[seat].choose(hand.view(seat)), seat)
            me.observe(hand.view(0), match.sheet.copy())
            k += 1
            if match.finished:
                break
            match.next_hand()
    print("hand  matches  mean share  under 0.1  over 0.5")
    for k in sorted(by_hand):
        xs = by_hand[k]
        n = len(xs)
        print(f"{k + 1:4d}  {n:7d}  {sum(xs) / n:10.3f}  {sum(x < 0.1 for x in xs) / n:9.2f}"
              f"  {sum(x > 0.5 for x in xs) / n:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
