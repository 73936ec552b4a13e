"""The meld solver (the rule book §2, R5.3, R5.4, R8.1) against a slow brute force.

The brute force below is written from the rule text alone and shares no code
with :mod:`hollywood_gin.melds`: a set is 3 or 4 cards of one rank (R2.1), a
run 3 or more consecutive cards of one suit (R2.2), an arrangement is any
choice of disjoint melds (R2.3), and deadwood is the least over all of them
(R2.4).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hollywood_gin.cards import CARDS, Card, cards_from_mask, mask_of, parse_cards
from hollywood_gin.melds import (
    MeldError,
    arrangement_of_mask,
    arrangements_of_mask,
    best_discards,
    best_melds,
    checked_melds_of_mask,
    deadwood,
    defender_layout_of_masks,
    discard_choices,
    gin_discards,
    is_meld,
    knock_discards,
    layoff_cards_of_masks,
    least_deadwood_discard_of_mask,
    meld_gains_of_mask,
    meld_kind,
    melds_in_mask,
)
from hollywood_gin.rules import Rules
from hollywood_gin.scoring import score_hand
from strategies import any_hands, card, dense_hands, examples, hands, knock_deals

Cards = frozenset[Card]

# -- the brute force --------------------------------------------------------------


def bf_is_set(cards: Iterable[Card]) -> bool:
    cs = list(cards)
    return 3 <= len(cs) <= 4 and len({c.rank for c in cs}) == 1


def bf_is_run(cards: Iterable[Card]) -> bool:
    cs = list(cards)
    if len(cs) < 3 or len({c.suit for c in cs}) != 1:
        return False
    ranks = sorted(int(c.rank) for c in cs)
    return ranks == list(range(ranks[0], ranks[0] + len(cs)))


def bf_is_meld(cards: Iterable[Card]) -> bool:
    cs = list(cards)
    return bf_is_set(cs) or bf_is_run(cs)


def points(cards: Iterable[Card]) -> int:
    return sum(min(int(c.rank), 10) for c in cards)


def bf_melds_with(c: Card, others: Cards) -> list[Cards]:
    """Every meld made of ``c`` and some of ``others``."""
    found: list[Cards] = []
    same_rank = [x for x in others if x.rank == c.rank]
    for k in (2, 3):
        found += [frozenset((c, *combo)) for combo in combinations(same_rank, k)]
    suit = {int(x.rank): x for x in others if x.suit == c.suit}
    suit[int(c.rank)] = c
    lo = hi = int(c.rank)
    while lo - 1 in suit:
        lo -= 1
    while hi + 1 in suit:
        hi += 1
    for a in range(lo, int(c.rank) + 1):
        for b in range(int(c.rank), hi + 1):
            if b - a >= 2:
                found.append(frozenset(suit[r] for r in range(a, b + 1)))
    assert all(bf_is_meld(m) for m in found)
    return found


@cache
def bf_deadwood(cards: Cards) -> int:
    """Least deadwood over every partition of ``cards`` into melds and loose cards."""
    if not cards:
        return 0
    c = min(cards)  # the lowest card is loose or in one of the melds that hold it
    rest = cards - {c}
    best = points([c]) + bf_deadwood(rest)
    for meld in bf_melds_with(c, rest):
        best = min(best, bf_deadwood(cards - meld))
    return best


def bf_arrangements(cards: Cards) -> Iterator[tuple[Cards, ...]]:
    """Every arrangement (set of disjoint melds), each once."""
    if not cards:
        yield ()
        return
    c = min(cards)
    rest = cards - {c}
    yield from bf_arrangements(rest)
    for meld in bf_melds_with(c, rest):
        for more in bf_arrangements(cards - meld):
            yield (meld, *more)


def bf_exposure(melds: Iterable[Cards], hand: Cards) -> int:
    """Cards outside the hand that could go directly onto these melds (R8.1)."""
    exposed: set[Card] = set()
    for meld in melds:
        if bf_is_set(meld):
            if len(meld) == 3:
                rank = next(iter(meld)).rank
                exposed |= {card(rank, s) for s in range(4)} - meld
        else:
            suit = next(iter(meld)).suit
            low, high = min(c.rank for c in meld), max(c.rank for c in meld)
            exposed |= {card(r, suit) for r in (low - 1, high + 1) if 1 <= r <= 13}
    return len(exposed - hand)


def bf_defender(knocker_melds: list[Cards], defender: Cards) -> int:
    """The defender's least deadwood (R5.4): every assignment of each of his cards to a
    knocker's meld it might go on, or to his own hand (melds or deadwood) (R5.3)."""
    choices: list[list[int | None]] = []
    for c in defender:
        options: list[int | None] = [None]
        for i, meld in enumerate(knocker_melds):
            same_rank = c.rank == next(iter(meld)).rank
            same_suit = c.suit == next(iter(meld)).suit
            if (bf_is_set(meld) and same_rank) or (bf_is_run(meld) and same_suit):
                options.append(i)
        choices.append(options)
    cards = list(defender)
    best = bf_deadwood(defender)
    for assignment in product(*choices):
        added: dict[int, set[Card]] = {}
        for c, where in zip(cards, assignment, strict=True):
            if where is not None:
                added.setdefault(where, set()).add(c)
        if not added:
            continue
        legal = all(
            (bf_is_set if bf_is_set(knocker_melds[i]) else bf_is_run)(knocker_melds[i] | extra)
            for i, extra in added.items()
        )
        if legal:
            laid = set().union(*added.values())
            best = min(best, bf_deadwood(defender - laid))
    return best


