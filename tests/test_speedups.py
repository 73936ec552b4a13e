"""The optional C path of the card API (``hollywood_gin._speedups``, issue 16) gives what the
pure-Python functions give: the same answers, the same errors with the same messages."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import pickle
import random
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hollywood_gin import arrange, cards, frozen, melds, scoring
from hollywood_gin.cards import CARDS, Card, cards_from_mask, cards_text, parse_cards
from hollywood_gin.errors import IllegalActionError
from hollywood_gin.hand import Hand
from hollywood_gin.melds import Layoff
from hollywood_gin.rules import Rules
from hollywood_gin.scoring import HandScore
from strategies import any_hands, dense_hands, examples, hands, knock_deals

SCORE_FIELDS = ("winner", "kind", "points", "knocker_deadwood", "defender_deadwood",
                "layoffs", "knocker_melds", "knocker_unmatched", "defender_melds",
                "defender_unmatched")


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    """("ok", answer) or (the exception's type, its message)."""
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:  # any error: both paths must raise the same
        return (type(exc), str(exc))


def test_the_extension_is_compiled_and_used() -> None:
    # `make test` installs the package with its C path: a build that broke would otherwise
    # pass every other test here on the pure-Python fallback.
    speedups = importlib.import_module("hollywood_gin._speedups")  # ImportError: not built
    assert melds.deadwood is speedups.deadwood
    assert melds.best_melds is speedups.best_melds
    assert scoring.score_hand is speedups.score_hand
    assert cards.cards_from_mask is speedups.cards_from_mask
    import hollywood_gin

    assert hollywood_gin.cards_from_mask is cards.cards_from_mask

    assert hollywood_gin.deadwood is melds.deadwood
    assert hollywood_gin.best_melds is melds.best_melds
    assert hollywood_gin.score_hand is scoring.score_hand


def check_hand(cards: tuple[Card, ...]) -> None:
    for given_as in (list(cards), cards, set(cards), frozenset(cards)):
        assert melds.deadwood(given_as) == melds.pure_deadwood(given_as)
        fast, pure = melds.best_melds(given_as), melds.pure_best_melds(given_as)
        assert fast._masks == pure._masks  # type: ignore[attr-defined]
        assert fast.deadwood == pure.deadwood
        for name, make in melds.PURE_MAKERS.items():  # read first: made by the C maker
            assert getattr(fast, name) == make(fast) == make(pure), name
        assert (fast.melds, fast.unmatched) == (pure.melds, pure.unmatched)
        assert fast == pure and hash(fast) == hash(pure) and repr(fast) == repr(pure)


@settings(max_examples=examples(400), deadline=None)
@given(any_hands(0, 11))
def test_deadwood_and_best_melds_are_the_pure_ones(cards: tuple[Card, ...]) -> None:
    check_hand(cards)


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(hands(10, 10), hands(11, 11), dense_hands(10, 10), dense_hands(11, 11)))
def test_ten_and_eleven_cards_random_and_meld_dense(cards: tuple[Card, ...]) -> None:
    check_hand(cards)


def test_many_seeded_hands_and_a_hands_own_cards() -> None:
    rng = random.Random(16)
    for n in range(2000):
        size = 10 + n % 2
        if n % 3:
            cards = tuple(rng.sample(CARDS, size))
        else:  # meld-dense: three or four neighbouring ranks of every suit
            low = rng.randrange(1, 11)
            pool = [c for c in CARDS if low <= c.rank < low + 4]
            cards = tuple(rng.sample(pool, min(size, len(pool))))
        check_hand(cards)
    hand = Hand.deal(seed=5)
    check_hand(hand.cards_of(0))


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(12, 30), st.randoms(use_true_random=False))
def test_bigger_hands_for_deadwood(n: int, rng: random.Random) -> None:
    cards = rng.sample(CARDS, n)
    assert outcome(melds.deadwood, cards) == outcome(melds.pure_deadwood, cards)
    assert outcome(melds.best_melds, cards) == outcome(melds.pure_best_melds, cards)


