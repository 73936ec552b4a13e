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

from .cards import CARDS, Card, cards_from_mask, mask_of
from .errors import HollywoodGinError
from .i18n import _

__all__ = [
    "Arrangement",
    "DiscardChoice",
    "Layoff",
    "MeldError",
    "arrangement_of_mask",
    "arrangements_of_mask",
    "best_discards",
    "best_melds",
    "checked_melds_of_mask",
    "deadwood",
    "deadwood_of_mask",
    "defender_layout_of_masks",
    "discard_choices",
    "gin_discards",
    "is_meld",
    "knock_discards",
    "layoff_cards_of_masks",
    "layoffs_from_masks",
    "least_deadwood_discard_of_mask",
    "meld_kind",
    "melds_in_mask",
    "points_of_mask",
]

_BLOCK = 0x1FFF
_SHIFTS = (0, 13, 26, 39)


class MeldError(HollywoodGinError):
    """Cards offered as melds do not form legal, disjoint melds of the hand."""


def _build_tables() -> tuple[list[int], list[int]]:
    points = [0] * 8192
    for m in range(1, 8192):
        low = (m & -m).bit_length() - 1
        points[m] = points[m & (m - 1)] + min(low + 1, 10)
    runs = [0] * 8192
    for m in range(1, 8192):
        low = (m & -m).bit_length() - 1
        rest = m & (m - 1)
        best = runs[rest] + min(low + 1, 10)  # the lowest card left as deadwood
        # ... or it starts a run (R2.2): a run holding the lowest card must start at it.
        length, run = 1, 1 << low
        while low + length < 13 and m >> (low + length) & 1:
            run |= 1 << (low + length)
            length += 1
            if length >= 3 and runs[m & ~run] < best:
                best = runs[m & ~run]
        runs[m] = best
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
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not ranks:
        return runs[s0] + runs[s1] + runs[s2] + runs[s3]
    return _deadwood_with_sets(ranks, s0, s1, s2, s3)


def least_deadwood_discard_of_mask(mask: int, allowed: int) -> tuple[int, int]:
    """(card index, deadwood left) of the discard from ``allowed`` that leaves the least
    deadwood; on ties the card worth more points, then the lower index; (-1, 1000) if
    ``allowed`` is empty.

    The hot loop of every playout, so the set choices of :func:`deadwood_of_mask` are
    enumerated once for the whole hand, not once per discard: the hand left by a
    discard has exactly the set choices of the whole hand that leave that card free
    for runs, and with the sets fixed only the discarded card's suit block changes.
    """
    runs = _RUN_DEADWOOD
    s0, s1, s2, s3 = mask & _BLOCK, mask >> 13 & _BLOCK, mask >> 26 & _BLOCK, mask >> 39
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
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
            if four:  # a set of three, one suit's card kept for its run
                grown += [(c0, d1, d2, d3), (d0, c1, d2, d3), (d0, d1, c2, d3), (d0, d1, d2, c3)]
        choices = grown
    best_i, best_d, best_p = -1, 1000, -1
    for blocks in choices:
        whole = runs[blocks[0]] + runs[blocks[1]] + runs[blocks[2]] + runs[blocks[3]]
        for k in range(4):
            block = blocks[k]
            cand = allowed >> _SHIFTS[k] & block
            if not cand:
                continue
            others = whole - runs[block]
            while cand:
                bit = cand & -cand
                cand ^= bit
                d = others + runs[block ^ bit]
                if d <= best_d:
                    rank = bit.bit_length()
                    points = rank if rank < 10 else 10
                    i = _SHIFTS[k] + rank - 1
                    if d < best_d or points > best_p or (points == best_p and i < best_i):
                        best_i, best_d, best_p = i, d, points
    return best_i, best_d


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
    """Least deadwood (R2.4) of some cards."""
    return deadwood_of_mask(mask_of(cards))


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


def _exposure(melds: tuple[int, ...], hand: int) -> int:
    """How many cards outside the hand could be laid off directly on these melds (R8.1)."""
    exposed = 0
    for meld in melds:
        if _meld_kind(meld) == "set":
            if meld.bit_count() == 3:
                low = (meld & -meld).bit_length() - 1
                rank = low % 13
                exposed |= sum(1 << (s * 13 + rank) for s in range(4)) & ~meld
        else:
            low = (meld & -meld).bit_length() - 1
            high = meld.bit_length() - 1
            if low % 13 > 0:
                exposed |= 1 << (low - 1)
            if high % 13 < 12:
                exposed |= 1 << (high + 1)
    return (exposed & ~hand).bit_count()


def arrangements_of_mask(mask: int) -> Iterator[tuple[int, ...]]:
    """Every arrangement of disjoint melds leaving the least deadwood (as meld masks)."""
    target = deadwood_of_mask(mask)
    total = points_of_mask(mask)
    melds = melds_in_mask(mask)
    melds.sort(key=lambda m: (-m.bit_count(), m))
    chosen: list[int] = []

    def search(start: int, used: int) -> Iterator[tuple[int, ...]]:
        if total - points_of_mask(used) == target:
            yield tuple(sorted(chosen, key=lambda m: (m & -m)))
        for i in range(start, len(melds)):
            meld = melds[i]
            if not meld & used:
                chosen.append(meld)
                yield from search(i + 1, used | meld)
                chosen.pop()

    yield from search(0, 0)


def arrangement_of_mask(mask: int) -> tuple[int, ...]:
    """The arrangement a knocker shows by default (R8.1): least deadwood, then fewest cards
    exposed to lay-offs, then fewest melds, then the first in canonical order."""
    best: tuple[int, ...] | None = None
    best_key: tuple[int, int, tuple[int, ...]] | None = None
    for melds in arrangements_of_mask(mask):
        key = (_exposure(melds, mask), len(melds), tuple(sorted(melds)))
        if best_key is None or key < best_key:
            best, best_key = melds, key
    assert best is not None
    return best


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
        return cls(
            melds=tuple(cards_from_mask(m) for m in melds),
            unmatched=cards_from_mask(rest),
            deadwood=points_of_mask(rest),
        )


def best_melds(cards: Iterable[Card]) -> Arrangement:
    """The least-deadwood arrangement of any hand; among equals the one of R8.1."""
    mask = _checked_mask(cards)
    return Arrangement.of_masks(mask, arrangement_of_mask(mask))


def _checked_mask(cards: Iterable[Card]) -> int:
    cards = tuple(cards)
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
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
    choices = [
        DiscardChoice(card, deadwood_of_mask(mask & ~card.bit)) for card in cards_from_mask(mask)
    ]
    choices.sort(key=lambda c: (c.deadwood, c.card.index))
    return tuple(choices)


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
    if _meld_kind(meld) == "set":
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
    out = [
        Layoff(CARDS[i], cards_from_mask(meld))
        for way, meld in pairs
        for i in range(52)
        if way >> i & 1
    ]
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
