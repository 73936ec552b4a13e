"""Shared Hypothesis strategies and deck builders for the core tests.

Hands are tuples of :class:`Card`.  ``hands`` draws any cards; ``dense_hands``
draws from a few ranks or long runs, where melds overlap and the solver has
real choices to make; ``knock_deals`` builds a knocker's hand that may knock
and a defender's hand full of cards that could be laid off.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from hypothesis import strategies as st

from hollywood_gin.cards import CARDS, FULL_DECK_MASK, Card, Rank, Suit, cards_from_mask, mask_of
from hollywood_gin.melds import deadwood, melds_in_mask

#: Tests that set their own ``max_examples`` scale them by this under ``thorough``.
_SCALE = 20 if os.environ.get("HG_HYPOTHESIS_PROFILE") == "thorough" else 1


def examples(n: int) -> int:
    """A test's example count, scaled up by the ``thorough`` profile."""
    return n * _SCALE

Cards = tuple[Card, ...]


def card(rank: int, suit: int) -> Card:
    return Card(Rank(rank), Suit(suit))


def hands(min_size: int = 0, max_size: int = 11) -> st.SearchStrategy[Cards]:
    """Any distinct cards, ``min_size`` to ``max_size`` of them."""
    return st.lists(
        st.sampled_from(CARDS), min_size=min_size, max_size=max_size, unique=True
    ).map(tuple)


@st.composite
def _dense_pool(draw: st.DrawFn) -> list[Card]:
    kind = draw(st.sampled_from(["ranks", "runs", "mixed"]))
    if kind == "ranks":  # a few neighbouring ranks in every suit: sets and short runs
        low = draw(st.integers(1, 11))
        width = draw(st.integers(3, 4))
        return [c for c in CARDS if low <= c.rank < low + width]
    if kind == "runs":  # long stretches of one or two suits
        suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=2))
        low = draw(st.integers(1, 8))
        high = draw(st.integers(low + 5, 13))
        return [c for c in CARDS if c.suit in suits and low <= c.rank <= high]
    low = draw(st.integers(1, 11))  # three ranks in all suits, crossed by a long run
    suit = draw(st.sampled_from(list(Suit)))
    pool = [c for c in CARDS if low <= c.rank <= low + 2]
    pool += [c for c in CARDS if c.suit == suit and low - 3 <= c.rank <= low + 5 and c not in pool]
    return pool


@st.composite
def dense_hands(draw: st.DrawFn, min_size: int = 0, max_size: int = 11) -> Cards:
    """Meld-dense hands: cards drawn from few ranks or long runs (topped up if needed)."""
    n = draw(st.integers(min_size, max_size))
    pool = draw(_dense_pool())
    if len(pool) < n:
        rest = [c for c in CARDS if c not in pool]
        pool += draw(st.permutations(rest))[: n - len(pool)]
    return tuple(draw(st.permutations(pool))[:n])


def any_hands(min_size: int = 0, max_size: int = 11) -> st.SearchStrategy[Cards]:
    """Random and meld-dense hands, half and half."""
    return st.one_of(hands(min_size, max_size), dense_hands(min_size, max_size))


@st.composite
def _meld(draw: st.DrawFn, used: frozenset[Card]) -> tuple[Card, ...]:
    """A set or a run (of at most six) of cards not in ``used``; () if there is none."""
    free = FULL_DECK_MASK & ~mask_of(used)
    melds = [m for m in melds_in_mask(free) if m.bit_count() <= 6]
    if not melds:
        return ()
    return cards_from_mask(draw(st.sampled_from(melds)))


@st.composite
def _melds(draw: st.DrawFn, size: int, used: frozenset[Card]) -> list[Card]:
    """Some disjoint melds avoiding ``used``, at most ``size`` cards in all."""
    cards: list[Card] = []
    target = draw(st.integers(max(0, size - 4), size))
    for _ in range(8):
        if len(cards) >= target:
            break
        meld = draw(_meld(used | frozenset(cards)))
        if len(cards) + len(meld) <= size:
            cards += meld
    return cards


@st.composite
def knock_deals(draw: st.DrawFn, limit: int = 10, size: int = 10) -> tuple[Cards, Cards]:
    """(knocker, defender): a knocker's ``size`` cards with deadwood at most ``limit``,
    and ten defender cards, often with melds of his own and cards near the knocker's
    melds, so that lay-offs and undercuts happen."""
    knocker = draw(_melds(size, frozenset()))
    low = [c for c in CARDS if c.points <= max(limit, 1) and c not in knocker]
    for c in draw(st.permutations(low)):
        if len(knocker) == size:
            break
        if deadwood([*knocker, c]) <= limit:
            knocker.append(c)
    if len(knocker) < size:  # rare: fall back to a fixed knockable hand
        knocker = [card(r, 0) for r in range(1, size + 1)]
    defender = draw(_melds(draw(st.integers(0, 10)), frozenset(knocker)))
    near = {
        card(r, c.suit) for c in knocker for r in (c.rank - 2, c.rank - 1, c.rank + 1, c.rank + 2)
        if 1 <= r <= 13
    } | {card(c.rank, s) for c in knocker for s in range(4)}
    near_free = sorted(near - set(knocker) - set(defender))
    defender += draw(st.permutations(near_free))[: draw(st.integers(0, 10 - len(defender)))]
    rest = [c for c in CARDS if c not in knocker and c not in defender]
    defender += draw(st.permutations(rest))[: 10 - len(defender)]
    return tuple(knocker), tuple(defender)


def make_deck(
    non_dealer: Sequence[Card],
    dealer: Sequence[Card],
    upcard: Card,
    stock: Iterable[Card] = (),
) -> list[Card]:
    """A deck order dealing these hands and upcard, the stock starting with ``stock``
    (top first) and going on with the unused cards in canonical order."""
    deck: list[Card] = []
    for a, b in zip(non_dealer, dealer, strict=True):
        deck += [a, b]
    deck.append(upcard)
    deck += stock
    deck += [c for c in CARDS if c not in deck]
    assert len(deck) == 52 and len(set(deck)) == 52
    return deck
