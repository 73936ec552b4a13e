"""The fast paths of issue 16 give the same answers as the slow ones.

- R8.1's arrangement, now found on masks with per-suit tables and the set choices
  enumerated, against every least arrangement (the walk) weighed by R8.1's text here;
- ``Arrangement`` and ``HandScore`` made from masks (their card tuples made when first
  read) against the same values made field by field: equal, hashed, shown, pickled,
  copied and frozen alike;
- ten or eleven cards read by adding their bits, with repeated cards;
- the lay-off search that leaves out melds the defender cannot touch;
- the copies kept for speed against their source: ``arrangement_of_mask`` against
  ``arranged_of_mask``, and what a meld exposes (R8.1's tie-break and the lay-off search
  read one table) against R8.1's text.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest
from hypothesis import given, settings

from hollywood_gin.arrange import _exposure, _set_exposure, arranged_of_mask
from hollywood_gin.cards import Card, cards_from_mask, mask_of, parse_cards
from hollywood_gin.melds import (
    Arrangement,
    MeldError,
    arrangement_of_mask,
    arrangements_of_mask,
    best_melds,
    deadwood,
    deadwood_of_mask,
    defender_layout_of_masks,
    defender_layout_of_touched,
    melds_in_mask,
    touched_melds_of_masks,
)
from hollywood_gin.scoring import HandScore, score_hand
from strategies import any_hands, dense_hands, examples, knock_deals

# -- R8.1 from its text, over every least arrangement ---------------------------------


def exposed(melds: tuple[int, ...], hand: int) -> int:
    """Cards outside the hand that could go directly onto one of the melds (R8.1)."""
    out = set()
    for meld in melds:
        cards = cards_from_mask(meld)
        if len({c.rank for c in cards}) == 1:
            if len(cards) == 3:
                out |= {Card(cards[0].rank, s) for s in range(4)} - set(cards)
        else:
            low, high = cards[0], cards[-1]
            if low.rank > 1:
                out.add(Card(low.rank - 1, low.suit))
            if high.rank < 13:
                out.add(Card(high.rank + 1, high.suit))
    return len({c for c in out if not hand >> c.index & 1})


def r81_choice(mask: int) -> tuple[int, ...]:
    """Least deadwood (the walk's list), then fewest exposed, fewest melds, canonical."""
    return min(arrangements_of_mask(mask),
               key=lambda melds: (exposed(melds, mask), len(melds), sorted(melds)))


def check_arrangement(cards: tuple[Card, ...]) -> None:
    mask = mask_of(cards)
    chosen = arrangement_of_mask(mask)
    assert chosen == r81_choice(mask)
    assert list(chosen) == sorted(chosen, key=lambda m: m & -m)  # lowest cards in order
    # the copies kept for speed agree with their source
    melds, dead = arranged_of_mask(mask)
    assert (chosen, dead) == (melds, deadwood_of_mask(mask))
    laid_out = best_melds(cards)
    assert (laid_out._masks, laid_out.deadwood) == (melds, dead)


@settings(max_examples=examples(400))
@given(any_hands(0, 11))
def test_R8_1_fast_arrangement_is_the_rule_texts_choice(cards: tuple[Card, ...]) -> None:
    check_arrangement(cards)


@settings(max_examples=examples(400))
@given(dense_hands(6, 11))
def test_R8_1_fast_arrangement_on_hands_full_of_sets(cards: tuple[Card, ...]) -> None:
    check_arrangement(cards)


@pytest.mark.parametrize("text", [
    "7s 7h 7d 7c 5s 6s 8s 9s 5h 6h",  # four sevens, each with a run beside it
    "7s 7h 7d 7c 6s 8s 6h 8h Kd Qc",  # four sevens, two of them in runs
    "3s 3h 3d 4s 4h 4d 5s 5h 5d 6c",  # three sets or three runs: equal deadwood
    "As 2s 3s Ah 2h 3h Ad 2d 3d Ac 2c",  # eleven cards, sets or runs
    "9s Ts Js 9h Th Jh 9d Td Jd Qs",
])
def test_R8_1_fast_arrangement_on_ties_of_sets_and_runs(text: str) -> None:
    check_arrangement(parse_cards(text))


def test_R8_1_every_melds_exposure_is_the_rule_texts() -> None:
    """Each legal meld alone, beside a hand holding some of its neighbours, and the sets of
    three together: one table of what a meld exposes serves R8.1 and the lay-offs."""
    every = melds_in_mask((1 << 52) - 1)
    hands = [0, mask_of(parse_cards("Ah 2s 4s 5d Kc Qh 9s 9h 9d Tc")), (1 << 52) - 1 - every[0]]
    for meld in every:
        for hand in hands:
            assert _exposure((meld,), hand) == exposed((meld,), hand)
    sets = tuple(m for m in every if m.bit_count() == 3 and len(
        {c.rank for c in cards_from_mask(m)}) == 1)
    for hand in hands:
        assert _set_exposure(sets, hand).bit_count() == exposed(sets, hand)
        assert _exposure(sets[::7], hand) == exposed(sets[::7], hand)


# -- results made from masks ----------------------------------------------------------


def eager(arr: Arrangement) -> Arrangement:
    return Arrangement(melds=tuple(tuple(m) for m in arr.melds),
                       unmatched=tuple(arr.unmatched), deadwood=arr.deadwood)


@settings(max_examples=examples(300))
@given(any_hands(0, 11))
def test_best_melds_from_masks_is_the_value_made_from_cards(cards: tuple[Card, ...]) -> None:
    fresh = best_melds(cards)
    made = Arrangement(
        melds=tuple(cards_from_mask(m) for m in arrangement_of_mask(mask_of(cards))),
        unmatched=cards_from_mask(mask_of(cards) & ~sum(arrangement_of_mask(mask_of(cards)))),
        deadwood=deadwood(cards),
    )
    assert fresh == made and made == fresh
    assert hash(best_melds(cards)) == hash(made)  # hashed before any field is read
    assert repr(best_melds(cards)) == repr(made)
    for lazy in (best_melds(cards), fresh):  # unread, and read
        back = pickle.loads(pickle.dumps(lazy))
        assert back == made and type(back) is Arrangement
        assert copy.copy(lazy) == made and copy.deepcopy(lazy) == made
    assert dataclasses.asdict(best_melds(cards)) == dataclasses.asdict(made)
    assert dataclasses.replace(best_melds(cards), deadwood=99) == dataclasses.replace(
        made, deadwood=99)


def test_an_arrangement_made_from_masks_is_frozen_and_reads_in_any_order() -> None:
    cards = parse_cards("As 2s 3s 7h 7d 7c Kc Qd 9h 4d")
    lazy = best_melds(cards)
    for name in ("melds", "unmatched", "deadwood", "_hand"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(lazy, name, ())
    assert lazy.unmatched == parse_cards("9h 4d Qd Kc")  # unmatched read first
    assert lazy.melds == (parse_cards("As 2s 3s"), parse_cards("7h 7d 7c"))
    assert lazy.deadwood == 33
    assert lazy == eager(lazy)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        lazy.nothing  # noqa: B018
    with pytest.raises(AttributeError):
        Arrangement((), (), 0)._masks  # noqa: B018  (made from cards: no masks)
    assert [f.name for f in dataclasses.fields(Arrangement)] == ["melds", "unmatched", "deadwood"]


def test_of_masks_gives_an_arrangement_and_a_subclass_its_own_kind() -> None:
    class Mine(Arrangement):
        __slots__ = ()

    mask = mask_of(parse_cards("As 2s 3s 7h 7d 7c Kc Qd 9h 4d"))
    melds = arrangement_of_mask(mask)
    made = Arrangement.of_masks(mask, melds)
    assert type(made) is Arrangement and made == best_melds(cards_from_mask(mask))
    mine = Mine.of_masks(mask, melds)
    assert type(mine) is Mine and mine.melds == made.melds and mine.deadwood == 33


def field_by_field(s: HandScore) -> HandScore:
    fields: dict[str, Any] = {f.name: getattr(s, f.name) for f in dataclasses.fields(HandScore)}
    return HandScore(**fields)


@settings(max_examples=examples(300))
@given(knock_deals())
def test_hand_score_from_masks_is_the_value_made_field_by_field(
    deal: tuple[tuple[Card, ...], ...],
) -> None:
    knocker, defender = deal
    made = field_by_field(score_hand(knocker, defender))
    fresh = score_hand(knocker, defender)
    assert hash(fresh) == hash(made)  # before any field is read
    assert fresh == made and made == fresh
    assert repr(score_hand(knocker, defender)) == repr(made)
    back = pickle.loads(pickle.dumps(score_hand(knocker, defender)))
    assert back == made and type(back) is HandScore
    assert copy.deepcopy(score_hand(knocker, defender)) == made
    s = score_hand(knocker, defender)
    assert s.defender_unmatched == made.defender_unmatched  # read out of order
    assert s.layoff_cards == tuple(lay.card for lay in made.layoffs)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.points = 0  # type: ignore[misc]


# -- cards read by adding their bits --------------------------------------------------


@pytest.mark.parametrize("text", [
    "Kc Kc 2s 3s 4s 5h 6h 7h 8d 9d",  # the top card twice: its sum runs past 52 bits
    "As As 2s 3s 4s 5h 6h 7h 8d 9d",  # a repeat whose sum is another card's bit
    "As As As As 3s 4s 5h 6h 7h 8d",
    "As As 2s 3s 4s 5h 6h 7h 8d 9d Tc",
])
def test_repeated_cards_in_ten_or_eleven_count_once(text: str) -> None:
    cards = [Card.parse(t) for t in text.split()]
    assert deadwood(cards) == deadwood(set(cards)) == deadwood(tuple(cards))
    if len(cards) == 10:
        with pytest.raises(MeldError, match="twice"):
            best_melds(cards)


def test_a_list_read_after_it_changed_gives_the_new_answer() -> None:
    cards = list(parse_cards("As 2s 3s 5h 6h 7h 9d Jc Qc 4d"))
    assert deadwood(cards) == 33 and best_melds(cards).deadwood == 33
    cards[-1] = Card.parse("Kh")
    assert deadwood(cards) == 39 and best_melds(cards).deadwood == 39


# -- lay-offs -------------------------------------------------------------------------


def full_layout(melds: tuple[int, ...], knocker: int, defender: int) -> object:
    """The search over every meld, as before the untouched ones were left out."""
    from itertools import product

    from hollywood_gin.melds import _layoff_ways
    from hollywood_gin.solve import deadwood_of_mask

    options = [_layoff_ways(meld, defender, knocker) for meld in melds]
    best_key = (deadwood_of_mask(defender), 0, 0)
    best: tuple[tuple[int, int], ...] = ()
    for combo in product(*options):
        laid = 0
        for way in combo:
            if laid & way:
                break
            laid |= way
        else:
            if laid:
                key = (deadwood_of_mask(defender & ~laid), laid.bit_count(),
                       sum(1 for w in combo if w))
                if key < best_key:
                    best_key = key
                    best = tuple((w, m) for w, m in zip(combo, melds, strict=True) if w)
    return best_key[0], best


@settings(max_examples=examples(300))
@given(knock_deals())
def test_R5_3_layout_leaves_out_only_melds_the_defender_cannot_touch(
    deal: tuple[tuple[Card, ...], ...],
) -> None:
    k, d = mask_of(deal[0]), mask_of(deal[1])
    for melds in arrangements_of_mask(k):
        full = full_layout(melds, k, d)
        assert defender_layout_of_masks(melds, k, d) == full
        # scoring asks which melds he touches first, then lays off onto those alone
        assert defender_layout_of_touched(touched_melds_of_masks(melds, k, d), k, d) == full
