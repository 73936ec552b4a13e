"""The ``hollywood-gin`` command: a thin argparse front end over the core and the layers.

Each subcommand imports its layer only when it runs, so a layer's optional
dependencies are needed only by the subcommand that uses it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shutil
import sys
from collections.abc import Sequence
from typing import Any

from . import __version__
from .cards import Card, parse_cards
from .errors import HollywoodGinError
from .melds import best_melds, discard_choices
from .rules import OPTIONS, PRESETS, Rules

__all__ = ["LAYER_COMMANDS", "add_rules_arguments", "build_parser", "main", "rules_of"]

#: Modules of the layers that add subcommands, each with ``register(subparsers)``.  They
#: import only the standard library and the core at import time; a command imports its
#: layer's dependencies when it runs.
LAYER_COMMANDS = ("arena", "tui.commands", "web.commands")


def _cards_json(cards: Sequence[Card]) -> list[str]:
    return [c.text for c in cards]


def _cmd_melds(args: argparse.Namespace) -> int:
    cards = parse_cards(" ".join(args.cards))
    if args.discard:
        if len(cards) != 11:
            raise HollywoodGinError(
                f"--discard needs 11 cards (a hand after drawing), not {len(cards)}"
            )
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
        print(f"Best discard{'s' if sum(c.deadwood == best for c in choices) > 1 else ''}: "
              + " ".join(c.card.pretty for c in choices if c.deadwood == best)
              + f" (deadwood {best})")
        for choice in choices:
            tag = "gin" if choice.deadwood == 0 else (
                "knock" if choice.deadwood <= args.knock_limit else "")
            rest = [c for c in cards if c != choice.card]
            layout = best_melds(rest)
            melds = "  ".join(" ".join(c.pretty for c in m) for m in layout.melds) or "-"
            print(f"  discard {choice.card.pretty:>4}: deadwood {choice.deadwood:>3} {tag:<5}  "
                  f"melds {melds}")
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
    for meld in layout.melds:
        print("meld:     " + " ".join(c.pretty for c in meld))
    print("deadwood: " + (" ".join(c.pretty for c in layout.unmatched) or "-")
          + f"  = {layout.deadwood}")
    return 0


def add_rules_arguments(parser: argparse.ArgumentParser, *, what: str = "the rules") -> None:
    """``--rules PRESET`` and ``--rule NAME=VALUE`` (repeatable): every command that takes
    rules reads them the same way, through :func:`rules_of`."""
    parser.add_argument("--rules", choices=sorted(PRESETS), default="hollywood",
                        metavar="PRESET",
                        help=f"{what}: a preset, {', '.join(PRESETS)} (default hollywood); "
                        "'hollywood-gin rules' prints the rule book")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="set one rule option over the preset (repeatable): "
                        + ", ".join(o.name for o in OPTIONS))


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules a command was given: the preset with the ``--rule`` options over it."""
    return Rules.preset(args.rules).with_options(args.rule)


def _cmd_rules(args: argparse.Namespace) -> int:
    from .rulebook import markdown_to_text, rule_book

    book = rule_book(rules_of(args))
    if args.markdown:
        sys.stdout.write(book)
    else:
        width = shutil.get_terminal_size((80, 24)).columns if sys.stdout.isatty() else 80
        sys.stdout.write(markdown_to_text(book, width=max(40, min(width, 100)) - 1))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from .replay import print_replay

    return print_replay(args.file, as_json=args.json)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hollywood-gin",
        description="Hollywood Gin: play, analyse and evaluate two-player gin rummy.",
    )
    parser.add_argument("--version", action="version", version=f"hollywood-gin {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    melds = sub.add_parser("melds", help="best melds and deadwood of a hand",
                           description="Print the least-deadwood arrangement of some cards "
                           "(R2.4); with --discard, every discard of an 11-card hand.")
    melds.add_argument("cards", nargs="+", help="cards like As 10h Kd (or 'As,Th,Kd')")
    melds.add_argument("--discard", action="store_true",
                       help="rank the discards of an 11-card hand")
    melds.add_argument("--knock-limit", type=int, default=10, help="knock limit (R5.1)")
    melds.add_argument("--json", action="store_true", help="print JSON for scripts")
    melds.set_defaults(func=_cmd_melds)

    replay = sub.add_parser("replay", help="print a match record hand by hand",
                            description="Replay a saved match record through the engine, "
                            "checking every action, and print it hand by hand.")
    replay.add_argument("file", help="a record file (JSON, see docs/record-format.md)")
    replay.add_argument("--json", action="store_true", help="print JSON for scripts")
    replay.set_defaults(func=_cmd_replay)

    rules = sub.add_parser("rules", help="print the rule book for the rules you choose",
                           description="Print the rule book with the numbers of the chosen "
                           "rules filled in: a preset, and any option over it with --rule.")
    add_rules_arguments(rules)
    rules.add_argument("--markdown", action="store_true",
                       help="print the Markdown source (docs/rules.md is the default rules')")
    rules.set_defaults(func=_cmd_rules)

    for name in LAYER_COMMANDS:
        importlib.import_module(f"{__package__}.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        code: int = args.func(args)
    except HollywoodGinError as exc:
        print(f"hollywood-gin: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
