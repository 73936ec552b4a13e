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


def test_level_3_knocks_where_level_4_waits_and_both_are_the_greedy_heuristic() -> None:
    """The ladder's middle (README): level 4 is ``greedy``; level 3 is greedy blind to
    the opponent and knocking as soon as the rules let it (R5.1), so late in a hand, with
    a count the opponent's draws make risky, level 3 knocks where level 4 plays on."""
    from hollywood_gin.actions import Knock

    level3, level4 = make_bot("level3", seed=1), make_bot("level4", seed=1)
    greedy, eager = make_bot("greedy", seed=1), make_bot(
        "greedy:danger=0,knock_early=60,knock_slope=0", seed=1)
    differ = 0
    for n in range(60):
        hand = Hand.deal(rules=Rules.preset("eaai"), dealer=n % 2, seed=n)
        while not hand.is_over:
            view = hand.view(hand.to_act)
            three, four = level3.choose(view), level4.choose(view)
            assert three == eager.choose(view) and four == greedy.choose(view)
            if isinstance(three, Knock) and not isinstance(four, Knock):
                differ += 1
                assert view.opponent_card_count == 10  # a real decision, not a forced one
            hand.apply(four, hand.to_act)
    assert differ > 0


def test_a_bot_spec_reads_its_name_with_spaces_around_it() -> None:
    """Regression: "expert :samples=4" was "no bot named ..." while spaces after the colon
    and around the settings were read."""
    from hollywood_gin.bots import make_bot

    spaced = make_bot("expert :samples=4 , min_samples=4", seed=1)
    plain = make_bot("expert:samples=4,min_samples=4", seed=1)
    assert spaced.settings == plain.settings  # type: ignore[attr-defined]
    assert make_bot(" Greedy ", seed=1).name == "greedy"



def test_a_setting_given_twice_takes_the_last_so_a_base_spec_can_be_overridden() -> None:
    from hollywood_gin.bots import make_bot

    base = "expert:samples=4,late_veto=0"
    over = make_bot(f"{base},samples=8", seed=1)
    assert over.settings.samples == 8 and over.settings.late_veto == 0  # type: ignore[attr-defined]
