"""The knock schedule is defined once (:class:`~hollywood_gin.bots.opponent.KnockStyle`):
greedy's knocks, the expert's playouts, its no-knock evidence and its model of the
opponent all read it.  Each was a copy of the same formula; these pin the shared one to
the copies it replaced (written out here as they were) on a table of inputs."""

from __future__ import annotations

import itertools

from hollywood_gin.bots.expert_settings import ExpertSettings
from hollywood_gin.bots.greedy import GreedySettings
from hollywood_gin.bots.opponent import CAUTIOUS, EAGER, KnockStyle
from hollywood_gin.bots.search import Continuation, Playout, PlayoutRules

LIMITS = (0, 1, 5, 10)
DRAWS = range(0, 16)
SCHEDULES = [(0, 0.0, 10), (4, 0.8, 2), (0, 100.0, 0), (2, 1.5, 0), (3, 0.5, 7), (1, 2.0, 12)]


def _old_threshold(limit: int, draws: int, early: int, slope: float, floor: int) -> float:
    """greedy.knock_threshold, KnockStyle.threshold and Playout.knock_limit_for, as copied."""
    late = max(0, draws - early)
    return max(min(float(floor), float(limit)), limit - slope * late)


def _old_above(limit: int, draws: int, early: int, slope: float, floor: int) -> int:
    """The no-knock floor of search.continuation_playout and expert._model, as copied."""
    late = max(0, draws - early)
    return int(max(min(floor, limit), limit - slope * late))


def test_R5_1_one_schedule_gives_every_old_copys_limit() -> None:
    for (early, slope, floor), limit, draws in itertools.product(SCHEDULES, LIMITS, DRAWS):
        style = KnockStyle(early, slope, floor)
        old = _old_threshold(limit, draws, early, slope, floor)
        assert style.threshold(limit, draws) == old
        assert int(style.threshold(limit, draws)) == _old_above(limit, draws, early, slope, floor)
        playout = Playout(PlayoutRules(limit=limit, discard_taken=False, dead_stock=2,
                                       gin_bonus=25, undercut_bonus=25,
                                       knock=(style, EAGER)))
        assert playout.knock_limit_for(0, draws) == old
        assert playout.knock_limit_for(1, draws) == float(limit)


def test_R5_1_greedy_knocks_as_it_did() -> None:
    """GreedyBot.should_knock, as it was, against its settings' knock style."""
    for hunt, stock_needed in ((2, 20), (0, 10), (-1, 20), (4, 31)):
        s = GreedySettings(gin_hunt=hunt, gin_hunt_stock=stock_needed)
        style = s.knock_style
        for limit, draws, dead, stock in itertools.product(LIMITS, DRAWS, range(0, 11),
                                                            (3, 10, 20, 31)):
            old = not (dead <= s.gin_hunt and stock >= s.gin_hunt_stock and draws <= 3) and (
                dead <= _old_threshold(limit, draws, s.knock_early, s.knock_slope,
                                       s.knock_floor))
            new = not style.hunts_gin(dead, draws, stock) and dead <= style.threshold(limit,
                                                                                     draws)
            assert new == old


def test_R5_1_the_opponent_models_styles_decide_as_they_did() -> None:
    """KnockStyle.knocks with the old boolean gin hunt (2 or less, 20 in the stock)."""
    for style, hunted in ((EAGER, False), (CAUTIOUS, True)):
        for limit, draws, dead, stock in itertools.product(LIMITS, DRAWS, range(0, 11),
                                                            (3, 19, 20, 31)):
            if dead == 0:
                old = True
            elif hunted and dead <= 2 and stock >= 20 and draws <= 3:
                old = False
            else:
                old = dead <= _old_threshold(limit, draws, style.early, style.slope, style.floor)
            assert style.knocks(dead, limit, draws, stock) == old


def test_the_default_schedules_agree() -> None:
    """The cautious style is greedy's default schedule and gin hunt; the expert's own and
    mixed-in schedules are that, its default opponent the eager style; the review's
    continuation is the expert's."""
    greedy = GreedySettings().knock_style
    assert (greedy.early, greedy.slope, greedy.floor, greedy.gin_hunt, greedy.gin_hunt_stock) == (
        CAUTIOUS.early, CAUTIOUS.slope, CAUTIOUS.floor, CAUTIOUS.gin_hunt,
        CAUTIOUS.gin_hunt_stock)
    st = ExpertSettings()
    schedule = (CAUTIOUS.early, CAUTIOUS.slope, CAUTIOUS.floor)
    assert (st.early, st.slope, st.floor) == schedule
    assert (st.mix_early, st.mix_slope, st.mix_floor) == schedule
    assert (st.opp_early, st.opp_slope, st.opp_floor) == (EAGER.early, EAGER.slope, EAGER.floor)
    c = Continuation()
    assert c.my_style == KnockStyle(st.early, st.slope, st.floor)
    assert c.opp_style == KnockStyle(st.opp_early, st.opp_slope, st.opp_floor)
    assert c.mix_style == KnockStyle(st.mix_early, st.mix_slope, st.mix_floor)
    assert (c.opp_mix, c.pressure_base, c.pressure_slope) == (
        st.opp_mix, st.pressure_base, st.pressure_slope)
    # The review's Metropolis steps are its own budget: the expert's doubled to 32 in the
    # session of 2026-12-05 (docs/bots.md), and a review's deals are many.
    assert (c.mcmc_steps, st.mcmc_steps) == (16, 32)
