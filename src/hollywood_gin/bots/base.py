"""The one interface every computer player implements, and the small values around it.

A bot sees only a :class:`~hollywood_gin.hand.HandView` (and the public score
sheet), never a :class:`~hollywood_gin.hand.Hand`: whatever it knows of the
opponent it must infer from the public log, as a person would.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol, TypeVar

from ..actions import Action
from ..cards import Card
from ..errors import HollywoodGinError
from ..hand import HandView
from ..i18n import N_, _, local_number, ngettext
from ..match import Match
from ..sheet import ScoreSheet

__all__ = ["Bot", "BotError", "Hint", "Observer", "Reason", "observe_match", "settings_with"]

_S = TypeVar("_S")


class BotError(HollywoodGinError):
    """A bot was asked for something it cannot do: an unknown name, a view with no choice."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a bot chose its action, as data a front end puts in the player's language: the
    English message (the catalogue's id, marked with ``N_`` or ``N_plural`` where it is
    written) and its values by name.  A value is a number, a :class:`Card` (said with its
    suit symbol) or another Reason (a phrase the message is built around).  A counted
    message has its ``plural`` and is chosen by the value ``n``.  The action itself is not
    in it: the front end names the hint's action in its own words."""

    message: str
    values: tuple[tuple[str, object], ...] = ()
    plural: str | None = None

    @classmethod
    def of(cls, message: str | tuple[str, str], **values: object) -> Reason:
        """``Reason.of(N_("{card} makes no meld"), card=card)``; a ``N_plural`` pair makes a
        counted message, its count the value ``n``."""
        if isinstance(message, tuple):
            assert "n" in values, "a counted reason needs its count as n"
            return cls(message[0], tuple(values.items()), message[1])
        return cls(message, tuple(values.items()))

    def english(self) -> str:
        """The reason in English, cards with their symbols (logs, tests, a bot's name)."""
        values = {k: v.pretty if isinstance(v, Card) else
                  v.english() if isinstance(v, Reason) else v for k, v in self.values}
        message = self.message
        if self.plural is not None and values.get("n") != 1:
            message = self.plural
        return message.format(**values)

    def words(self) -> str:
        """The reason in the language in force: its message through the catalogue, cards
        with their suit symbols, phrases in it worded the same way, numbers with the
        language's decimal mark ("+2,5" in Lithuanian)."""
        if self.plural is not None:
            text = ngettext(self.message, self.plural, int(str(dict(self.values)["n"])))
        else:
            text = _(self.message)
        values: dict[str, object] = {}
        for name, value in self.values:
            if isinstance(value, Card):
                values[name] = value.pretty
            elif isinstance(value, Reason):
                values[name] = value.words()
            elif isinstance(value, float):
                values[name] = local_number(value)
            else:
                values[name] = value
        return text.format(**values)

    def __str__(self) -> str:
        return self.english()


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why (a :class:`Reason`, worded by the front end)."""

    action: Action
    reason: Reason


# Translators: a hint's reason (the terminal game's h key), shown after the action it
# explains ("discard 7♥ — ..."): why the computer player chose it.
ONLY_LEGAL = N_("the only legal action")
# Translators: a hint's reason: the suggested knock is a gin (no deadwood at all).
GIN = N_("gin, no deadwood left (R2.5)")


class Bot(ABC):
    """A computer player: ``reset`` at the start of a match, ``choose`` at every turn, and
    ``observe`` at the end of every hand.

    ``choose`` returns one of ``view.legal_actions``.  A bot may keep state across
    a hand and a match, but only what it could have learnt from its views, so two
    views that look the same from its seat, after the same hands observed, get the
    same answer from the same seed.
    """

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new match; ``seed`` makes the bot's own choices reproducible."""
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        """The action to play in ``view`` (one of ``view.legal_actions``)."""

    def observe(self, view: HandView, sheet: ScoreSheet | None = None) -> None:
        """A hand has ended: ``view`` is this seat's view of it now that it is over (the
        result, with both hands laid out, is what the rules reveal, R3.4, R5.2), and
        ``sheet`` the score sheet after it.  Every game loop calls this once per hand
        and seat, so bots can learn their opponent during a match; by default a bot
        learns nothing.  A view of a hand still in play is ignored."""
        return None

    def explain(self, view: HandView, sheet: ScoreSheet | None = None) -> Hint:
        """The choice with a reason; bots that can say why override this."""
        action = self.choose(view, sheet)
        # Translators: a hint's reason; {bot} is a computer player's name (greedy, basic).
        return Hint(action, Reason.of(N_("the {bot} bot's choice"), bot=self.name))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class Observer(Protocol):
    """Anything that learns from ended hands (every :class:`Bot` does)."""

    def observe(self, view: HandView, sheet: ScoreSheet | None = None) -> None: ...


def observe_match(bot: Observer, match: Match, seat: int, seen: int = 0) -> int:
    """Show ``bot`` every ended hand of ``match`` from ``seat`` after the first ``seen``,
    in order, each with the sheet as it stood after that hand; returns how many hands
    have ended, the ``seen`` of the next call.  A game loop calls it whenever a hand may
    have ended (each hand is shown once), and one that rebuilds or reseeds its bot in
    the middle of a match (resuming a saved game, undoing, a seed per hand) calls it
    with ``seen=0`` after ``reset``, so the bot knows the opponent as if it had played
    every hand."""
    hands = match.hands
    if len(hands) - (hands[-1].result is None) <= seen:
        return seen  # no hand ended since: the usual case, at every move of a game loop
    sheet = ScoreSheet(match.rules)
    ended = 0
    for number, hand in enumerate(match.hands):
        result = hand.result
        if result is None:
            continue
        ended = number + 1
        if result.winner is not None and not sheet.finished:
            sheet.record(result.winner, result.points)
        if number >= seen:
            bot.observe(hand.view(seat), sheet.copy())
    return max(ended, seen)


def only_choice(view: HandView) -> Action | None:
    """The single legal action when there is no choice to make, else None."""
    legal = view.legal_actions
    if not legal:
        raise BotError(
            f"player {view.player} has no legal action: it is player {view.to_act}'s turn "
            f"in phase {view.phase.value}"
        )
    return legal[0] if len(legal) == 1 else None


def settings_with(
    base: _S, values: dict[str, float], spec: str, limits: dict[str, tuple[float, float]]
) -> _S:
    """``base`` (a settings dataclass) with fields changed by name, as a bot spec asks;
    an unknown name, a fraction for a whole-number field or a value outside its
    ``limits`` is a :class:`BotError` naming it."""
    known = {f.name: f for f in fields(base)}  # type: ignore[arg-type]
    bot = spec.partition(":")[0].strip() or "the bot"
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise BotError(
                f"{bot} has no setting {key!r} (in {spec!r}); its settings are "
                + ", ".join(known)
            )
        low, high = limits.get(key, (-math.inf, math.inf))
        if not low <= value <= high:
            raise BotError(f"{key}={value:g} is out of range in {spec!r}: from {low:g} to {high:g}")
        if known[key].type in (int, "int"):
            if value != int(value):
                raise BotError(f"{key} is a whole number, not {value:g} (in {spec!r})")
            changes[key] = int(value)
        else:
            changes[key] = value
    return replace(base, **changes)  # type: ignore[type-var]
