"""The ``hollywood-gin`` command: a thin argparse front end over the core and the layers.

Each subcommand imports its layer only when it runs, so a layer's optional
dependencies are needed only by the subcommand that uses it.  Every error of every
subcommand is one line on stderr and exit code 2, never a traceback: a bad option, a
bad file, a missing optional layer (named with the extra that installs it).  A closed
stdout (``| head``) ends the command quietly.

Every word a player reads is translated (``hollywood_gin.i18n``), argparse's own words
too: :func:`speak_argparse` is the one place that points argparse's gettext lookups
(``usage:``, ``options``, its errors) at our catalogue, and :func:`_argparse_messages`
lists those messages for extraction.  The language is ``--lang``, else the one saved in the
game's settings (:mod:`hollywood_gin.settings`), else the environment's.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from . import __version__, i18n
from .cards import Card, parse_cards
from .errors import HollywoodGinError
from .i18n import N_, _, ngettext
from .melds import best_melds, discard_choices
from .rules import OPTIONS, PRESETS, WHOLE_NUMBER, Rules, whole_number_words

__all__ = [
    "COMMAND_EXTRAS",
    "EXTRA_MODULES",
    "LAYER_COMMANDS",
    "CommandParser",
    "add_rules_arguments",
    "build_parser",
    "check_writable",
    "main",
    "number",
    "rules_given",
    "rules_of",
    "speak_argparse",
    "start_language",
    "terminal_width",
    "whole",
    "wrap_line",
    "writable_file",
]

#: Modules of the layers that add subcommands, each with ``register(subparsers)``.  They
#: import only the standard library and the core at import time; a command imports its
#: layer's dependencies when it runs.
LAYER_COMMANDS = ("arena", "tui.commands", "web.commands", "dbcommands", "review.commands")

#: The top-level modules each optional extra of pyproject.toml installs (a test checks the
#: two agree), so a missing one is named with the extra that brings it.
EXTRA_MODULES: dict[str, frozenset[str]] = {
    "store": frozenset({"sqlalchemy", "alembic", "platformdirs"}),
    "play": frozenset({"sqlalchemy", "alembic", "platformdirs", "textual"}),
    "web": frozenset({"sqlalchemy", "alembic", "platformdirs", "starlette", "uvicorn",
                      "prometheus_client", "markdown_it", "orjson"}),
    "postgres": frozenset({"psycopg"}),
    "redis": frozenset({"redis"}),
    "plot": frozenset({"matplotlib"}),
    "openspiel": frozenset({"pyspiel", "numpy"}),
    "rl": frozenset({"pettingzoo", "gymnasium", "numpy"}),
    "cluster": frozenset({"ray"}),
}

#: The extra a whole subcommand needs; its other needs (``--plot``, ``--ray``, a PostgreSQL
#: URL) are found from the module that is missing.
COMMAND_EXTRAS: dict[str, str] = {"play": "play", "score": "play", "stats": "play",
                                  "serve": "web", "db": "store"}


def speak_argparse() -> None:
    """Make argparse say its own words (``usage:``, ``options``, ``expected one argument``)
    in the language in force: it looks them up with the module-level ``_`` and ``ngettext``
    it imported from :mod:`gettext` (domain ``argparse``, which no catalogue of ours fills),
    so those two names are pointed at our catalogue, where :func:`_argparse_messages` puts
    the messages.  In English, and for any text not in the catalogue, the lookup gives the
    text back unchanged, so other users of argparse in the process see no difference."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def _argparse_messages() -> None:  # pragma: no cover - read by `make i18n`, never run
    """argparse's messages that a player can meet, for the catalogue (Python 3.11's text:
    a message argparse words differently in another version stays English there)."""
    # Translators: argparse's words (the command line's --help and errors). Keep %s, %r and
    # %(name)s as they are; "usage: " ends with a space.
    N_("usage: ")
    # Translators: the heading of the --help section listing the options.
    N_("options")
    # Translators: the heading of the --help section listing the arguments without a dash.
    N_("positional arguments")
    # Translators: the help line of -h/--help.
    N_("show this help message and exit")
    N_("argument %(argument_name)s: %(message)s")
    N_("can't open '%(filename)s': %(error)s")
    N_("unrecognized arguments: %s")
    N_("not allowed with argument %s")
    N_("ignored explicit argument %r")
    N_("the following arguments are required: %s")
    N_("one of the arguments %s is required")
    N_("expected one argument")
    N_("expected at most one argument")
    N_("expected at least one argument")
    ngettext("expected %s argument", "expected %s arguments", 2)
    N_("ambiguous option: %(option)s could match %(matches)s")
    N_("unexpected option string: %s")
    # Translators: %(type)s is a Python type's name (int), %(value)r what was typed.
    N_("invalid %(type)s value: %(value)r")
    N_("invalid choice: %(value)r (choose from %(choices)s)")
    N_("%(prog)s: error: %(message)s\n")


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, _("{prog}: error: {message} (see {prog} --help)").format(
            prog=self.prog, message=message) + "\n")


