"""Melds with cards: the public API of the solver (the rule book §2, R5.3, R5.4, R8.1).

The work is done on 52-bit hand masks by :mod:`.solve` (least deadwood, discards) and
:mod:`.arrange` (the arrangement of R8.1); this module reads cards, checks them, and makes
the results.  Its ``*_of_mask`` names are re-exported from there: the unchecked fast path
used by the engine and bots.

Where the optional C module ``_speedups`` was compiled, :func:`deadwood` and
:func:`best_melds` are its functions: the same answers, faster (issue 16); the pure ones
stay as ``pure_deadwood`` and ``pure_best_melds``, the source of truth and its fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import product
from typing import Any

from .arrange import (
    _BEST_RUNS,
    _NEAR,
    _near,
    _with_one_set,
    arrangement_of_mask,
    arrangement_with_sets,
    arrangements_of_mask,
)
from .cards import Card, as_whole_number, cards_from_mask, mask_of
from .errors import HollywoodGinError
from .frozen import LATER, frozen_maker, made_when_read
from .i18n import _
from .solve import (
    _BLOCK,
    _RANK_MASK,
    _RUN_DEADWOOD,
    _SHIFTS,
    _deadwood_with_sets,
    _is_set,
    deadwood_of_mask,
    deadwoods_after_discards_of_mask,
    least_deadwood_discard_of_mask,
    least_discards_of_mask,
    meld_gains_of_mask,
    points_of_mask,
)

try:
    from ._speedups import arrangement_melds as _c_arrangement_melds
    from ._speedups import arrangement_unmatched as _c_arrangement_unmatched
    from ._speedups import best_melds as _c_best_melds
    from ._speedups import deadwood as _c_deadwood
    from ._speedups import setup_melds as _setup_melds
except ImportError:  # not compiled (no compiler at install): the pure-Python path alone
    _setup_melds = None  # type: ignore[assignment]

__all__ = [
    "MAX_ARRANGED_CARDS",
    "MAX_SOLVED_CARDS",
    "Arrangement",
    "DiscardChoice",
    "Layoff",
    "MeldError",
    "arrangement_of_mask",
    "arrangements_of_mask",
    "best_discards",
    "best_melds",
    "cards_mask",
    "checked_melds_of_mask",
    "deadwood",
    "deadwood_of_mask",
    "deadwoods_after_discards_of_mask",
    "defender_layout_of_masks",
    "defender_layout_of_touched",
    "discard_choices",
    "gin_discards",
    "is_meld",
    "knock_discards",
    "layoff_cards_of_masks",
    "layoffs_from_masks",
    "least_deadwood_discard_of_mask",
    "least_discards_of_mask",
    "meld_gains_of_mask",
    "meld_kind",
    "melds_in_mask",
    "points_of_mask",
    "touched_melds_of_masks",
]


class MeldError(HollywoodGinError):
    """Cards offered as melds do not form legal, disjoint melds of the hand."""


def deadwood(cards: Iterable[Card]) -> int:
    """Least deadwood (R2.4) of some cards (a repeated card counts once).

    The public entry point most callers use with whole hands, so it is
    :func:`deadwood_of_mask` written out again after the cards' stored bits are
    combined: for ten or eleven cards the bits are read without a loop and added (an
    int addition is quicker than an or; ten different bits are ten bits in the sum, a
    repeated card shows as fewer, and is then read again with ors).
    """
    try:
        n = len(cards)  # type: ignore[arg-type]
    except TypeError:
        n = -1
    try:
        if n == 10:
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
            mask = (c0.bit + c1.bit + c2.bit + c3.bit + c4.bit + c5.bit + c6.bit + c7.bit
                    + c8.bit + c9.bit)
            if mask.bit_count() != 10:
                mask = cards_mask(cards)[0]
        elif n == 11:
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 = cards
            mask = (c0.bit + c1.bit + c2.bit + c3.bit + c4.bit + c5.bit + c6.bit + c7.bit
                    + c8.bit + c9.bit + c10.bit)
            if mask.bit_count() != 11:
                mask = cards_mask(cards)[0]
        else:
            mask = cards_mask(cards, MAX_SOLVED_CARDS)[0]
    except AttributeError:
        raise _not_cards(cards) from None
    runs = _RUN_DEADWOOD
    s0 = mask & _BLOCK
    s1 = mask >> 13 & _BLOCK
    s2 = mask >> 26 & _BLOCK
    s3 = mask >> 39
    pair01 = s0 & s1
    pair23 = s2 & s3
    ranks = (pair01 & (s2 | s3)) | (pair23 & (s0 | s1))
    if not ranks:
        return runs[s0] + runs[s1] + runs[s2] + runs[s3]
    if ranks & (ranks - 1):
        return _deadwood_with_sets(ranks, s0, s1, s2, s3)
    keep = ~ranks
    a0, a1, a2, a3 = runs[s0], runs[s1], runs[s2], runs[s3]
    b0, b1, b2, b3 = runs[s0 & keep], runs[s1 & keep], runs[s2 & keep], runs[s3 & keep]
    without = a0 + a1 + a2 + a3
    with_set = b0 + b1 + b2 + b3
    if pair01 & pair23:
        with_set += min(0, a0 - b0, a1 - b1, a2 - b2, a3 - b3)
    return without if without < with_set else with_set


#: The most cards :func:`deadwood` and the discard choices take: the solve tries up to six
#: ways for each rank held four times, so all 52 cards would never end.
MAX_SOLVED_CARDS = 24
#: The most cards :func:`best_melds` takes, a hand after drawing: its R8.1 tie-breaks walk
#: every least arrangement, and big hands have millions.
MAX_ARRANGED_CARDS = 11


def _not_cards(cards: Iterable[object]) -> MeldError:
    """The error for cards that are not all :class:`Card` values (``cards`` re-iterable)."""
    for item in cards:
        if not isinstance(item, Card):
            return MeldError(_("not a card: {item}").format(item=repr(item)))
    return MeldError(_("not cards: {cards}").format(cards=repr(cards)))


def cards_mask(cards: Iterable[Card], limit: int = 52) -> tuple[int, int]:
    """(mask, number of cards given) of some cards: a repeated card shows as a mask with
    fewer bits than cards.  Anything but cards, or more than ``limit`` different cards,
    raises :class:`MeldError`."""
    try:
        n = len(cards)  # type: ignore[arg-type]
    except TypeError:
        try:
            cards = tuple(cards)
        except TypeError:  # None, a number: not cards either
            raise MeldError(_("not cards: {cards}").format(cards=repr(cards)[:40])) from None
        n = len(cards)
    try:
        if n == 10:
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
            return (c0.bit | c1.bit | c2.bit | c3.bit | c4.bit | c5.bit | c6.bit | c7.bit
                    | c8.bit | c9.bit), 10
        mask = 0
        for card in cards:
            mask |= card.bit
    except AttributeError:
        raise _not_cards(cards) from None
    if n > limit and mask.bit_count() > limit:
        raise MeldError(_("at most {limit} different cards, not {n}: the solve would take "
                          "too long").format(limit=limit, n=mask.bit_count()))
    return mask, n


def melds_in_mask(mask: int) -> list[int]:
    """Every legal meld (R2.1, R2.2) inside a mask, as masks: sets of 3 and 4, all runs."""
    found: list[int] = []
    for rank in range(13):
        held = [s * 13 + rank for s in range(4) if mask >> (s * 13 + rank) & 1]
        if len(held) >= 3:
            full = sum(1 << i for i in held)
            if len(held) == 4:
                found.append(full)
                found.extend(full & ~(1 << i) for i in held)
            else:
                found.append(full)
    for shift in _SHIFTS:
        block = mask >> shift & _BLOCK
        for start in range(11):
            run = 0
            for rank in range(start, 13):
                if not block >> rank & 1:
                    break
                run |= 1 << (rank + shift)
                if rank - start >= 2:
                    found.append(run)
    return found


def is_meld(cards: Iterable[Card]) -> bool:
    """True for a set (R2.1) or a run (R2.2)."""
    return meld_kind(cards) is not None


def _meld_kind(mask: int, count: int | None = None) -> str | None:
    n = mask.bit_count()
    if (count is not None and count != n) or n < 3:
        return None
    cards = cards_from_mask(mask)
    if n <= 4 and len({c.rank for c in cards}) == 1:
        return "set"
    if len({c.suit for c in cards}) == 1:
        ranks = [c.rank for c in cards]
        if ranks[-1] - ranks[0] == n - 1:
            return "run"
    return None


@dataclass(frozen=True)
class Arrangement:
    """A hand laid out as melds and unmatched cards.

    Made by the engine from masks, its card tuples are made when first read (most
    callers read the deadwood alone); they are then kept, and the value is the same as
    one made from cards: equal, hashed, shown and pickled alike.
    """

    # ``melds`` and ``unmatched`` are properties over ``_melds`` and ``_unmatched`` (see
    # made_when_read); ``_hand`` and ``_masks`` are what they are made from.
    __slots__ = ("_hand", "_masks", "_melds", "_unmatched", "deadwood")

    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]
    deadwood: int

    def __reduce__(self) -> tuple[type[Arrangement], tuple[object, ...]]:
        return (Arrangement, (self.melds, self.unmatched, self.deadwood))

    @classmethod
    def of_masks(cls, hand: int, melds: tuple[int, ...]) -> Arrangement:
        covered = 0
        for meld in melds:
            covered |= meld
        if cls is Arrangement:
            return _lazy_arrangement(hand, melds, LATER, LATER, points_of_mask(hand & ~covered))
        rest = hand & ~covered
        return cls(melds=tuple([cards_from_mask(m) for m in melds]),
                   unmatched=cards_from_mask(rest), deadwood=points_of_mask(rest))


#: The cards of each meld met (at most the few hundred legal melds).
_MELD_CARDS: dict[int, tuple[Card, ...]] = {}


def _meld_cards(meld: int) -> tuple[Card, ...]:
    """The cards of a meld mask, kept: the card tuples of results are made of them."""
    try:
        return _MELD_CARDS[meld]
    except KeyError:
        found = _MELD_CARDS[meld] = cards_from_mask(meld)
        return found


def _melds_cards(masks: tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    """The cards of each meld mask, as results show them (an arrangement's, a score's)."""
    cards = _MELD_CARDS
    try:
        return tuple([cards[m] for m in masks])
    except KeyError:
        return tuple([_meld_cards(m) for m in masks])


def _unmatched_cards(hand: int, masks: tuple[int, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` in none of the melds ``masks``."""
    for meld in masks:
        hand &= ~meld
    return cards_from_mask(hand)


