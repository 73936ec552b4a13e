"""The rule options (rule book §9) as one frozen, validated value, and the four presets.

The rule book is ``docs/rules.md`` (``hollywood-gin rules`` prints it for any rules).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from types import MappingProxyType
from typing import Any, Literal

from .errors import RulesError, shortened
from .i18n import N_, _

__all__ = ["OPTIONS", "PRESETS", "PRESET_LABELS", "EntryRule", "NextDealer", "Option", "Rules",
           "option", "preset_label"]

NextDealer = Literal["winner", "alternate", "loser"]
EntryRule = Literal["traditional", "by_count"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every option of the rule book's §9 under its own name; defaults are the ``hollywood``
    preset.  A value that breaks a rule, alone or with another option (R9.2), is refused."""

    knock_limit: int = 10  # R5.1
    oklahoma: bool = False  # R5.1: the upcard's value is that hand's knock limit
    gin_bonus: int = 25  # R5.7
    big_gin_bonus: int | None = None  # R5.7: None means big gin is not played
    undercut_bonus: int = 10  # R5.6
    discard_taken_card: bool = False  # R4.3
    dead_hand_stock: int = 2  # R6.1
    next_dealer: NextDealer = "winner"  # R3.1
    columns: int = 3  # R7.1
    game_target: int = 100  # R7.3
    game_bonus: int = 100  # R7.4
    shutout_game_bonus: int = 200  # R7.4
    box_bonus: int = 20  # R7.4
    entry_rule: EntryRule = "traditional"  # R7.2: which columns a won hand enters

    def __post_init__(self) -> None:
        def need(ok: bool, name: str, allowed: str) -> None:
            if not ok:
                raise RulesError(f"rule {name}={getattr(self, name)!r} is invalid: {allowed}",
                                 name)

        def is_int(name: str) -> bool:
            value = getattr(self, name)
            return isinstance(value, int) and not isinstance(value, bool)

        need(is_int("knock_limit") and 0 <= self.knock_limit <= 10, "knock_limit",
             "it must be a whole number from 0 to 10")
        need(isinstance(self.oklahoma, bool), "oklahoma", "it must be true or false")
        # R5.8: every won hand scores at least 1, so a gin against no deadwood and an
        # undercut on equal counts each need a bonus of at least 1.
        need(is_int("gin_bonus") and self.gin_bonus >= 1, "gin_bonus",
             "it must be a whole number, 1 or more (R5.8)")
        need(self.big_gin_bonus is None or (is_int("big_gin_bonus") and self.big_gin_bonus >= 1),
             "big_gin_bonus", "it must be null (no big gin) or a whole number, 1 or more (R5.8)")
        need(is_int("undercut_bonus") and self.undercut_bonus >= 1, "undercut_bonus",
             "it must be a whole number, 1 or more (R5.8)")
        need(isinstance(self.discard_taken_card, bool), "discard_taken_card",
             "it must be true or false")
        need(is_int("dead_hand_stock") and 0 <= self.dead_hand_stock <= 20, "dead_hand_stock",
             "it must be a whole number from 0 to 20")
        need(self.next_dealer in ("winner", "alternate", "loser"), "next_dealer",
             "it must be 'winner', 'alternate' or 'loser'")
        need(is_int("columns") and 1 <= self.columns <= 5, "columns",
             "it must be a whole number from 1 to 5")
        need(is_int("game_target") and self.game_target >= 1, "game_target",
             "it must be a whole number, 1 or more")
        need(is_int("game_bonus") and self.game_bonus >= 0, "game_bonus",
             "it must be a whole number, 0 or more")
        need(is_int("shutout_game_bonus") and self.shutout_game_bonus >= 0,
             "shutout_game_bonus", "it must be a whole number, 0 or more")
        need(is_int("box_bonus") and self.box_bonus >= 0, "box_bonus",
             "it must be a whole number, 0 or more")
        need(self.entry_rule in ("traditional", "by_count"), "entry_rule",
             "it must be 'traditional' or 'by_count'")
        # R9.2: combinations under which the rules would contradict themselves.
        if self.oklahoma and self.knock_limit != 10:
            raise RulesError(_(
                "rule oklahoma=on cannot go with knock_limit={limit}: under Oklahoma each "
                "hand's upcard sets the knock limit (R5.1, R9.2)").format(limit=self.knock_limit),
                "oklahoma")
        if self.shutout_game_bonus < self.game_bonus:
            raise RulesError(_(
                "rule shutout_game_bonus={shutout} is smaller than game_bonus={game}: a shutout "
                "never earns less than an ordinary win (R7.4, R9.2)").format(
                    shutout=self.shutout_game_bonus, game=self.game_bonus), "shutout_game_bonus")
        if self.big_gin_bonus is not None and self.big_gin_bonus < self.gin_bonus:
            raise RulesError(_(
                "rule big_gin_bonus={big} is smaller than gin_bonus={gin}: a big gin never "
                "earns less than gin (R5.7, R9.2)").format(big=self.big_gin_bonus,
                                                           gin=self.gin_bonus), "big_gin_bonus")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of the presets of the rule book (R9.3) by name."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(
                f"no rules preset {name!r}; the presets are {', '.join(sorted(PRESETS))}"
            ) from None

    @property
    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like a new value)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return replace(self, **changes)

    def with_options(self, assignments: Iterable[str]) -> Rules:
        """A copy with options set from ``NAME=VALUE`` texts, as typed on the command line
        (``["knock_limit=8", "oklahoma=on", "big_gin_bonus=none"]``).

        Values are read strictly (see :meth:`Option.parse`); a later text for the same option
        wins.  All are applied at once, so the combination is checked once, as a whole.
        """
        changes: dict[str, Any] = {}
        for text in assignments:
            name, sep, value = str(text).partition("=")
            name = name.strip().replace("-", "_")
            if not sep or not name:
                raise RulesError(_("cannot read rule '{text}': write it as NAME=VALUE, like "
                                   "knock_limit=8").format(text=text))
            changes[name] = option(name).parse(value)
        return self.replace(**changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Rules from a mapping of option names, as saved in records; unknown names are errors."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, not {type(data).__name__}")
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(map(str, unknown)))}")
        return cls(**data)