def whole(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number within ``low``..``high`` (inclusive; None: open)."""
    allowed = whole_number_words(low, high)

    def parse(text: str) -> int:
        # ASCII digits only: int() also reads other scripts' digits and underscores, so
        # "--seed ٣" would deal a seed no one typed.
        value = int(text) if WHOLE_NUMBER.fullmatch(text.strip()) else None
        if value is None or (low is not None and value < low) or (high is not None
                                                                   and value > high):
            raise argparse.ArgumentTypeError(
                _("it must be {allowed}, not '{text}'").format(allowed=allowed, text=text))
        return value

    parse.__name__ = "whole number"
    return parse


def database_url(text: str) -> str:
    """An argparse type for ``--db``: a URL, never an empty one (which read as the default
    database, a different one from what was meant)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            _("no database URL was given: leave --db out for the default database"))
    return text.strip()


database_url.__name__ = "database URL"


def number(low: float = 0.0, high: float | None = None) -> Callable[[str], float]:
    """An argparse type: a finite number within ``low``..``high`` (inclusive)."""
    if high is not None:
        allowed = _("a number from {low:g} to {high:g}").format(low=low, high=high)
    else:
        allowed = _("a number, {low:g} or more").format(low=low)

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                _("it must be {allowed}, not '{text}'").format(allowed=allowed, text=text))
        return value

    parse.__name__ = "number"
    return parse


def check_writable(path: str) -> None:
    """Refuse, before any work, a file the command could not create or overwrite (so a long
    run never ends in an unwritable path); the error names the path."""
    folder = os.path.dirname(os.path.abspath(path))
    if not path.strip():
        reason = _("no file name was given")
    elif os.path.isdir(path):
        reason = _("it is a folder")
    elif not os.path.isdir(folder):
        reason = _("there is no folder {folder}").format(folder=folder)
    elif not os.access(folder, os.W_OK) or (os.path.exists(path)
                                            and not os.access(path, os.W_OK)):
        reason = _("permission denied")
    else:
        return
    raise HollywoodGinError(_("cannot write {path}: {reason}").format(path=path or "''",
                                                                     reason=reason))


def writable_file(text: str) -> str:
    """An argparse type: a file the command can write (:func:`check_writable`)."""
    try:
        check_writable(text)
    except HollywoodGinError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


#: The picture formats ``--plot`` writes (Matplotlib's, told by the file name's ending).
PICTURE_FORMATS = ("png", "svg", "pdf", "jpg", "jpeg", "webp", "tif", "tiff", "eps", "ps")


def picture_file(text: str) -> str:
    """An argparse type: a picture the command can write, its format told by its ending, so
    that a long run never ends in a format Matplotlib does not write."""
    suffix = os.path.splitext(text)[1].lower().lstrip(".")
    if text.strip() and suffix not in PICTURE_FORMATS:
        raise argparse.ArgumentTypeError(_("cannot draw {path}: a picture's file name ends in "
                                           "{formats}").format(
            path=text, formats=", ".join("." + f for f in PICTURE_FORMATS)))
    return writable_file(text)


def terminal_width() -> int:
    """The columns of the terminal the output goes to (80 when it is not one)."""
    return shutil.get_terminal_size((80, 24)).columns


def wrap_line(line: str, width: int) -> list[str]:
    """One line as lines of at most ``width`` columns, broken at spaces (a card, a word
    and a number stay whole, as does what no-break spaces glue), the rest indented two
    past the line's own indent."""
    if len(line) <= width:
        return [line]
    indent = line[:len(line) - len(line.lstrip(" "))]
    return textwrap.wrap(line, width, subsequent_indent=indent + "  ", break_long_words=False,
                         break_on_hyphens=False, drop_whitespace=True) or [line]


