"""Cards, ranks and suits (the rule book §1), and the 52-bit masks the engine computes with.

A card's index is ``suit * 13 + (rank - 1)``: each suit owns a 13-bit block of a
hand mask with the ace in the lowest bit, so a run (R2.2) is a run of set bits
inside one block.  The canonical text of a card is its rank letter
``A23456789TJQK`` followed by its lower-case suit letter ``s h d c``.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from enum import IntEnum

from .errors import CardParseError, shortened
from .i18n import _

try:
    from ._speedups import cards_from_mask as _c_cards_from_mask
    from ._speedups import setup_cards as _setup_cards
except ImportError:  # not compiled (no compiler at install): the pure-Python path alone
    _setup_cards = None  # type: ignore[assignment]

__all__ = [
    "CARDS",
    "FULL_DECK_MASK",
    "Card",
    "Rank",
    "Suit",
    "cards_from_mask",
    "cards_text",
    "indexes_of_mask",
    "mask_of",
    "parse_card",
    "parse_cards",
]


class Suit(IntEnum):
    """The four suits, in the order of the canonical deck."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "shdc"[self]

    @property
    def glyph(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Rank(IntEnum):
    """Ranks with the ace always low (R1.2)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        return "A23456789TJQK"[self - 1]

    @property
    def points(self) -> int:
        """The card value of R1.3: ace 1, two to ten face value, J Q K 10."""
        return min(int(self), 10)



def as_whole_number(value: object) -> int | None:
    """``value`` as a whole number (any integer, NumPy's too), or None: never a bool, a
    float or a text, which int() would take (True as 1, 2.9 as 2)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


class Card:
    """One playing card: an immutable value, compared and hashed by its index."""

    # ``bit`` (``1 << index``) is stored, not computed: turning cards into a mask is the
    # first step of every public call with cards, and a stored slot is the cheapest read.
    __slots__ = ("bit", "index", "points", "rank", "suit")

    rank: Rank
    suit: Suit
    index: int
    points: int
    bit: int

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        r_number, s_number = as_whole_number(rank), as_whole_number(suit)
        try:  # Rank(True) and Rank(1.0) were the ace
            if r_number is None or s_number is None:
                raise ValueError("not whole numbers")
            r, s = Rank(r_number), Suit(s_number)
        except ValueError as exc:
            raise CardParseError(f"no such card: rank {rank!r}, suit {suit!r}") from exc
        existing = _BY_INDEX.get(s * 13 + r - 1)
        if existing is not None:
            return existing
        card = object.__new__(cls)
        object.__setattr__(card, "rank", r)
        object.__setattr__(card, "suit", s)
        object.__setattr__(card, "index", s * 13 + r - 1)
        object.__setattr__(card, "points", r.points)
        object.__setattr__(card, "bit", 1 << (s * 13 + r - 1))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (int(self.rank), int(self.suit)))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card (``As``, ``10h``, ``t♥``...); raises :class:`CardParseError`."""
        return parse_card(text)

    @classmethod
    def from_index(cls, index: int) -> Card:
        i = as_whole_number(index)
        if i is None or not 0 <= i < 52:
            raise CardParseError(f"no card has index {index!r}; indexes run 0 to 51")
        return CARDS[i]

    @property
    def text(self) -> str:
        return self.rank.letter + self.suit.letter

    @property
    def pretty(self) -> str:
        return ("10" if self.rank == Rank.TEN else self.rank.letter) + self.suit.glyph

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


_BY_INDEX: dict[int, Card] = {}
for _s in Suit:
    for _r in Rank:
        _BY_INDEX[_s * 13 + _r - 1] = Card(_r, _s)

#: The 52 cards in canonical order (by index).
CARDS: tuple[Card, ...] = tuple(_BY_INDEX[i] for i in range(52))
FULL_DECK_MASK = (1 << 52) - 1

_RANKS = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_RANKS.update({str(n): n for n in range(2, 10)})
_SUITS = {
    "S": 0, "H": 1, "D": 2, "C": 3,
    "♠": 0, "♥": 1, "♦": 2, "♣": 3,
    "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}  # fmt: skip
_TOKEN = re.compile(r"^(10|[2-9AaTtJjQqKk])(.)$")
_SPLIT = re.compile(r"[\s,]+")


def parse_card(text: str) -> Card:
    """Read one card in any case, ``10`` or ``T`` for ten, suit letter or glyph."""
    token = text.strip() if isinstance(text, str) else ""
    match = _TOKEN.match(token.upper().replace("\ufe0f", ""))
    if match is None or match.group(2) not in _SUITS:
        raise CardParseError(
            # Translators: keep the letters and the examples: they are what the player types.
            _("cannot read card {text!r}: expected a rank A23456789TJQK (or 10) "
              "then a suit s h d c (or ♠♥♦♣), like 'As' or '10h'").format(
                text=shortened(text, 40) if isinstance(text, str) else text)
        )
    return CARDS[_SUITS[match.group(2)] * 13 + _RANKS[match.group(1)] - 1]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; a bad or repeated token is an error."""
    if not isinstance(text, str):
        parse_card(text)  # refused in words, as a card that is not text
    cards: list[Card] = []
    seen: set[Card] = set()
    for token in _SPLIT.split(text.strip()):
        if not token:
            continue
        card = parse_card(token)
        if card in seen:
            raise CardParseError(_("card {token!r} is given twice").format(token=token))
        seen.add(card)
        cards.append(card)
    return tuple(cards)


def mask_of(cards: Iterable[Card]) -> int:
    """The 52-bit mask of some cards (a repeated card counts once)."""
    m = 0
    for card in cards:
        m |= card.bit
    return m


def indexes_of_mask(mask: int) -> list[int]:
    """The card indexes of a mask, lowest first (the fast path's card list)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: The cards of each 13-bit suit block of a mask, filled as blocks are met (at most 8,192 a
#: suit): a hand's cards are then four look-ups, not a walk over its bits.
_BLOCK_CARDS: tuple[dict[int, tuple[Card, ...]], ...] = ({0: ()}, {0: ()}, {0: ()}, {0: ()})


def cards_from_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in canonical order."""
    b0, b1, b2, b3 = _BLOCK_CARDS
    try:
        return b0[mask & 8191] + b1[mask >> 13 & 8191] + b2[mask >> 26 & 8191] + b3[mask >> 39]
    except KeyError:
        pass
    if 0 <= mask < 1 << 52:
        for suit in range(4):
            block = mask >> (13 * suit) & 0x1FFF
            if block not in _BLOCK_CARDS[suit]:
                _BLOCK_CARDS[suit][block] = _walk(block << (13 * suit))
        return pure_cards_from_mask(mask)
    return _walk(mask)  # not a mask of cards: fails as it always has, on the first bad bit


def _walk(mask: int) -> tuple[Card, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


#: The pure-Python ``cards_from_mask``: the source of truth, what the C path hands anything
#: but a 52-bit int to, and what runs when ``_speedups`` was not compiled.  The C path makes
#: the tuple in one step (``Hand.cards_of``, and the card tuples of answers read, are it).
pure_cards_from_mask = cards_from_mask
if _setup_cards is not None:  # the same answers in C (tests/test_speedups.py holds them equal)
    _setup_cards(CARDS, pure_cards_from_mask)
    cards_from_mask = _c_cards_from_mask


def cards_text(cards: Iterable[Card]) -> str:
    """Canonical text of cards, space separated, in the order given."""
    return " ".join(card.text for card in cards)

