"""Batch least deadwood: ``hollywood_gin.batch`` vs OpenSpiel's ``min_deadwood`` in a loop.

Both sides get the same 10-card hands (uniform and meld-dense); OpenSpiel's hands
are converted to its card numbering beforehand (``peers.openspiel_mask_converter``),
so its time is the bare ``GinRummyUtils.min_deadwood`` call loop; each side's time is
the best of three runs.  The answers are
checked equal.  Needs ``pyspiel`` here; otherwise the OpenSpiel side runs in
``benchmarks/.venv/bin/python`` (see ``requirements.txt``), in this one run.

    python benchmarks/bench_batch.py [--hands N] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from hollywood_gin.batch import deadwood_batch
from hollywood_gin.melds import deadwood_of_mask

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import peers  # noqa: E402  # the peer helpers live beside this script

_OPENSPIEL_CODE = """
import json, sys, time
sys.path.insert(0, {here!r})
import peers
masks = json.load(sys.stdin)
raw = peers.openspiel_deadwood_raw_fn()
conv = peers.openspiel_mask_converter()
out = {{}}
for kind, ms in masks.items():
    lists = [conv(m) for m in ms]
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        values = [raw(c) for c in lists]
        best = min(best, time.perf_counter() - t)
    out[kind] = {{"seconds": best, "values": values}}
print(json.dumps(out))
"""


def openspiel_side(masks: dict[str, list[int]]) -> tuple[dict[str, Any], str]:
    """OpenSpiel's loop timings and answers, measured here or in the benchmark venv."""
    here_ok = importlib.util.find_spec("pyspiel") is not None
    python = sys.executable if here_ok else str(HERE / ".venv" / "bin" / "python")
    out = subprocess.run(
        [python, "-c", _OPENSPIEL_CODE.format(here=str(HERE))],
        input=json.dumps(masks),
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result, python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands of each kind")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    hands = {
        "uniform": peers.random_hand_masks(args.hands, 0),
        "meldy": peers.meldy_hand_masks(args.hands, 1),
    }
    theirs, python = openspiel_side(hands)
    report: dict[str, Any] = {"hands": args.hands, "openspiel_python": python}
    for kind, masks in hands.items():
        arr = np.asarray(masks, dtype=np.uint64)
        batch_s = float("inf")
        for _ in range(3):  # best of three, like the OpenSpiel side: the machine is shared
            start = time.perf_counter()
            ours = deadwood_batch(arr)
            batch_s = min(batch_s, time.perf_counter() - start)
        sample = masks[:20_000]
        start = time.perf_counter()
        for m in sample:
            deadwood_of_mask(m)
        scalar_rate = len(sample) / (time.perf_counter() - start)
        os_s = theirs[kind]["seconds"]
        agree = bool((ours == np.asarray(theirs[kind]["values"])).all())
        report[kind] = {
            "batch hands/s": round(len(masks) / batch_s),
            "openspiel min_deadwood loop hands/s": round(len(masks) / os_s),
            "deadwood_of_mask loop hands/s": round(scalar_rate),
            "batch / openspiel": round(os_s / batch_s, 1),
            "answers equal": agree,
        }
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{args.hands} ten-card hands of each kind; OpenSpiel run by {python}")
    for kind in hands:
        r = report[kind]
        print(
            f"{kind:8} batch {r['batch hands/s']:>11,}/s   openspiel loop "
            f"{r['openspiel min_deadwood loop hands/s']:>9,}/s   x{r['batch / openspiel']:<6} "
            f"scalar {r['deadwood_of_mask loop hands/s']:>9,}/s   equal {r['answers equal']}"
        )


if __name__ == "__main__":
    main()
