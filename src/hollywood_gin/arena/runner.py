"""Running the mirrored pairs: in this process, in worker processes or on Ray."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from ..rules import Rules
from .games import ENGINES, OPENSPIEL_SIMPLE, ArenaError, BotSpec, GameResult, _play_pair, _Task
from .report import ArenaReport, _aggregate


def _spec_name(spec: BotSpec) -> str:
    """The name a report gives a bot: its spec, without an empty settings part ("expert:"
    plays as "expert", and was reported so)."""
    if not isinstance(spec, str):
        return str(getattr(spec, "name", type(spec).__name__))
    name, colon, settings = spec.strip().partition(":")
    return f"{name}{colon}{settings}" if settings.strip() else name


def _check_spec(spec: BotSpec, engine: str) -> None:
    if not isinstance(spec, str):
        if not (callable(getattr(spec, "choose", None)) and callable(getattr(spec, "reset",
                                                                                None))):
            raise ArenaError(f"a bot is a bot name or an object with choose() and reset(), "
                             f"not {spec!r}"[:200])
        return
    if spec == OPENSPIEL_SIMPLE:
        if engine != "openspiel":
            raise ArenaError(f"{OPENSPIEL_SIMPLE} plays only with --engine openspiel")
        return
    from ..bots import make_bot

    make_bot(spec)  # raises a clear error for an unknown name


def run_arena(
    bot_a: BotSpec,
    bot_b: BotSpec,
    *,
    rules: Rules | str = "hollywood",
    matches: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    engine: str = "ours",
    progress: Callable[[int, int], None] | None = None,
    ray: str | None = None,
) -> ArenaReport:
    """Play ``matches`` matches (or ``hands`` single hands) as mirrored pairs.

    ``ray`` runs the pairs on a Ray cluster at that address (``"auto"`` joins the one in
    ``RAY_ADDRESS`` or starts a local one; extra ``cluster``) instead of local processes;
    every pair is seeded by its number, so the report is the same either way.

    Counts are rounded up to an even number (whole pairs).  Bots are names for
    :func:`hollywood_gin.bots.make_bot` (or ``openspiel-simple`` with the OpenSpiel
    engine) or :class:`~hollywood_gin.bots.Bot` objects, copied into each process.
    """
    if isinstance(rules, str):
        rules_obj = Rules.preset(rules)
        rules_name = rules
    else:
        rules_obj = rules
        rules_name = rules.preset_name or "custom"
    if matches is not None and hands is not None:
        raise ArenaError("give --matches or --hands, not both")
    if engine not in ENGINES:
        raise ArenaError(f"no engine {engine!r}; the engines are {', '.join(ENGINES)}")
    if engine == "openspiel":
        if matches is not None:
            raise ArenaError("the OpenSpiel engine plays single hands: use --hands")
        if hands is None:
            hands = 200
    if engine == "openspiel":
        rules_name = "OpenSpiel's gin_rummy defaults"
    mode = "hands" if hands is not None else "matches"
    count = hands if hands is not None else (matches if matches is not None else 100)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ArenaError(f"the number of {mode} must be a whole number, 1 or more, not {count!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ArenaError(f"--jobs must be a whole number, 1 or more, not {jobs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ArenaError(f"--seed must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    for spec in (bot_a, bot_b):
        _check_spec(spec, engine)
    pairs = (count + 1) // 2
    specs = (bot_a, bot_b)
    tasks = [
        (
            _Task(specs, rules_obj, mode, engine, seed, pair, False),
            _Task(specs, rules_obj, mode, engine, seed, pair, True),
        )
        for pair in range(pairs)
    ]
    results: list[GameResult] = []
    start = time.perf_counter()
    done = 0
    ray_nodes: dict[str, int] | None = None
    cluster = None
    interrupted = False
    try:  # a Ctrl+C keeps the whole pairs played: they are reported, marked interrupted
        if ray is not None:
            from ..cluster import RayPool

            with RayPool(ray) as cluster:
                for pair_result in cluster.imap_unordered(_play_pair, tasks, chunksize=8):
                    results.extend(pair_result)
                    done += 1
                    if progress:
                        progress(done, pairs)
        elif jobs == 1 or pairs == 1:
            for task in tasks:
                results.extend(_play_pair(task))
                done += 1
                if progress:
                    progress(done, pairs)
        else:
            import multiprocessing

            ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
            chunk = max(1, min(8, pairs // (jobs * 8)))
            # The workers leave Ctrl+C to this process, which stops them (each printed a
            # traceback of its own)
            with ctx.Pool(min(jobs, pairs), initializer=_leave_interrupts_to_the_parent) as pool:
                for pair_result in pool.imap_unordered(_play_pair, tasks, chunksize=chunk):
                    results.extend(pair_result)
                    done += 1
                    if progress:
                        progress(done, pairs)
    except KeyboardInterrupt:
        if not done:
            raise
        interrupted = True
    if cluster is not None:
        ray_nodes = dict(cluster.nodes)
    seconds = time.perf_counter() - start
    report = _aggregate(
        (_spec_name(bot_a), _spec_name(bot_b)),
        results,
        engine=engine,
        rules_name=rules_name,
        mode=mode,
        seed=seed,
        jobs=jobs,
        seconds=seconds,
    )
    report.ray_nodes = ray_nodes
    report.interrupted, report.planned = interrupted, pairs
    return report


def _leave_interrupts_to_the_parent() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProgressBar:
    """A one-line progress bar on a terminal stream (or sparse lines if not a terminal)."""

    def __init__(self, stream: TextIO | None = None, label: str = "arena") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.start = time.perf_counter()
        self.tty = self.stream.isatty()
        self.last = -1.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if not self.tty and done < total and now - self.last < 10:
            return
        if self.tty and done < total and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * done // total
        elapsed = now - self.start
        eta = elapsed / done * (total - done) if done else 0.0
        line = (f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} pairs "
                f"{elapsed:.0f}s elapsed, {eta:.0f}s left")
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done == total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


