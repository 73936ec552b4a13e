"""Cards, ranks, values and card text (the rule book §1)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hollywood_gin.cards import (
    CARDS,
    FULL_DECK_MASK,
    Card,
    Rank,
    Suit,
    cards_from_mask,
    cards_text,
    mask_of,
    parse_card,
    parse_cards,
)
from hollywood_gin.errors import CardParseError, HollywoodGinError
from hollywood_gin.melds import deadwood, is_meld, meld_kind
from strategies import hands

# -- R1.1 - R1.3 ------------------------------------------------------------------


def test_R1_1_one_standard_deck_of_52_distinct_cards_no_jokers() -> None:
    assert len(CARDS) == 52
    assert len(set(CARDS)) == 52
    assert {(c.rank, c.suit) for c in CARDS} == {(r, s) for r in Rank for s in Suit}
    assert [c.index for c in CARDS] == list(range(52))
    assert mask_of(CARDS) == FULL_DECK_MASK
    assert len(Suit) == 4 and len(Rank) == 13
    with pytest.raises(CardParseError):
        parse_card("Jk")  # no jokers
    with pytest.raises(CardParseError):
        Card(0, 0)


def test_R1_2_ace_is_always_low() -> None:
    assert [r.letter for r in sorted(Rank)] == list("A23456789TJQK")
    assert Rank.ACE < Rank.TWO < Rank.KING
    assert is_meld(parse_cards("Ah 2h 3h"))
    assert meld_kind(parse_cards("Ah 2h 3h")) == "run"
    assert not is_meld(parse_cards("Qh Kh Ah"))
    assert not is_meld(parse_cards("Kh Ah 2h"))
    assert deadwood(parse_cards("Qh Kh Ah")) == 21


def test_R1_3_card_values() -> None:
    expected = {**{n: n for n in range(1, 11)}, 11: 10, 12: 10, 13: 10}
    for c in CARDS:
        assert c.points == expected[c.rank] == c.rank.points
    assert sum(c.points for c in CARDS) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4)
    assert deadwood(parse_cards("As Th Jd Qc Ks")) == 41


# -- text -----------------------------------------------------------------------


def test_canonical_text_is_rank_letter_then_lower_suit_letter() -> None:
    assert [c.text for c in CARDS[:13]] == [r + "s" for r in "A23456789TJQK"]
    assert {c.text[1] for c in CARDS} == set("shdc")
    assert str(parse_card("10h")) == "Th"
    assert parse_card("10h").pretty == "10♥"
    assert parse_card("As").pretty == "A♠"
    assert cards_text(parse_cards("Kc As 10d")) == "Kc As Td"


@given(st.sampled_from(CARDS))
def test_every_card_text_round_trips_in_any_case(c: Card) -> None:
    assert parse_card(c.text) is c
    assert parse_card(c.text.upper()) is c
    assert parse_card(c.text.lower()) is c
    assert parse_card(c.text[0].lower() + c.text[1].upper()) is c
    assert parse_card(c.pretty) is c
    assert parse_card(c.rank.letter + c.suit.glyph) is c
    assert parse_card(f"  {c.text}\t") is c
    assert Card.parse(c.text) is c


def test_parse_ten_as_10_or_t() -> None:
    assert parse_card("10h") is parse_card("Th") is parse_card("th") is parse_card("10H")
    assert parse_card("T♥") is parse_card("10♥") is Card(Rank.TEN, Suit.HEARTS)


def test_parse_suit_glyphs() -> None:
    assert parse_cards("A♠ 2♥ 3♦ 4♣") == parse_cards("As 2h 3d 4c")
    assert parse_cards("A♤ 2♡ 3♢ 4♧") == parse_cards("As 2h 3d 4c")
    assert parse_card("A♥\ufe0f") is parse_card("Ah")  # emoji presentation selector


def test_parse_cards_commas_and_spaces() -> None:
    expected = (parse_card("As"), parse_card("Th"), parse_card("3d"), parse_card("Kc"))
    assert parse_cards("As Th 3d Kc") == expected
    assert parse_cards("As,Th,3d,Kc") == expected
    assert parse_cards(" As ,  10h,3d\n\tKC , ") == expected
    assert parse_cards("") == ()
    assert parse_cards("  , ") == ()


def test_parse_cards_keeps_the_order_given() -> None:
    assert cards_text(parse_cards("Kc 2s Ah")) == "Kc 2s Ah"


@pytest.mark.parametrize("thing", [None, 7, b"As"])
def test_a_card_that_is_not_text_is_a_card_parse_error(thing: object) -> None:
    with pytest.raises(CardParseError, match="cannot read card"):
        parse_card(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text,token",
    [
        ("As Xy", "Xy"),
        ("As 1h", "1h"),
        ("11h", "11h"),
        ("As Ahh", "Ahh"),
        ("A", "A"),
        ("h", "h"),
        ("10", "10"),
        ("As Zs", "Zs"),
        ("Ax", "Ax"),
        ("0s", "0s"),
        ("As 2h ♠", "♠"),
    ],
)
def test_bad_token_raises_card_parse_error_naming_the_token(text: str, token: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards(text)
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, HollywoodGinError)


def test_parse_card_rejects_a_list_of_cards() -> None:
    with pytest.raises(CardParseError, match="As 2h"):
        parse_card("As 2h")


@pytest.mark.parametrize("text", ["As as", "Th 10h", "A♠ As", "2c 3c 2C"])
def test_repeated_card_is_an_error(text: str) -> None:
    with pytest.raises(CardParseError, match="twice"):
        parse_cards(text)


def test_bad_card_constructor_and_index() -> None:
    with pytest.raises(CardParseError):
        Card(14, 0)
    with pytest.raises(CardParseError):
        Card(1, 4)
    with pytest.raises(CardParseError):
        Card.from_index(52)
    with pytest.raises(CardParseError):
        Card.from_index(-1)
    for wrong in (True, "3", 2.0, None):  # True was the 2 of spades, "3" a TypeError
        with pytest.raises(CardParseError, match="no card has index"):
            Card.from_index(wrong)  # type: ignore[arg-type]
    assert Card.from_index(0) is parse_card("As")
    assert Card.from_index(51) is parse_card("Kc")
    for rank, suit in ((True, 0), (1.0, 0), (1, False), ("1", 0), (None, 0)):  # True was As
        with pytest.raises(CardParseError, match="no such card"):
            Card(rank, suit)  # type: ignore[arg-type]
    assert Card(1, 0) is parse_card("As")


@pytest.mark.parametrize("wrong", [None, 5, ["As"]])
def test_cards_that_are_not_text_are_refused_in_words(wrong: object) -> None:
    with pytest.raises(CardParseError, match="cannot read card"):
        parse_cards(wrong)  # type: ignore[arg-type]


# -- value object ---------------------------------------------------------------


@given(st.sampled_from(CARDS))
def test_repr_round_trips_through_eval(c: Card) -> None:
    assert eval(repr(c), {"Card": Card}) is c


@given(st.sampled_from(CARDS))
def test_cards_are_interned_immutable_and_hash_by_index(c: Card) -> None:
    assert Card(c.rank, c.suit) is c
    assert Card(int(c.rank), int(c.suit)) is c
    assert hash(c) == c.index
    assert CARDS[c.index] is c
    assert c.bit == 1 << c.index
    assert c.index == c.suit * 13 + c.rank - 1
    with pytest.raises(AttributeError):
        c.rank = Rank.ACE  # type: ignore[misc]
    with pytest.raises(AttributeError):
        c.colour = "red"  # type: ignore[attr-defined]


@given(st.sampled_from(CARDS))
def test_pickling_and_copying_keep_the_same_card(c: Card) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(c, protocol)) is c
    assert copy.copy(c) is c
    assert copy.deepcopy(c) is c
    assert pickle.loads(pickle.dumps(list(CARDS))) == list(CARDS)


def test_cards_order_by_index() -> None:
    assert sorted(reversed(CARDS)) == list(CARDS)
    a, b = parse_card("Ks"), parse_card("Ah")
    assert a < b and a <= b and b > a and b >= a and a != b
    assert a == parse_card("ks") and a != "Ks"
    with pytest.raises(TypeError):
        _ = a < 3  # type: ignore[operator]
    with pytest.raises(TypeError):
        sorted([a, "Ks"])  # type: ignore[list-item]


def test_suit_properties() -> None:
    assert [s.letter for s in Suit] == list("shdc")
    assert [s.glyph for s in Suit] == list("♠♥♦♣")
    assert [s.is_red for s in Suit] == [False, True, True, False]


# -- masks ----------------------------------------------------------------------


@given(hands(0, 52))
def test_masks_round_trip(cards: tuple[Card, ...]) -> None:
    mask = mask_of(cards)
    assert mask.bit_count() == len(cards)
    assert cards_from_mask(mask) == tuple(sorted(cards))
    assert mask_of(cards_from_mask(mask)) == mask
    assert mask & ~FULL_DECK_MASK == 0


@given(st.integers(0, FULL_DECK_MASK))
def test_every_mask_is_a_set_of_cards(mask: int) -> None:
    assert mask_of(cards_from_mask(mask)) == mask


def test_mask_counts_a_repeated_card_once() -> None:
    c = parse_card("7d")
    assert mask_of([c, c]) == c.bit


@given(hands(0, 20))
def test_parse_cards_round_trips_text(cards: tuple[Card, ...]) -> None:
    assert parse_cards(cards_text(cards)) == cards
    assert parse_cards(", ".join(c.pretty for c in cards)) == cards


def test_a_long_bad_card_is_named_not_repeated_whole() -> None:
    """A 5,000-character token came back whole in the error (a 5 KB line)."""
    with pytest.raises(CardParseError, match=r"cannot read card 'X{40}…'") as caught:
        parse_cards("X" * 5000)
    assert len(str(caught.value)) < 300