def check_arrangement(cards: tuple[Card, ...], melds: Iterable[Iterable[Card]],
                      unmatched: Iterable[Card]) -> None:
    """Melds legal, disjoint, from the hand, and together with ``unmatched`` the hand."""
    used: set[Card] = set()
    for meld in melds:
        meld = tuple(meld)
        assert bf_is_meld(meld), meld
        assert not used & set(meld)
        assert set(meld) <= set(cards)
        used |= set(meld)
    assert used.isdisjoint(unmatched)
    assert used | set(unmatched) == set(cards)


# -- the brute force itself -------------------------------------------------------


def test_brute_force_knows_the_rule_text() -> None:
    assert bf_deadwood(frozenset(parse_cards("As 2s 3s"))) == 0
    assert bf_deadwood(frozenset(parse_cards("Qs Ks As"))) == 21
    assert bf_deadwood(frozenset(parse_cards("7s 7h 7d 7c 8c 9c"))) == 0
    assert bf_deadwood(frozenset(parse_cards("7s 7h 7d 7c 8c"))) == 8
    assert len(list(bf_arrangements(frozenset(parse_cards("7s 7h 7d 7c"))))) == 6


# -- R2.1 - R2.5 on explicit hands --------------------------------------------------


def test_R2_1_a_set_is_three_or_four_of_a_rank() -> None:
    assert meld_kind(parse_cards("7s 7h 7d")) == "set"
    assert meld_kind(parse_cards("7s 7h 7d 7c")) == "set"
    assert not is_meld(parse_cards("7s 7h"))
    assert not is_meld(parse_cards("7s 7h 8d"))
    assert deadwood(parse_cards("7s 7h 7d 7c")) == 0


def test_R2_2_a_run_is_three_or_more_in_sequence_in_one_suit() -> None:
    assert meld_kind(parse_cards("4h 5h 6h")) == "run"
    assert meld_kind(parse_cards("9c Tc Jc Qc Kc")) == "run"
    assert meld_kind(CARDS[:13]) == "run"
    assert not is_meld(parse_cards("4h 5h 6d"))
    assert not is_meld(parse_cards("4h 5h 7h"))
    assert not is_meld(parse_cards("4h 5h"))
    assert not is_meld(parse_cards("Jd Qd Kd Ad"))


def test_R2_3_a_card_belongs_to_at_most_one_meld() -> None:
    # 7h would complete both 7s7d7h and 5h6h7h, but only once.
    assert deadwood(parse_cards("7s 7d 7h 5h 6h")) == 11
    arrangement = best_melds(parse_cards("7s 7d 7h 5h 6h"))
    assert len(arrangement.melds) == 1
    with pytest.raises(MeldError, match="7h is used in two melds"):
        checked_melds_of_mask(
            mask_of(parse_cards("7s 7d 7h 5h 6h")),
            [parse_cards("7s 7d 7h"), parse_cards("5h 6h 7h")],
        )


