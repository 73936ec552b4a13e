"""Train the expert's learned value of a discard (issue 14, ``bots/valuenet.py``) by
self-play on the engine.

``build`` plays seeded single ``eaai`` hands, greedy against each ``--opponents`` bot
(seats alternating), and at every discard (not a knock) of a greedy seat keeps the
inputs of the seat's view after the discard (:func:`value_features`: only what the seat
sees) and, once the hand is over, the points it gave that seat (a Monte Carlo return).
With probability ``--explore`` the greedy seat throws a card drawn among the
heuristic's ``--explore-top`` best instead of the best, so that the data holds other
discards than the heuristic's, as the expert will ask about them.

``--policy`` makes the learner throw by a trained network instead (policy iteration).

``fit`` trains a one-hidden-layer network (NumPy, offline only) on those rows by mean
squared error (Adam, mini-batches, seeded), then ``--td-rounds`` times again on
TD(lambda) targets (each position's target mixes the network's value of the seat's next
position with the final points: less noise than the points alone), reports the loss on
held-out hands (every fifth) against a constant and a linear fit, and writes
``src/hollywood_gin/bots/value_net.json`` (``--out``), which the pure-Python evaluator
reads; it checks that evaluator against the NumPy forward pass on held-out rows.

The shipped model (about 15 minutes to build and 5 to fit on this machine, loaded):

    PYTHONPATH=src python3 benchmarks/value_net.py build /tmp/vn.npz --hands 40000 --seed 2
    PYTHONPATH=src python3 benchmarks/value_net.py fit /tmp/vn.npz --seed 1

(it was fitted from two files, deals 0 to 19,999 and ``--first 20000``, which ``fit``
reads as the same rows in the same order as one file).
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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from hand_net import Adam

from hollywood_gin.actions import Discard
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.greedy import GreedySettings, plan_discard
from hollywood_gin.bots.valuenet import (
    CARD_GROUPS,
    DENSE,
    SPARSE_SIZE,
    net_from_dict,
    value_features,
)
from hollywood_gin.cards import CARDS
from hollywood_gin.hand import Hand, Phase
from hollywood_gin.rules import Rules

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "hollywood_gin",
                   "bots", "value_net.json")
PAD = SPARSE_SIZE  # the index of the always-zero row that pads the card inputs
WIDTH = 96  # the most card inputs on at once (room to spare)


def play_hand(rules: Rules, seed: int, dealer: int, opponent: str, args: argparse.Namespace,
              policy: Any = None) -> list[tuple[list[int], list[float], int, int]]:
    """One hand; the rows (card inputs, other inputs, points for the seat, twice the step
    plus the seat) of the learner's discards.  ``policy(view, sense, probs, plans)`` may
    pick the learner's discard (the plans' index) instead of the heuristic's best."""
    hand = Hand.deal(rules=rules, dealer=dealer, seed=seed)
    learner = [True, opponent == "greedy"]
    bots = [make_bot("greedy", seed=seed), make_bot(opponent, seed=seed + 1)]
    coin = random.Random(seed ^ 0x5EED)
    greedy = GreedySettings()
    rows: list[tuple[list[int], list[float], int, int]] = []
    step = 0
    while not hand.is_over:
        seat = hand.to_act
        view = hand.view(seat)
        action = bots[seat].choose(view, None)
        if learner[seat] and view.phase is Phase.DISCARD and isinstance(action, Discard):
            sense = read_view(view)
            probs = sense.opp_probs()
            allowed = [a.card.index for a in view.legal_actions if isinstance(a, Discard)]
            plans = plan_discard(view.hand_mask, allowed, sense, probs, greedy)
            pick = 0
            if policy is not None:
                pick = policy(view, sense, probs, plans)
            if coin.random() < args.explore:
                top = [k for k, p in enumerate(plans[:args.explore_top])
                       if p.cost <= plans[0].cost + args.window]
                pick = coin.choice(top)
            card = plans[pick].card
            action = Discard(CARDS[card])
            active, dense = value_features(sense, probs, card, view.knock_limit)
            rows.append((active, dense, seat, step))
            step += 1
        hand.apply(action, seat)
    res = hand.result
    assert res is not None
    out = []
    for active, dense, seat, k in rows:
        pts = 0 if res.winner is None else (res.points if res.winner == seat else -res.points)
        out.append((active, dense, pts, 2 * k + seat))
    return out