_TRUE = ("on", "true", "yes", "1")
_FALSE = ("off", "false", "no", "0")
_NONE = ("none", "off", "no")
#: A whole number as typed: ASCII digits only (int() also reads other scripts' digits and
#: underscores); the command line and the score keeper read numbers by it too.
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


@dataclass(frozen=True, slots=True)
class Option:
    """How one rule option is shown and entered: what a new-match form or a rule book needs.

    ``label`` and ``description`` are marked with ``N_``: pass them through ``_`` to show them.
    """

    name: str
    rule: str  # the rule book number it belongs to
    kind: Literal["int", "bool", "choice", "optional_int"]
    low: int | None = None  # inclusive bounds of a whole-number option (None: unbounded)
    high: int | None = None
    choices: tuple[str, ...] = ()
    label: str = ""  # a form field's short label (N_)
    description: str = ""  # one line on what it does (N_)
    offered: int | None = None  # an optional number's value when a form switches it on

    @property
    def allowed(self) -> str:
        """The values it takes, as typed on the command line (``0 to 10``, ``on or off``):
        the words between them in the player's language, the values as they are typed."""
        if self.kind in ("bool", "choice"):
            words = ("on", "off") if self.kind == "bool" else self.choices
            # Translators: the last two of the values a rule option takes, as typed
            # ("winner, alternate or loser"): the values stay in English.
            return _("{first} or {second}").format(first=", ".join(words[:-1]),
                                                   second=words[-1])
        # Translators: a rule option's bounds ("0 to 10", "1 or more").
        bound = (_("{low} to {high}").format(low=self.low, high=self.high)
                 if self.high is not None else _("{low} or more").format(low=self.low))
        # Translators: "none" stays as it is typed.
        return _("none, or {values}").format(values=bound) if self.kind == "optional_int" \
            else bound

    def parse(self, text: str) -> Any:
        """A value from its command-line text, strictly: ``on``/``off`` (or true/false, yes/no,
        1/0) for a switch, a whole number in bounds, ``none`` for an optional number, or one
        of the choices.  A wrong text raises :class:`RulesError` naming the allowed values."""
        word = text.strip().lower()
        value: Any = None
        if self.kind == "bool":
            value = True if word in _TRUE else False if word in _FALSE else None
        elif self.kind == "choice":
            value = word.replace("-", "_") if word.replace("-", "_") in self.choices else None
        elif self.kind == "optional_int" and word in _NONE:
            return None
        elif WHOLE_NUMBER.fullmatch(word) and len(word) <= 12:  # int() refuses 4,301 digits
            number = int(word)
            if (self.low is None or number >= self.low) and (self.high is None
                                                              or number <= self.high):
                value = number
        if value is None and WHOLE_NUMBER.fullmatch(word) and len(word) > 12:  # not "1 or more"
            raise RulesError(_("rule {name}='{text}' is invalid: a number here has at most 12 "
                               "digits").format(name=self.name, text=shortened(text, 24)),
                             self.name)
        if value is None:
            raise RulesError(_("rule {name}='{text}' is invalid: it must be {allowed}").format(
                name=self.name, text=shortened(text, 24), allowed=self._expected()), self.name)
        return value

    def _expected(self) -> str:
        """What a refused value should have been, in words: a number's bounds say it is a
        whole number ("gin_bonus=abc": not just "1 or more")."""
        if self.kind not in ("int", "optional_int"):
            return self.allowed
        bound = whole_number_words(self.low, self.high)
        return _("none, or {values}").format(values=bound) if self.kind == "optional_int" \
            else bound

    def format(self, value: Any) -> str:
        """The command-line text of a value: what :meth:`parse` reads back."""
        if isinstance(value, bool):
            return "on" if value else "off"
        return "none" if value is None else str(value)


