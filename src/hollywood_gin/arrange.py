"""The arrangement a knocker shows (R8.1), on 52-bit hand masks: least deadwood, then fewest
cards exposed to lay-offs, then fewest melds, then the first in canonical order."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from .solve import _BLOCK, _CARD_POINTS, _RANK_MASK, deadwood_of_mask, points_of_mask

__all__ = ["arrangement_of_mask", "arrangements_of_mask"]


def _exposure(melds: tuple[int, ...], hand: int) -> int:
    """How many cards outside the hand could be laid off directly on these melds (R8.1)."""
    exposed = 0
    for meld in melds:
        low = (meld & -meld).bit_length() - 1
        high = meld.bit_length() - 1
        if low % 13 == high % 13:  # a set
            if meld.bit_count() == 3:
                exposed |= _RANK_MASK[low % 13] & ~meld
        else:
            if low % 13 > 0:
                exposed |= 1 << (low - 1)
            if high % 13 < 12:
                exposed |= 1 << (high + 1)
    return (exposed & ~hand).bit_count()


#: For each 13-bit suit block, its least arrangements of runs alone (their masks within
#: the block), filled as blocks are met: at most 8,192 entries.
_BLOCK_ARRANGEMENTS: dict[int, list[tuple[int, ...]]] = {0: [()]}


def _least_arrangements(mask: int) -> list[tuple[int, ...]]:
    """Every arrangement of disjoint melds leaving the least deadwood, each as its melds
    in the order of their lowest cards.

    With no rank held three times no set is possible (R2.1) and the suits are apart: the
    arrangements are those of each suit's runs, put together, and a suit's are kept.
    """
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    if s0 & s1 & (s2 | s3) or s2 & s3 & (s0 | s1) or mask >> 52:
        return _walk_arrangements(mask)
    table = _BLOCK_ARRANGEMENTS
    melds: list[int] = []
    several = []
    for shift, block in ((0, s0), (13, s1), (26, s2), (39, s3)):
        found = table.get(block)
        if found is None:
            found = table[block] = _walk_arrangements(block)
        if len(found) == 1:
            melds += [meld << shift for meld in found[0]]
        else:
            several.append([tuple(meld << shift for meld in way) for way in found])
    if not several:
        return [tuple(sorted(melds))]
    return [tuple(sorted(melds + [m for way in ways for m in way])) for ways in product(*several)]


def _walk_arrangements(mask: int) -> list[tuple[int, ...]]:
    """Every least arrangement of ``mask``, by a walk over its cards from the lowest.

    The lowest card left is either deadwood or the lowest card of a meld (a run starting
    at it, or a set with cards of its rank in higher suits); a choice is followed only if
    the exact least deadwood of what is left still reaches the hand's least, so only the
    least arrangements are ever walked, not every set of disjoint melds.
    """
    target = deadwood_of_mask(mask)
    if target == points_of_mask(mask):  # every meld would lower the deadwood: none is used
        return [()]
    found: list[tuple[int, ...]] = []
    _walk(mask, 0, target, [], found)
    return found


def _walk(rest: int, dead: int, target: int, chosen: list[int],
          found: list[tuple[int, ...]]) -> None:
    """One step of :func:`_walk_arrangements` (a module function, not a closure: a
    recursive closure is a reference cycle, garbage for the cyclic collector at every
    call, and a server walks an arrangement for every move it shows)."""
    least, points = deadwood_of_mask, _CARD_POINTS
    while True:
        if dead + points_of_mask(rest) == target:  # nothing left melds: all deadwood
            found.append(tuple(chosen))
            return
        low = rest & -rest
        i = low.bit_length() - 1
        rank = i % 13
        same = [1 << k for k in range(i + 13, 52, 13) if rest >> k & 1]  # its rank, above
        if len(same) >= 2 or (rank < 11 and rest >> (i + 1) & rest >> (i + 2) & 1):
            break
        rest ^= low  # the card melds with nothing left: deadwood in every arrangement
        dead += points[i]
    after = rest ^ low
    if dead + points[i] + least(after) == target:  # the card stays deadwood
        _walk(after, dead + points[i], target, chosen, found)
    melds = []
    run, top = low, i
    while top % 13 < 12 and rest >> (top + 1) & 1:  # runs starting at the card
        top += 1
        run |= 1 << top
        if top - i >= 2:
            melds.append(run)
    if len(same) >= 2:  # sets of its rank
        for a in range(len(same)):
            for b in range(a + 1, len(same)):
                melds.append(low | same[a] | same[b])
        if len(same) == 3:
            melds.append(low | same[0] | same[1] | same[2])
    for meld in melds:  # each meld the card can start, if the least deadwood still holds
        left = rest ^ meld
        if dead + least(left) == target:
            chosen.append(meld)
            _walk(left, dead, target, chosen, found)
            chosen.pop()


def arrangements_of_mask(mask: int) -> Iterator[tuple[int, ...]]:
    """Every arrangement of disjoint melds leaving the least deadwood (as meld masks, in
    the order of their lowest cards).  They come in a fixed order: by the melds they
    use, bigger melds first, then lower masks."""
    found = _least_arrangements(mask)
    found.sort(key=lambda melds: sorted((-m.bit_count(), m) for m in melds))
    yield from found


def arrangement_of_mask(mask: int) -> tuple[int, ...]:
    """The arrangement a knocker shows by default (R8.1): least deadwood, then fewest cards
    exposed to lay-offs, then fewest melds, then the first in canonical order."""
    found = _least_arrangements(mask)
    if len(found) == 1:
        return found[0]
    return min(found, key=lambda melds: (_exposure(melds, mask), len(melds), sorted(melds)))