def build(args: argparse.Namespace) -> int:
    rules = Rules.preset("eaai")
    idx: list[list[int]] = []
    dense: list[list[float]] = []
    ys: list[float] = []
    hands: list[int] = []
    steps: list[int] = []
    policy = None
    if args.policy:
        # Policy iteration: the learner throws by a trained network (among the heuristic's
        # best three within its cost window), so the values learnt are of that play.
        with open(args.policy) as f:
            net = net_from_dict(json.load(f))

        def policy(view: Any, sense: Any, probs: list[float], plans: list[Any]) -> int:
            top = [k for k, p in enumerate(plans[:3]) if p.cost <= plans[0].cost + 6.0]
            values = [net.value(*value_features(sense, probs, plans[k].card,
                                                view.knock_limit)) for k in top]
            return top[max(range(len(top)), key=lambda k: (values[k], -k))]

    t0 = time.perf_counter()
    n = 0
    for k in range(args.first, args.hands):
        for o, opponent in enumerate(args.opponents):
            seed = args.seed * 1_000_003 + 7919 * o + k
            for active, d, pts, step in play_hand(rules, seed, k % 2, opponent, args, policy):
                idx.append(active + [PAD] * (WIDTH - len(active)))
                dense.append(d)
                ys.append(pts)
                hands.append(n)
                steps.append(step)
            n += 1
        if (k + 1) % 1000 == 0:
            print(f"  {k + 1} deals, {len(ys)} positions, {time.perf_counter() - t0:.0f}s",
                  file=sys.stderr, flush=True)
    np.savez_compressed(args.file, idx=np.array(idx, dtype=np.int16),
                        dense=np.array(dense, dtype=np.float32),
                        y=np.array(ys, dtype=np.float32), hand=np.array(hands, dtype=np.int32),
                        step=np.array(steps, dtype=np.int32),
                        args=json.dumps(vars(args)))
    print(f"{len(ys)} positions from {n} hands -> {args.file} "
          f"({time.perf_counter() - t0:.0f}s)")
    return 0


def _forward(p: dict[str, Any], idx: Any, dense: Any) -> tuple[Any, Any]:
    pre = p["S"][idx].sum(axis=1) + dense @ p["D"] + p["b"]
    h = np.maximum(pre, 0.0)
    return h @ p["o"] + p["ob"], h


