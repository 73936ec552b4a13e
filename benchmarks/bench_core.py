"""Core speed, side by side with OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy``.

Run in the benchmark environment (the peers are not project dependencies)::

    python3 -m venv benchmarks/.venv
    benchmarks/.venv/bin/pip install -r benchmarks/requirements.txt -e .
    benchmarks/.venv/bin/python benchmarks/bench_core.py

Every figure is measured in this one process, the engines taking turns
(ABAB...) and the best of several rounds kept, so the ratios compare like
with like on the same machine load.  Results also go to
``benchmarks/results/core.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

import peers  # noqa: E402

from hollywood_gin.hand import Hand  # noqa: E402
from hollywood_gin.melds import deadwood_of_mask  # noqa: E402


def best_rate(fn: Callable[[], int], rounds: int) -> float:
    """Best items/second of ``fn`` (which returns how many items it did) over rounds."""
    best = 0.0
    for _ in range(rounds):
        gc.collect()
        start = time.perf_counter()
        count = fn()
        elapsed = time.perf_counter() - start
        best = max(best, count / elapsed)
    return best


def interleaved(named: dict[str, Callable[[], int]], rounds: int) -> dict[str, float]:
    """Rates of several functions measured in alternation, best round of each."""
    rates = dict.fromkeys(named, 0.0)
    for _ in range(rounds):
        for name, fn in named.items():
            rates[name] = max(rates[name], best_rate(fn, 1))
    return rates


def our_random_hands(n: int, seed: int) -> int:
    rng = random.Random(seed)
    choice = rng.choice
    for i in range(n):
        hand = Hand.deal(seed=seed + i, dealer=i & 1)
        while hand._result is None:
            hand.apply_id(choice(hand.legal_action_ids()))
    return n


def our_random_hands_checked(n: int, seed: int) -> int:
    rng = random.Random(seed)
    for i in range(n):
        hand = Hand.deal(seed=seed + i, dealer=i & 1)
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
    return n


def midgame_hand(seed: int = 0, moves: int = 20) -> Hand:
    rng = random.Random(seed)
    hand = Hand.deal(seed=seed)
    for _ in range(moves):
        ids = [i for i in hand.legal_action_ids() if i < 56]
        hand.apply_id(rng.choice(ids))
    return hand


def our_state_bytes(moves: int = 20, n: int = 2000) -> float:
    """Bytes per hand state (tracemalloc over ``n`` clones of a mid-game hand)."""
    hand = midgame_hand(moves=moves)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    keep = [hand.clone() for _ in range(n)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del keep
    return (after - before) / n


def our_state_rss(moves: int = 20, n: int = 20_000) -> float:
    """Bytes per hand state as RSS growth over ``n`` clones, in a fresh interpreter,
    measured the way ``peers.openspiel_state_memory`` measures OpenSpiel's."""
    import subprocess

    paths = [str(HERE.parent / "src"), str(HERE)]
    code = (
        f"import sys, json; sys.path[:0] = {paths!r}; import bench_core, peers; "
        f"h = bench_core.midgame_hand(moves={moves}); before = peers._rss_bytes(); "
        f"keep = [h.clone() for _ in range({n})]; "
        f"print(json.dumps((peers._rss_bytes() - before) / {n}))"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True)
    return float(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per measurement")
    parser.add_argument("--hands", type=int, default=300, help="random hands per round")
    parser.add_argument("--masks", type=int, default=50_000, help="deadwood calls per round")
    args = parser.parse_args()

    out: dict[str, object] = {}
    print(f"python {sys.version.split()[0]}; rounds={args.rounds}")

    # -- least deadwood -------------------------------------------------------------
    os_raw = peers.openspiel_deadwood_raw_fn()
    os_conv = peers.openspiel_mask_converter()
    os_fn = peers.openspiel_deadwood_fn()
    rl_raw = peers.rlcard_deadwood_raw_fn()
    rl_conv = peers.rlcard_mask_converter()
    for label, masks in (
        ("uniform", peers.random_hand_masks(args.masks, seed=1)),
        ("meld-dense", peers.meldy_hand_masks(args.masks, seed=2)),
    ):
        os_lists = [os_conv(m) for m in masks]
        rl_lists = [rl_conv(m) for m in masks[: args.masks // 10]]
        for m, lst in zip(masks[:2000], os_lists[:2000], strict=True):
            assert deadwood_of_mask(m) == os_raw(lst), "engines disagree"

        def ours(masks: list[int] = masks) -> int:
            f = deadwood_of_mask
            for m in masks:
                f(m)
            return len(masks)

        def openspiel_bare(lists: list[list[int]] = os_lists) -> int:
            f = os_raw
            for lst in lists:
                f(lst)
            return len(lists)

        def openspiel_mask(masks: list[int] = masks) -> int:
            f = os_fn
            for m in masks:
                f(m)
            return len(masks)

        def rlcard(lists: list[list[object]] = rl_lists) -> int:
            f = rl_raw
            for lst in lists:
                f(lst)
            return len(lists)

        rates = interleaved({"ours": ours, "openspiel_bare": openspiel_bare,
                             "openspiel_from_mask": openspiel_mask, "rlcard": rlcard},
                            args.rounds)
        out[f"deadwood_{label}"] = rates
        print(f"\nleast deadwood, random 10-card hands ({label}), calls/s")
        for name, rate in rates.items():
            print(f"  {name:<22}{rate:>12,.0f}   ours/them = {rates['ours'] / rate:5.2f}")

    # -- random full hands ------------------------------------------------------------
    n = args.hands
    counter = iter(range(10**9))
    hand_rates = interleaved({
        "ours_fast_path": lambda: our_random_hands(n, next(counter) * n),
        "ours_checked_path": lambda: our_random_hands_checked(n, next(counter) * n),
        "openspiel_python_loop": lambda: peers.openspiel_random_hands(n, next(counter)),
        "openspiel_cpp_loop": lambda: peers.openspiel_random_hands(n, next(counter),
                                                                   driver="cpp"),
        "rlcard_game_loop": lambda: peers.rlcard_random_hands(n // 3, next(counter)),
    }, args.rounds)
    out["random_hands"] = hand_rates
    print("\nrandom full hands driven from Python, hands/s")
    base = hand_rates["openspiel_python_loop"]
    for name, rate in hand_rates.items():
        print(f"  {name:<24}{rate:>10,.0f}   / openspiel python loop = {rate / base:5.2f}")

    # -- clone cost and memory ---------------------------------------------------------
    hand = midgame_hand()
    reps = 100_000

    def our_clones() -> int:
        c = hand.clone
        for _ in range(reps):
            c()
        return reps

    os_state = peers.openspiel_midgame_state()

    def os_clones() -> int:
        c = os_state.clone
        for _ in range(reps):
            c()
        return reps

    clone_rates = interleaved({"ours": our_clones, "openspiel": os_clones}, args.rounds)
    out["clone_per_s"] = clone_rates
    ours_bytes = our_state_bytes()
    ours_rss = our_state_rss()
    os_mem = peers.openspiel_state_memory_subprocess()
    out["state_bytes"] = {"ours_tracemalloc": ours_bytes, "ours_rss": ours_rss,
                          "openspiel": os_mem}
    print("\nclone a mid-game state (20 moves), clones/s")
    for name, rate in clone_rates.items():
        print(f"  {name:<12}{rate:>12,.0f}  ({1e6 / rate:.2f} µs)")
    print(f"  ours/openspiel = {clone_rates['ours'] / clone_rates['openspiel']:.2f}")
    print("\nmemory per mid-game hand state")
    print(f"  ours       {ours_bytes:>10,.0f} bytes (tracemalloc), {ours_rss:,.0f} bytes (RSS)")
    print(f"  openspiel  {os_mem}")

    results = HERE / "results"
    results.mkdir(exist_ok=True)
    (results / "core.json").write_text(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
