"""Opponent-style-conditional settings (issue 14): the expert plays by its ``e_*``
settings once it has learnt that its opponent knocks eagerly, by its ``c_*`` ones once
it has learnt that he is cautious, and by its plain settings otherwise; what it learns
comes only from ended hands (R3.4, R5.2 reveal both hands then)."""

from __future__ import annotations

import functools
import random

import pytest
from hg_bot_games import play_hands

from hollywood_gin.bots import BotError, make_bot
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.bots.expert_settings import ExpertSettings, styled
from hollywood_gin.hand import Hand, HandView
from hollywood_gin.rules import Rules

_BASE = "expert:samples=8,min_samples=0,time_cap_ms=0"
_EAGER = "eager_below=0.1,e_potential=0.6,e_danger=12,e_veto_slope=1.3,e_late_veto=6"
_CAUTIOUS = "cautious_above=0.9,c_potential=0.05,c_chase=0"


def _views(count: int) -> list[HandView]:
    """Seat 1's views in play, from seeded greedy-against-basic hands."""
    rules = Rules.preset("eaai")
    out: list[HandView] = []
    bots = [make_bot("basic", seed=3), make_bot("greedy", seed=4)]
    k = 0
    while len(out) < count:
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=700 + k)
        k += 1
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if seat == 1 and len(view.legal_actions) > 1:
                out.append(view)
            hand.apply(bots[seat].choose(view), seat)
    return out[:count]


@functools.cache
def _learnt() -> tuple[Hand, ...]:
    """The hands every learning test observes: basic (an eager knocker) in seat 0, played
    once (they are finished, so shared read-only)."""
    return tuple(play_hands("basic", "greedy", 30, seed=5))


def _expert(spec: str, seed: int = 1) -> ExpertBot:
    bot = make_bot(spec, seed=seed)
    assert isinstance(bot, ExpertBot)
    return bot


def test_styled_settings_apply_only_on_their_side_of_the_thresholds() -> None:
    st = ExpertSettings(eager_below=0.1, e_potential=0.6, e_chase=0,
                        cautious_above=0.8, c_danger=9.0)
    assert styled(st, 0.05).potential == 0.6 and styled(st, 0.05).chase == 0
    assert styled(st, 0.05).danger == st.danger  # -1: the plain setting
    assert styled(st, 0.3) == st  # between the thresholds: the plain settings
    assert styled(st, 0.9).danger == 9.0 and styled(st, 0.9).potential == st.potential
    plain = ExpertSettings()
    assert styled(plain, 0.0) == plain and styled(plain, 1.0) == plain


def test_styled_settings_are_checked_like_the_others() -> None:
    with pytest.raises(BotError):
        make_bot("expert:e_potential=-2")
    with pytest.raises(BotError):
        make_bot("expert:c_late_veto=0.5")
    assert _expert("expert:e_late_veto=-1").settings.e_late_veto == -1


def test_the_expert_plays_the_eager_settings_once_it_has_learnt_an_eager_knocker() -> None:
    styled_bot = _expert(f"{_BASE},{_EAGER},{_CAUTIOUS}")
    plain = styled_bot.plain
    views = _views(30)
    styled_bot.choose(views[0])
    assert styled_bot.settings == plain  # the prior (0.3) is neither side
    for hand in _learnt():
        styled_bot.observe(hand.view(1))  # the expert in seat 1, basic (eager) in seat 0
    assert styled_bot.cautious_share() < 0.1
    styled_bot.choose(views[0])
    st = styled_bot.settings
    assert (st.potential, st.danger, st.veto_slope, st.late_veto) == (0.6, 12.0, 1.3, 6)
    assert styled_bot.greedy.potential == 0.6 and styled_bot.greedy.knock_slope == 1.3
    # It plays as an expert given those settings outright (and the same hands to learn
    # from, since its re-deals mix his styles by what it learnt), decision for decision.
    outright = _expert(f"{_BASE},potential=0.6,danger=12,veto_slope=1.3,late_veto=6")
    for n, view in enumerate(views):
        for bot in (styled_bot, outright):
            bot.reset(n)
            for hand in _learnt():
                bot.observe(hand.view(1))
        assert styled_bot.choose(view) == outright.choose(view)
    # A new match forgets the opponent: the plain settings again.
    styled_bot.reset(2)
    styled_bot.choose(views[0])
    assert styled_bot.settings == plain


def test_the_expert_plays_the_cautious_settings_only_against_a_cautious_knocker() -> None:
    bot = _expert(f"{_BASE},{_EAGER},{_CAUTIOUS}")
    for hand in play_hands("greedy", "greedy", 60, seed=6):
        bot.observe(hand.view(1))
    assert bot.cautious_share() > 0.9
    bot.choose(_views(1)[0])
    assert (bot.settings.potential, bot.settings.chase) == (0.05, 0)
    assert bot.settings.danger == bot.plain.danger
    # Without the learning, the weight stays at the prior: the plain settings.
    fixed = _expert(f"{_BASE},{_EAGER},{_CAUTIOUS},learn=0")
    for hand in _learnt():
        fixed.observe(hand.view(1))
    fixed.choose(_views(1)[0])
    assert fixed.settings == fixed.plain


def test_without_styled_settings_learning_changes_no_setting() -> None:
    bot = _expert(_BASE)
    for hand in _learnt():
        bot.observe(hand.view(1))
    bot.choose(_views(1)[0])
    assert bot.settings is bot.plain


def test_a_styled_expert_that_has_learnt_decides_from_the_view_alone() -> None:
    """The learnt weight comes from ended hands only: two positions that look the same from
    the seat, with other hidden cards, get the same decision from the same learnt bot."""
    rng = random.Random(4)
    spec = f"{_BASE},{_EAGER}"
    learnt = _learnt()
    for k, view in enumerate(_views(12)):
        a, b = _expert(spec, seed=k), _expert(spec, seed=k)
        for bot in (a, b):
            for hand in learnt:
                bot.observe(hand.view(1))
        other = Hand.sample_from_view(view, rng).view(view.player)
        assert other == view
        assert a.choose(view) == b.choose(other)
        assert a.settings.potential == 0.6
