"""The one small exception hierarchy: each error is a ``ValueError`` naming what was wrong."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class HollywoodGinError(ValueError):
    """Base of every error this package raises on bad input."""


class CardParseError(HollywoodGinError):
    """A card token could not be read, or a card was given twice."""


class RulesError(HollywoodGinError):
    """A rule option has a value outside what the rule book (docs/rules.md) §9 allows;
    ``option`` names the option to change (a form marks its field), where there is one."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class IllegalActionError(HollywoodGinError):
    """An action is not legal in the current state; the state is unchanged."""


class RecordError(HollywoodGinError):
    """A match record is malformed, of an unknown version, or does not replay."""


def shortened(text: str, most: int) -> str:
    """``text`` for an error message, cut after ``most`` characters: a value of 5,000 digits
    is named, not repeated whole."""
    return text if len(text) <= most else text[:most] + "…"


@contextmanager
def needs_extra(what: str, extra: str) -> Iterator[None]:
    """Imports of an optional part: a missing module is named with the extra that brings it
    (``import hollywood_gin.rl`` without it said only "No module named 'numpy'").  The
    error keeps the module's ``name``, which the command line reads to word it itself."""
    try:
        yield
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            f"{what} needs the '{extra}' extra ({exc.name} is not installed): "
            f"pip install 'hollywood-gin[{extra}]'", name=exc.name) from None