def check_score(knocker: Any, defender: Any, **kwargs: Any) -> None:
    before = (list(knocker), list(defender))
    fast = outcome(scoring.score_hand, knocker, defender, **kwargs)
    pure = outcome(scoring.pure_score_hand, knocker, defender, **kwargs)
    assert (list(knocker), list(defender)) == before  # nothing changed
    if fast[0] != "ok" or pure[0] != "ok":
        assert fast == pure
        return
    a, b = fast[1], pure[1]
    assert isinstance(a, HandScore)
    for slot in ("_mask_defender", "_mask_defender_melds", "_mask_knocker_melds",
                 "_mask_knocker_unmatched", "_mask_pairs"):
        assert getattr(a, slot) == getattr(b, slot), slot
    for name, make in scoring.PURE_MAKERS.items():  # read first: made by the C maker
        assert getattr(a, name) == make(a) == make(b), name
    for field in SCORE_FIELDS:
        assert getattr(a, field) == getattr(b, field), field
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)


RULES = (Rules(), Rules(big_gin_bonus=31), Rules(knock_limit=5, undercut_bonus=20),
         Rules(gin_bonus=20, big_gin_bonus=50, undercut_bonus=25))


@settings(max_examples=examples(400), deadline=None)
@given(knock_deals(), st.sampled_from(RULES), st.sampled_from((None, 0, 3, 10)))
def test_score_hand_is_the_pure_one(deal: tuple[tuple[Card, ...], tuple[Card, ...]],
                                    rules: Rules, knock_limit: int | None) -> None:
    knocker, defender = deal
    check_score(list(knocker), list(defender))
    check_score(knocker, set(defender), rules=rules)
    check_score(knocker, defender, rules=rules, knock_limit=knock_limit)


@settings(max_examples=examples(200), deadline=None)
@given(knock_deals(limit=0, size=11), st.sampled_from(RULES))
def test_score_hand_big_gin_is_the_pure_one(deal: tuple[tuple[Card, ...], tuple[Card, ...]],
                                            rules: Rules) -> None:
    check_score(*deal, rules=rules)
    check_score(deal[0][:10], deal[1], rules=rules)


def test_score_hand_on_seeded_knocks() -> None:
    rng = random.Random(1616)
    done = 0
    while done < 1500:
        low = rng.randrange(1, 10)
        pool = [c for c in CARDS if low <= c.rank < low + 5]
        knocker = rng.sample(pool, 10)
        if melds.pure_deadwood(knocker) > 10:
            continue
        rest = [c for c in CARDS if c not in knocker]
        check_score(knocker, rng.sample(rest, 10))
        done += 1


A = parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts")
B = parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th")


class NotACard:
    bit = 1


@pytest.mark.parametrize("cards", [
    [A[0], A[0], *A[2:]],  # a card twice among ten
    [A[0], *A[:10]],  # among eleven
    [*A[:5], A[4]],  # among six
    [*A[:9], "Ts"],  # not a card
    [*A[:9], NotACard()],  # not a card, with a bit
    [*A[:9], None],
    [*A, *B, *parse_cards("Ad 2d 3d 4d 5d")],  # 25 different cards
    list(CARDS),
    [*A[:9], 3],
    "As 2s",
    A[0],
    None,
    (c for c in A),  # an iterator: the Python path takes it
    {c: 1 for c in A},  # a dict of cards
    [],
])
def test_errors_and_odd_inputs_are_the_pure_ones(cards: Any) -> None:
    assert outcome(melds.deadwood, cards) == outcome(melds.pure_deadwood, cards)
    if isinstance(cards, list | tuple):  # the iterator above is spent
        assert outcome(melds.best_melds, cards) == outcome(melds.pure_best_melds, cards)


def test_arguments_other_than_one_list_go_to_the_python_path() -> None:
    assert melds.deadwood(cards=A) == melds.pure_deadwood(cards=A)
    assert melds.best_melds(cards=A) == melds.pure_best_melds(cards=A)
    assert outcome(melds.deadwood) == outcome(melds.pure_deadwood)
    assert outcome(melds.deadwood, A, A) == outcome(melds.pure_deadwood, A, A)
    assert outcome(melds.best_melds, A, x=1) == outcome(melds.pure_best_melds, A, x=1)


KNOCKER = parse_cards("As 2s 3s 4h 4d 4c 9h Th Jh Ad")
DEFENDER = parse_cards("5h 6h 7c 8c Kc Qc 2d 3d 5d 6d")


