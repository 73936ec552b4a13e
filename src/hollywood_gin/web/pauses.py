"""The garbage collector's pauses in a server process.

A server holds every live table in memory: hundreds of thousands of objects that live
as long as their tables.  CPython's full collection walks all of them, and with its
default thresholds it ran several times a minute under load, each time stopping the
event loop for 100 to 250 ms: that, not the database, set the 99th percentile of a
move's latency (``benchmarks/bench_web.py``, one process, 400 tables at a move a
second: p99 120 to 190 ms before, 29 ms after).  So ``serve`` starts each process with
what it imported frozen (never scanned again) and collects far less often: the young
generation every 10,000 net allocations, the middle one every 50 of those, the full
collection every 100 of those (about once an hour at 400 actions a second).  Cyclic
garbage is rare here (``melds._walk_arrangements`` made some at every move; it no
longer does), so collecting it later costs little memory.
"""

from __future__ import annotations

import gc

__all__ = ["SERVER_GC_THRESHOLDS", "tune_collector"]

SERVER_GC_THRESHOLDS = (10_000, 50, 100)


def tune_collector() -> None:
    """Freeze what is loaded now (modules, the app) and collect less often (a server
    process calls it once, when the app is built)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
