"""The batch solver equals the exact scalar solver (R2.4) on random and meld-dense hands."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hollywood_gin.batch import (
    deadwood_batch,
    discard_deadwood_batch,
    masks_from_indices,
    random_masks,
)
from hollywood_gin.cards import parse_cards
from hollywood_gin.melds import deadwood_of_mask


def _dense_masks(n: int, seed: int) -> np.ndarray:
    """Hands from a few ranks in every suit crossed by long runs: sets and runs overlap."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        ranks = rng.sample(range(13), rng.choice([3, 4, 5]))
        pool = {s * 13 + r for s in range(4) for r in ranks}
        for _ in range(rng.choice([1, 2])):
            suit, low = rng.randrange(4), rng.randrange(8)
            pool |= {suit * 13 + r for r in range(low, low + rng.randrange(3, 7))}
        size = rng.choice([10, 11, 12])
        if len(pool) >= size:
            out.append(sum(1 << c for c in rng.sample(sorted(pool), size)))
    return np.asarray(out, dtype=np.uint64)


def _scalar(masks: np.ndarray) -> np.ndarray:
    return np.asarray([deadwood_of_mask(int(m)) for m in masks])


@pytest.mark.parametrize("size", [0, 3, 10, 11, 14, 20])
def test_random_hands_match_the_scalar_solver(size: int) -> None:
    masks = random_masks(4000, size, seed=size)
    assert all(int(m).bit_count() == size for m in masks)
    np.testing.assert_array_equal(deadwood_batch(masks), _scalar(masks))


def test_meld_dense_hands_match_the_scalar_solver() -> None:
    masks = _dense_masks(6000, 1)
    np.testing.assert_array_equal(deadwood_batch(masks), _scalar(masks))


def test_four_of_a_kinds_crossing_runs() -> None:
    hands = [
        "7s 7h 7d 7c 5s 6s 8h 9h 8d 9d",  # every seven could go to a run or the set
        "As 2s 3s Ah Ad Ac 2h 3h 2d 3d 2c",
        "Ts Js Qs Ks Th Jh Qh Kh Td Jd Qd Kd",  # huge hands too
    ]
    masks = np.asarray([sum(c.bit for c in parse_cards(h)) for h in hands], dtype=np.uint64)
    np.testing.assert_array_equal(deadwood_batch(masks), _scalar(masks))


def test_shape_is_kept() -> None:
    masks = random_masks(12, 10, seed=3).reshape(3, 4)
    out = deadwood_batch(masks)
    assert out.shape == (3, 4)
    np.testing.assert_array_equal(out.reshape(-1), _scalar(masks.reshape(-1)))


def test_best_discard_of_eleven_cards() -> None:
    masks = np.concatenate([random_masks(500, 11, seed=5), _dense_masks(500, 6)])
    masks = masks[[int(m).bit_count() == 11 for m in masks]]
    best, card = discard_deadwood_batch(masks)
    for m, b, c in zip(masks, best, card, strict=True):
        m = int(m)
        options = {i: deadwood_of_mask(m & ~(1 << i)) for i in range(52) if m >> i & 1}
        assert b == min(options.values())
        assert c == min(i for i, v in options.items() if v == b)


def test_masks_from_indices() -> None:
    assert masks_from_indices([[0, 1, 51]])[0] == (1 | 2 | 1 << 51)
    assert masks_from_indices(np.array([[0, 1, 51]], dtype=np.uint8))[0] == (1 | 2 | 1 << 51)


@pytest.mark.parametrize(("indices", "said"), [
    ([[0, 1, 70]], "card index 70 is not a card: indexes are 0 to 51"),
    (np.array([[0, 1, -1]]), "card index -1 is not a card"),
    ([[0, 1, 2.9]], "must be integers, not float64"),
    (np.array([[0, 1]], dtype=bool), "must be integers, not bool"),
])
def test_indexes_that_are_no_card_are_refused_not_read_wrong(indices: object,
                                                             said: str) -> None:
    """70 was dropped, -1 read as a bit past the deck and 2.9 as 2 (A-2-3 a run), and the
    deadwood then came out wrong without a word (a QA pass)."""
    with pytest.raises(ValueError, match=said):
        masks_from_indices(indices)  # type: ignore[arg-type]


def test_an_empty_batch_is_empty_not_a_float_error() -> None:
    assert deadwood_batch([]).shape == (0,)
    assert masks_from_indices(np.zeros((0, 10), dtype=np.int64)).shape == (0,)


@pytest.mark.parametrize(("masks", "said"), [
    ([1 << 60], "has bits past the 52 cards"),
    ([1.5], "must be integers, not float64"),
    ([True], "must be integers, not bool"),
    ([-1], "are 0 or more, not -1"),
    (["7"], "must be integers"),
])
def test_a_mask_of_another_encoding_is_refused_not_read_wrong(masks: list[object],
                                                              said: str) -> None:
    """[1 << 60] gave 0 (the bits past 52 dropped) and [1.5] was read as 1."""
    with pytest.raises(ValueError, match=said):
        deadwood_batch(masks)
    with pytest.raises(ValueError, match=said):
        discard_deadwood_batch(masks)


def test_an_empty_hand_has_no_discard() -> None:
    """It answered (32767, -1), a sentinel documented nowhere."""
    with pytest.raises(ValueError, match="hand 1 holds no card to discard"):
        discard_deadwood_batch(np.array([7, 0], dtype=np.uint64))