@pytest.mark.parametrize(("knocker", "defender", "kwargs"), [
    (KNOCKER, DEFENDER, {}),
    ([*KNOCKER[:9], KNOCKER[0]], DEFENDER, {}),  # a card twice
    (KNOCKER, [*DEFENDER[:9], DEFENDER[0]], {}),
    (KNOCKER, [*DEFENDER[:9], KNOCKER[0]], {}),  # in both hands
    (KNOCKER[:9], DEFENDER, {}),  # nine cards
    (KNOCKER, DEFENDER[:9], {}),
    ([*KNOCKER, parse_cards("Kh")[0]], DEFENDER, {}),  # eleven, no big gin
    ([*KNOCKER, parse_cards("Kh")[0], parse_cards("Qh")[0]], DEFENDER, {}),  # twelve
    ([*KNOCKER[:9], "Ad"], DEFENDER, {}),  # not a card
    (KNOCKER, [*DEFENDER[:9], None], {}),
    (parse_cards("As 2s 3s 4h 4d 4c 9h Th Kh Kd"), DEFENDER, {}),  # 20 deadwood
    (KNOCKER, DEFENDER, {"knock_limit": 0}),  # over the limit
    (KNOCKER, DEFENDER, {"knock_limit": 1.5}),
    (KNOCKER, DEFENDER, {"rules": Rules(knock_limit=0)}),
    (KNOCKER, DEFENDER, {"rules": "eaai"}),
    (KNOCKER, DEFENDER, {"knocker_melds": [KNOCKER[:3], KNOCKER[3:6], KNOCKER[6:9]]}),
    (KNOCKER, DEFENDER, {"knocker_melds": [KNOCKER[:3]]}),  # shown melds leave too much
    (KNOCKER, DEFENDER, {"bogus": 1}),
    (iter(KNOCKER), iter(DEFENDER), {}),
])
def test_score_hand_errors_and_odd_inputs_are_the_pure_ones(
        knocker: Any, defender: Any, kwargs: dict[str, Any]) -> None:
    if not isinstance(knocker, list | tuple):
        assert outcome(scoring.score_hand, knocker, defender, **kwargs)[0] == "ok"
        return
    check_score(knocker, defender, **kwargs)


def test_score_hand_arguments_by_name_and_too_few() -> None:
    pure = scoring.pure_score_hand
    assert scoring.score_hand(knocker=KNOCKER, defender=DEFENDER) == pure(KNOCKER, DEFENDER)
    assert outcome(scoring.score_hand, KNOCKER) == outcome(pure, KNOCKER)
    assert outcome(scoring.score_hand, KNOCKER, DEFENDER, Rules()) == outcome(
        pure, KNOCKER, DEFENDER, Rules())


def test_the_c_solve_of_masks_is_the_pure_one() -> None:
    speedups = importlib.import_module("hollywood_gin._speedups")
    rng = random.Random(3)
    for n in range(3000):
        mask = sum(1 << i for i in rng.sample(range(52), 10 + n % 15))
        assert speedups.deadwood_of_mask(mask) == melds.deadwood_of_mask(mask)
    assert cards_from_mask(0) == ()


def test_the_c_block_tables_are_arranges_for_every_block() -> None:
    # The C path finds each block's least arrangements of runs, and the one R8.1 picks, by
    # arrange's own walk written in C: every one of the 8,192 blocks, in two suits.
    speedups = importlib.import_module("hollywood_gin._speedups")
    for suit in (0, 3):
        for block in range(8192):
            ways, best = speedups.block_ways(suit, block)
            assert ways == arrange._ways(suit, block), (suit, block)
            assert best == arrange._best_runs(suit, block), (suit, block)


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(st.integers(0, (1 << 52) - 1), st.integers(-(1 << 60), 1 << 60),
                 st.sampled_from((0, 1, (1 << 52) - 1, 1 << 51, 1 << 52, -1, True, False))))
def test_cards_from_mask_is_the_pure_one(mask: int) -> None:
    assert outcome(cards.cards_from_mask, mask) == outcome(cards.pure_cards_from_mask, mask)


@pytest.mark.parametrize(("args", "kwargs"), [
    ((7,), {}), ((), {"mask": 7}), ((), {}), ((1, 2), {}), ((7,), {"other": 1}),
    ((2.0,), {}), (("3",), {}), ((None,), {}), ((1 << 100,), {}),
])
def test_cards_from_mask_odd_calls_are_the_pure_ones(args: tuple[Any, ...],
                                                     kwargs: dict[str, Any]) -> None:
    fast = outcome(cards.cards_from_mask, *args, **kwargs)
    assert fast == outcome(cards.pure_cards_from_mask, *args, **kwargs)


