"""The exact meld solver (the rule book §2, R5.3, R5.4, R8.1), on 52-bit hand masks.

Least deadwood is computed the fast way: a table holds, for every 13-bit suit
block, the least deadwood using runs only; sets are then chosen only for ranks
held three or four times (a handful of choices), and for each choice the four
suit blocks are looked up.  Everything here is pure and stateless; functions
named ``*_of_mask`` are the unchecked fast path used by the engine and bots.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product

from .cards import Card, cards_from_mask, mask_of
from .errors import HollywoodGinError
from .frozen import frozen_maker
from .i18n import _

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
    "discard_choices",
    "gin_discards",
    "is_meld",
    "knock_discards",
    "layoff_cards_of_masks",
    "layoffs_from_masks",
    "least_deadwood_discard_of_mask",
    "least_discards_of_mask",
    "meld_kind",
    "melds_in_mask",
    "points_of_mask",
]

_BLOCK = 0x1FFF
_SHIFTS = (0, 13, 26, 39)


class MeldError(HollywoodGinError):
    """Cards offered as melds do not form legal, disjoint melds of the hand."""


def _build_tables() -> tuple[list[int], list[int]]:
    """Both tables by doubling, one card (bit) at a time: a block's highest card is
    deadwood or the top of a run (R2.2), and a run ending there leaves the cards below
    it to the smaller table.  (A few milliseconds: it runs at every start-up.)"""
    points = [0]
    runs = [0]
    for k in range(13):
        value = min(k + 1, 10)
        points += [p + value for p in points]
        low = runs  # the blocks without card k
        high = [r + value for r in low]  # card k left as deadwood ...
        for length in range(3, k + 2):  # ... or the top of a run of ``length`` cards
            under = ((1 << (length - 1)) - 1) << (k - length + 1)  # the run below card k
            free = ((1 << k) - 1) & ~under
            sub = free
            while True:  # every block holding the whole run: its other cards are ``sub``
                if low[sub] < high[sub | under]:
                    high[sub | under] = low[sub]
                if not sub:
                    break
                sub = (sub - 1) & free
        runs = low + high
    return runs, points


_RUN_DEADWOOD, _BLOCK_POINTS = _build_tables()


def points_of_mask(mask: int) -> int:
    """The summed card values (R1.3) of a mask."""
    p = _BLOCK_POINTS
    return p[mask & _BLOCK] + p[mask >> 13 & _BLOCK] + p[mask >> 26 & _BLOCK] + p[mask >> 39]


def deadwood_of_mask(mask: int) -> int:
    """Least deadwood (R2.4) of any hand mask; exact."""
    runs = _RUN_DEADWOOD
    s0 = mask & _BLOCK
    s1 = mask >> 13 & _BLOCK
    s2 = mask >> 26 & _BLOCK
    s3 = mask >> 39
    pair01 = s0 & s1
    pair23 = s2 & s3
    ranks = (pair01 & (s2 | s3)) | (pair23 & (s0 | s1))  # ranks held three or four times
    if not ranks:
        return runs[s0] + runs[s1] + runs[s2] + runs[s3]
    if ranks & (ranks - 1):
        return _deadwood_with_sets(ranks, s0, s1, s2, s3)
    # One such rank, the usual case, solved in line (as the last rank of the recursion).
    keep = ~ranks
    a0, a1, a2, a3 = runs[s0], runs[s1], runs[s2], runs[s3]
    b0, b1, b2, b3 = runs[s0 & keep], runs[s1 & keep], runs[s2 & keep], runs[s3 & keep]
    without = a0 + a1 + a2 + a3
    with_set = b0 + b1 + b2 + b3
    if pair01 & pair23:  # held four times: a set of three may keep one suit's card for a run
        with_set += min(0, a0 - b0, a1 - b1, a2 - b2, a3 - b3)
    return without if without < with_set else with_set


#: For each 13-bit suit block, each card of it (its rank, 0 for an ace) with the runs-only
#: deadwood of the block without it; filled as blocks are met.
_DROPS: dict[int, tuple[tuple[int, int], ...]] = {0: ()}


def _drops(block: int) -> tuple[tuple[int, int], ...]:
    runs = _RUN_DEADWOOD
    found = _DROPS[block] = tuple(
        (rank, runs[block ^ 1 << rank]) for rank in range(13) if block >> rank & 1
    )
    return found


def deadwoods_after_discards_of_mask(mask: int) -> list[int]:
    """The least deadwood (R2.4) left by discarding each card of ``mask``, by card index
    (1000 for cards not in the mask): :func:`deadwood_of_mask` of every ``mask`` less one
    card, in one pass.

    As in :func:`least_deadwood_discard_of_mask`, the set choices are enumerated once:
    the hand left by a discard has exactly the choices of the whole hand that leave that
    card free for runs, and within a choice only the discarded card's block changes.
    """
    runs = _RUN_DEADWOOD
    drops = _DROPS
    out = [1000] * 52
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not ranks:
        whole = runs[s0] + runs[s1] + runs[s2] + runs[s3]
        for shift, block in ((0, s0), (13, s1), (26, s2), (39, s3)):
            if block:
                others = whole - runs[block]
                try:
                    cards = drops[block]
                except KeyError:
                    cards = _drops(block)
                for rank, left in cards:
                    out[shift + rank] = others + left
        return out
    choices = [(s0, s1, s2, s3)]
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        keep = ~bit
        four = s0 & s1 & s2 & s3 & bit
        grown = []
        for c0, c1, c2, c3 in choices:
            d0, d1, d2, d3 = c0 & keep, c1 & keep, c2 & keep, c3 & keep
            grown.append((c0, c1, c2, c3))
            grown.append((d0, d1, d2, d3))
            if four:
                grown += [(c0, d1, d2, d3), (d0, c1, d2, d3), (d0, d1, c2, d3), (d0, d1, d2, c3)]
        choices = grown
    for blocks in choices:
        whole = runs[blocks[0]] + runs[blocks[1]] + runs[blocks[2]] + runs[blocks[3]]
        for k in range(4):
            block = blocks[k]
            if not block:
                continue
            others = whole - runs[block]
            try:
                cards = drops[block]
            except KeyError:
                cards = _drops(block)
            shift = _SHIFTS[k]
            for rank, left in cards:
                i = shift + rank
                d = others + left
                if d < out[i]:
                    out[i] = d
    return out


#: For each 13-bit suit block: the least change of its runs-only deadwood when one of its
#: cards goes, and the ranks (a 13-bit mask) whose going gives that change.
_LEAST_DROP: dict[int, tuple[int, int]] = {}


def _least_drop(block: int, cards: int) -> tuple[int, int]:
    """(least change, ranks giving it) of the runs-only deadwood of ``block`` when one of
    ``cards`` (a non-empty part of it) goes."""
    runs = _RUN_DEADWOOD
    here = runs[block]
    least, at = 1000, 0
    m = cards
    while m:
        bit = m & -m
        m ^= bit
        change = runs[block ^ bit] - here
        if change < least:
            least, at = change, bit
        elif change == least:
            at |= bit
    if cards == block:
        _LEAST_DROP[block] = (least, at)
    return least, at


def least_discards_of_mask(mask: int, candidates: int) -> tuple[int, int]:
    """(least deadwood, the candidates leaving it) of discarding one card of ``candidates``
    (cards of ``mask``) from ``mask``; (1000, 0) if there is no candidate.

    The same answer as :func:`deadwood_of_mask` of every ``mask`` less one candidate, but
    a card's discard changes only its suit block (within each choice of sets, as in
    :func:`deadwoods_after_discards_of_mask`), so a block whose every card may go is one
    table look-up, whatever its size: the least change of that block and where it is
    (a block with cards barred keeps it when one card giving it may go).
    """
    runs = _RUN_DEADWOOD
    table = _LEAST_DROP
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    choices = [(s0, s1, s2, s3)]
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        keep = ~bit
        four = s0 & s1 & s2 & s3 & bit
        grown = []
        for b0, b1, b2, b3 in choices:
            d0, d1, d2, d3 = b0 & keep, b1 & keep, b2 & keep, b3 & keep
            grown.append((b0, b1, b2, b3))
            grown.append((d0, d1, d2, d3))
            if four:
                grown += [(b0, d1, d2, d3), (d0, b1, d2, d3), (d0, d1, b2, d3), (d0, d1, d2, b3)]
        choices = grown
    c0, c1, c2, c3 = (candidates & _BLOCK, candidates >> 13 & _BLOCK, candidates >> 26 & _BLOCK,
                      candidates >> 39)
    best, at = 1000, 0
    # The four blocks written out: this is the inner loop of every basic decision.
    for b0, b1, b2, b3 in choices:
        whole = runs[b0] + runs[b1] + runs[b2] + runs[b3]
        cards = c0 & b0
        if cards:
            change, where = table.get(b0) or _least_drop(b0, b0)
            if cards != b0 and not where & cards:
                change, where = _least_drop(b0, cards)
            where &= cards
            value = whole + change
            if value < best:
                best, at = value, where
            elif value == best:
                at |= where
        cards = c1 & b1
        if cards:
            change, where = table.get(b1) or _least_drop(b1, b1)
            if cards != b1 and not where & cards:
                change, where = _least_drop(b1, cards)
            where &= cards
            value = whole + change
            if value < best:
                best, at = value, where << 13
            elif value == best:
                at |= where << 13
        cards = c2 & b2
        if cards:
            change, where = table.get(b2) or _least_drop(b2, b2)
            if cards != b2 and not where & cards:
                change, where = _least_drop(b2, cards)
            where &= cards
            value = whole + change
            if value < best:
                best, at = value, where << 26
            elif value == best:
                at |= where << 26
        cards = c3 & b3
        if cards:
            change, where = table.get(b3) or _least_drop(b3, b3)
            if cards != b3 and not where & cards:
                change, where = _least_drop(b3, cards)
            where &= cards
            value = whole + change
            if value < best:
                best, at = value, where << 39
            elif value == best:
                at |= where << 39
    return best, at


def least_deadwood_discard_of_mask(mask: int, allowed: int) -> tuple[int, int]:
    """(card index, deadwood left) of the discard from ``allowed`` that leaves the least
    deadwood; on ties the card worth more points, then the lower index; (-1, 1000) if
    ``allowed`` is empty.

    The hot loop of every playout: :func:`least_discards_of_mask` finds the least and
    the cards leaving it (a table look-up a suit block), then the tie-break.
    """
    best, at = least_discards_of_mask(mask, allowed & mask)
    if not at & (at - 1):  # one card (or none: -1, 1000)
        return at.bit_length() - 1, best
    points = _CARD_POINTS
    best_i, best_p = -1, -1
    while at:  # lowest index first: only a card worth more replaces the one kept
        bit = at & -at
        at ^= bit
        i = bit.bit_length() - 1
        if points[i] > best_p:
            best_i, best_p = i, points[i]
    return best_i, best


def _deadwood_with_sets(ranks: int, s0: int, s1: int, s2: int, s3: int) -> int:
    """Least deadwood when ``ranks`` (a 13-bit mask) are held three or four times.

    For each such rank a set is taken or not; a rank held four times may also
    give a set of three and free one card for a run.  The last rank is solved
    in closed form from the four suit-table lookups with and without it.
    """
    bit = ranks & -ranks
    rest = ranks ^ bit
    keep = ~bit
    c0, c1, c2, c3 = s0 & keep, s1 & keep, s2 & keep, s3 & keep
    four = s0 & s1 & s2 & s3 & bit
    if rest:
        f = _deadwood_with_sets
        best = min(f(rest, s0, s1, s2, s3), f(rest, c0, c1, c2, c3))
        if four:
            best = min(best, f(rest, s0, c1, c2, c3), f(rest, c0, s1, c2, c3),
                       f(rest, c0, c1, s2, c3), f(rest, c0, c1, c2, s3))
        return best
    runs = _RUN_DEADWOOD
    a0, a1, a2, a3 = runs[s0], runs[s1], runs[s2], runs[s3]
    b0, b1, b2, b3 = runs[c0], runs[c1], runs[c2], runs[c3]
    without = a0 + a1 + a2 + a3
    with_set = b0 + b1 + b2 + b3
    if four:  # a set of three keeping one suit's card for its run
        with_set += min(0, a0 - b0, a1 - b1, a2 - b2, a3 - b3)
    return without if without < with_set else with_set


def deadwood(cards: Iterable[Card]) -> int:
    """Least deadwood (R2.4) of some cards (a repeated card counts once).

    The public entry point most callers use with whole hands, so it is
    :func:`deadwood_of_mask` written out again after the cards' stored bits are
    combined: for ten or eleven cards the bits are read without a loop.
    """
    try:
        n = len(cards)  # type: ignore[arg-type]
    except TypeError:
        n = -1
    try:
        if n == 10:
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
            mask = (c0.bit | c1.bit | c2.bit | c3.bit | c4.bit | c5.bit | c6.bit | c7.bit
                    | c8.bit | c9.bit)
        elif n == 11:
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 = cards
            mask = (c0.bit | c1.bit | c2.bit | c3.bit | c4.bit | c5.bit | c6.bit | c7.bit
                    | c8.bit | c9.bit | c10.bit)
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
        cards = tuple(cards)
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


def _is_set(meld: int) -> bool:
    """True if a legal meld's mask is a set (R2.1): its lowest and highest cards share a
    rank, which no run's do (R2.2)."""
    return (meld & -meld).bit_length() % 13 == meld.bit_length() % 13


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


