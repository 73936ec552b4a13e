"""RL environment throughput: our environments vs RLCard's ``gin-rummy``, side by side.

Every environment is stepped with uniformly random legal actions, and "steps" are
actions applied (both seats), so the numbers compare like with like.  RLCard's
figure comes from ``peers.rlcard_random_hands(driver="env")``; when ``rlcard`` is
not importable here it is measured by ``benchmarks/.venv/bin/python`` in a
subprocess (see ``requirements.txt``), still in this one run.

    python benchmarks/bench_rl.py [--seconds S] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from hollywood_gin.rl import GinEnv, VectorGinEnv, hand_env

HERE = Path(__file__).resolve().parent


def vector_rate(n: int, seconds: float) -> float:
    """Steps per second of :class:`VectorGinEnv` with ``n`` hands."""
    env = VectorGinEnv(n, seed=0)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = obs["action_mask"]
        obs, *_ = env.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
        steps += n
    return steps / (time.perf_counter() - start)


def aec_rate(seconds: float) -> float:
    """Steps per second of the PettingZoo hand environment (views encoded every step)."""
    env = hand_env()
    env.reset(seed=0)
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps / (time.perf_counter() - start)


def gym_rate(seconds: float) -> float:
    """Engine actions per second of :class:`GinEnv` against the random bot (both seats)."""
    env = GinEnv("random", seat=0)
    obs, _ = env.reset(seed=0)
    rng = random.Random(0)
    start = time.perf_counter()
    actions = 0
    while time.perf_counter() - start < seconds:
        before = len(env.episode.hand.history)
        obs, _, term, trunc, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        actions += len(env.episode.hand.history) - before
        if term or trunc:
            obs, _ = env.reset()
    return actions / (time.perf_counter() - start)


def rlcard_rate(hands: int) -> dict[str, Any]:
    """RLCard's gin-rummy env with random legal actions, via peers.py (here or in the venv)."""
    code = (
        f"import json, sys; sys.path.insert(0, {str(HERE)!r}); import peers; "
        f"print(json.dumps(peers._hands_rate(peers.rlcard_random_hands, {hands}, 0, driver='env')))"
    )
    here_ok = importlib.util.find_spec("rlcard") is not None
    python = sys.executable if here_ok else str(HERE / ".venv" / "bin" / "python")
    out = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["python"] = python
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    rl = rlcard_rate(max(20, int(50 * args.seconds)))
    ours = {
        "VectorGinEnv n=1": vector_rate(1, args.seconds),
        "VectorGinEnv n=64": vector_rate(64, args.seconds),
        "hand_env (PettingZoo AEC)": aec_rate(args.seconds),
        "GinEnv vs random bot (Gymnasium)": gym_rate(args.seconds),
    }
    base = float(rl["actions/s"])
    report = {
        "rlcard gin-rummy env steps/s": round(base),
        "rlcard": rl,
        "ours steps/s": {k: round(v) for k, v in ours.items()},
        "ratio vs rlcard": {k: round(v / base, 2) for k, v in ours.items()},
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{'environment':36} {'steps/s':>10} {'x rlcard':>9}")
    print(f"{'rlcard gin-rummy env':36} {base:10.0f} {1.0:9.2f}")
    for name, rate in ours.items():
        print(f"{name:36} {rate:10.0f} {rate / base:9.2f}")


if __name__ == "__main__":
    main()