def test_cards_from_mask_in_canonical_order_and_empty_is_the_empty_tuple() -> None:
    assert cards.cards_from_mask((1 << 52) - 1) == CARDS
    assert cards.cards_from_mask(0) == ()
    hand = Hand.deal(seed=16)
    for seat in (0, 1):
        assert hand.cards_of(seat) == tuple(sorted(hand.cards_of(seat)))
        assert hand.cards_of(seat) == cards.pure_cards_from_mask(hand.hands[seat])


@pytest.mark.parametrize("name", ["arrangement_melds", "arrangement_unmatched",
                                  "score_knocker_melds", "score_knocker_unmatched",
                                  "score_defender_melds", "score_defender_unmatched"])
def test_the_c_makers_refuse_other_objects(name: str) -> None:
    maker = getattr(importlib.import_module("hollywood_gin._speedups"), name)
    for other in (object(), None, 7, melds.Arrangement((), (), 0)):
        if name.startswith("arrangement") and isinstance(other, melds.Arrangement):
            continue  # the right type (its fields given, the maker is never called for it)
        with pytest.raises(TypeError, match="_speedups"):
            maker(other)


def test_the_fields_made_when_read_are_made_by_the_c_makers() -> None:
    speedups = importlib.import_module("hollywood_gin._speedups")
    hand = parse_cards("As 2s 3s 4s 7h 7d 7c Kh Qd 9c")
    arrangement = melds.best_melds(hand)
    assert speedups.arrangement_melds(arrangement) == melds.PURE_MAKERS["melds"](arrangement)
    assert arrangement.melds == melds.pure_best_melds(hand).melds
    assert arrangement.unmatched == tuple(parse_cards("Kh Qd 9c"))


# -- the fields made when read: the C descriptor and the C makers -------------------------

def test_the_fields_made_when_read_are_the_c_descriptors() -> None:
    speedups = importlib.import_module("hollywood_gin._speedups")
    for cls, names in ((melds.Arrangement, melds.PURE_MAKERS),
                       (HandScore, scoring.PURE_MAKERS)):
        for name in names:
            field = cls.__dict__[name]
            assert type(field).__name__ == "field_made_when_read", (cls, name)
            assert getattr(cls, name) is field and field.__objclass__ is cls
            assert field.__doc__ == f"The {name} (made when read)."
            assert isinstance(field.make, type(speedups.score_layoffs)), (cls, name)


def read_in_order(value: Any, order: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(value, name) for name in order}


def check_arrangement_orders(cards: tuple[Card, ...]) -> None:
    makers = melds.PURE_MAKERS
    pure = melds.pure_best_melds(cards)
    expected = {name: make(pure) for name, make in makers.items()}
    for order in itertools.permutations((*makers, "deadwood")):
        fast = melds.best_melds(list(cards))
        got = read_in_order(fast, order)
        assert got == {**expected, "deadwood": pure.deadwood}, order
        assert read_in_order(fast, order) == got  # kept: the same objects read again
        assert all(getattr(fast, name) is got[name] for name in makers)
        assert fast == pure and hash(fast) == hash(pure) and repr(fast) == repr(pure)


@settings(max_examples=examples(200), deadline=None)
@given(st.one_of(hands(0, 11), dense_hands(10, 11)))
def test_arrangement_fields_read_in_every_order_are_the_pure_makers(
        cards: tuple[Card, ...]) -> None:
    check_arrangement_orders(cards)


def check_score_orders(knocker: tuple[Card, ...], defender: tuple[Card, ...],
                       orders: Iterable[tuple[str, ...]], **kwargs: Any) -> HandScore | None:
    makers = scoring.PURE_MAKERS
    try:
        pure = scoring.pure_score_hand(knocker, defender, **kwargs)
    except IllegalActionError:
        return None
    expected = {name: make(pure) for name, make in makers.items()}
    expected.update((name, getattr(pure, name)) for name in SCORE_FIELDS if name not in makers)
    for order in orders:
        fast = scoring.score_hand(list(knocker), list(defender), **kwargs)
        got = read_in_order(fast, order)
        assert got == {name: expected[name] for name in order}, order
        assert all(getattr(fast, name) is got[name] for name in makers if name in got)
        assert fast == pure and hash(fast) == hash(pure) and repr(fast) == repr(pure)
    return pure