def _train(p: dict[str, Any], idx: Any, dense: Any, yt: Any, tr: Any, te: Any,
           args: argparse.Namespace, rng: Any, epochs: int) -> tuple[float, dict[str, Any]]:
    """Adam on the mean squared error; the weights of the best held-out epoch."""
    adam = Adam(p)
    t0 = time.perf_counter()
    best = (float("inf"), {k: v.copy() for k, v in p.items()})
    for epoch in range(epochs):
        lr = args.lr * (0.5 ** (epoch // max(1, epochs // 3)))
        order = rng.permutation(tr)
        for s in range(0, len(order), args.batch):
            bi = order[s:s + args.batch]
            ib, db, yb = idx[bi], dense[bi], yt[bi]
            out, h = _forward(p, ib, db)
            g = (2.0 / len(bi)) * (out - yb)
            grads: dict[str, Any] = {"o": h.T @ g, "ob": np.float32(g.sum())}
            gh = np.outer(g, p["o"]) * (h > 0)
            grads["b"] = gh.sum(axis=0)
            grads["D"] = db.T @ gh
            gs = np.zeros_like(p["S"])
            np.add.at(gs, ib.ravel(), np.repeat(gh, ib.shape[1], axis=0))
            gs[PAD] = 0.0
            grads["S"] = gs + args.l2 * p["S"]
            adam.step(p, grads, lr)
        out, _ = _forward(p, idx[te], dense[te])
        mse = float(np.mean((out - yt[te]) ** 2))
        print(f"  epoch {epoch + 1}: held-out mse {mse:.4f}  lr {lr:.4g}  "
              f"{time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
        if mse < best[0]:
            best = (mse, {k: v.copy() for k, v in p.items()})
    return best


def _td_targets(p: dict[str, Any], idx: Any, dense: Any, z: Any, hand: Any, step: Any,
                lam: float) -> Any:
    """Lambda-returns: along each seat's discards in a hand (rows in order), the target
    mixes the net's value of the seat's next position with the target after it; the
    last position's target is the hand's points ``z``."""
    pred, _ = _forward(p, idx, dense)
    target = z.copy()
    later: dict[tuple[int, int], tuple[float, float]] = {}  # next row: (value, target)
    for k in range(len(z) - 1, -1, -1):
        key = (int(hand[k]), int(step[k]) % 2)
        if key in later:
            v, g = later[key]
            target[k] = (1 - lam) * v + lam * g
        later[key] = (float(pred[k]), float(target[k]))
    return target


def fit(args: argparse.Namespace) -> int:
    parts = [np.load(f) for f in args.files]
    idx = np.concatenate([d["idx"] for d in parts]).astype(np.int64)
    dense = np.concatenate([d["dense"] for d in parts])
    y = np.concatenate([d["y"] for d in parts])
    steps = np.concatenate([d["step"] for d in parts])
    offset = 0
    hands = []
    for d in parts:  # hand numbers made distinct across the files
        hands.append(d["hand"] + offset)
        offset += int(d["hand"].max()) + 1
    hand = np.concatenate(hands)
    rng = np.random.default_rng(args.seed)
    test = hand % 5 == 0
    train = ~test
    scale = float(args.scale)
    yt = y / scale
    width = args.hidden
    p: dict[str, Any] = {
        "S": rng.normal(0, 0.05, (SPARSE_SIZE + 1, width)).astype(np.float32),
        "D": rng.normal(0, 0.1, (len(DENSE), width)).astype(np.float32),
        "b": np.full(width, 0.1, dtype=np.float32),
        "o": rng.normal(0, 0.1, width).astype(np.float32),
        "ob": np.float32(0.0),
    }
    p["S"][PAD] = 0.0
    tr = np.flatnonzero(train)
    te = np.flatnonzero(test)
    base = float(np.mean((yt[te] - yt[tr].mean()) ** 2))
    # A linear fit on the other inputs alone (deadwood, danger...): what a net must beat.
    X = np.hstack([dense, np.ones((len(y), 1), dtype=np.float32)])
    coef = np.linalg.lstsq(X[tr], yt[tr], rcond=None)[0]
    lin = float(np.mean((X[te] @ coef - yt[te]) ** 2))
    print(f"held-out mse (units of {scale:g} points): constant {base:.4f}, "
          f"linear on the dense inputs {lin:.4f}")
    mse, p = _train(p, idx, dense, yt, tr, te, args, rng, args.epochs)
    for r in range(args.td_rounds):
        target = _td_targets(p, idx, dense, yt, hand, steps, args.td_lambda)
        # Train on the lambda-returns, judge on the final points as before.
        both = np.where(train, target, yt).astype(np.float32)
        mse, p = _train(p, idx, dense, both, tr, te, args, rng, args.td_epochs)
        print(f"TD round {r + 1}: held-out mse {mse:.4f}")
    print(f"held-out mse {mse:.4f} (constant {base:.4f}, linear {lin:.4f}); "
          f"explained {1 - mse / base:.3%} of the variance")
    model = {
        "about": "Value of a position after a discard, points for the discarder (issue 14); "
                 "built by benchmarks/value_net.py",
        "seed": args.seed, "data": [json.loads(str(d["args"])) for d in parts],
        "fit": {"hidden": width, "epochs": args.epochs, "td_rounds": args.td_rounds,
                "td_lambda": args.td_lambda, "td_epochs": args.td_epochs, "lr": args.lr,
                "batch": args.batch,
                "l2": args.l2, "train_rows": int(train.sum()), "test_rows": int(test.sum()),
                "test_mse": round(mse, 5), "constant_mse": round(base, 5),
                "linear_mse": round(lin, 5)},
        "card_groups": list(CARD_GROUPS), "dense_features": list(DENSE),
        "scale": scale,
        "sparse": [[round(float(w), 5) for w in row] for row in p["S"][:SPARSE_SIZE]],
        "dense": [[round(float(w), 5) for w in row] for row in p["D"]],
        "bias": [round(float(w), 5) for w in p["b"]],
        "out": [round(float(w), 5) for w in p["o"]],
        "out_bias": round(float(p["ob"]), 5),
    }
    # The shipped evaluator must agree with NumPy on the rounded weights.
    net = net_from_dict(model)
    pr = {"S": np.vstack([np.array(model["sparse"]), np.zeros((1, width))]),
          "D": np.array(model["dense"]), "b": np.array(model["bias"]),
          "o": np.array(model["out"]), "ob": model["out_bias"]}
    ref, _ = _forward(pr, idx[te[:200]], dense[te[:200]].astype(np.float64))
    for r, k in zip(ref, te[:200], strict=True):
        active = [int(i) for i in idx[k] if i != PAD]
        got = net.value(active, [float(x) for x in dense[k]])
        assert abs(got - r * scale) < 1e-6 * max(1.0, abs(got)), (got, r * scale)
    with open(args.out, "w") as f:
        json.dump(model, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="self-play rows to an .npz file")
    b.add_argument("file")
    b.add_argument("--hands", type=int, default=40_000, help="deals per opponent")
    b.add_argument("--opponents", nargs="+", default=["greedy", "basic"])
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--first", type=int, default=0,
                   help="start at this deal (a file from 0 to N and one from N on fit as one)")
    b.add_argument("--explore", type=float, default=0.25)
    b.add_argument("--explore-top", type=int, default=3)
    b.add_argument("--window", type=float, default=6.0)
    b.add_argument("--policy", default="", help="a value_net.json the learner throws by")
    f = sub.add_parser("fit", help="train the network and write value_net.json")
    f.add_argument("files", nargs="+", help="the .npz files of build")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--hidden", type=int, default=32)
    f.add_argument("--epochs", type=int, default=3)
    f.add_argument("--lr", type=float, default=5e-4)
    f.add_argument("--batch", type=int, default=256)
    f.add_argument("--l2", type=float, default=1e-4)
    f.add_argument("--scale", type=float, default=20.0)
    f.add_argument("--td-rounds", type=int, default=2, help="TD(lambda) rounds after the fit")
    f.add_argument("--td-lambda", type=float, default=0.7)
    f.add_argument("--td-epochs", type=int, default=2)
    f.add_argument("--out", default=OUT)
    args = ap.parse_args()
    return build(args) if args.cmd == "build" else fit(args)


if __name__ == "__main__":
    raise SystemExit(main())
