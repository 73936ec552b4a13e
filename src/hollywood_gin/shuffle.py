"""How a deck is shuffled from a seed (R3.2): the same order for the same seed on every
Python that shuffles as this one does, and only seeds that deal differently."""

from __future__ import annotations

import random

from .cards import CARDS, Card, as_whole_number
from .errors import IllegalActionError

__all__ = ["checked_seed", "shuffle_deck"]

#: (i, i + 1, bits of i + 1) for each step of a shuffle of 52 cards.
_SHUFFLE_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(51, 0, -1))


def checked_seed(seed: object, what: str = "a seed", alternative: str = "") -> int:
    """``seed`` as a whole number 0 or more, or IllegalActionError naming ``what``.

    Negative seeds are refused because ``random.Random`` seeds by the absolute value: -5
    would deal exactly what 5 deals, and two records with different seeds would hold the
    same cards."""
    number = as_whole_number(seed)
    if number is None:
        more = f" {alternative}" if alternative else ""
        raise IllegalActionError(f"{what} must be a whole number{more}, not {seed!r}")
    if number < 0:
        raise IllegalActionError(f"{what} must be 0 or more, not {number}")
    return number


def shuffle_deck(rng: random.Random, deck: list[Card]) -> None:
    """``rng.shuffle(deck)`` for a deck of 52: exactly the same order from the same state,
    written out for a plain ``random.Random`` (its ``shuffle`` makes two Python calls a
    card).  Any other generator shuffles itself."""
    if type(rng) is not random.Random or len(deck) != 52 or not _SAME_SHUFFLE:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _SHUFFLE_STEPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _same_shuffle() -> bool:
    """True if :func:`shuffle_deck` copies this Python's ``Random.shuffle`` (checked once:
    another version of it falls back to the real thing)."""
    global _SAME_SHUFFLE
    ours, theirs = list(CARDS), list(CARDS)
    _SAME_SHUFFLE = True
    shuffle_deck(random.Random(2026), ours)
    random.Random(2026).shuffle(theirs)
    return ours == theirs


_SAME_SHUFFLE = _same_shuffle()
