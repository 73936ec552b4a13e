"""Train the expert's learned knock rule (issue 14, ``bots/knockmodel.py``) on true
positions, and judge knock rules on them.

``build`` plays seeded ``eaai`` hands, greedy in seat 0 against each ``--opponents``
bot; at every discard where seat 0 could knock without gin it keeps the position, its
features (from seat 0's view only, :func:`knock_features`) and its label from the TRUE
state: the exact points of knocking now (the opponent's real hand, lay-offs and
undercut as the rules score them) less the mean points of playing on (the heuristic's
discard, then greedy and the opponent continuing, the stock reshuffled ``--rollouts``
times).  Seat 0 then knocks at random (``--p-knock``) or plays on, so that later
positions of hands the expert would play on are in the data too.

``fit`` fits a ridge regression of the label on the features (NumPy, offline only),
reports on held-out hands how many points a decision each rule gains over always
playing on (the model, greedy's rule, always knocking), and writes the coefficients to
``src/hollywood_gin/bots/knock_model.json`` (``--out``).

``judge`` asks bot specs for their decision at the held-out positions and prices it by
the stored labels (the expert's search, or the expert with the model).

    PYTHONPATH=src python3 benchmarks/knock_model.py build /tmp/knock.pkl --seed 1  # 15 min
    PYTHONPATH=src python3 benchmarks/knock_model.py fit /tmp/knock.pkl --out \\
        src/hollywood_gin/bots/knock_model.json  # the shipped model
    PYTHONPATH=src python3 benchmarks/knock_model.py judge /tmp/knock.pkl expert \\
        "expert:knock_model=1"
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from decision_eval import play_on  # this folder's own tool: the played-on points

from hollywood_gin.actions import Discard, Knock
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.expert import ExpertBot, ExpertSettings
from hollywood_gin.bots.greedy import GreedyBot, GreedySettings, plan_discard
from hollywood_gin.bots.knockmodel import FEATURES, knock_features
from hollywood_gin.cards import CARDS
from hollywood_gin.hand import Hand, Phase
from hollywood_gin.rules import Rules

#: The cautious weight each opponent is trained with (how it knocks: opponent.py).
STYLE = {"basic": 0.0, "greedy": 1.0, "expert": 0.5}
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "hollywood_gin",
                   "bots", "knock_model.json")


def row_features(position: Hand, keep: int, opponent: str, seed: int,
                 deals: int = 16) -> list[float]:
    """The features of knocking and keeping ``keep`` at ``position`` (seat 0), as the
    expert computes them, with the opponent's style weight what it learns against him."""
    view = position.view(0)
    sense = read_view(view)
    bot = ExpertBot(seed=seed, settings=ExpertSettings(learn=0, opp_mix=STYLE[opponent]))
    hands = [d.opp for d in bot._deals(view, sense, deals)]
    return knock_features(sense, sense.opp_probs(), keep, STYLE[opponent], hands,
                          view.rules.undercut_bonus)