def test_R2_4_deadwood_is_the_least_over_all_arrangements() -> None:
    # "Longest run first" leaves 6s 6d = 12; 3h4h5h with 6h6s6d leaves nothing.
    cards = parse_cards("3h 4h 5h 6h 6s 6d")
    assert deadwood(cards) == 0
    assert best_melds(cards).unmatched == ()
    assert deadwood(parse_cards("3h 4h 5h 6h 4s 4d")) == 8
    assert deadwood(parse_cards("As 2h 3d 4c Ks")) == 20
    assert deadwood([]) == 0


def test_R2_5_gin_is_ten_cards_with_deadwood_zero() -> None:
    gin = parse_cards("As 2s 3s 4s 7h 7d 7c Jd Qd Kd")
    assert deadwood(gin) == 0
    assert best_melds(gin).unmatched == ()
    assert gin_discards([*gin, parse_cards("Kh")[0]]) == parse_cards("Kh")


# -- properties against the brute force ---------------------------------------------


@settings(max_examples=examples(400))
@given(any_hands(0, 11))
def test_R2_4_deadwood_equals_brute_force(cards: tuple[Card, ...]) -> None:
    assert deadwood(cards) == bf_deadwood(frozenset(cards))


@settings(max_examples=examples(250))
@given(any_hands(0, 11))
def test_R2_4_best_melds_are_legal_disjoint_and_least(cards: tuple[Card, ...]) -> None:
    arrangement = best_melds(cards)
    check_arrangement(cards, arrangement.melds, arrangement.unmatched)
    assert arrangement.deadwood == points(arrangement.unmatched) == bf_deadwood(frozenset(cards))


@settings(max_examples=examples(100))
@given(any_hands(0, 11))
def test_R2_4_engine_lists_every_least_arrangement(cards: tuple[Card, ...]) -> None:
    hand = frozenset(cards)
    least = bf_deadwood(hand)
    expected = {
        frozenset(arr)
        for arr in bf_arrangements(hand)
        if points(hand - set().union(*arr)) == least
    }
    found = [
        frozenset(frozenset(cards_from_mask(m)) for m in arr)
        for arr in arrangements_of_mask(mask_of(cards))
    ]
    assert len(found) == len(set(found))
    assert set(found) == expected


@settings(max_examples=examples(150))
@given(any_hands(0, 11))
def test_R2_1_R2_2_melds_in_mask_are_all_melds_of_the_hand(cards: tuple[Card, ...]) -> None:
    expected = {
        frozenset(sub)
        for k in range(3, len(cards) + 1)
        for sub in combinations(cards, k)
        if bf_is_meld(sub)
    }
    found = [frozenset(cards_from_mask(m)) for m in melds_in_mask(mask_of(cards))]
    assert len(found) == len(set(found))
    assert set(found) == expected


@given(hands(0, 6))
def test_R2_1_R2_2_meld_kind_matches_the_rule_text(cards: tuple[Card, ...]) -> None:
    kind = meld_kind(cards)
    assert (kind == "set") == bf_is_set(cards)
    assert (kind == "run") == bf_is_run(cards)
    assert is_meld(cards) == bf_is_meld(cards)


@settings(max_examples=examples(150))
@given(any_hands(10, 10))
def test_R8_1_default_arrangement_exposes_fewest_layoff_cards(cards: tuple[Card, ...]) -> None:
    hand = frozenset(cards)
    least = bf_deadwood(hand)
    fewest = min(
        bf_exposure(arr, hand)
        for arr in bf_arrangements(hand)
        if points(hand - set().union(*arr)) == least
    )
    chosen = [frozenset(cards_from_mask(m)) for m in arrangement_of_mask(mask_of(cards))]
    assert points(hand - set().union(*chosen)) == least
    assert bf_exposure(chosen, hand) == fewest


# -- discards -----------------------------------------------------------------------


