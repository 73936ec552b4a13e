"""Least deadwood (R2.4) of many hands at once, over NumPy arrays of 52-bit masks.

The same exact method as :func:`hollywood_gin.melds.deadwood_of_mask`, vectorised:
a table gives, for every 13-bit suit block, the least deadwood with runs only; sets
are then chosen only for ranks held three or four times.  Hands are grouped by how
many such ranks they have, and every set choice of a group is one array operation,
so millions of hands take seconds.  Needs NumPy (any of the extras ``rl``,
``openspiel``).
"""

from __future__ import annotations

from itertools import product

from .errors import needs_extra

with needs_extra("hollywood_gin.batch", "rl"):
    import numpy as np
    import numpy.typing as npt

from .melds import deadwood_of_mask

__all__ = ["checked_masks", "deadwood_batch", "discard_deadwood_batch", "masks_from_indices",
           "random_masks"]

MaskArray = npt.NDArray[np.uint64]
IntArray = npt.NDArray[np.int16]

# One suit block holds no set, so the solver's answer on it is the runs-only deadwood.
_RUNS = np.asarray([deadwood_of_mask(m) for m in range(8192)], dtype=np.int16)
_POPCOUNT = np.asarray([bin(m).count("1") for m in range(8192)], dtype=np.int8)
_BLOCK = np.uint64(0x1FFF)
_MAX_COMBOS = 4096  # beyond this many set choices (huge hands) use the scalar solver
# Per rank held four times: no set, all four, or three of them (skipping one suit).
_FOUR_CHOICES = ((0, 0, 0, 0), (1, 1, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0))
_THREE_CHOICES = ((0, 0, 0, 0), (1, 1, 1, 1))  # a missing suit's bit is harmless to remove


def _lowest_bits(x: npt.NDArray[np.int64], count: int) -> list[npt.NDArray[np.int64]]:
    """The ``count`` lowest set bits of each element, lowest first."""
    out = []
    for _ in range(count):
        low = x & -x
        out.append(low)
        x = x ^ low
    return out


_ALL_CARDS = np.uint64((1 << 52) - 1)


def checked_masks(masks: npt.ArrayLike) -> MaskArray:
    """``masks`` as uint64 hand masks, or ValueError: a float, a negative number or a bit
    past the 52 cards is another encoding's mask, which would give wrong answers quietly
    (a 64-bit mask lost its high bits, 1.5 was read as 1)."""
    arr = np.asarray(masks)
    if arr.size == 0 and arr.dtype.kind == "f":  # [] : NumPy's default is float
        arr = arr.astype(np.uint64)
    if arr.dtype.kind not in "iu":  # not bool, float, object or text
        raise ValueError(f"hand masks must be integers, not {arr.dtype} values")
    if arr.dtype.kind == "i" and arr.size and int(arr.min()) < 0:
        raise ValueError(f"hand masks are 0 or more, not {int(arr.min())}")
    out = arr.astype(np.uint64, copy=False)
    if (out > _ALL_CARDS).any():
        at = int(np.flatnonzero(out.reshape(-1) > _ALL_CARDS)[0])
        raise ValueError(f"hand mask {int(out.reshape(-1)[at]):#x} (at {at}) has bits past "
                         "the 52 cards (card index suit * 13 + rank - 1)")
    return out


def deadwood_batch(masks: npt.ArrayLike) -> IntArray:
    """The least deadwood of every hand mask (uint64, card index ``suit * 13 + rank - 1``);
    exact, for hands of any size.  Returns int16 of the same shape."""
    arr = checked_masks(masks)
    flat = arr.reshape(-1)
    blocks = [((flat >> np.uint64(13 * s)) & _BLOCK).astype(np.int64) for s in range(4)]
    s0, s1, s2, s3 = blocks
    runs = _RUNS
    out = (runs[s0] + runs[s1] + runs[s2] + runs[s3]).astype(np.int16)
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    rows = np.flatnonzero(ranks)
    if rows.size:
        four = (s0 & s1 & s2 & s3)[rows]
        three = ranks[rows] & ~four
        k3 = _POPCOUNT[three].astype(np.int64)
        k4 = _POPCOUNT[four].astype(np.int64)
        group = k3 * 16 + k4
        for code in np.unique(group):
            n3, n4 = divmod(int(code), 16)
            pick = np.flatnonzero(group == code)
            sub = rows[pick]
            if 2**n3 * 6**n4 > _MAX_COMBOS:
                out[sub] = [deadwood_of_mask(int(m)) for m in flat[sub]]
                continue
            out[sub] = _with_sets(
                [b[sub] for b in blocks],
                _lowest_bits(three[pick], n3),
                _lowest_bits(four[pick], n4),
            )
    return out.reshape(arr.shape)


