"""The terminal layer's subcommands: ``play``, ``stats`` and ``score``.

Imported by the CLI at start-up, so this module imports only the standard
library and the core; Textual and the store are imported when a command runs,
and ``hollywood-gin --help`` works without them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..cli import (
    add_rules_arguments,
    check_writable,
    database_url,
    number,
    picture_file,
    rules_given,
    rules_of,
    terminal_width,
    whole,
)
from ..errors import HollywoodGinError
from ..i18n import _, ngettext
from ..rules import Rules

__all__ = ["register"]


def _level(text: str) -> int:
    try:
        level = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("level must be 1 to 5, not {text!r}").format(text=text)) from None
    if not 1 <= level <= 5:
        raise argparse.ArgumentTypeError(_("level must be 1 to 5, not {level}").format(
            level=level))
    return level


#: The longest player name the sheet shows whole.
NAME_LIMIT = 24


def _open_store(url: str | None) -> Any:
    # A missing extra raises ModuleNotFoundError: the CLI names the extra to install.
    from ..store import Store

    return Store(url)


def _need_textual() -> None:
    """Fail before opening anything when Textual is not installed (the CLI says so)."""
    import textual  # noqa: F401


#: The ``play`` flags that choose a match besides the rules; any of them, or ``--rules`` or
#: ``--rule``, given means "start it now".
_MATCH_FLAGS = ("level", "seed", "first")


def _cmd_play(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    store = _open_store(args.db)
    try:
        if args.list:
            from .saved import print_saved

            print_saved(store, sys.stdout)
            return 0
        _need_textual()
        from .app import GinApp

        resume = None
        if args.resume is not None:
            from .stats import find_match

            row = find_match(store, args.resume)
            if row.kind != "computer" or row.status != "playing":
                raise HollywoodGinError(
                    _("match {id} is not an unfinished match against the computer; see: "
                      "{command}").format(id=row.id[:8], command="hollywood-gin play --list"))
            resume = row.id
        given = rules_given(args) or any(getattr(args, name) is not None
                                         for name in _MATCH_FLAGS)
        app = GinApp(store=store, level=args.level or 3, rules=rules, seed=args.seed,
                     first_dealer=args.first, new=args.new or given, ask=not given,
                     resume=resume, delay=args.delay, four_colour=args.four_colour)
        app.run()
    finally:
        store.close()
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    from .stats import export_match, gather, plot_accuracy, render, render_json

    if args.review is not None:
        from ..review.commands import print_saved_review

        return print_saved_review(args.review, args.db, as_json=args.json, jobs=args.jobs)
    if args.export:
        check_writable(args.export[1])
    if args.plot:
        import matplotlib  # noqa: F401  # a missing plot extra is named before any work
    store = _open_store(args.db)
    try:
        if args.export:
            match_id, path = args.export
            full = export_match(store, match_id, path)
            print(_("Wrote the record of match {id} to {path} (read it with: {command})")
                  .format(id=full[:8], path=path, command=f"hollywood-gin replay {path}"))
            return 0
        stats = gather(store)
        if args.plot:
            plot_accuracy(stats, args.plot)
            count = sum(len(points) for points in stats.accuracy.values())
            print(ngettext("Wrote the accuracy of {n} reviewed match to {path}",
                           "Wrote the accuracy of {n} reviewed matches to {path}", count)
                  .format(n=count, path=args.plot))
            return 0
        print(render_json(stats) if args.json
              else render(stats, width=terminal_width()))
    finally:
        store.close()
    return 0


def name_needs_letter(first: str, second: str) -> str | None:
    """Why these names cannot head a score sheet, or None: the entry line reads 1 and 2 as
    the first and second player, so each name needs a letter (the keeper's dialog and
    ``--names`` alike)."""
    if all(any(ch.isalpha() for ch in name) for name in (first, second)):
        return None
    return _("A name needs a letter: 1 and 2 already stand for the first and second player.")


def _names(given: list[str] | None) -> tuple[str, str] | None:
    """``--names alice bob`` or ``--names alice,bob``: two different names (with a comma,
    the words between commas make one name: ``--names Mary Ann,Bob``)."""
    if not given:
        return None
    joined = " ".join(given)
    pieces = joined.split(",") if "," in joined else given
    parts = [" ".join(piece.split()) for piece in pieces]
    parts = [part for part in parts if part]
    if len(parts) != 2:
        raise HollywoodGinError(_("--names takes two names, like --names alice bob or "
                                  "--names alice,bob, not {given}").format(given=joined))
    if parts[0].casefold() == parts[1].casefold():
        raise HollywoodGinError(_("--names: the two players need different names, not {name} "
                                  "twice").format(name=parts[0]))
    unreadable = name_needs_letter(parts[0], parts[1])
    if unreadable:
        raise HollywoodGinError("--names: " + unreadable)
    too_long = [part for part in parts if len(part) > NAME_LIMIT]
    if too_long:
        raise HollywoodGinError(_("--names: a name has at most {limit} characters, not "
                                  "'{name}'").format(limit=NAME_LIMIT, name=too_long[0]))
    return (parts[0], parts[1])


def _given_rules(args: argparse.Namespace) -> Rules | None:
    """The rules given with ``--rules`` and ``--rule``, or None if neither was given (then
    the keeper asks, or offers the unfinished sheets)."""
    return rules_of(args) if rules_given(args) else None


def _cmd_score(args: argparse.Namespace) -> int:
    names = _names(args.names)
    rules = _given_rules(args)
    if args.list:
        from .saved import print_saved

        store = _open_store(args.db)
        try:
            print_saved(store, sys.stdout, "sheet")
        finally:
            store.close()
        return 0
    _need_textual()
    from .keeper import KeeperApp

    store = _open_store(args.db)
    try:
        KeeperApp(store=store, rules=rules, names=names, new=args.new).run()
    finally:
        store.close()
    return 0


def register(subparsers: Any) -> None:
    """Add ``play``, ``stats`` and ``score`` to the ``hollywood-gin`` command."""
    # Translators: --help of --db; {variable} is an environment variable's name.
    db_help = _("database URL (default: {variable}, else SQLite in your data directory)").format(
        variable="$HOLLYWOOD_GIN_DB")
    # Translators: placeholders in --help (capitals, no spaces).
    url, match_id = _("URL"), _("MATCH_ID")
    play = subparsers.add_parser(
        "play", help=_("play a Hollywood match against the computer in the terminal"),
        description=_("Play a Hollywood gin match against the computer. Every move is saved; "
                      "run it again to resume an unfinished match where it stopped (with "
                      "several, a list to choose from). Given any of --level, --rules, "
                      "--rule, --seed or --first, a new match with them starts at once, "
                      "without the new-match dialog; unfinished matches stay saved (see "
                      "--list, or l in the game). Closing a dialog never abandons a match."))
    play.add_argument("--level", type=_level, default=None, metavar="1-5",
                      help=_("the computer's strength, 1 (easiest) to 5 (expert); default 3"))
    add_rules_arguments(play)
    play.add_argument("--seed", type=whole(0, 2**63 - 1), default=None, metavar="N",
                      help=_("deal a reproducible match"))
    play.add_argument("--first", type=int, choices=(0, 1), default=None,
                      help=_("who deals first: 0 you, 1 the computer (default: at random, "
                             "R3.1)"))
    play.add_argument("--db", type=database_url, default=None, metavar=url, help=db_help)
    play.add_argument("--new", action="store_true",
                      help=_("start a new match without offering the unfinished ones (they "
                             "stay saved)"))
    play.add_argument("--list", action="store_true",
                      help=_("print every unfinished match and score-keeper sheet, and exit"))
    play.add_argument("--resume", metavar=match_id, default=None,
                      help=_("resume that unfinished match (an id from --list, or its start)"))
    # Translators: a placeholder in --help (capitals, no spaces): a number of seconds.
    play.add_argument("--delay", type=number(0, 10), default=0.7, metavar=_("SECONDS"),
                      help=_("pause before each computer move, 0 to 10 (default 0.7)"))
    play.add_argument("--four-colour", "--four-color", dest="four_colour",
                      action="store_true",
                      help=_("four-colour deck: diamonds blue, clubs green"))
    play.set_defaults(func=_cmd_play)

    stats = subparsers.add_parser(
        "stats", help=_("statistics of your matches against the computer"),
        description=_("Matches and hands played and won per level, gins, undercuts, best and "
                      "worst match, longest win streak, the accuracy of your decisions over "
                      "time (from the matches reviewed); --export writes a match's record, "
                      "--review reviews one, --plot draws the accuracy."))
    stats.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    one = stats.add_mutually_exclusive_group()
    # Translators: a placeholder in --help (capitals, no spaces): a file's name.
    one.add_argument("--export", nargs=2, metavar=(match_id, _("FILE")),
                     help=_("write a saved match's record (readable by {command})").format(
                         command="'hollywood-gin replay'"))
    one.add_argument("--review", metavar=match_id, default=None,
                     help=_("review your decisions in a saved match, as {command} does (about "
                            "30 s of CPU for a whole match; hands reviewed before are reused); "
                            "the match then counts in the accuracy").format(
                                command="'hollywood-gin review --saved'"))
    stats.add_argument("--jobs", type=whole(1, 64), default=1,
                       help=_("processes for --review (default 1)"))
    one.add_argument("--plot", metavar=_("FILE"), default=None, type=picture_file,
                     help=_("write a PNG of your accuracy per reviewed match over time, by "
                            "level (needs the 'plot' extra)"))
    stats.add_argument("--db", type=database_url, default=None, metavar=url, help=db_help)
    stats.set_defaults(func=_cmd_stats)

    score = subparsers.add_parser(
        "score", help=_("keep the Hollywood score of a game played with real cards"),
        description=_("A Hollywood scoresheet for games played with real cards: enter each "
                      "hand as points or as the deadwood counts; it is saved, and any "
                      "unfinished sheet can be taken up again."))
    # Translators: a placeholder in --help (capitals, no spaces): a player's name.
    score.add_argument("--names", nargs="+", metavar=_("NAME"),
                       help=_("the two players' names (alice bob, or alice,bob): start a new "
                              "sheet at once, without the dialog"))
    add_rules_arguments(score, what=_("the rules of a new sheet, started at once (any other "
                                      "rules in the new-sheet dialog)"))
    score.add_argument("--new", action="store_true",
                       help=_("ask for a new sheet instead of offering the unfinished ones"))
    score.add_argument("--list", action="store_true",
                       help=_("print the unfinished sheets and exit"))
    score.add_argument("--db", type=database_url, default=None, metavar=url, help=db_help)
    score.set_defaults(func=_cmd_score)
