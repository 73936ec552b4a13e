"""Actions as frozen values, their text form, and the fixed integer action space.

The integer action space, documented here once and used by the fast engine
path, the bots and the RL layers:

=========  ==============================================
id         action
=========  ==============================================
0          ``pass``: refuse the upcard in the opening (R4.1)
1          ``take``: take the upcard in the opening (R4.1)
2          ``draw``: draw the top of the stock (R4.2)
3          ``pick``: take the top of the discard pile (R4.2)
4 + i      ``discard C``: discard card index ``i`` (R4.2)
56 + i     ``knock C``: knock, discarding card index ``i`` face down (R5.1)
108        ``big-gin``: knock with all eleven cards melded (R5.7, option)
=========  ==============================================

A knock's id does not carry the melds shown; the engine then shows the
default arrangement of R8.1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import CARDS, Card, parse_card, parse_cards
from .errors import CardParseError, IllegalActionError, shortened
from .i18n import _

__all__ = [
    "ACTION_COUNT",
    "BIG_GIN_ID",
    "DISCARD_BASE",
    "KNOCK_BASE",
    "Action",
    "Discard",
    "DrawStock",
    "Knock",
    "Pass",
    "TakeDiscard",
    "TakeUpcard",
    "action_from_id",
    "parse_action",
]

PASS_ID = 0
TAKE_UPCARD_ID = 1
DRAW_STOCK_ID = 2
TAKE_DISCARD_ID = 3
DISCARD_BASE = 4
KNOCK_BASE = 56
BIG_GIN_ID = 108
ACTION_COUNT = 109


@dataclass(frozen=True, slots=True)
class Pass:
    """Refuse the upcard in the opening (R4.1)."""

    id: ClassVar[int] = PASS_ID

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class TakeUpcard:
    """Take the face-up card in the opening (R4.1)."""

    id: ClassVar[int] = TAKE_UPCARD_ID

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock (R4.2)."""

    id: ClassVar[int] = DRAW_STOCK_ID

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile (R4.2)."""

    id: ClassVar[int] = TAKE_DISCARD_ID

    def __str__(self) -> str:
        return "pick"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card face up, ending the turn (R4.2)."""

    card: Card

    @property
    def id(self) -> int:
        return DISCARD_BASE + self.card.index

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Knock:
    """Knock (R5.1): discard ``card`` face down and lay out the hand.

    ``card`` is None for a big gin (R5.7 option), which keeps all eleven cards.
    ``melds`` are the melds to show; None lets the engine choose per R8.1.
    """

    card: Card | None
    melds: tuple[tuple[Card, ...], ...] | None = None

    @property
    def id(self) -> int:
        return BIG_GIN_ID if self.card is None else KNOCK_BASE + self.card.index

    def __str__(self) -> str:
        head = "big-gin" if self.card is None else f"knock {self.card}"
        if self.melds is None:
            return head
        return head + " " + " ".join("/".join(c.text for c in meld) for meld in self.melds)


Action = Pass | TakeUpcard | DrawStock | TakeDiscard | Discard | Knock

_SIMPLE: dict[str, Action] = {
    "pass": Pass(),
    "take": TakeUpcard(),
    "draw": DrawStock(),
    "pick": TakeDiscard(),
}

#: Every action id's action (knocks with the default melds).
ACTIONS: tuple[Action, ...] = (
    Pass(),
    TakeUpcard(),
    DrawStock(),
    TakeDiscard(),
    *(Discard(c) for c in CARDS),
    *(Knock(c) for c in CARDS),
    Knock(None),
)


def action_from_id(action_id: int) -> Action:
    """The action of an id of the integer action space."""
    if isinstance(action_id, bool) or not isinstance(action_id, int) or not (
        0 <= action_id < ACTION_COUNT
    ):
        raise IllegalActionError(f"no action has id {action_id!r}; ids run 0 to {ACTION_COUNT - 1}")
    return ACTIONS[action_id]


def parse_action(text: str) -> Action:
    """Read an action's text form: ``pass``, ``take``, ``draw``, ``pick``, ``discard 7h``,
    ``knock 3d`` (optionally followed by melds like ``5s/6s/7s 9h/9d/9c``), ``big-gin``."""
    words = text.strip().split() if isinstance(text, str) else []
    if not words:
        # Translators: pass, take, draw, pick, discard C and knock C are the action words
        # typed as they are (the protocol's and the command line's); keep them in English.
        raise IllegalActionError(
            _("empty action: expected pass, take, draw, pick, discard C, knock C [melds], "
              "or big-gin")
        )
    verb = words[0].lower()
    try:
        if verb in _SIMPLE and len(words) == 1:
            return _SIMPLE[verb]
        if verb == "discard" and len(words) == 2:
            return Discard(parse_card(words[1]))
        if verb in ("knock", "gin") and len(words) >= 2:
            return Knock(parse_card(words[1]), _parse_melds(words[2:]))
        if verb == "big-gin":
            return Knock(None, _parse_melds(words[1:]))
    except CardParseError as exc:
        raise IllegalActionError(_("cannot read action {text}: {reason}").format(
            text=shortened(repr(text), 60), reason=exc)) from None
    # Translators: the action words (pass, take, draw, pick, discard C, knock C [melds],
    # big-gin) are typed as they are; keep them in English.
    raise IllegalActionError(
        _("cannot read action {text}: expected pass, take, draw, pick, discard C, "
          "knock C [melds], or big-gin").format(text=shortened(repr(text), 60))
    )


def _parse_melds(words: list[str]) -> tuple[tuple[Card, ...], ...] | None:
    if not words:
        return None
    return tuple(parse_cards(word.replace("/", " ")) for word in words)