@settings(max_examples=examples(250))
@given(any_hands(0, 11))
def test_discard_choices_try_every_discard(cards: tuple[Card, ...]) -> None:
    hand = frozenset(cards)
    choices = discard_choices(cards)
    assert sorted(c.card for c in choices) == sorted(cards)
    for choice in choices:
        assert choice.deadwood == bf_deadwood(hand - {choice.card})
    assert [(c.deadwood, c.card.index) for c in choices] == sorted(
        (c.deadwood, c.card.index) for c in choices
    )
    least = min((c.deadwood for c in choices), default=None)
    assert set(best_discards(cards)) == {c.card for c in choices if c.deadwood == least}
    for limit in (0, 5, 10):
        expected = {c for c in cards if bf_deadwood(hand - {c}) <= limit}
        assert set(knock_discards(cards, limit)) == expected
    assert set(gin_discards(cards)) == {c for c in cards if bf_deadwood(hand - {c}) == 0}


@settings(max_examples=examples(300))
@given(any_hands(0, 11), st.integers(0, (1 << 52) - 1))
def test_R2_4_least_deadwood_discard_equals_brute_force(
    cards: tuple[Card, ...], allowed_bits: int
) -> None:
    """The playouts' fast discard: least deadwood (brute force), then more points, then
    the lower index, over only the allowed cards."""
    hand = frozenset(cards)
    mask = mask_of(cards)
    for allowed in (mask, mask & allowed_bits):
        options = [c for c in cards if allowed >> c.index & 1]
        if not options:
            assert least_deadwood_discard_of_mask(mask, allowed) == (-1, 1000)
            continue
        best = min(options, key=lambda c: (bf_deadwood(hand - {c}), -c.points, c.index))
        assert least_deadwood_discard_of_mask(mask, allowed) == (
            best.index,
            bf_deadwood(hand - {best}),
        )


@settings(max_examples=examples(300))
@given(any_hands(0, 11), st.integers(0, (1 << 52) - 1))
def test_R2_4_meld_gains_equal_brute_force(cards: tuple[Card, ...], others_bits: int) -> None:
    """The greedy heuristic's look at live cards: for each card that would meld, the
    deadwood it soaks up (brute force: the hand's least deadwood plus the card's points
    less the least deadwood with it), lowest index first, whether or not a set becomes
    possible; cards that meld with nothing are left out."""
    hand = frozenset(cards)
    mask = mask_of(cards)
    least = bf_deadwood(hand)
    for others in (others_bits & ~mask, ((1 << 52) - 1) & ~mask):
        if len(hand) == 11:  # brute force on twelve cards: keep it quick
            others &= others_bits
        expected = [(c.index, gain) for c in cards_from_mask(others)
                    if (gain := least + c.points - bf_deadwood(hand | {c})) > 0]
        assert meld_gains_of_mask(mask, others) == expected


@pytest.mark.parametrize("text,added,gain", [
    ("7s 7h", "7d", 21),  # the third seven makes a set the runs alone never see
    ("7s 7h 8d 9d", "7d", 24),  # ... or a run: 31 + 7 less 14 (7d 8d 9d; the set leaves 17)
    ("7s 8s", "9s", 24),  # a run grows in its own block
    ("Ks", "Kh", 0),  # two of a rank: nothing melds
    ("7s 7h 7d 2c", "8s", 0),  # a rank held three times: 8s alone cannot use 7s
    ("7s 7h 7d 9s", "8s", 3),  # ... unless a run takes it: 9 + 8 less 14 (7s 8s 9s)
])
def test_R2_4_meld_gain_of_an_added_card_sees_sets_and_runs(
    text: str, added: str, gain: int
) -> None:
    card = parse_cards(added)[0]
    expected = [(card.index, gain)] if gain else []
    assert meld_gains_of_mask(mask_of(parse_cards(text)), card.bit) == expected


def _drop_highest_unmatched(cards: tuple[Card, ...]) -> int:
    """The tempting shortcut: best melds of all eleven, then drop the highest loose card."""
    loose = best_melds(cards).unmatched
    top = max(c.points for c in loose)
    return min(deadwood([c for c in cards if c != x]) for x in loose if x.points == top)


