"""The optional C path of the card API (``hollywood_gin._speedups``, issue 16) gives what the
pure-Python functions give: the same answers, the same errors with the same messages."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hollywood_gin import arrange, cards, melds, scoring
from hollywood_gin.cards import CARDS, Card, cards_from_mask, parse_cards
from hollywood_gin.hand import Hand
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