SCORE_ORDERS = list(itertools.permutations(scoring.PURE_MAKERS))


@settings(max_examples=examples(200), deadline=None)
@given(knock_deals(), st.sampled_from(RULES), st.randoms(use_true_random=False))
def test_score_fields_read_in_any_order_are_the_pure_makers(
        deal: tuple[tuple[Card, ...], tuple[Card, ...]], rules: Rules,
        rng: random.Random) -> None:
    orders = [*rng.sample(SCORE_ORDERS, 4), tuple(rng.sample(SCORE_FIELDS, 10))]
    check_score_orders(*deal, orders, rules=rules)


def test_score_fields_in_every_order_on_knocks_with_layoffs() -> None:
    rng = random.Random(1617)
    knocks = with_layoffs = several = 0
    while knocks < 300:
        low = rng.randrange(1, 10)
        pool = [c for c in CARDS if low <= c.rank < low + 5]
        knocker = tuple(rng.sample(pool, 10))
        if melds.pure_deadwood(knocker) > 10:
            continue
        # the defender: cards beside the knocker's melds, and any
        shown = melds.pure_best_melds(knocker).melds
        near = {c for c in CARDS for meld in shown for k in meld
                if c not in knocker and (c.rank == k.rank or (
                    c.suit == k.suit and abs(c.rank - k.rank) <= 2))}
        rest = [c for c in CARDS if c not in knocker and c not in near]
        some = rng.sample(sorted(near), min(len(near), rng.randrange(2, 7)))
        defender = tuple(some + rng.sample(rest, 10 - len(some)))
        orders = SCORE_ORDERS if knocks < 20 else rng.sample(SCORE_ORDERS, 3)
        pure = check_score_orders(knocker, defender, orders)
        knocks += 1
        if pure is not None and pure.layoffs:
            with_layoffs += 1
            several += len({lay.meld for lay in pure.layoffs}) < len(pure.layoffs)
    assert with_layoffs > 100 and several > 10, (with_layoffs, several)  # the cases are met


def test_the_worked_examples_lay_offs_made_in_c() -> None:
    # R5.9's first example: 8s then 9s chained on the spade run, Tc on J-Q-K of clubs.
    knocker = parse_cards("5s 6s 7s 9h 9d 9c Jc Qc Kc 3d")
    defender = parse_cards("8s 9s 4d 4h 4c Tc 2h 2d Ad 5h")
    score = scoring.score_hand(knocker, defender)
    assert score.layoffs == scoring.PURE_MAKERS["layoffs"](score)
    assert [(lay.card.text, cards_text(lay.meld)) for lay in score.layoffs] == [
        ("8s", "5s 6s 7s"), ("9s", "5s 6s 7s"), ("Tc", "Jc Qc Kc")]
    assert all(type(lay) is Layoff for lay in score.layoffs)
    assert score.layoff_cards == tuple(parse_cards("8s 9s Tc"))
    assert (score.kind, score.points) == ("knock", 7)
    lay = score.layoffs[0]
    assert lay == Layoff(lay.card, lay.meld) and hash(lay) == hash(Layoff(lay.card, lay.meld))
    assert pickle.loads(pickle.dumps(score)) == score
    with pytest.raises(dataclasses.FrozenInstanceError):
        lay.card = lay.card  # type: ignore[misc]


@pytest.mark.parametrize("name", ["arrangement_melds", "arrangement_unmatched",
                                  "score_knocker_melds", "score_knocker_unmatched",
                                  "score_defender_melds", "score_defender_unmatched",
                                  "score_layoffs"])
def test_the_c_makers_refuse_objects_whose_slots_hold_no_masks(name: str) -> None:
    maker = getattr(importlib.import_module("hollywood_gin._speedups"), name)
    if name.startswith("arrangement"):
        value: Any = melds.Arrangement((), (), 0)  # made from cards: its mask slots unset
    else:
        value = scoring.score_hand(KNOCKER, DEFENDER)
        for slot in HandScore.__slots__:
            if slot.startswith("_mask"):
                object.__setattr__(value, slot, ("not", "masks"))
    with pytest.raises(TypeError, match="_speedups"):
        maker(value)


