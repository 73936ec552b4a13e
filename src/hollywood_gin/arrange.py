"""The arrangement a knocker shows (R8.1), on 52-bit hand masks: least deadwood, then fewest
cards exposed to lay-offs, then fewest melds, then the first in canonical order."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from itertools import product

from .solve import (
    _BLOCK,
    _CARD_POINTS,
    _RANK_MASK,
    _RUN_DEADWOOD,
    deadwood_of_mask,
    points_of_mask,
)

__all__ = [
    "arranged_of_mask",
    "arrangement_of_mask",
    "arrangement_with_sets",
    "arrangements_of_mask",
]


#: For each meld met: (a run's neighbours in its suit, a set of three's fourth card).
_NEAR: dict[int, tuple[int, int]] = {}


def _near(meld: int) -> tuple[int, int]:
    """The cards next to a meld, kept in :data:`_NEAR`: a run's neighbours in its suit and
    a set of three's fourth card, where a lay-off (R5.3) could start.  The one source of
    what a meld exposes, for R8.1's tie-break here and the lay-off search of
    :mod:`.melds`."""
    low = meld & -meld
    i = low.bit_length() - 1
    top = meld.bit_length() - 1
    if i % 13 == top % 13:  # a set (R2.1)
        found = (0, _RANK_MASK[i % 13] & ~meld if meld.bit_count() == 3 else 0)
    else:
        found = ((low >> 1 if i % 13 else 0) | (2 << top if top % 13 < 12 else 0), 0)
    _NEAR[meld] = found
    return found


def _exposure(melds: tuple[int, ...], hand: int) -> int:
    """How many cards outside the hand could be laid off directly on these melds (R8.1)."""
    exposed = 0
    near = _NEAR
    for meld in melds:
        try:
            beside, fourth = near[meld]
        except KeyError:
            beside, fourth = _near(meld)
        exposed |= beside | fourth
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
    exposed to lay-offs, then fewest melds, then the first in canonical order.

    :func:`arranged_of_mask` without the deadwood, written out again for the playouts
    (calling it and dropping the deadwood cost a tenth more a call); it is the source of
    truth, and tests/test_melds_lazy.py holds the two equal."""
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if ranks or mask >> 52:
        return arrangement_with_sets(mask, ranks)[0]
    b0, b1, b2, b3 = _BEST_RUNS
    try:
        return b0[s0] + b1[s1] + b2[s2] + b3[s3]
    except KeyError:
        return _best_runs(0, s0) + _best_runs(1, s1) + _best_runs(2, s2) + _best_runs(3, s3)


def arranged_of_mask(mask: int) -> tuple[tuple[int, ...], int]:
    """(:func:`arrangement_of_mask`, :func:`deadwood_of_mask`) of a hand, in one solve."""
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if ranks or mask >> 52:
        return arrangement_with_sets(mask, ranks)
    runs = _RUN_DEADWOOD
    b0, b1, b2, b3 = _BEST_RUNS
    try:
        melds = b0[s0] + b1[s1] + b2[s2] + b3[s3]
    except KeyError:
        melds = _best_runs(0, s0) + _best_runs(1, s1) + _best_runs(2, s2) + _best_runs(3, s3)
    return melds, runs[s0] + runs[s1] + runs[s2] + runs[s3]


#: For each suit, each 13-bit block's runs in the arrangement R8.1 picks (shifted to the
#: suit), filled as blocks are met.  With no rank held three times no set is possible
#: (R2.1) and the suits are apart: a run's exposure (R8.1) is in its own block, so the
#: least exposure, then fewest melds, then the first in canonical order of the whole hand
#: is each suit's own, put together (lower suits' melds are the lower masks).
_BEST_RUNS: tuple[dict[int, tuple[int, ...]], ...] = ({0: ()}, {0: ()}, {0: ()}, {0: ()})
#: For each suit, every least arrangement of each block's runs (shifted to the suit).
_WAYS: tuple[dict[int, tuple[tuple[int, ...], ...]], ...] = (
    {0: ((),)}, {0: ((),)}, {0: ((),)}, {0: ((),)})


