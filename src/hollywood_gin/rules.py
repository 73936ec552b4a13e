"""The rule options of RULES.md §9 as one frozen, validated value, and the four presets."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from .errors import RulesError

__all__ = ["OPTIONS", "PRESETS", "EntryRule", "NextDealer", "Option", "Rules"]

NextDealer = Literal["winner", "alternate", "loser"]
EntryRule = Literal["traditional", "by_count"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every option of RULES.md §9 under its own name; defaults are the ``hollywood`` preset."""

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
                raise RulesError(f"rule {name}={getattr(self, name)!r} is invalid: {allowed}")

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

    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of the presets of RULES.md §9 by name."""
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


@dataclass(frozen=True, slots=True)
class Option:
    """How one rule option is shown and entered: what a new-match form or a rule book needs."""

    name: str
    rule: str  # the RULES.md number it belongs to
    kind: Literal["int", "bool", "choice", "optional_int"]
    low: int | None = None  # inclusive bounds of a whole-number option (None: unbounded)
    high: int | None = None
    choices: tuple[str, ...] = ()


#: Every option of :class:`Rules`, in the order a form shows them; bounds match ``__post_init__``.
OPTIONS: tuple[Option, ...] = (
    Option("knock_limit", "R5.1", "int", 0, 10),
    Option("oklahoma", "R5.1", "bool"),
    Option("gin_bonus", "R5.7", "int", 1, None),
    Option("big_gin_bonus", "R5.7", "optional_int", 1, None),
    Option("undercut_bonus", "R5.6", "int", 1, None),
    Option("discard_taken_card", "R4.3", "bool"),
    Option("dead_hand_stock", "R6.1", "int", 0, 20),
    Option("next_dealer", "R3.1", "choice", choices=("winner", "alternate", "loser")),
    Option("columns", "R7.1", "int", 1, 5),
    Option("game_target", "R7.3", "int", 1, None),
    Option("game_bonus", "R7.4", "int", 0, None),
    Option("shutout_game_bonus", "R7.4", "int", 0, None),
    Option("box_bonus", "R7.4", "int", 0, None),
    Option("entry_rule", "R7.2", "choice", choices=("traditional", "by_count")),
)


PRESETS: dict[str, Rules] = {
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
}
