"""Train the expert's learned model of the opponent's hand (issue 14, ``bots/handnet.py``).

``build`` plays seeded single ``eaai`` hands, greedy against each ``--opponents`` bot
(the dealer alternating), and at every decision of an observing seat (greedy; both seats
when both are greedy) that has a choice (its discard, and taking or refusing the upcard)
keeps the inputs of :func:`hand_features` (only what the seat sees) and, as the label,
the opponent's true hand then (a 52-bit mask) and its deadwood.

``fit`` trains a one-hidden-layer network (NumPy, offline only, seeded) by binary cross
entropy on the live cards (unseen and not known to be his) for the 52 card logits and
by squared error for a deadwood head, holds out a fifth of the hands (every fifth block
of five deals, so that each opponent of the rotation is in it), keeps the epoch best
there, and reports on the held-out positions the card log loss of the network (raw,
and normalised to sum to his unknown cards as the evaluator does) against the hand-set
weights of ``read_view`` on the same positions, by opponent, with the clip of
``hand_model_eval.py`` ([0.01, 0.99]).
It writes ``src/hollywood_gin/bots/hand_net.json`` (``--out``) with its seed and counts,
and checks the pure-Python evaluator against the NumPy forward pass on held-out rows.

The shipped model (10 minutes to build, 80 s to fit; with one BLAS thread the fit
writes the same file byte for byte):

    PYTHONPATH=src python3 benchmarks/hand_net.py build /tmp/hn/d7.npz --hands 50000 \
        --seed 7 --opponents greedy,basic,greedy,basic,expert:time_cap_ms=0
    PYTHONPATH=src OMP_NUM_THREADS=1 python3 benchmarks/hand_net.py fit /tmp/hn/d7.npz \
        --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import numpy as np

from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.handnet import (
    BIT_PLANES,
    FLOAT_PLANES,
    INPUTS,
    SCALARS,
    hand_features,
    net_from_dict,
    normalise,
)
from hollywood_gin.hand import Hand, Phase
from hollywood_gin.melds import deadwood_of_mask
from hollywood_gin.rules import Rules

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "hollywood_gin",
                   "bots", "hand_net.json")
NB, NF, NS = len(BIT_PLANES), len(FLOAT_PLANES), len(SCALARS)


def build(args: argparse.Namespace) -> int:
    rules = Rules.preset("eaai")
    bits: list[list[int]] = []
    planes: list[list[list[float]]] = []
    scal: list[list[float]] = []
    label: list[int] = []
    dead: list[int] = []
    hand_ids: list[int] = []
    opp_ids: list[int] = []
    draws: list[int] = []
    t0 = time.perf_counter()
    opponents = args.opponents.split(",")
    for k in range(args.first, args.first + args.hands):
        opponent = opponents[k % len(opponents)]
        seed = args.seed * 1_000_003 + k
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=seed)
        bots = [make_bot("greedy", seed=seed), make_bot(opponent, seed=seed + 1)]
        observers = (0, 1) if opponent == "greedy" else (0,)
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if seat in observers and len(view.legal_actions) > 1 and view.phase in (
                    Phase.DISCARD, Phase.DRAW, Phase.OFFER):
                sense = read_view(view)
                b, p, s = hand_features(view, sense)
                opp = sum(1 << c.index for c in hand.cards_of(1 - seat))
                bits.append(b)
                planes.append(p)
                scal.append(s)
                label.append(opp)
                dead.append(deadwood_of_mask(opp))
                hand_ids.append(k)
                opp_ids.append(opponents.index(opponent))
                draws.append(sense.opp_draws)
            hand.apply(bots[seat].choose(view, None), seat)
        if (k + 1) % 2000 == 0:
            print(f"{k + 1} hands, {len(label)} rows, {time.perf_counter() - t0:.0f} s",
                  flush=True)
    np.savez_compressed(
        args.file, bits=np.array(bits, dtype=np.uint64),
        planes=np.array(planes, dtype=np.float16), scalars=np.array(scal, dtype=np.float32),
        label=np.array(label, dtype=np.uint64), dead=np.array(dead, dtype=np.int16),
        hand=np.array(hand_ids, dtype=np.int32), opp=np.array(opp_ids, dtype=np.int8),
        draws=np.array(draws, dtype=np.int16),
        meta=np.array(json.dumps({"cmd": "build", "file": os.path.basename(args.file),
                                  "hands": args.hands, "first": args.first, "seed": args.seed,
                                  "opponents": opponents, "observer": "greedy"})))
    print(f"{len(label)} rows from {args.hands} hands in {time.perf_counter() - t0:.0f} s")
    return 0


def unpack(masks: Any) -> Any:
    """52 bits of each uint64 as float32 columns."""
    shifts = np.arange(52, dtype=np.uint64)
    return ((masks[..., None] >> shifts) & np.uint64(1)).astype(np.float32)


def inputs(d: dict[str, Any]) -> Any:
    """The dense input matrix in the evaluator's order: bit planes, real planes, scalars."""
    n = len(d["label"])
    b = unpack(d["bits"]).reshape(n, NB * 52)
    f = d["planes"].astype(np.float32).reshape(n, NF * 52)
    return np.hstack([b, f, d["scalars"].astype(np.float32)])