def _arrangement_melds(arrangement: Any) -> tuple[tuple[Card, ...], ...]:
    return _melds_cards(arrangement._masks)


def _arrangement_unmatched(arrangement: Any) -> tuple[Card, ...]:
    return _unmatched_cards(arrangement._hand, arrangement._masks)


#: How each field made when read is made, in Python (the source of truth; the C path has
#: its own, tests/test_speedups.py holds them equal).
PURE_MAKERS: dict[str, Callable[[Any], object]] = {
    "melds": _arrangement_melds, "unmatched": _arrangement_unmatched}
made_when_read(Arrangement, "melds", _arrangement_melds)
made_when_read(Arrangement, "unmatched", _arrangement_unmatched)
_lazy_arrangement = frozen_maker(Arrangement, *Arrangement.__slots__)


def best_melds(cards: Iterable[Card]) -> Arrangement:
    """The least-deadwood arrangement of a hand (at most 11 cards); among equals the one
    of R8.1.

    Written out like :func:`deadwood` (the bits of ten cards read without a loop, a hand
    with no rank held three times answered from per-suit tables); the card tuples of the
    answer are made when first read.  The solve is a copy of
    :func:`~.arrange.arranged_of_mask`, the source of truth: calling it costs a tenth more a
    call (bench_ab's best_melds x0.87 to x0.94), and tests/test_melds_lazy.py holds the two
    equal.
    """
    try:
        n = len(cards)  # type: ignore[arg-type]
    except TypeError:
        n = -1
    try:
        if n == 10:  # added, as in deadwood: a repeated card shows as fewer bits
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
            mask = (c0.bit + c1.bit + c2.bit + c3.bit + c4.bit + c5.bit + c6.bit + c7.bit
                    + c8.bit + c9.bit)
            if mask.bit_count() != 10:
                raise MeldError(_("a card is given twice"))
        else:
            mask = _checked_mask(cards, MAX_ARRANGED_CARDS)
    except AttributeError:
        raise _not_cards(cards) from None
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    runs = _RUN_DEADWOOD
    if ranks:
        if ranks & (ranks - 1) or s0 & s1 & s2 & s3:
            melds, dead = arrangement_with_sets(mask, ranks)
            return _lazy_arrangement(mask, melds, LATER, LATER, dead)
        # One rank held three times (as in deadwood): its set taken or not, in line.
        keep = ~ranks
        d0, d1, d2, d3 = s0 & keep, s1 & keep, s2 & keep, s3 & keep
        dead = runs[d0] + runs[d1] + runs[d2] + runs[d3]
        if dead < runs[s0] + runs[s1] + runs[s2] + runs[s3]:
            held = mask & _RANK_MASK[ranks.bit_length() - 1]
            return _lazy_arrangement(mask, _with_one_set(mask, d0, d1, d2, d3, held), LATER,
                                     LATER, dead)
        melds, dead = arrangement_with_sets(mask, ranks)
        return _lazy_arrangement(mask, melds, LATER, LATER, dead)
    b0, b1, b2, b3 = _BEST_RUNS
    try:
        melds = b0[s0] + b1[s1] + b2[s2] + b3[s3]
    except KeyError:
        melds = arrangement_of_mask(mask)
    return _lazy_arrangement(mask, melds, LATER, LATER, runs[s0] + runs[s1] + runs[s2] + runs[s3])