@pytest.mark.parametrize(
    "text,best,shortcut,discard",
    [
        # Found by search: the best 11-card melds leave 3s 3c loose, but 6d is the discard
        # that leaves gin (3s4s5s, 4h5h6h, 3c4c5c6c).
        ("3s 4s 5s 4h 5h 6h 6d 3c 4c 5c 6c", 0, 3, "6d"),
        # Discarding 6d leaves 10 (a knock); dropping a loose card leaves 12 (no knock).
        ("2s 4s 5s 6s 3h 5d 6d 3c 4c 5c 6c", 10, 12, "6d"),
    ],
)
def test_best_discard_is_not_the_highest_unmatched_card(
    text: str, best: int, shortcut: int, discard: str
) -> None:
    cards = parse_cards(text)
    assert _drop_highest_unmatched(cards) == shortcut
    assert discard_choices(cards)[0].deadwood == best
    assert best_discards(cards) == parse_cards(discard)
    assert parse_cards(discard)[0] in knock_discards(cards, best)
    assert parse_cards(discard)[0] not in best_melds(cards).unmatched


def test_discard_functions_on_an_empty_hand() -> None:
    assert discard_choices([]) == ()
    assert best_discards([]) == ()
    assert knock_discards([]) == ()


def test_repeated_card_is_a_meld_error() -> None:
    c = parse_cards("7h")[0]
    with pytest.raises(MeldError, match="twice"):
        best_melds([c, c])
    with pytest.raises(MeldError, match="twice"):
        discard_choices([c, c])


# -- lay-offs (R5.3) and the defender's optimum (R5.4) ---------------------------------


def _layoffs(knocker: str, defender: str) -> tuple[int, set[str]]:
    score = score_hand(parse_cards(knocker), parse_cards(defender))
    return score.defender_deadwood, {str(c) for c in score.layoff_cards}


def test_R5_3_fourth_card_onto_a_set_of_three() -> None:
    dead, laid = _layoffs("7s 7h 7d As 2s 3s 4s 5s 6s 2h", "7c Kh Kd Qc Jc 9h 9d Ts 8h 3d")
    assert laid == {"7c"}
    assert dead == points(parse_cards("Kh Kd Qc Jc 9h 9d Ts 8h 3d"))


def test_R5_3_either_end_of_a_run() -> None:
    _, laid = _layoffs("5h 6h 7h 2s 2d 2c Jc Qc Kc Ad", "4h 8h Tc 9s 9d Ks Kd Qh 3s 3d")
    assert laid == {"4h", "8h", "Tc"}


def test_R5_3_chained_along_a_run() -> None:
    dead, laid = _layoffs("5h 6h 7h 2s 2d 2c Jc Qc Kc Ad", "8h 9h 7c 7d Ks Kd 3s 4d 6c 9d")
    assert laid == {"8h", "9h"}
    assert dead == points(parse_cards("7c 7d Ks Kd 3s 4d 6c 9d"))
    # ... and down the other end too
    _, laid = _layoffs("5h 6h 7h 2s 2d 2c Jc Qc Kc Ad", "4h 3h 8h 9h 7c 7d Ks Kd 3s 4d")
    assert laid == {"3h", "4h", "8h", "9h"}


def test_R5_3_no_layoff_across_a_gap() -> None:
    dead, laid = _layoffs("5h 6h 7h 2s 2d 2c Jc Qc Kc Ad", "9h Th 3h 7c 7d Ks Kd 3s 4d 6c")
    assert dead == points(parse_cards("9h Th 3h 7c 7d Ks Kd 3s 4d 6c"))
    assert laid == set()


def test_R5_3_none_onto_a_set_of_four() -> None:
    # The knocker's 7s 7h 7d 7c: no defender card has that rank, and 6s/8s fit no set.
    dead, laid = _layoffs("7s 7h 7d 7c Jc Qc Kc As 2s 3c", "6s 8s 6h 8h Kd Ks 9d 9c 4d 4h")
    assert laid == set()
    assert dead == 6 + 8 + 6 + 8 + 10 + 10 + 9 + 9 + 4 + 4
    knocker = mask_of(parse_cards("7s 7h 7d 7c"))
    assert layoff_cards_of_masks((knocker,), mask_of(parse_cards("6s 8s 6h"))) == 0