def _best_runs(suit: int, block: int) -> tuple[int, ...]:
    found = _BEST_RUNS[suit].get(block)
    if found is None:
        ways = _ways(suit, block)
        shift = 13 * suit
        found = _BEST_RUNS[suit][block] = ways[0] if len(ways) == 1 else min(
            ways, key=lambda melds: (_exposure(melds, block << shift), len(melds), sorted(melds)))
    return found


#: For each suit, each block's one least arrangement of runs (shifted), or None if it has
#: several (R8.1 then weighs their exposure beside the sets').
_SOLE: tuple[dict[int, tuple[int, ...] | None], ...] = ({0: ()}, {0: ()}, {0: ()}, {0: ()})


def _sole(suit: int, block: int) -> tuple[int, ...] | None:
    ways = _ways(suit, block)
    found = _SOLE[suit][block] = ways[0] if len(ways) == 1 else None
    return found


def _with_one_set(mask: int, d0: int, d1: int, d2: int, d3: int, held: int) -> tuple[int, ...]:
    """:func:`_with_runs` of one set (``held``), the usual case, with the runs of each
    block looked up: a block's runs are in the order of their lowest cards, and none
    spans the set's lowest card (it is in the set), so the set goes in by bisection."""
    o0, o1, o2, o3 = _SOLE
    try:
        r0, r1, r2, r3 = o0[d0], o1[d1], o2[d2], o3[d3]
    except KeyError:
        r0, r1, r2, r3 = _sole(0, d0), _sole(1, d1), _sole(2, d2), _sole(3, d3)
    if r0 is None or r1 is None or r2 is None or r3 is None:
        return _with_runs(mask, d0, d1, d2, d3, (held,))
    runs = r0 + r1 + r2 + r3
    if not runs:
        return (held,)
    i = bisect_left(runs, held & -held)
    return (*runs[:i], held, *runs[i:])


def _ways(suit: int, block: int) -> tuple[tuple[int, ...], ...]:
    found = _WAYS[suit].get(block)
    if found is None:
        unshifted = _BLOCK_ARRANGEMENTS.get(block)
        if unshifted is None:
            unshifted = _BLOCK_ARRANGEMENTS[block] = _walk_arrangements(block)
        shift = 13 * suit
        found = _WAYS[suit][block] = tuple(
            [tuple([meld << shift for meld in way]) for way in unshifted])
    return found


def _low(meld: int) -> int:
    return meld & -meld


def _set_exposure(sets: tuple[int, ...], mask: int) -> int:
    """The cards the sets of three expose (their rank's fourth card, not in ``mask``)."""
    exposed = 0
    near = _NEAR
    for meld in sets:
        try:
            exposed |= near[meld][1]
        except KeyError:
            exposed |= _near(meld)[1]
    return exposed & ~mask


def _with_runs(mask: int, c0: int, c1: int, c2: int, c3: int, sets: tuple[int, ...]
               ) -> tuple[int, ...]:
    """The sets chosen with the runs R8.1 picks among the least of each block left
    (``c0`` to ``c3``), in the order of their lowest cards.

    The sets fixed, the cards a set of three exposes are fixed too, and each block's runs
    expose cards of that block alone: the least exposure, then fewest melds, then the
    first in canonical order is each block's own (counted beside the sets' exposure, a
    card exposed twice counting once), put together.
    """
    if not sets:
        b0, b1, b2, b3 = _BEST_RUNS
        try:
            return b0[c0] + b1[c1] + b2[c2] + b3[c3]
        except KeyError:
            return _best_runs(0, c0) + _best_runs(1, c1) + _best_runs(2, c2) + _best_runs(3, c3)
    w = _WAYS
    try:
        w0, w1, w2, w3 = w[0][c0], w[1][c1], w[2][c2], w[3][c3]
    except KeyError:
        w0, w1, w2, w3 = _ways(0, c0), _ways(1, c1), _ways(2, c2), _ways(3, c3)
    if len(w0) == len(w1) == len(w2) == len(w3) == 1:
        melds = sets + w0[0] + w1[0] + w2[0] + w3[0]
    else:
        seen = mask | _set_exposure(sets, mask)  # a card seen here is not exposed again
        melds = sets
        for ways in (w0, w1, w2, w3):
            melds += ways[0] if len(ways) == 1 else min(ways, key=lambda runs: (
                _exposure(runs, seen), len(runs), sorted(runs)))
    return tuple(sorted(melds, key=_low))