@pytest.mark.parametrize("bad", [-5, -(1 << 40), 1 << 52, 1 << 70, 2.0, True])
def test_the_c_makers_refuse_ints_that_are_no_masks(bad: Any) -> None:
    speedups = importlib.import_module("hollywood_gin._speedups")
    for slot, maker in (("_mask_knocker_unmatched", speedups.score_knocker_unmatched),
                        ("_mask_defender", speedups.score_defender_unmatched),
                        ("_mask_knocker_melds", speedups.score_knocker_melds),
                        ("_mask_pairs", speedups.score_layoffs)):
        value = scoring.score_hand(KNOCKER, DEFENDER)
        held = getattr(value, slot)
        if slot == "_mask_knocker_melds":
            bad_value: Any = (*held[:-1], bad)
        elif slot == "_mask_pairs":
            bad_value = ((bad, held[0][1]),) if held else ((bad, 7),)
        else:
            bad_value = bad
        object.__setattr__(value, slot, bad_value)
        with pytest.raises(TypeError, match="_speedups"):
            maker(value)
    for mask in (0, 1, (1 << 30) - 1, 1 << 30, (1 << 52) - 1):  # one digit, two, the edges
        value = scoring.score_hand(KNOCKER, DEFENDER)
        object.__setattr__(value, "_mask_knocker_unmatched", mask)
        assert speedups.score_knocker_unmatched(value) == cards.pure_cards_from_mask(mask)


def lazy_class() -> Any:
    """A frozen value with one field made when read, made anew for each descriptor."""

    @dataclasses.dataclass(frozen=True)
    class Lazy:
        __slots__ = ("_made", "plain")
        made: tuple[int, ...]
        plain: int

    return Lazy


class Other:
    """Not a Lazy, with the slot a Lazy's field reads."""

    __slots__ = ("_made", "plain")


def lazy_story(install: Callable[[type, str, Callable[[Any], object]], None]) -> list[Any]:
    """What a user can see of a field made when read, step by step."""
    cls = lazy_class()
    calls: list[int] = []

    def make(obj: Any) -> tuple[int, ...]:
        calls.append(obj.plain)
        if obj.plain < 0:
            raise ValueError(f"cannot make it from {obj.plain}")
        return (obj.plain, obj.plain)

    install(cls, "made", make)
    made = frozen.frozen_maker(cls, "_made", "plain")
    field = cls.__dict__["made"]
    seen: list[Any] = []
    value = made(frozen.LATER, 3)
    seen += [value.made, value.made is value.made, value == cls(made=(3, 3), plain=3)]
    seen += [repr(cls(made=(1,), plain=1)), cls(made=(1,), plain=1).made]
    seen.append(outcome(lambda: made(frozen.LATER, -1).made))
    broken = made(frozen.LATER, -2)
    seen += [outcome(lambda: broken.made), outcome(lambda: broken.made)]  # made again
    seen.append(outcome(setattr, value, "made", (9,)))
    seen.append(outcome(delattr, value, "made"))
    seen.append(outcome(object.__delattr__, value, "made")[0])
    object.__setattr__(value, "made", (7,))
    seen += [value.made, value._made]
    seen.append(outcome(getattr, cls.__new__(cls), "made"))  # its slot never set
    seen += [field.__get__(None, cls) is field, cls.made is field]
    other = Other()
    seen.append(outcome(field.__get__, other))  # an object of another class
    other._made, other.plain = frozen.LATER, 5
    seen += [field.__get__(other), other._made]
    field.__set__(other, (6,))
    seen += [field.__get__(other), outcome(field.__get__, object())]
    seen.append(calls)
    return seen


def test_the_c_descriptor_behaves_as_the_pure_property() -> None:
    fast = lazy_story(frozen.made_when_read)
    assert fast == lazy_story(frozen.pure_made_when_read)
    assert fast[-1] == [3, -1, -2, -2, 5]


# -- cards read: sets by their table, cards by their address -------------------------------

def odd_card(card: Card) -> Card:
    """A card equal to ``card`` that is not the deck's own object (Card() never makes one)."""
    twin = object.__new__(Card)
    for name in Card.__slots__:
        object.__setattr__(twin, name, getattr(card, name))
    assert twin == card and twin is not card
    return twin


