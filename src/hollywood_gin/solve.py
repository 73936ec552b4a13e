"""The least-deadwood solver on 52-bit hand masks (the rule book §2, R2.4): the engine's and
the bots' unchecked fast path, kept apart from the card API of :mod:`.melds`.

A table holds, for every 13-bit suit block, the least deadwood using runs only; sets are
then chosen only for ranks held three or four times (a handful of choices), and for each
choice the four suit blocks are looked up.  Everything here is pure.
"""

from __future__ import annotations

__all__ = [
    "deadwood_of_mask",
    "deadwoods_after_discards_of_mask",
    "least_deadwood_discard_of_mask",
    "least_discards_of_mask",
    "meld_gains_of_mask",
    "points_of_mask",
]

_BLOCK = 0x1FFF
_SHIFTS = (0, 13, 26, 39)


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


#: For each 13-bit suit block, the ranks it lacks whose card would lower its runs-only
#: deadwood by more than the card's own points, with that gain; filled as blocks are met.
_RUN_GAINS: dict[int, tuple[tuple[int, int], ...]] = {}


def _run_gains(block: int) -> tuple[tuple[int, int], ...]:
    runs = _RUN_DEADWOOD
    found = _RUN_GAINS[block] = tuple(
        (rank, gain) for rank in range(13) if not block >> rank & 1
        and (gain := runs[block] + _CARD_POINTS[rank] - runs[block | 1 << rank]) > 0
    )
    return found


def meld_gains_of_mask(mask: int, cards: int) -> list[tuple[int, int]]:
    """(card index, gain) for each card of ``cards`` (none of them in ``mask``) that would
    meld with ``mask``, lowest index first: the gain is the deadwood the card would soak
    up, ``deadwood_of_mask(mask) + its points - deadwood_of_mask(mask | card)``, and
    cards whose gain is 0 are left out.  The greedy heuristic's measure of live cards.

    A card changes only its own suit block's runs within each choice of the sets
    ``mask`` already holds, or, if ``mask`` holds its rank twice, makes a set of that
    rank: with no set held a table of each block's gains, with sets a few look-ups a
    choice, instead of a solve for each card (the fourth card of a set is solved).
    """
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    out: list[tuple[int, int]] = []
    twice = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if ranks:  # sets held: within each choice of them a card changes its own block
        runs = _RUN_DEADWOOD
        choices = _set_choices(s0, s1, s2, s3, ranks)
        wholes = [runs[c[0]] + runs[c[1]] + runs[c[2]] + runs[c[3]] for c in choices]
        whole = min(wholes)
        held = s0 | s1 | s2 | s3  # only a card sharing a rank or a suit within two melds
        for suit, shift, block in ((0, 0, s0), (1, 13, s1), (2, 26, s2), (3, 39, s3)):
            near = (held | block << 1 | block << 2 | block >> 1 | block >> 2) & _BLOCK
            wanted = cards >> shift & near
            if not wanted:
                continue
            # (the other blocks' deadwood, this block) of each choice
            parts = [(w - runs[c[suit]], c[suit]) for w, c in zip(wholes, choices, strict=True)]
            while wanted:
                low = wanted & -wanted
                wanted ^= low
                rank = low.bit_length() - 1
                if ranks >> rank & 1:  # the fourth card of a set: solve
                    with_card = deadwood_of_mask(mask | low << shift)
                else:
                    with_card = 1000
                    for others, here in parts:
                        value = others + runs[here | low]
                        if value < with_card:
                            with_card = value
                    if twice >> rank & 1:  # the third card of a rank: or a new set of it
                        out_r = ~low
                        for c in choices:
                            value = (runs[c[0] & out_r] + runs[c[1] & out_r]
                                     + runs[c[2] & out_r] + runs[c[3] & out_r])
                            if value < with_card:
                                with_card = value
                gain = whole + _CARD_POINTS[rank] - with_card
                if gain > 0:
                    out.append((shift + rank, gain))
        return out
    gains = _RUN_GAINS
    for shift, block in ((0, s0), (13, s1), (26, s2), (39, s3)):
        wanted = cards >> shift & _BLOCK
        if not wanted:
            continue
        try:
            table = gains[block]
        except KeyError:
            table = _run_gains(block)
        for rank, gain in table:
            if wanted >> rank & 1 and not twice >> rank & 1:
                out.append((shift + rank, gain))
    sets = cards & (twice | twice << 13 | twice << 26 | twice << 39)
    if sets:  # the third card of a rank: a run in its block, or a set of the rank
        runs = _RUN_DEADWOOD
        blocks = (s0, s1, s2, s3)
        whole = runs[s0] + runs[s1] + runs[s2] + runs[s3]
        while sets:
            low = sets & -sets
            sets ^= low
            suit, rank = divmod(low.bit_length() - 1, 13)
            here = blocks[suit]
            out_r = ~(1 << rank)
            with_card = min(whole - runs[here] + runs[here | 1 << rank],
                            runs[s0 & out_r] + runs[s1 & out_r] + runs[s2 & out_r]
                            + runs[s3 & out_r])
            gain = whole + _CARD_POINTS[rank] - with_card
            if gain > 0:
                out.append((suit * 13 + rank, gain))
        out.sort()
    return out


def _set_choices(s0: int, s1: int, s2: int, s3: int, ranks: int
                 ) -> list[tuple[int, int, int, int]]:
    """The four suit blocks left for runs by each choice of sets among ``ranks`` (the
    ranks held three or four times): each such rank a set or not, and for four of a
    kind also each set of three keeping one suit's card for a run."""
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
    return choices


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
    for blocks in _set_choices(s0, s1, s2, s3, ranks):
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
    choices = _set_choices(s0, s1, s2, s3, ranks) if ranks else [(s0, s1, s2, s3)]
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

def _is_set(meld: int) -> bool:
    """True if a legal meld's mask is a set (R2.1): its lowest and highest cards share a
    rank, which no run's do (R2.2)."""
    return (meld & -meld).bit_length() % 13 == meld.bit_length() % 13


_CARD_POINTS = tuple(min(i % 13 + 1, 10) for i in range(52))
_RANK_MASK = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