def offset(x: Any) -> Any:
    """The evaluator's ``_offset``: the logit of each hand-set weight (0 where it is 0)."""
    w = x[:, 52 * NB: 52 * NB + 52].astype(np.float64)
    c = np.clip(w, 0.005, 0.97)
    return np.where(w > 0, np.log(c / (1 - c)), 0.0).astype(x.dtype)


def forward(p: dict[str, Any], x: Any) -> tuple[Any, Any, Any]:
    h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
    return h, h @ p["w2"] + p["b2"] + offset(x), h @ p["wd"] + p["bd"]


def card_loss(prob: Any, y: Any, live: Any) -> float:
    """hand_model_eval's card log loss: mean over live cards of -log p, clipped."""
    p = np.clip(prob, 0.01, 0.99)
    ll = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float((ll * live).sum() / live.sum())


def normalised(logits: Any, live: Any, count: Any) -> Any:
    """NumPy :func:`normalise`: sigmoid(logit + c) over the live cards, summing to count."""
    c = np.zeros(len(logits))
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-np.clip(logits + c[:, None], -30, 30))) * live
        s = p.sum(1)
        d = (p * (1 - p)).sum(1)
        c -= np.clip((s - count) / np.maximum(d, 1e-12), -5, 5)
    return 1.0 / (1.0 + np.exp(-np.clip(logits + c[:, None], -30, 30))) * live