def _cards_json(cards: Sequence[Card]) -> list[str]:
    return [c.text for c in cards]


def _cmd_melds(args: argparse.Namespace) -> int:
    cards = parse_cards(" ".join(args.cards))
    if not 1 <= len(cards) <= 11:
        # a hand holds 10 cards, 11 after drawing; the solver's time grows fast past that
        raise HollywoodGinError(_("give 1 to 11 cards (a hand holds 10, or 11 after drawing), "
                                  "not {n}").format(n=len(cards)))
    if args.knock_limit is not None and not args.discard:
        raise HollywoodGinError(_("--knock-limit tags the discards of --discard: give both"))
    if args.knock_limit is None:
        args.knock_limit = 10
    if args.discard:
        if len(cards) != 11:
            raise HollywoodGinError(
                _("--discard needs 11 cards (a hand after drawing), not {n}").format(
                    n=len(cards)))
        choices = discard_choices(cards)
        if args.json:
            out: Any = {
                "cards": _cards_json(cards),
                "discards": [
                    {"card": c.card.text, "deadwood": c.deadwood,
                     "can_knock": c.deadwood <= args.knock_limit, "gin": c.deadwood == 0}
                    for c in choices
                ],
                "best": [c.card.text for c in choices if c.deadwood == choices[0].deadwood],
            }
            print(json.dumps(out))
            return 0
        best = choices[0].deadwood
        bests = [c.card.pretty for c in choices if c.deadwood == best]
        # Translators: {cards} are one or more cards like 7♥ K♠, {n} the deadwood they leave.
        print(ngettext("Best discard: {cards} (deadwood {n})",
                       "Best discards: {cards} (deadwood {n})", len(bests)).format(
            cards=" ".join(bests), n=best))
        # Translators: the tags of the --discard list (melds --discard): a discard that
        # leaves gin, or a knock.
        tags = {"gin": _("gin"), "knock": _("knock"), "": ""}
        width = max(len(t) for t in tags.values())
        for choice in choices:
            tag = "gin" if choice.deadwood == 0 else (
                "knock" if choice.deadwood <= args.knock_limit else "")
            rest = [c for c in cards if c != choice.card]
            layout = best_melds(rest)
            # a meld's cards glued (no-break spaces) so that a wrapped line keeps it whole
            melds = "  ".join("\u00a0".join(c.pretty for c in m) for m in layout.melds) or "-"
            # Translators: one line of `melds --discard`; {card:>4} is a card like 10♥
            # right-aligned in 4 columns, {n:>3} the deadwood in 3, {tag} "gin", "knock" or
            # nothing, {melds} the melds left (cards like 7♥ 8♥ 9♥).
            line = "  " + _("discard {card:>4}: deadwood {n:>3} {tag}  melds {melds}").format(
                card=choice.card.pretty, n=choice.deadwood, tag=tags[tag].ljust(width),
                melds=melds)
            # a long language's line wraps at the terminal's width, its rest indented
            print("\n".join(wrap_line(line, terminal_width())).replace("\u00a0", " "))
        return 0
    layout = best_melds(cards)
    if args.json:
        print(json.dumps({
            "cards": _cards_json(cards),
            "melds": [_cards_json(m) for m in layout.melds],
            "unmatched": _cards_json(layout.unmatched),
            "deadwood": layout.deadwood,
        }))
        return 0
    # Translators: the two kinds of line of `hollywood-gin melds`, padded to one width:
    # "meld:" is followed by the cards of one meld, "deadwood:" by the cards left over.
    meld_word, deadwood_word = _("meld:"), _("deadwood:")
    width = max(len(meld_word), len(deadwood_word)) + 1
    for meld in layout.melds:
        print(meld_word.ljust(width) + " ".join(c.pretty for c in meld))
    print(deadwood_word.ljust(width) + (" ".join(c.pretty for c in layout.unmatched) or "-")
          + f"  = {layout.deadwood}")
    return 0