_CARD_POINTS = tuple(min(i % 13 + 1, 10) for i in range(52))
_RANK_MASK = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


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


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand laid out as melds and unmatched cards."""

    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]
    deadwood: int

    @classmethod
    def of_masks(cls, hand: int, melds: tuple[int, ...]) -> Arrangement:
        covered = 0
        for meld in melds:
            covered |= meld
        rest = hand & ~covered
        make = _make_arrangement if cls is Arrangement else cls
        return make(
            melds=tuple([cards_from_mask(m) for m in melds]),
            unmatched=cards_from_mask(rest),
            deadwood=points_of_mask(rest),
        )


_make_arrangement = frozen_maker(Arrangement)


def best_melds(cards: Iterable[Card]) -> Arrangement:
    """The least-deadwood arrangement of a hand (at most 11 cards); among equals the one
    of R8.1."""
    mask = _checked_mask(cards, MAX_ARRANGED_CARDS)
    return Arrangement.of_masks(mask, arrangement_of_mask(mask))


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


def knock_discards(cards: Iterable[Card], knock_limit: int = 10) -> tuple[Card, ...]:
    """The discards after which the hand may knock (R5.1)."""
    return tuple(c.card for c in discard_choices(cards) if c.deadwood <= knock_limit)


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


def defender_layout_of_masks(
    knocker_melds: tuple[int, ...], knocker: int, defender: int
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The defender's optimum over own melds and lay-offs together (R5.3, R5.4).

    Returns his least deadwood and the lay-offs as ``(card_mask, meld_mask)``
    pairs; among equal results, the fewest cards laid off, then onto the fewest
    melds (so chained lay-offs stay together on one run, as in R5.9).
    """
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
    out = [make(card, cards_from_mask(meld))
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