def read_data(files: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The arrays of ``build``'s files, one after the other, and each file's meta."""
    parts = [dict(np.load(f)) for f in files]
    metas = [json.loads(str(d.pop("meta"))) for d in parts]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}, metas


def held_out_split(d: dict[str, Any]) -> tuple[Any, Any]:
    """(rows to fit, rows held out): every fifth block of five deals is held out, so that
    each opponent of the rotation is in it."""
    test = (d["hand"] // 5) % 5 == 2
    return np.flatnonzero(~test), np.flatnonzero(test)


def first_weights(rng: Any, width: int) -> dict[str, Any]:
    """A seeded start of one hidden layer over :data:`INPUTS` and 52 card outputs."""
    return {"w1": rng.normal(0, 1.0 / np.sqrt(INPUTS / 8), (INPUTS, width)).astype(np.float32),
            "b1": np.full(width, 0.05, dtype=np.float32),
            "w2": rng.normal(0, 0.1 / np.sqrt(width), (width, 52)).astype(np.float32),
            "b2": np.zeros(52, dtype=np.float32)}


class Adam:
    """Adam's steps (Kingma and Ba) on a dict of float32 NumPy weights, in place."""

    def __init__(self, p: dict[str, Any]) -> None:
        self.m = {k: np.zeros_like(v) for k, v in p.items()}
        self.v = {k: np.zeros_like(v) for k, v in p.items()}
        self.t = 0

    def step(self, p: dict[str, Any], g: dict[str, Any], lr: float,
             beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        self.t += 1
        m, v, t = self.m, self.v, self.t
        for k in p:
            m[k] = beta1 * m[k] + (1 - beta1) * g[k]
            v[k] = beta2 * v[k] + (1 - beta2) * g[k] ** 2
            mh = m[k] / (1 - beta1 ** t)
            vh = v[k] / (1 - beta2 ** t)
            p[k] = (p[k] - lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)


def fit(args: argparse.Namespace) -> int:
    d, metas = read_data(args.files)
    x = inputs(d)
    y = unpack(d["label"])
    live = x[:, 52 * BIT_PLANES.index("live"): 52 * BIT_PLANES.index("live") + 52]
    count = d["scalars"][:, SCALARS.index("opp_unknown")] * 10.0
    hw = x[:, 52 * NB: 52 * NB + 52]  # the hand-set weights
    dead = d["dead"].astype(np.float32)
    tr, te = held_out_split(d)
    rng = np.random.default_rng(args.seed)
    width = args.hidden
    dscale = 10.0
    p = first_weights(rng, width)
    p["wd"] = rng.normal(0, 0.1 / np.sqrt(width), width).astype(np.float32)
    p["bd"] = np.float32(dead[tr].mean() / dscale)
    adam = Adam(p)
    best: tuple[float, dict[str, Any]] = (1e9, {})

    def evaluate(idx: Any) -> tuple[float, float, float]:
        _, z, dd = forward(p, x[idx])
        raw = 1.0 / (1.0 + np.exp(-z))
        norm = normalised(z, live[idx], count[idx])
        return (card_loss(raw, y[idx], live[idx]), card_loss(norm, y[idx], live[idx]),
                float(np.mean((dd * dscale - dead[idx]) ** 2)))

    t0 = time.perf_counter()
    for epoch in range(args.epochs):
        order = rng.permutation(tr)
        lr = args.lr * (0.5 ** (epoch // max(1, args.halve)))
        for s in range(0, len(order), args.batch):
            bi = order[s:s + args.batch]
            xb, yb, lb = x[bi], y[bi], live[bi]
            h, z, dd = forward(p, xb)
            q = 1.0 / (1.0 + np.exp(-z))
            nl = lb.sum()
            gz = (q - yb) * lb / nl  # mean BCE over live cards
            gd = args.dead_weight * 2 * (dd - dead[bi] / dscale) / len(bi)
            g = {"w2": h.T @ gz, "b2": gz.sum(0), "wd": h.T @ gd, "bd": np.float32(gd.sum())}
            gh = (gz @ p["w2"].T + np.outer(gd, p["wd"])) * (h > 0)
            g["w1"] = xb.T @ gh + args.l2 * p["w1"]
            g["b1"] = gh.sum(0)
            adam.step(p, g, lr)
        raw, norm, mse = evaluate(te)
        print(f"epoch {epoch + 1}: held-out card log loss raw {raw:.4f} normalised {norm:.4f}"
              f"  deadwood mse {mse:.2f}  ({time.perf_counter() - t0:.0f} s)", flush=True)
        if norm < best[0]:
            best = (norm, {k: v.copy() for k, v in p.items()})
    p = best[1]
    # The report: the network against the hand-set weights on the same held-out positions.
    _, z, dd = forward(p, x[te])
    norm = normalised(z, live[te], count[te])
    raw = 1.0 / (1.0 + np.exp(-z))
    hand_set = np.minimum(hw[te], 0.97)
    uniform = live[te] * (count[te] / np.maximum(live[te].sum(1), 1))[:, None]
    report: dict[str, Any] = {}
    names = metas[0]["opponents"]
    for o, name in enumerate(names):
        if names.index(name) != o:
            continue
        sel = d["opp"][te] == o
        row = {}
        for label_, prob in (("net", norm), ("net_raw", raw), ("hand_set", hand_set),
                             ("uniform", uniform)):
            row[label_] = round(card_loss(prob[sel], y[te][sel], live[te][sel]), 5)
        bias = []
        for lo, hi in ((0, 4), (5, 8), (9, 99)):
            s2 = sel & (d["draws"][te] >= lo) & (d["draws"][te] <= hi)
            err = dd[s2] * dscale - dead[te][s2]
            bias.append({"draws": f"{lo}-{hi}", "n": int(s2.sum()),
                         "mean_err": round(float(err.mean()), 3),
                         "rmse": round(float(np.sqrt((err ** 2).mean())), 3),
                         "sd_true": round(float(dead[te][s2].std()), 3)})
        row["deadwood"] = bias
        row["positions"] = int(sel.sum())
        report[name] = row
        print(f"vs {name}: {row}")
    model = {
        "about": "The opponent's hand from the public log (issue 14); built by "
                 "benchmarks/hand_net.py",
        "seed": args.seed, "data": metas,
        "fit": {"hidden": width, "epochs": args.epochs, "lr": args.lr, "halve": args.halve,
                "batch": args.batch, "l2": args.l2, "dead_weight": args.dead_weight,
                "train_rows": len(tr), "test_rows": len(te),
                "held_out": "hands with (id // 5) % 5 == 2", "report": report},
        "bit_planes": list(BIT_PLANES), "float_planes": list(FLOAT_PLANES),
        "scalars": list(SCALARS),
        **{k: np.round(p[k].astype(np.float64), 4).tolist()
           for k in ("w1", "b1", "w2", "b2", "wd")},
        "bd": round(float(p["bd"]), 4),
        "dead_scale": dscale,
    }
    # The evaluator reads the rounded weights: check it against NumPy on those.
    net = net_from_dict(json.loads(json.dumps(model)))
    pr = {k: np.array(model[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2", "wd")}
    pr["bd"] = model["bd"]
    for r in te[:: max(1, len(te) // 40)]:
        bits = [int(v) for v in d["bits"][r]]
        planes = [[float(v) for v in row] for row in d["planes"][r].astype(np.float32)]
        scal = [float(v) for v in d["scalars"][r]]
        logits, dg = net.forward(bits, planes, scal)
        _, zz, de = forward(pr, x[r:r + 1].astype(np.float64))
        assert np.allclose(logits, zz[0], atol=1e-6), "evaluator differs from NumPy"
        assert abs(dg - de[0] * dscale) < 1e-5
        pn = normalise(logits, bits[BIT_PLANES.index("live")], round(scal[3] * 10))
        assert np.allclose(pn, normalised(zz, live[r:r + 1], count[r:r + 1])[0], atol=1e-6)
    with open(args.out, "w") as f:
        json.dump(model, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.out}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("file")
    b.add_argument("--hands", type=int, default=30000)
    b.add_argument("--first", type=int, default=0)
    b.add_argument("--seed", type=int, default=7)
    b.add_argument("--opponents", default="greedy,basic")
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--hidden", type=int, default=96)
    f.add_argument("--epochs", type=int, default=10)
    f.add_argument("--halve", type=int, default=4)
    f.add_argument("--lr", type=float, default=1e-3)
    f.add_argument("--batch", type=int, default=256)
    f.add_argument("--l2", type=float, default=1e-5)
    f.add_argument("--dead-weight", type=float, default=0.1)
    f.add_argument("--out", default=OUT)
    args = ap.parse_args()
    return build(args) if args.cmd == "build" else fit(args)


if __name__ == "__main__":
    raise SystemExit(main())