def test_sets_with_removed_cards_and_cards_not_the_decks_own() -> None:
    rng = random.Random(1618)
    for n in range(500):
        hand = rng.sample(CARDS, 14)
        bag = set(hand)
        for card in hand[10 + n % 2:]:  # removed: the set's table keeps dummies
            bag.discard(card)
        if n % 3 == 0:  # and one taken out and put back
            card = next(iter(bag))
            bag.remove(card)
            bag.add(card)
        check_hand(tuple(bag))
        assert melds.deadwood(bag) == melds.pure_deadwood(bag)
        fast, pure = melds.best_melds(bag), melds.pure_best_melds(bag)
        assert fast == pure and fast._masks == pure._masks  # type: ignore[attr-defined]
        odd = [odd_card(c) if i % 4 == 0 else c for i, c in enumerate(hand[:10])]
        for odd_hand in (odd, tuple(odd), set(odd), frozenset(odd)):
            assert melds.deadwood(odd_hand) == melds.pure_deadwood(odd_hand)
            assert melds.best_melds(odd_hand) == melds.pure_best_melds(odd_hand)
        check_score(KNOCKER, set(DEFENDER))
    big = set(CARDS)
    for card in CARDS[11:]:
        big.discard(card)
    assert melds.best_melds(big) == melds.pure_best_melds(big)
    check_score(set(KNOCKER), frozenset(DEFENDER))


def test_an_odd_card_with_a_wrong_bit_is_refused_as_the_pure_path_refuses_it() -> None:
    for bit in (0, 3, 1 << 52, 1 << 70, "1", 2.0):  # (-1: the pure solve never ends)
        odd = odd_card(A[0])
        object.__setattr__(odd, "bit", bit)
        cards_given = [odd, *A[1:]]
        assert outcome(melds.deadwood, cards_given) == outcome(melds.pure_deadwood, cards_given)
        assert outcome(melds.best_melds, cards_given) == outcome(melds.pure_best_melds,
                                                                 cards_given)


def test_setup_cards_wants_52_different_cards() -> None:
    speedups = importlib.import_module("hollywood_gin._speedups")
    with pytest.raises(ValueError, match="52 different cards"):
        speedups.setup_cards((CARDS[0], *CARDS[:51]), cards.pure_cards_from_mask)
    with pytest.raises(ValueError, match="52 cards"):
        speedups.setup_cards(CARDS[:51], cards.pure_cards_from_mask)
    assert melds.deadwood(list(A)) == 0  # the cards set up before are kept
    speedups.setup_cards(CARDS, cards.pure_cards_from_mask)  # again: the same table
    check_hand(tuple(A))
    check_hand(tuple(CARDS[10:21]))


# -- without the extension: the pure path ----------------------------------------------------

PURE_RUN = """
import sys
sys.modules["hollywood_gin._speedups"] = None  # as if never compiled: its import fails
from hollywood_gin import cards, frozen, melds, scoring
from hollywood_gin.cards import parse_cards
assert frozen._c_made_when_read is None
assert melds.deadwood is melds.pure_deadwood and melds.best_melds is melds.pure_best_melds
assert scoring.score_hand is scoring.pure_score_hand
assert cards.cards_from_mask is cards.pure_cards_from_mask
for cls, names in ((melds.Arrangement, melds.PURE_MAKERS), (scoring.HandScore,
                                                               scoring.PURE_MAKERS)):
    for name in names:
        assert type(cls.__dict__[name]) is property, (cls, name)
knocker = parse_cards("5s 6s 7s 9h 9d 9c Jc Qc Kc 3d")
defender = parse_cards("8s 9s 4d 4h 4c Tc 2h 2d Ad 5h")
score = scoring.score_hand(knocker, defender)
print(repr(score))
print(repr(melds.best_melds(set(defender))), melds.deadwood(defender))
"""


def test_without_the_extension_the_pure_path_is_chosen_and_answers_the_same() -> None:
    run = subprocess.run([sys.executable, "-c", PURE_RUN], capture_output=True, text=True,
                         check=False, timeout=120)
    assert run.returncode == 0, run.stderr
    knocker = parse_cards("5s 6s 7s 9h 9d 9c Jc Qc Kc 3d")
    defender = parse_cards("8s 9s 4d 4h 4c Tc 2h 2d Ad 5h")
    expected = (f"{scoring.score_hand(knocker, defender)!r}\n"
                f"{melds.best_melds(set(defender))!r} {melds.deadwood(defender)}\n")
    assert run.stdout == expected