def add_rules_arguments(parser: argparse.ArgumentParser, *, what: str | None = None) -> None:
    """``--rules PRESET`` and ``--rule NAME=VALUE`` (repeatable): every command that takes
    rules reads them the same way, through :func:`rules_of` (and :func:`rules_given` says
    whether the player chose any).  ``what`` (translated) says what the rules are for."""
    # Translators: --help of --rules; {what} says what the rules are for ("the rules" by
    # default), {presets} lists the preset names (hollywood, classic...: not translated).
    parser.add_argument("--rules", choices=sorted(PRESETS), default=None,
                        # Translators: a placeholder in --help (capitals, no spaces).
                        metavar=_("PRESET"),
                        help=_("{what}: a preset, {presets} (default {default}); {command} "
                               "prints the rule book").format(
                            what=what if what is not None else _("the rules"),
                            presets=", ".join(PRESETS), default="hollywood",
                            command="'hollywood-gin rules'"))
    # Translators: --help of --rule; {options} lists the option names (not translated).
    parser.add_argument("--rule", action="append", default=[],
                        # Translators: a placeholder in --help: an option name, =, a value.
                        metavar=_("NAME=VALUE"),
                        help=_("set one rule option over the preset (repeatable): "
                               "{options}").format(options=", ".join(o.name for o in OPTIONS)))


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules a command was given: the preset (default hollywood) with the ``--rule``
    options over it."""
    return Rules.preset(args.rules or "hollywood").with_options(args.rule)


def rules_given(args: argparse.Namespace) -> bool:
    """Whether ``--rules`` or ``--rule`` was given (a game may then start without asking)."""
    return args.rules is not None or bool(args.rule)


def _cmd_rules(args: argparse.Namespace) -> int:
    from .rulebook import markdown_to_text, rule_book

    book = rule_book(rules_of(args), lang=i18n.language())
    if args.markdown:
        sys.stdout.write(book)
    else:
        width = shutil.get_terminal_size((80, 24)).columns if sys.stdout.isatty() else 80
        sys.stdout.write(markdown_to_text(book, width=max(40, min(width, 100)) - 1))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from .replay import print_replay

    return print_replay(args.file, as_json=args.json)


def _language(value: str) -> str:
    try:
        return i18n.validate_language(value)
    except i18n.LanguageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_lang(parser: argparse.ArgumentParser, default: object) -> None:
    """``--lang`` on ``parser`` and on every subcommand under it, before or after the name."""
    # Translators: a placeholder in --help (capitals, no spaces): a language code.
    parser.add_argument("--lang", type=_language, default=default, metavar=_("LANG"),
                        # Translators: --help of --lang; {languages} lists the codes,
                        # {variables} the environment variables read (LANGUAGE, LANG...).
                        help=_("the language to speak: {languages} (default: the one chosen "
                               "in the game, else from {variables})").format(
                                   languages=", ".join(i18n.LANGUAGES),
                                   variables=", ".join(("LANGUAGE", "LC_ALL", "LC_MESSAGES",
                                                        "LANG"))))
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                _add_lang(sub, argparse.SUPPRESS)


def start_language(argv_lang: str | None) -> str:
    """The language a command speaks: ``--lang``, else the one the player chose in the game
    (saved in :mod:`hollywood_gin.settings`), else the environment's, else English."""
    if argv_lang is None:
        from .settings import saved_language

        saved = saved_language()
        if saved is not None:
            return saved
    return i18n.choose_language(argv_lang, os.environ)