def whole_number_words(low: int | None, high: int | None) -> str:
    """"a whole number from 0 to 10" or "a whole number, 1 or more": the one wording of a
    number's bounds, for the rule options and the command line's numbers alike."""
    if high is not None:
        return _("a whole number from {low} to {high}").format(low=low, high=high)
    return _("a whole number, {low} or more").format(low=low)


#: Every option of :class:`Rules`, in the order a form shows them; bounds match ``__post_init__``.
OPTIONS: tuple[Option, ...] = (
    Option("knock_limit", "R5.1", "int", 0, 10, label=N_("Knock limit"),
           description=N_("The most deadwood a player may knock with; 0 means gin only.")),
    Option("oklahoma", "R5.1", "bool", label=N_("Oklahoma"),
           description=N_("Each hand's upcard sets its knock limit (an ace: gin only).")),
    Option("gin_bonus", "R5.7", "int", 1, None, label=N_("Gin bonus"),
           description=N_("What gin scores on top of the defender's deadwood.")),
    Option("big_gin_bonus", "R5.7", "optional_int", 1, None, label=N_("Big gin bonus"),
           description=N_("What big gin (eleven cards melded, no discard) scores on top of "
                          "the defender's deadwood; none: big gin is not played."),
           offered=31),  # the sources' value (§9); 1 would be refused under gin's 25 (R9.2)
    Option("undercut_bonus", "R5.6", "int", 1, None, label=N_("Undercut bonus"),
           description=N_("What an undercut scores on top of the difference.")),
    Option("discard_taken_card", "R4.3", "bool", label=N_("Discard the taken card"),
           description=N_("A card taken from the discard pile may go back on it the same "
                          "turn.")),
    Option("dead_hand_stock", "R6.1", "int", 0, 20, label=N_("Dead hand at"),
           description=N_("The hand is dead when a discard leaves this many cards in the "
                          "stock, or fewer.")),
    Option("next_dealer", "R3.1", "choice", choices=("winner", "alternate", "loser"),
           label=N_("Next dealer"),
           description=N_("Who deals the next hand: the winner, the players in turn, or the "
                          "loser.")),
    Option("columns", "R7.1", "int", 1, 5, label=N_("Games at once"),
           description=N_("How many games (columns) are scored at once; 1 is a single game.")),
    Option("game_target", "R7.3", "int", 1, None, label=N_("Game to"),
           description=N_("The score that wins a game and closes its column.")),
    Option("game_bonus", "R7.4", "int", 0, None, label=N_("Game bonus"),
           description=N_("What the winner of a game gets when it closes.")),
    Option("shutout_game_bonus", "R7.4", "int", 0, None, label=N_("Shutout bonus"),
           description=N_("What the winner gets instead when the loser has nothing in that "
                          "game; at least the game bonus.")),
    Option("box_bonus", "R7.4", "int", 0, None, label=N_("Box bonus"),
           description=N_("What each player gets, when a game closes, for each of his won "
                          "hands in it.")),
    Option("entry_rule", "R7.2", "choice", choices=("traditional", "by_count"),
           label=N_("Entry rule"),
           description=N_("Which games a won hand enters: traditional, or by_count (a "
                          "player's n-th win enters games 1 to n, open ones only).")),
)


def option(name: str) -> Option:
    """The :class:`Option` called ``name``; an unknown name is a :class:`RulesError` that
    lists the options."""
    for opt in OPTIONS:
        if opt.name == name:
            return opt
    raise RulesError(_("unknown rule option '{name}'; the options are {names}").format(
        name=name, names=", ".join(o.name for o in OPTIONS)))


#: Read-only, so that no caller can change a preset for the whole process.
PRESETS: Mapping[str, Rules] = MappingProxyType({
    "hollywood": Rules(),
    "hollywood-20": Rules(gin_bonus=20),
    "classic": Rules(columns=1),
    "eaai": Rules(
        columns=1,
        gin_bonus=25,
        undercut_bonus=25,
        game_bonus=0,
        shutout_game_bonus=0,
        box_bonus=0,
        next_dealer="alternate",
        discard_taken_card=False,
    ),
})

#: The presets' names as the screens say them (the command line's --rules takes the keys).
PRESET_LABELS: dict[str, str] = {
    # Translators: the names of the rule presets on the screens (short: the terminal
    # game's sidebar line, the saved-games list, the rules page's heading).
    "hollywood": N_("Hollywood"),
    "hollywood-20": N_("Hollywood 20"),
    "classic": N_("classic"),
    "eaai": N_("EAAI"),
}


def preset_label(name: str | None) -> str:
    """A preset's name on screen, in the language in force; "custom" for rules that are no
    preset (``name`` None)."""
    if name is None:
        return _("custom")
    return _(PRESET_LABELS[name]) if name in PRESET_LABELS else name