def build(args: argparse.Namespace) -> int:
    rules = Rules.preset("eaai")
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for o, opponent in enumerate(args.opponents):
        for k in range(args.hands):
            seed = args.seed * 100_003 + 10_000 * o + k
            hand = Hand.deal(rules=rules, dealer=k % 2, seed=seed)
            bots = [make_bot("greedy", seed=k), make_bot(opponent, seed=k + 1)]
            coin = random.Random(seed)
            while not hand.is_over:
                seat = hand.to_act
                view = hand.view(seat)
                legal = view.legal_actions
                knockable = {a.card.index for a in legal if isinstance(a, Knock) and a.card}
                if seat != 0 or view.phase is not Phase.DISCARD or not knockable:
                    hand.apply(bots[seat].choose(view, None), seat)
                    continue
                sense = read_view(view)
                probs = sense.opp_probs()
                allowed = [a.card.index for a in legal if isinstance(a, Discard)]
                plans = plan_discard(view.hand_mask, allowed, sense, probs, GreedySettings())
                best = min((p for p in plans if p.card in knockable),
                           key=lambda p: (p.deadwood, p.cost))
                knock = Knock(CARDS[best.card])
                if best.deadwood == 0:
                    hand.apply(knock, 0)
                    continue
                h = hand.clone()
                h.apply(knock, 0)
                res = h.result
                assert res is not None and res.winner is not None
                knock_pts = float(res.points if res.winner == 0 else -res.points)
                on = Discard(CARDS[plans[0].card])
                outs = []
                for r in range(args.rollouts):
                    h = hand.clone()
                    random.Random(seed * 1_000_003 + 97 * len(rows) + r).shuffle(h.stock)
                    h.apply(on, 0)
                    outs.append(play_on(h, [make_bot("greedy", seed=r),
                                            make_bot(opponent, seed=r + 7)], 0))
                keep = view.hand_mask & ~(1 << best.card)
                rows.append({
                    "opponent": opponent, "hand": k, "position": hand.clone(),
                    "keep": keep, "knock": knock_pts, "on": sum(outs) / len(outs),
                    "on_sd": (sum((x - sum(outs) / len(outs)) ** 2 for x in outs)
                              / max(1, len(outs) - 1)) ** 0.5,
                    "greedy_knocks": GreedyBot().should_knock(view, sense, best.deadwood),
                })
                hand.apply(knock if coin.random() < args.p_knock else on, 0)
            if (k + 1) % 100 == 0:
                print(f"  {opponent}: {k + 1} hands, {len(rows)} positions, "
                      f"{time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    with open(args.file, "wb") as f:
        pickle.dump({"args": vars(args), "rows": rows}, f)
    print(f"{len(rows)} knock positions -> {args.file} ({time.perf_counter() - t0:.0f}s)")
    return 0


def _split(rows: list[dict[str, Any]], holdout: float) -> tuple[list[Any], list[Any]]:
    """Train and held-out rows, split by hand (every third hand out at 1/3)."""
    every = max(2, round(1 / holdout)) if holdout > 0 else 0
    train = [r for r in rows if not every or r["hand"] % every]
    test = [r for r in rows if every and not r["hand"] % every]
    return train, test


def _report(name: str, rows: list[dict[str, Any]], knocks: list[bool]) -> None:
    """Points a decision over always playing on, with a 95% interval, and knocks made."""
    g = [r["knock"] - r["on"] if k else 0.0 for r, k in zip(rows, knocks, strict=True)]
    n = len(g)
    m = sum(g) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in g) / max(1, n - 1))
    print(f"  {name:38s} {m:+.3f} +- {1.96 * sd / math.sqrt(n):.3f}  knocks {sum(knocks)}/{n}")


def fit(args: argparse.Namespace) -> int:
    import numpy as np

    with open(args.file, "rb") as f:
        data = pickle.load(f)
    rows = data["rows"]
    t0 = time.perf_counter()
    for n, r in enumerate(rows):
        r["x"] = row_features(r["position"], r["keep"], r["opponent"], n)
    print(f"features of {len(rows)} positions in {time.perf_counter() - t0:.0f}s")
    train, test = _split(rows, args.holdout)
    x = np.array([r["x"] for r in train])
    y = np.array([r["knock"] - r["on"] for r in train])
    scale = np.maximum(x.std(axis=0), 1e-9)
    scale[0] = 1.0
    xs = x / scale
    reg = args.ridge * np.eye(len(FEATURES))
    reg[0, 0] = 0.0
    beta = np.linalg.solve(xs.T @ xs + reg, xs.T @ y) / scale
    for name, b in zip(FEATURES, beta, strict=True):
        print(f"  {name:18s} {b:+.4f}")
    for part, rs in (("train", train), ("held out", test)):
        if not rs:
            continue
        print(f"{part}: {len(rs)} positions; points a decision over always playing on")
        for opp in [*sorted({r["opponent"] for r in rs}), "all"]:
            sub = [r for r in rs if opp in ("all", r["opponent"])]
            pred = np.array([r["x"] for r in sub]) @ beta
            print(f" {opp}")
            _report("model", sub, [bool(p > args.threshold) for p in pred])
            _report("greedy's rule", sub, [r["greedy_knocks"] for r in sub])
            _report("always knock", sub, [True] * len(sub))
            _report("oracle (label > 0)", sub, [r["knock"] > r["on"] for r in sub])
    if args.out:
        out = {"features": list(FEATURES), "coef": [round(float(b), 6) for b in beta],
               "threshold": args.threshold,
               "trained": {"file": os.path.basename(args.file), "build": data["args"],
                           "ridge": args.ridge, "holdout": args.holdout,
                           "positions": len(train)}}
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        print(f"-> {args.out}")
    return 0