def test_R5_3_a_set_of_three_completed_by_the_knockers_own_run_takes_nothing() -> None:
    # 7c is in the knocker's run 7c8c9c, so no fourth seven is free.
    dead, laid = _layoffs("7s 7h 7d 7c 8c 9c As 2s 3s 2h", "6c Tc 6h 8h Kd Ks 9d 9s 4d 4h")
    assert laid == {"6c", "Tc"}
    assert dead == points(parse_cards("6h 8h Kd Ks 9d 9s 4d 4h"))


def test_R5_4_defender_keeps_his_own_set_rather_than_lay_off() -> None:
    # 8h fits the knocker's 5h6h7h, but 8s8h8d is better kept as his own set.
    dead, laid = _layoffs("5h 6h 7h 2s 2d 2c Jc Qc Kc Ad", "8h 8s 8d Ks Kd 3s 4d 6c 9s 9d")
    assert "8h" not in laid
    assert dead == bf_deadwood(frozenset(parse_cards("Ks Kd 3s 4d 6c 9s 9d")))


def test_R5_4_defender_keeps_a_card_in_his_set_and_lays_off_another() -> None:
    # 4h would fit below the knocker's 5h6h7h but is worth more in his 4h4s4d; 8h goes on.
    dead, laid = _layoffs("5h 6h 7h 2s 2d 2c Jc Qc Kc Ad", "4h 4s 4d 8h Ks Kd 3s 9d 9c 6c")
    assert "4h" not in laid and "8h" in laid
    assert dead == 10 + 10 + 3 + 9 + 9 + 6


@settings(max_examples=examples(200))
@given(knock_deals())
def test_R5_4_defender_optimum_equals_brute_force(deal: tuple[tuple[Card, ...], ...]) -> None:
    knocker, defender = deal
    score = score_hand(knocker, defender)
    if score.kind == "gin":
        assert score.layoffs == ()
        assert score.defender_deadwood == bf_deadwood(frozenset(defender))
        return
    shown = [frozenset(m) for m in score.knocker_melds]
    assert score.defender_deadwood == bf_defender(shown, frozenset(defender))
    # the lay-offs shown are legal, and with the defender's melds leave that deadwood
    added: dict[tuple[Card, ...], set[Card]] = {}
    for lay in score.layoffs:
        assert lay.card in defender
        assert lay.meld in score.knocker_melds
        added.setdefault(lay.meld, set()).add(lay.card)
    for meld, extra in added.items():
        assert (bf_is_set if bf_is_set(meld) else bf_is_run)(set(meld) | extra)
    rest = tuple(c for c in defender if c not in score.layoff_cards)
    check_arrangement(rest, score.defender_melds, score.defender_unmatched)
    assert points(score.defender_unmatched) == score.defender_deadwood


@settings(max_examples=examples(150))
@given(knock_deals(), st.data())
def test_R5_4_defender_optimum_for_any_shown_arrangement(
    deal: tuple[tuple[Card, ...], ...], data: st.DataObject
) -> None:
    knocker, defender = deal
    arrangements = list(arrangements_of_mask(mask_of(knocker)))
    melds = data.draw(st.sampled_from(arrangements))
    value, pairs = defender_layout_of_masks(melds, mask_of(knocker), mask_of(defender))
    shown = [frozenset(cards_from_mask(m)) for m in melds]
    assert value == bf_defender(shown, frozenset(defender))
    laid = 0
    for way, meld in pairs:
        assert way and not way & laid and meld in melds
        laid |= way
    assert laid & ~mask_of(defender) == 0
    assert bf_deadwood(frozenset(cards_from_mask(mask_of(defender) & ~laid))) == value


