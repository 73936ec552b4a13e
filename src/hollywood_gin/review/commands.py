"""The ``review`` subcommand: rate a player's decisions in a record or a saved match.

Imported by the CLI at start-up, so this module imports only the standard library and
the core; the bots, the store and the review engine are imported when it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..cli import database_url, terminal_width, whole
from ..errors import HollywoodGinError
from ..i18n import _

if TYPE_CHECKING:
    from .model import MatchReview

__all__ = ["print_saved_review", "register"]


def print_saved_review(match_id: str, db: str | None, *, player: int = 0,
                       hand: int | None = None, as_json: bool = False, seed: int = 0,
                       jobs: int = 1, deals: int = 192, hindsight: bool = False) -> int:
    """Review a saved match (by its id or a unique beginning of it) and print the review:
    ``review --saved`` and ``stats --review`` both run this.  The hands reviewed before
    (in the games, or by an earlier run) are read from the store, the others are made
    and kept (so the statistics get the match's accuracy).  A missing extra raises
    ModuleNotFoundError: the CLI names the extra to install."""
    from ..store import Store
    from ..tui.stats import find_match
    from .engine import ReviewSettings
    from .saved import review_saved
    from .text import ReviewProgress, render_match

    settings = ReviewSettings(seed=seed, min_deals=min(24, deals), max_deals=deals)
    store = Store(db)
    try:
        row = find_match(store, match_id)
        if row.kind == "keeper":
            raise HollywoodGinError(
                _("match {id} is a score-keeper sheet: it has no cards or actions to "
                  "review").format(id=row.id[:8]))
        review = review_saved(store, row.id, player, hands=None if hand is None else [hand],
                              settings=settings, jobs=jobs, hindsight=hindsight,
                              progress=ReviewProgress(sys.stderr))
    finally:
        store.close()
    if as_json:
        print(json.dumps(review.to_dict()))
    else:
        print(render_match(_for_people(review), width=_columns()))
    return 0


def _columns() -> int:
    """The terminal's width (80 when the output is not a terminal), 40 at the least."""
    return max(40, terminal_width())


def _for_people(review: MatchReview) -> MatchReview:
    """The review with its players' names as the text says them (:func:`player_name`: the
    program's own names in the language in force, no control character of a hostile
    record); the JSON keeps the names as saved."""
    from ..replay import player_name

    return replace(review, names=(player_name(review.names[0]), player_name(review.names[1])))


def _cmd_review(args: argparse.Namespace) -> int:
    if args.saved is not None:
        return print_saved_review(args.saved, args.db, player=args.player, hand=args.hand,
                                  as_json=args.json, seed=args.seed, jobs=args.jobs,
                                  deals=args.deals, hindsight=args.hindsight)
    from ..record import loads_record, players_of_record, read_record_file
    from .engine import ReviewSettings, review_match
    from .text import ReviewProgress, render_match

    settings = ReviewSettings(seed=args.seed, min_deals=min(24, args.deals),
                              max_deals=args.deals)
    raw = read_record_file(args.record)  # read once: a BOM, UTF-16 or a pipe read as replayed
    match = loads_record(raw)
    names = players_of_record(json.loads(raw))
    hands = None if args.hand is None else [args.hand]
    review = review_match(match, args.player, hands=hands, settings=settings, jobs=args.jobs,
                          progress=ReviewProgress(sys.stderr), hindsight=args.hindsight,
                          names=names)
    if args.json:
        print(json.dumps(review.to_dict()))
    else:
        print(render_match(_for_people(review), width=_columns()))
    return 0


def register(subparsers: Any) -> None:
    """Add ``review`` to the ``hollywood-gin`` command."""
    parser = subparsers.add_parser(
        "review", help=_("rate every decision of a player in a finished hand or match"),
        description=_("Review a player's decisions in a match record or a saved match: each "
                      "decision is analysed from what he could see at that moment, every "
                      "legal choice played out on the same deals, and graded best, good, "
                      "inaccuracy, mistake or blunder by the expected points it lost against "
                      "the best (see docs/review.md)."))
    source = parser.add_mutually_exclusive_group(required=True)
    # Translators: a placeholder in --help (a match record file).
    source.add_argument("record", nargs="?", metavar=_("record"),
                        help=_("a match record (docs/record-format.md)"))
    source.add_argument("--saved", metavar=_("MATCH_ID"),
                        help=_("a saved match by its id (or a unique beginning of it), as "
                               "{command} lists them").format(command="'hollywood-gin stats'"))
    parser.add_argument("--player", type=int, choices=(0, 1), default=0,
                        help=_("whose decisions to review (default 0: you, in a saved match)"))
    parser.add_argument("--hand", type=whole(1), default=None, metavar="K",
                        help=_("review hand K only (1 first), showing every decision"))
    parser.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    parser.add_argument("--seed", type=whole(0, 2**63 - 1), default=0, metavar="N",
                        help=_("seed of the sampled deals (default 0): the same seed gives "
                               "the same review"))
    parser.add_argument("--jobs", type=whole(1, 64), default=1, metavar="N",
                        help=_("parallel processes (default 1)"))
    parser.add_argument("--deals", type=whole(2, 100_000), default=192, metavar="N",
                        help=_("most deals a close decision is played out on (default 192)"))
    parser.add_argument("--hindsight", action="store_true",
                        help=_("add, per decision, what the opponent actually held and "
                               "whether the choice worked out (never used for a grade)"))
    parser.add_argument("--db", type=database_url, default=None, metavar=_("URL"),
                        help=_("database of --saved (default: {variable}, else SQLite in your "
                               "data directory)").format(variable="$HOLLYWOOD_GIN_DB"))
    parser.set_defaults(func=_cmd_review)