def _checked_mask(cards: Iterable[Card], limit: int = MAX_SOLVED_CARDS) -> int:
    mask, n = cards_mask(cards, limit)
    if mask.bit_count() != n:
        raise MeldError(_("a card is given twice"))
    return mask


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """One possible discard from an 11-card hand and the deadwood it leaves."""

    card: Card
    deadwood: int


def discard_choices(cards: Iterable[Card]) -> tuple[DiscardChoice, ...]:
    """Every discard and the least deadwood left, best first (ties in canonical order).

    Every discard is tried: dropping the highest unmatched card of the best
    11-card arrangement is wrong on some hands.
    """
    mask = _checked_mask(cards)
    left = deadwoods_after_discards_of_mask(mask)
    make = _make_choice
    choices = [make(card, left[card.index]) for card in cards_from_mask(mask)]
    choices.sort(key=lambda c: (c.deadwood, c.card.index))
    return tuple(choices)


_make_choice = frozen_maker(DiscardChoice)


def best_discards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The discards that leave the least deadwood."""
    choices = discard_choices(cards)
    if not choices:
        return ()
    return tuple(c.card for c in choices if c.deadwood == choices[0].deadwood)


def checked_knock_limit(knock_limit: object) -> int:
    """A knock limit given beside the rules (Oklahoma's upcard, R5.1): a whole number from
    0 to 10, as the rules' own; a limit of 99 scored a knock of 51 deadwood."""
    limit = as_whole_number(knock_limit)
    if limit is None or not 0 <= limit <= 10:
        raise MeldError(_("the knock limit must be a whole number from 0 to 10, not {limit} "
                          "(R5.1)").format(limit=repr(knock_limit)[:40]))
    return limit


def knock_discards(cards: Iterable[Card], knock_limit: int = 10) -> tuple[Card, ...]:
    """The discards after which the hand may knock (R5.1)."""
    limit = checked_knock_limit(knock_limit)
    return tuple(c.card for c in discard_choices(cards) if c.deadwood <= limit)


def gin_discards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The discards that leave gin (R2.5)."""
    return knock_discards(cards, 0)


@dataclass(frozen=True, slots=True)
class Layoff:
    """A defender's card laid off onto one of the knocker's melds (R5.3)."""

    card: Card
    meld: tuple[Card, ...]


def _layoff_ways(meld: int, defender: int, taken: int) -> list[int]:
    """The masks of defender cards that can go onto one knocker meld, chained along runs."""
    ways = [0]
    if _is_set(meld):
        if meld.bit_count() == 3:
            rank = ((meld & -meld).bit_length() - 1) % 13
            fourth = sum(1 << (s * 13 + rank) for s in range(4)) & ~meld & defender
            if fourth:
                ways.append(fourth)
        return ways
    low = (meld & -meld).bit_length() - 1
    high = meld.bit_length() - 1
    below = [0]
    i, acc = low - 1, 0
    while i >= 0 and i // 13 == low // 13 and defender >> i & 1 and not taken >> i & 1:
        acc |= 1 << i
        below.append(acc)
        i -= 1
    above = [0]
    i, acc = high + 1, 0
    while i < 52 and i // 13 == high // 13 and defender >> i & 1 and not taken >> i & 1:
        acc |= 1 << i
        above.append(acc)
        i += 1
    return [b | a for b in below for a in above]


_make_layoff = frozen_maker(Layoff)


def layoff_cards_of_masks(knocker_melds: tuple[int, ...], defender: int) -> int:
    """Every defender card that could be laid off somewhere (an upper bound, for bots)."""
    out = 0
    for meld in knocker_melds:
        for way in _layoff_ways(meld, defender, 0):
            out |= way
    return out


def touched_melds_of_masks(knocker_melds: tuple[int, ...], knocker: int, defender: int
                           ) -> tuple[int, ...]:
    """The knocker's melds the defender could lay off onto: every lay-off (R5.3) starts
    next to a meld (a run's neighbour in its suit, a set of three's fourth card)."""
    free = defender & ~knocker
    near = _NEAR
    touched = []
    for meld in knocker_melds:
        try:
            beside, fourth = near[meld]
        except KeyError:
            beside, fourth = _near(meld)
        if beside & free or fourth & defender:
            touched.append(meld)
    return tuple(touched)


def defender_layout_of_masks(
    knocker_melds: tuple[int, ...], knocker: int, defender: int
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The defender's optimum over own melds and lay-offs together (R5.3, R5.4).

    Returns his least deadwood and the lay-offs as ``(card_mask, meld_mask)``
    pairs; among equal results, the fewest cards laid off, then onto the fewest
    melds (so chained lay-offs stay together on one run, as in R5.9).  The melds he
    cannot touch are left out of the search at once.
    """
    return defender_layout_of_touched(touched_melds_of_masks(knocker_melds, knocker, defender),
                                      knocker, defender)


def defender_layout_of_touched(
    knocker_melds: tuple[int, ...], knocker: int, defender: int
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """:func:`defender_layout_of_masks` once the melds he could touch are known (those
    :func:`touched_melds_of_masks` gave): a caller that asked need not ask again."""
    if not knocker_melds:
        return deadwood_of_mask(defender), ()
    options = [_layoff_ways(meld, defender, knocker) for meld in knocker_melds]
    best_key = (deadwood_of_mask(defender), 0, 0)
    best: tuple[tuple[int, int], ...] = ()
    for combo in product(*options):
        laid = 0
        clash = False
        for way in combo:
            if laid & way:
                clash = True
                break
            laid |= way
        if clash or not laid:
            continue
        key = (deadwood_of_mask(defender & ~laid), laid.bit_count(), sum(1 for w in combo if w))
        if key < best_key:
            best_key = key
            best = tuple((way, meld) for way, meld in zip(combo, knocker_melds, strict=True) if way)
    return best_key[0], best


def layoffs_from_masks(pairs: tuple[tuple[int, int], ...]) -> tuple[Layoff, ...]:
    """Readable lay-offs, one per card, in canonical order."""
    if not pairs:
        return ()
    make = _make_layoff
    out = [make(card, _meld_cards(meld))
           for way, meld in pairs for card in cards_from_mask(way)]
    out.sort(key=lambda lay: lay.card.index)
    return tuple(out)


def meld_kind(cards: Iterable[Card]) -> str | None:
    """``"set"``, ``"run"`` or None for cards that are no meld."""
    cards = tuple(cards)
    return _meld_kind(mask_of(cards), len(cards))


def checked_melds_of_mask(hand: int, melds: Iterable[Iterable[Card]]) -> tuple[int, ...]:
    """Melds a player offers to show, as masks: each legal, disjoint, and in the hand."""
    out: list[int] = []
    used = 0
    for group in melds:
        cards = tuple(group)
        mask = mask_of(cards)
        text = " ".join(c.text for c in cards)
        if _meld_kind(mask, len(cards)) is None:
            raise MeldError(_("{cards} is not a meld: a set is 3 or 4 cards of one rank (R2.1), "
                              "a run 3 or more in sequence in one suit (R2.2)")
                            .format(cards=text or _("an empty group")))
        if mask & ~hand:
            missing = " ".join(c.text for c in cards_from_mask(mask & ~hand))
            raise MeldError(_("meld {meld} uses {missing}, which the hand does not hold")
                            .format(meld=text, missing=missing))
        if mask & used:
            twice = " ".join(c.text for c in cards_from_mask(mask & used))
            raise MeldError(_("{cards} is used in two melds (R2.3)").format(cards=twice))
        used |= mask
        out.append(mask)
    out.sort(key=lambda m: m & -m)
    return tuple(out)


#: The pure-Python card API: the source of truth, what the C path hands any unusual call to
#: (so errors are the same), and what runs when ``_speedups`` was not compiled.
pure_deadwood, pure_best_melds = deadwood, best_melds
if _setup_melds is not None:  # the same answers in C (tests/test_speedups.py holds them equal)
    _setup_melds(Card, Arrangement, Arrangement.__slots__, _RUN_DEADWOOD, pure_deadwood,
                 pure_best_melds, arrangement_with_sets, LATER)
    deadwood = _c_deadwood
    best_melds = _c_best_melds
    made_when_read(Arrangement, "melds", _c_arrangement_melds)
    made_when_read(Arrangement, "unmatched", _c_arrangement_unmatched)
