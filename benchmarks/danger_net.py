"""How well the danger of a discard can be told from the view (issue 14): a measurement,
no model is shipped.

The danger of a discard is the chance that it would meld with the opponent's hand.
Knowing it exactly is worth about five points a hand to the expert against greedy
(``oracle_ceiling.py``, ``danger_deals=16`` on his true hand), more than any other
hidden fact measured.  The discard heuristic reads it from per-card odds taken one card
at a time (``cardsense.danger``).  This script asks how much of it the public view holds.

``fit`` reads the data of ``hand_net.py build`` (each position's public inputs and the
opponent's true hand), keeps the discard positions, labels each of my cards 1 if it would
meld with his true hand (a set with two of the other three of its rank, or a run with
two neighbours in its suit), and trains one hidden layer of rectified units (NumPy,
seeded) whose 52 logits add to the logit of the heuristic's danger on the hand network's
card chances (a learned correction), by binary cross entropy on my cards.  A fifth of
the hands is held out (as in ``hand_net.py``); the report is the held-out log loss and
Brier score on my cards of: the base rate, the heuristic on the hand-set odds, the
heuristic on the hand network's chances, and the network.

    PYTHONPATH=src OMP_NUM_THREADS=1 python3 benchmarks/danger_net.py fit \\
        /tmp/hn/d7.npz /tmp/hn/d8.npz --seed 1
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, cast

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from hand_net import NB, Adam, first_weights, held_out_split, inputs, normalised, read_data, unpack
from hand_net import forward as hand_forward

from hollywood_gin.bots.cardsense import CardSense, danger, in_some_meld
from hollywood_gin.bots.handnet import BIT_PLANES, SCALARS
from hollywood_gin.bots.shipped import read_shipped

_MINE = BIT_PLANES.index("mine")
_KNOWN = BIT_PLANES.index("opp_known")
_LIVE = BIT_PLANES.index("live")


def melds_with(opp: Any) -> Any:
    """For each of the 52 cards, 1 if it would meld with the hand ``opp`` (n x 52 bits)."""
    o = opp.reshape(-1, 4, 13)
    same_rank = o.sum(1, keepdims=True) - o
    sets = same_rank >= 2
    pad = np.pad(o, ((0, 0), (0, 0), (2, 2)))
    lo2, lo1, hi1, hi2 = pad[:, :, :-4], pad[:, :, 1:-3], pad[:, :, 3:-1], pad[:, :, 4:]
    runs = (lo2 * lo1 + lo1 * hi1 + hi1 * hi2) > 0
    return (sets | runs).reshape(-1, 52).astype(np.float32)


def heuristic_danger(p: Any) -> Any:
    """``cardsense.danger`` of every card, from per-card chances ``p`` (n x 52)."""
    q = p.reshape(-1, 4, 13).astype(np.float64)
    out = np.zeros_like(q)
    pad = np.pad(q, ((0, 0), (0, 0), (2, 2)))
    lo2, lo1, hi1, hi2 = pad[:, :, :-4], pad[:, :, 1:-3], pad[:, :, 3:-1], pad[:, :, 4:]
    miss = (1 - lo2 * lo1) * (1 - lo1 * hi1) * (1 - hi1 * hi2)
    for s in range(4):
        a, b, c = (q[:, t, :] for t in range(4) if t != s)
        p_set = a * b + a * c + b * c - 2 * a * b * c
        out[:, s, :] = 1 - (1 - p_set) * miss[:, s, :]
    return out.reshape(-1, 52)


def logit(p: Any) -> Any:
    c = np.clip(p, 0.002, 0.998)
    return np.log(c / (1 - c))


def scores(prob: Any, y: Any, mask: Any) -> tuple[float, float]:
    """(log loss, Brier score) over the masked cards."""
    p = np.clip(prob, 0.002, 0.998)
    n = mask.sum()
    ll = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float((ll * mask).sum() / n), float((((p - y) ** 2) * mask).sum() / n)


def check_mirrors(opp: Any, hand_set: Any, net_probs: Any, base_hs: Any, base: Any,
                  y: Any) -> None:
    """The NumPy labels and dangers above against the package's own functions (its
    ``in_some_meld`` and ``cardsense.danger``), on rows spread over the data."""
    for r in range(0, len(y), max(1, len(y) // 40)):
        mask = int(opp[r])
        for i in range(52):
            if not mask >> i & 1:
                assert y[r, i] == in_some_meld(mask, i), "melds_with differs"
        for probs, got in ((hand_set[r], base_hs[r]), (net_probs[r], base[r])):
            p = [float(v) for v in probs]
            # given the chances, danger reads nothing of the sense
            want = [danger(cast(CardSense, None), i, p) for i in range(52)]
            assert np.allclose(got, want, atol=1e-5), "heuristic_danger differs"


def fit(args: argparse.Namespace) -> int:
    d, metas = read_data(args.files)
    keep = d["scalars"][:, SCALARS.index("discard_phase")] == 1
    d = {k: v[keep] for k, v in d.items()}
    x = inputs(d)
    y = melds_with(unpack(d["label"]))
    mine = x[:, 52 * _MINE: 52 * _MINE + 52]
    known = x[:, 52 * _KNOWN: 52 * _KNOWN + 52]
    live = x[:, 52 * _LIVE: 52 * _LIVE + 52]
    count = d["scalars"][:, SCALARS.index("opp_unknown")] * 10.0
    hand_set = known + x[:, 52 * NB: 52 * NB + 52]
    hn = {k: np.array(v, dtype=np.float32) for k, v in read_shipped("hand_net.json").items()
          if k in ("w1", "b1", "w2", "b2", "wd")}
    hn["bd"] = np.float32(0.0)
    chances = np.empty_like(live)
    for s in range(0, len(x), 65536):
        _, z, _ = hand_forward(hn, x[s:s + 65536])
        chances[s:s + 65536] = normalised(z, live[s:s + 65536], count[s:s + 65536])
    net_probs = known + chances
    base_hs = heuristic_danger(hand_set).astype(np.float32)
    base = heuristic_danger(net_probs).astype(np.float32)
    off = logit(base).astype(np.float32)
    check_mirrors(d["label"], hand_set, net_probs, base_hs, base, y)
    tr, te = held_out_split(d)
    rng = np.random.default_rng(args.seed)
    p = first_weights(rng, args.hidden)
    adam = Adam(p)

    def forward(idx: Any) -> tuple[Any, Any]:
        h = np.maximum(x[idx] @ p["w1"] + p["b1"], 0.0)
        return h, h @ p["w2"] + p["b2"] + off[idx]

    def held_out() -> tuple[float, float]:
        z = np.concatenate([forward(te[s:s + 65536])[1] for s in range(0, len(te), 65536)])
        return scores(1 / (1 + np.exp(-z)), y[te], mine[te])

    print(f"{len(x)} discard positions, {len(tr)} to fit, {len(te)} held out")
    print(f"held out, heuristic on hand-set odds: {scores(base_hs[te], y[te], mine[te])}")
    print(f"held out, heuristic on the hand net:  {scores(base[te], y[te], mine[te])}")
    best: tuple[float, dict[str, Any]] = (1e9, {})
    t0 = time.perf_counter()
    for epoch in range(args.epochs):
        order = rng.permutation(tr)
        lr = args.lr * (0.5 ** (epoch // max(1, args.halve)))
        for s in range(0, len(order), args.batch):
            bi = order[s:s + args.batch]
            h, z = forward(bi)
            q = 1.0 / (1.0 + np.exp(-z))
            mb = mine[bi]
            gz = (q - y[bi]) * mb / mb.sum()
            g = {"w2": h.T @ gz, "b2": gz.sum(0)}
            gh = (gz @ p["w2"].T) * (h > 0)
            g["w1"] = x[bi].T @ gh + args.l2 * p["w1"]
            g["b1"] = gh.sum(0)
            adam.step(p, g, lr)
        ll, brier = held_out()
        print(f"epoch {epoch + 1}: held-out log loss {ll:.4f} Brier {brier:.4f}"
              f" ({time.perf_counter() - t0:.0f} s)", flush=True)
        if ll < best[0]:
            best = (ll, {k: v.copy() for k, v in p.items()})
    p = best[1]
    z = np.concatenate([forward(te[s:s + 65536])[1] for s in range(0, len(te), 65536)])
    prob = 1 / (1 + np.exp(-z))
    report: dict[str, Any] = {}
    names = metas[0]["opponents"]
    for o, name in enumerate(names):
        if names.index(name) != o:
            continue
        sel = d["opp"][te] == o
        rate = float((y[te][sel] * mine[te][sel]).sum() / mine[te][sel].sum())
        report[name] = {
            label: dict(zip(("log_loss", "brier"),
                            (round(v, 5) for v in scores(q[sel], y[te][sel], mine[te][sel])),
                            strict=True))
            for label, q in (("base_rate", np.full_like(prob, rate)), ("net", prob),
                             ("heuristic_hand_net", base[te]),
                             ("heuristic_hand_set", base_hs[te]))}
        report[name]["positions"] = int(sel.sum())
        print(f"vs {name}: {report[name]}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--hidden", type=int, default=64)
    f.add_argument("--epochs", type=int, default=6)
    f.add_argument("--halve", type=int, default=3)
    f.add_argument("--lr", type=float, default=1e-3)
    f.add_argument("--batch", type=int, default=256)
    f.add_argument("--l2", type=float, default=1e-5)
    return fit(ap.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