def _with_style(spec: str, opponent: str) -> str:
    """``spec`` with the opponent's style weight fixed to what learning it would reach."""
    extra = f"learn=0,opp_mix={STYLE[opponent]}"
    return f"{spec},{extra}" if ":" in spec else f"{spec}:{extra}"


def judge(args: argparse.Namespace) -> int:
    with open(args.file, "rb") as f:
        data = pickle.load(f)
    _, test = _split(data["rows"], args.holdout)
    test = test[:: args.every]
    print(f"{len(test)} held-out positions; points a decision over always playing on"
          + (" (style weight fixed by opponent)" if args.style else ""))
    first: list[bool] = []
    for spec in args.variants:
        t0 = time.perf_counter()
        knocks = []
        for n, r in enumerate(test):
            bot = make_bot(_with_style(spec, r["opponent"]) if args.style else spec, seed=n)
            action = bot.choose(r["position"].view(0), None)
            knocks.append(isinstance(action, Knock))
        print(f" {spec} ({1000 * (time.perf_counter() - t0) / len(test):.0f} ms a decision)")
        for opp in sorted({r["opponent"] for r in test}):
            idx = [i for i, r in enumerate(test) if r["opponent"] == opp]
            _report(opp, [test[i] for i in idx], [knocks[i] for i in idx])
            if first:
                d = [(test[i]["knock"] - test[i]["on"]) * (knocks[i] - first[i]) for i in idx]
                m = sum(d) / len(d)
                sd = math.sqrt(sum((x - m) ** 2 for x in d) / max(1, len(d) - 1))
                differ = sum(knocks[i] != first[i] for i in idx)
                half = 1.96 * sd / math.sqrt(len(d))
                print(f"    over {args.variants[0]}: {m:+.3f} +- {half:.3f}  differs on {differ}")
        if not first:
            first = knocks
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("file")
    b.add_argument("--hands", type=int, default=2500, help="hands per opponent")
    b.add_argument("--opponents", nargs="+", default=["basic", "greedy"])
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--rollouts", type=int, default=24)
    b.add_argument("--p-knock", type=float, default=0.3)
    f = sub.add_parser("fit")
    f.add_argument("file")
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument("--holdout", type=float, default=1 / 3)
    f.add_argument("--threshold", type=float, default=0.0)
    f.add_argument("--out", default="", help=f"write the model here (the bot's: {OUT})")
    j = sub.add_parser("judge")
    j.add_argument("file")
    j.add_argument("variants", nargs="+")
    j.add_argument("--holdout", type=float, default=1 / 3)
    j.add_argument("--every", type=int, default=1, help="only every Nth position")
    j.add_argument("--style", action="store_true", help="fix each spec's style weight to "
                   "the opponent's (0 basic, 1 greedy) as learning in a match would")
    args = ap.parse_args()
    return {"build": build, "fit": fit, "judge": judge}[args.cmd](args)


if __name__ == "__main__":
    raise SystemExit(main())