def test_R5_9_chained_layoffs_stay_on_one_run() -> None:
    # 9s fits the knocker's 9h9d9c as well as the spade run once 8s is on it: the engine,
    # like the worked example, puts 8s and 9s together on the run.
    score = score_hand(
        parse_cards("5s 6s 7s 9h 9d 9c Jc Qc Kc 3d"), parse_cards("8s 9s 4d 4h 4c Tc 2h 2d Ad 5h")
    )
    on = {str(lay.card): " ".join(map(str, lay.meld)) for lay in score.layoffs}
    assert on == {"8s": "5s 6s 7s", "9s": "5s 6s 7s", "Tc": "Jc Qc Kc"}


# -- R8.1 -----------------------------------------------------------------------------


def test_R8_1_knocker_shows_the_set_that_exposes_fewer_cards() -> None:
    # 5h goes in the set 5s5h5d (exposes 5c) or the run 4h5h6h (exposes 3h and 7h):
    # deadwood 10 either way, and canonical order alone would pick the run.
    cards = parse_cards("4h 5h 6h 5s 5d 9c Tc Jc Qc Kc")
    least = [
        {frozenset(cards_from_mask(m)) for m in arr} for arr in arrangements_of_mask(mask_of(cards))
    ]
    assert len(least) == 2
    arrangement = best_melds(cards)
    assert arrangement.deadwood == 10
    assert set(arrangement.melds) == {parse_cards("5s 5h 5d"), parse_cards("9c Tc Jc Qc Kc")}
    assert arrangement.unmatched == parse_cards("4h 6h")
    # and it is what a knock shows by default: the defender's 3h and 7h stay dead
    score = score_hand(cards, parse_cards("3h 7h 2s 3s 4s Ks Kd Qd 8d 8s"), rules=Rules())
    assert parse_cards("5s 5h 5d") in score.knocker_melds
    assert score.layoffs == ()


def test_R8_1_knocker_shows_a_run_whose_ends_he_holds() -> None:
    # 5h in 5s5h5d exposes 5c; in 4h5h6h it would expose 3h and 7h, but the knocker holds
    # both (in his sets of threes and sevens), so the run exposes nothing outside his hand.
    cards = parse_cards("3h 3s 3d 4h 5h 6h 5s 5d 7h 7s 7d")
    mask = mask_of(cards)
    chosen = {frozenset(cards_from_mask(m)) for m in arrangement_of_mask(mask)}
    assert frozenset(parse_cards("4h 5h 6h")) in chosen


# -- checked melds -------------------------------------------------------------------


def test_checked_melds_reject_non_melds_and_foreign_cards() -> None:
    hand = mask_of(parse_cards("5s 6s 7s 9h 9d 9c Tc Jc Qc 3d"))
    assert len(checked_melds_of_mask(hand, [parse_cards("5s 6s 7s")])) == 1
    with pytest.raises(MeldError, match="not a meld"):
        checked_melds_of_mask(hand, [parse_cards("5s 6s 3d")])
    with pytest.raises(MeldError, match="not a meld"):
        checked_melds_of_mask(hand, [()])
    with pytest.raises(MeldError, match="9s"):
        checked_melds_of_mask(hand, [parse_cards("9h 9d 9s")])
    with pytest.raises(MeldError, match="two melds"):
        checked_melds_of_mask(hand, [parse_cards("9h 9d 9c"), parse_cards("9c Tc Jc")])


@given(dense_hands(3, 11))
def test_is_meld_agrees_on_every_subset_of_a_dense_hand(cards: tuple[Card, ...]) -> None:
    for sub in combinations(cards[:7], 3):
        assert is_meld(sub) == bf_is_meld(sub)


def test_the_r8_1_walk_leaves_no_garbage_for_the_cyclic_collector() -> None:
    """Every call's frames are freed by reference counting: a server walks an arrangement
    for every move it shows, and cyclic garbage lengthened its collector's pauses."""
    import gc
    import random

    rng = random.Random(5)
    hands = [rng.sample(CARDS, 10) for _ in range(300)] + [parse_cards(
        "Ac 2c 3c 4c 5c 5d 5h 5s 6s 7s"), parse_cards("As Ah Ad 2s 2h 2d 3s 3h 3d 4c")]
    gc.collect()
    gc.disable()
    try:
        for cards in hands:
            best_melds(cards)
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0