def _peek_lang(argv: Sequence[str]) -> str | None:
    """``--lang``'s value, read before the parser is built so that ``--help`` speaks it."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.removeprefix("--lang=")
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``command`` (the first word given, when a layer's),
    only that layer's commands are added, so a run does not import the others."""
    speak_argparse()
    parser = CommandParser(
        prog="hollywood-gin",
        description=_("Hollywood Gin: play, analyse and evaluate two-player gin rummy."),
    )
    parser.add_argument("--version", action="version", version=f"hollywood-gin {__version__}",
                        help=_("show the version and exit"))
    # Translators: a placeholder in --help (capitals, no spaces): the command's name.
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))

    melds = sub.add_parser("melds", help=_("best melds and deadwood of a hand"),
                           description=_("Print the least-deadwood arrangement of some cards "
                                         "(R2.4); with --discard, every discard of an 11-card "
                                         "hand."))
    # Translators: --help of the cards argument; {cards} and {joined} are cards in the
    # letter form typed on the command line (As = ace of spades, 10h = ten of hearts).
    melds.add_argument("cards", nargs="+", metavar=_("cards"),
                       help=_("cards like {cards} (or {joined})").format(
                           cards="As 10h Kd", joined="'As,Th,Kd'"))
    melds.add_argument("--discard", action="store_true",
                       help=_("rank the discards of an 11-card hand"))
    melds.add_argument("--knock-limit", type=whole(0, 10), default=None, metavar="0-10",
                       help=_("knock limit (R5.1), 0 to 10; default 10"))
    melds.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    melds.set_defaults(func=_cmd_melds)

    replay = sub.add_parser("replay", help=_("print a match record hand by hand"),
                            description=_("Replay a saved match record through the engine, "
                                          "checking every action, and print it hand by hand."))
    replay.add_argument("file", metavar=_("file"),
                        help=_("a record file (JSON, see docs/record-format.md)"))
    replay.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    replay.set_defaults(func=_cmd_replay)

    rules = sub.add_parser("rules", help=_("print the rule book for the rules you choose"),
                           description=_("Print the rule book with the numbers of the chosen "
                                         "rules filled in: a preset, and any option over it "
                                         "with --rule."))
    add_rules_arguments(rules)
    rules.add_argument("--markdown", action="store_true",
                       help=_("print the Markdown source (docs/rules.md is the one of "
                              "the default rules)"))
    rules.set_defaults(func=_cmd_rules)

    for name in LAYER_COMMANDS:
        importlib.import_module(f"{__package__}.{name}").register(sub)
    _add_lang(parser, None)
    return parser


def _one_line(text: str) -> str:
    """A message as one line: drivers and libraries add lines (and SQLAlchemy a link)."""
    lines = [line.strip() for line in str(text).splitlines()]
    return " ".join(line for line in lines if line and not line.startswith("(Background on"))


def _missing_extra(exc: ModuleNotFoundError, command: str | None) -> str | None:
    """The extra that installs the missing module, or None when it is none of ours."""
    name = (exc.name or "").split(".")[0]
    wanted = COMMAND_EXTRAS.get(command or "")
    if wanted is not None and name in EXTRA_MODULES[wanted]:
        return wanted
    for extra, modules in EXTRA_MODULES.items():
        if name in modules:
            return extra
    return wanted  # a module the command's extra brings in indirectly


def _run(argv: Sequence[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        i18n.set_language(start_language(_peek_lang(argv)))
    except i18n.LanguageError:
        i18n.set_language(start_language(None))  # argparse names the bad one
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    prog = f"hollywood-gin {args.command}"
    try:
        code: int = args.func(args)
    except HollywoodGinError as exc:
        message = _one_line(str(exc))
    except ModuleNotFoundError as exc:
        extra = _missing_extra(exc, args.command)
        if extra is None:
            raise
        message = _("this needs the '{extra}' extra ({module} is not installed): "
                    "pip install 'hollywood-gin[{extra}]'").format(extra=extra, module=exc.name)
    except BrokenPipeError:
        raise  # main's to handle, for every command alike
    except OSError as exc:
        if exc.filename is None:
            message = _one_line(str(exc))
        else:
            message = _("cannot use {path}: {reason}").format(
                path=exc.filename, reason=exc.strerror or exc)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except Exception as exc:
        if not type(exc).__module__.startswith("sqlalchemy."):
            raise
        # a database damaged under the store ("database disk image is malformed"): said
        # as the store says its own errors, in one line
        message = _("the saved-games database cannot be read: {reason}").format(
            reason=_one_line(str(getattr(exc, "orig", None) or exc)))
    else:
        return code
    print(_("{prog}: error: {message}").format(prog=prog, message=message), file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit code is 0, 2 for any error, 130 on Ctrl-C."""
    try:
        try:
            code = _run(argv)
        finally:  # --help exits through here too
            sys.stdout.flush()
    except BrokenPipeError:
        # stdout was closed (``| head``): stop quietly, the Python docs' way.  Point stdout
        # at devnull so that the flush at exit does not fail again.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # stdout with no file descriptor (a test's capture)
            pass
        return 1
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