def arrangement_with_sets(mask: int, ranks: int) -> tuple[tuple[int, ...], int]:
    """(the R8.1 arrangement, the least deadwood) of a hand holding ``ranks`` (a 13-bit
    mask) three or four times.

    Each such rank gives a set or not; a rank held four times gives a set of four or of
    any three, the fourth card left to its suit's runs.  For each choice the rest is runs
    alone, suit by suit (:func:`_with_runs`); R8.1's order picks among the least choices.
    """
    if mask >> 52:  # not a hand of cards: the walk fails on it as it always has
        found = _least_arrangements(mask)
        best = found[0] if len(found) == 1 else min(found, key=lambda melds: (
            _exposure(melds, mask), len(melds), sorted(melds)))
        covered = 0
        for meld in best:
            covered |= meld
        return best, points_of_mask(mask & ~covered)
    runs = _RUN_DEADWOOD
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    if not ranks & (ranks - 1) and not s0 & s1 & s2 & s3:  # one rank, held three times
        keep = ~ranks
        d0, d1, d2, d3 = s0 & keep, s1 & keep, s2 & keep, s3 & keep
        without = runs[s0] + runs[s1] + runs[s2] + runs[s3]
        with_set = runs[d0] + runs[d1] + runs[d2] + runs[d3]
        if without < with_set:
            return _with_runs(mask, s0, s1, s2, s3, ()), without
        held = mask & _RANK_MASK[ranks.bit_length() - 1]
        if with_set < without:
            return _with_one_set(mask, d0, d1, d2, d3, held), with_set
        return min(_with_runs(mask, s0, s1, s2, s3, ()), _with_runs(mask, d0, d1, d2, d3, (held,)),
                   key=lambda melds: (_exposure(melds, mask), len(melds), sorted(melds))), without
    # Ways a run could use a card: the cards a set leaves deadwood are left out (below).
    free = 0
    for shift, block in ((0, s0), (13, s1), (26, s2), (39, s3)):
        try:
            free |= _IN_RUNS[block] << shift
        except KeyError:
            free |= _in_runs(block) << shift
    options: list[tuple[int, ...]] = []
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        held = mask & _RANK_MASK[bit.bit_length() - 1]
        usable = held & free
        if not usable:  # no run can take a card of it: the set alone can be least
            options.append((held,))
        elif s0 & s1 & s2 & s3 & bit:  # four: a set of three keeps one card for runs ...
            ways = [held]
            while usable:
                card = usable & -usable
                usable ^= card
                ways.append(held ^ card)
            if len(ways) > 2:  # ... or no set (with one usable card, a set of three
                ways.append(0)  # keeping it leaves less: the other three are deadwood)
            options.append(tuple(ways))
        else:
            options.append((held, 0))
    least = 1000
    kept: list[tuple[int, ...]] = []
    for combo in product(*options):
        taken = sum(combo)  # the sets' cards (disjoint)
        rest = mask ^ taken
        dead = (runs[rest & _BLOCK] + runs[rest >> 13 & _BLOCK] + runs[rest >> 26 & _BLOCK]
                + runs[rest >> 39])
        if dead < least:
            least, kept = dead, [combo]
        elif dead == least:
            kept.append(combo)
    found = []
    for combo in kept:
        rest = mask ^ sum(combo)
        found.append(_with_runs(mask, rest & _BLOCK, rest >> 13 & _BLOCK, rest >> 26 & _BLOCK,
                                rest >> 39, tuple([meld for meld in combo if meld])))
    if len(found) == 1:
        return found[0], least
    return min(found, key=lambda melds: (_exposure(melds, mask), len(melds), sorted(melds))), least


#: For each 13-bit suit block, the cards of it some run of it could use (a card with two
#: neighbours above, two below, or one each side), filled as blocks are met.
_IN_RUNS: dict[int, int] = {0: 0}


def _in_runs(block: int) -> int:
    up, down = block >> 1, block << 1
    found = _IN_RUNS[block] = block & ((up & block >> 2) | (down & block << 2) | (up & down))
    return found
