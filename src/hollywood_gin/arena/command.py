"""``hollywood-gin arena``: the command line of the arena."""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Iterable

from ..errors import RulesError
from ..i18n import _
from .games import ENGINES, OPENSPIEL_SIMPLE
from .report import plot_report
from .runner import ProgressBar, run_arena


def _ray_address(text: str) -> str:
    """An argparse type: a Ray address (Ray's own error is a traceback)."""
    from ..cluster import ClusterError, check_address

    if not text.strip():
        raise argparse.ArgumentTypeError("the Ray address is empty: give 'auto' or host:port")
    try:
        check_address(text)
    except ClusterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip()


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``arena`` subcommand to the main command line."""
    from ..bots import BOT_NAMES
    from ..cli import add_rules_arguments, picture_file, whole

    parser = subparsers.add_parser(
        "arena",
        # Translators: the arena command's line in `hollywood-gin --help` (its own --help, a
        # research tool's, stays English).
        help=_("play two bots against each other on mirrored deals"),
        description="Play two bots on mirrored deals (each deal twice, seats swapped) in "
        "parallel processes and report wins with 95% Wilson intervals, points per hand, "
        "how hands ended and decision times.  Bots: " + ", ".join(BOT_NAMES)
        + f", and {OPENSPIEL_SIMPLE} with --engine openspiel.",
    )
    parser.add_argument("bot_a", metavar="BOT", help="the first bot")
    parser.add_argument("bot_b", metavar="BOT", help="the second bot")
    add_rules_arguments(parser, what="the rules (not with --engine openspiel, which plays its own "
                        "gin_rummy defaults)")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--matches", type=whole(1), metavar="N",
                       help="matches to play (default 100), rounded up to an even number: "
                       "each deal is played twice, seats swapped")
    count.add_argument("--hands", type=whole(1), metavar="N",
                       help="single hands to play instead of matches, rounded up to an "
                       "even number (mirrored pairs)")
    parser.add_argument("--seed", type=whole(0, 2**63 - 1), default=0, metavar="N",
                        help="seed of every deal (default 0)")
    parser.add_argument("--jobs", type=whole(1, 256), default=1, metavar="N",
                        help="parallel processes (default 1)")
    parser.add_argument("--ray", metavar="ADDRESS", type=_ray_address,
                        help="run on a Ray cluster ('auto': $RAY_ADDRESS or a local Ray; "
                        "needs the 'cluster' extra) instead of --jobs local processes")
    parser.add_argument("--engine", choices=ENGINES, default="ours",
                        help="'openspiel' plays single hands in OpenSpiel's gin_rummy")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", metavar="FILE", type=picture_file,
                        help="save a picture of the results (needs the 'plot' extra)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the ``arena`` command; returns the exit code."""
    from ..cli import rules_given, rules_of

    # Optional layers the options need, imported before any game is played: a missing one
    # is a ModuleNotFoundError that the CLI turns into the extra to install.
    if args.plot:
        import matplotlib  # noqa: F401
    if args.ray:
        import ray  # noqa: F401
    if args.engine == "openspiel":
        if rules_given(args):
            raise RulesError("--engine openspiel plays OpenSpiel's own gin_rummy rules: leave "
                             "out --rules and --rule")
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    bar = None if args.quiet else ProgressBar()
    report = run_arena(
        args.bot_a,
        args.bot_b,
        rules=rules_of(args),
        matches=args.matches,
        hands=args.hands,
        seed=args.seed,
        jobs=args.jobs,
        engine=args.engine,
        progress=bar,
        ray=args.ray,
    )
    if report.interrupted and bar is not None and bar.tty:
        bar.stream.write("\n")  # the bar's line stays as it stopped
    if args.plot:
        plot_report(report, args.plot)
    if args.json:
        import json

        print(json.dumps(report.to_dict()))
    else:
        print(report.text(width=max(60, shutil.get_terminal_size((80, 24)).columns)))
    return 130 if report.interrupted else 0  # the pairs played are reported all the same


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m hollywood_gin.arena BOT BOT ...``: ``hollywood-gin arena`` by another
    name (the same options, errors and exit codes)."""
    from ..cli import main as cli_main

    return cli_main(["arena", *(sys.argv[1:] if argv is None else argv)])
