"""Levels are budgets of deals, not of time: the same seed plays the same moves, whatever
the machine's speed."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest

from hollywood_gin.bots import make_bot
from hollywood_gin.hand import Hand
from hollywood_gin.rules import Rules


def moves(spec: str, seed: int, hands: int) -> list[str]:
    """Every action of ``spec`` against greedy over a few hands."""
    rng = random.Random(seed)
    out = []
    bots = [make_bot(spec, seed=seed), make_bot("greedy", seed=seed + 1)]
    for n in range(hands):
        hand = Hand.deal(rules=Rules.preset("eaai"), dealer=n % 2, seed=rng.getrandbits(63))
        while not hand.is_over:
            seat = hand.to_act
            action = bots[seat].choose(hand.view(seat))
            out.append(f"{seat}{action}")
            hand.apply(action, seat)
        for seat in (0, 1):
            bots[seat].observe(hand.view(seat))
    return out


def slow_clock(real: Callable[[], float]) -> Callable[[], float]:
    """A clock that runs a quarter second further at every look."""
    ticks = [0.0]

    def slow() -> float:
        ticks[0] += 0.25
        return real() + ticks[0]

    return slow


def test_levels_play_the_same_moves_from_the_same_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    for spec in ("level1", "level4", "level5"):
        first = moves(spec, 11, 3)
        # A clock running a quarter second a look must not change a move: the budget is
        # a count of deals.
        with monkeypatch.context() as patch:
            patch.setattr(time, "perf_counter", slow_clock(time.perf_counter))
            again = moves(spec, 11, 3)
        assert first == again, spec