def _with_sets(
    blocks: list[npt.NDArray[np.int64]],
    threes: list[npt.NDArray[np.int64]],
    fours: list[npt.NDArray[np.int64]],
) -> IntArray:
    """Least deadwood of hands that all hold ``len(threes)`` ranks three times and
    ``len(fours)`` ranks four times (the rank bits given per hand)."""
    runs = _RUNS
    s0, s1, s2, s3 = blocks
    best = np.full(s0.shape, 1000, dtype=np.int16)
    bits = threes + fours
    choices = [_THREE_CHOICES] * len(threes) + [_FOUR_CHOICES] * len(fours)
    for combo in product(*choices):
        r = [np.zeros_like(s0) for _ in range(4)]
        for bit, take in zip(bits, combo, strict=True):
            for suit in range(4):
                if take[suit]:
                    r[suit] |= bit
        value = runs[s0 & ~r[0]] + runs[s1 & ~r[1]] + runs[s2 & ~r[2]] + runs[s3 & ~r[3]]
        np.minimum(best, value, out=best)
    return best


def discard_deadwood_batch(masks: npt.ArrayLike) -> tuple[IntArray, npt.NDArray[np.int8]]:
    """For hands holding a card to discard (11 cards after a draw): the least deadwood after
    the best discard, and that card's index (the lowest index among equals).  An empty
    hand has nothing to discard: ValueError."""
    arr = checked_masks(masks).reshape(-1)
    if arr.size and not arr.all():
        raise ValueError(f"hand {int(np.flatnonzero(arr == 0)[0])} holds no card to discard")
    best = np.full(arr.shape, 32767, dtype=np.int16)
    card = np.full(arr.shape, -1, dtype=np.int8)
    for i in range(52):
        bit = np.uint64(1 << i)
        held = np.flatnonzero(arr & bit)
        if not held.size:
            continue
        value = deadwood_batch(arr[held] & ~bit)
        better = value < best[held]
        best[held[better]] = value[better]
        card[held[better]] = i
    shape = np.shape(masks)
    return best.reshape(shape), card.reshape(shape)


def masks_from_indices(indices: npt.ArrayLike) -> MaskArray:
    """Hand masks from an integer array of card indexes, one hand per row; ValueError for
    anything but whole numbers 0 to 51 (70 was dropped, -1 and 2.9 read as other cards,
    and the deadwood then came out wrong without a word)."""
    raw = np.asarray(indices)
    if raw.size == 0 and raw.dtype.kind == "f":  # [] or [[]]: NumPy's default is float
        raw = raw.astype(np.int64)
    if raw.dtype.kind not in "iu":
        raise ValueError(f"card indexes must be integers, not {raw.dtype} values")
    if raw.size and (int(raw.min()) < 0 or int(raw.max()) > 51):
        bad = int(raw.min()) if int(raw.min()) < 0 else int(raw.max())
        raise ValueError(f"card index {bad} is not a card: indexes are 0 to 51 "
                         "(suit * 13 + rank - 1)")
    idx = raw.astype(np.uint64)
    out: MaskArray = np.bitwise_or.reduce(np.left_shift(np.uint64(1), idx), axis=-1)
    return out


def random_masks(n: int, size: int = 10, seed: int | None = None) -> MaskArray:
    """``n`` uniformly random hands of ``size`` distinct cards, as masks."""
    if not 0 <= size <= 52:
        raise ValueError(f"a hand holds 0 to 52 cards, not {size!r}")
    if size == 0:
        return np.zeros(n, dtype=np.uint64)
    keys = np.random.default_rng(seed).random((n, 52))
    return masks_from_indices(np.argpartition(keys, size - 1, axis=1)[:, :size])
