"""Every bot plays only legal actions, for thousands of hands (a few dozen for the expert),
under several rule sets; and the bot API behaves as documented."""

from __future__ import annotations

import random
import re

import pytest

from hollywood_gin.actions import Pass
from hollywood_gin.bots import BOT_NAMES, Bot, BotError, Hint, Reason, hint, make_bot
from hollywood_gin.bots.levels import LEVELS
from hollywood_gin.hand import Hand
from hollywood_gin.match import Match
from hollywood_gin.rules import Rules

RULE_SETS = [
    Rules.preset("hollywood"),
    Rules.preset("eaai"),
    Rules(discard_taken_card=True, knock_limit=7),
    Rules(oklahoma=True, big_gin_bonus=31),
]


def play_hands(a: Bot, b: Bot, hands: int, seed: int) -> int:
    """Play hands, asserting that every choice is one of the legal actions; returns the
    number of decisions checked."""
    bots = (a, b)
    checked = 0
    rng = random.Random(seed)
    for n in range(hands):
        rules = RULE_SETS[n % len(RULE_SETS)]
        if n % 50 == 0:
            a.reset(rng.getrandbits(32))
            b.reset(rng.getrandbits(32))
        hand = Hand.deal(rules=rules, dealer=n % 2, seed=rng.getrandbits(63))
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            action = bots[seat].choose(view, None)
            assert action in view.legal_actions, (bots[seat].name, action, view.legal_actions)
            hand.apply(action, seat)
            checked += 1
    return checked


@pytest.mark.parametrize(
    ("a", "b", "hands"),
    [("random", "basic", 2500), ("basic", "basic", 1500), ("greedy", "random", 500),
     ("greedy", "basic", 1500), ("level1", "level3", 300)],
)
def test_fast_bots_play_only_legal_actions(a: str, b: str, hands: int) -> None:
    assert play_hands(make_bot(a, seed=1), make_bot(b, seed=2), hands, seed=hands) > hands * 10


def test_expert_plays_only_legal_actions() -> None:
    assert play_hands(make_bot("expert", seed=3), make_bot("greedy", seed=4), 36, 5)
    assert play_hands(make_bot("level4", seed=3), make_bot("basic", seed=4), 12, 6)


def test_bots_play_legal_whole_matches_with_a_sheet() -> None:
    """Matches pass the sheet; the expert prices results on it (Hollywood columns)."""
    bots = (make_bot("expert:samples=6", seed=1), make_bot("basic", seed=2))
    match = Match(rules=Rules.preset("hollywood"), seed=9)
    hands = 0
    while not match.finished and hands < 12:
        hand = match.hand
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            action = bots[seat].choose(view, match.sheet.copy())
            assert action in view.legal_actions
            match.apply(action, seat)
        hands += 1
        if not match.finished:
            match.next_hand()


def test_make_bot_knows_every_name_and_refuses_others() -> None:
    for name in BOT_NAMES:
        bot = make_bot(name, seed=0)
        assert isinstance(bot, Bot)
        assert bot.name == name
    with pytest.raises(ValueError, match="random, basic, greedy, expert"):
        make_bot("grandmaster")
    with pytest.raises(BotError, match="no setting"):
        make_bot("greedy:cleverness=3")
    with pytest.raises(BotError, match="takes no settings"):
        make_bot("basic:samples=3")
    assert make_bot("expert:samples=5").name == "expert:samples=5"


@pytest.mark.parametrize("spec,words", [
    ("expert:opp_mix=2", "opp_mix=2 is out of range"),
    ("expert:opp_mix=-0.5", "opp_mix=-0.5 is out of range"),
    ("expert:opp_mix=nan", "a finite number"),
    ("expert:samples=inf", "a finite number"),
    ("expert:samples=0", "samples=0 is out of range"),
    ("expert:samples=2.5", "samples is a whole number, not 2.5"),
    ("greedy:knock_floor=11", "knock_floor=11 is out of range"),
    ("level5:time_cap_ms=-1", "time_cap_ms=-1 is out of range"),
    ("level5:bogus=1", "level5 has no setting 'bogus'"),
    ("level4:samples=8", "level 4 takes no settings"),
])
def test_bot_settings_out_of_range_are_refused_by_name(spec: str, words: str) -> None:
    with pytest.raises(BotError, match=re.escape(words)):
        make_bot(spec)


def test_bot_settings_at_their_limits_are_taken() -> None:
    bot = make_bot("expert:opp_mix=1,samples=1,min_samples=0,stop_z=0")
    assert bot.settings.opp_mix == 1.0 and bot.settings.samples == 1  # type: ignore[attr-defined]
    assert isinstance(bot.settings.samples, int)  # type: ignore[attr-defined]


def test_levels_have_budgets_and_grow() -> None:
    assert sorted(LEVELS) == [1, 2, 3, 4, 5]
    budgets = [LEVELS[n].deals for n in sorted(LEVELS)]
    assert budgets == sorted(budgets)
    for n in (5,):
        bot = make_bot(f"level{n}")
        settings = bot.inner.settings  # type: ignore[attr-defined]
        assert settings.samples == LEVELS[n].deals
        assert settings.time_cap_ms == 0  # a count, not a clock: same seed, same moves


def test_hint_is_legal_with_a_reason_and_repeatable() -> None:
    rng = random.Random(4)
    for n in range(6):
        hand = Hand.deal(rules=Rules.preset("eaai"), dealer=n % 2, seed=n)
        for _ in range(rng.randrange(0, 20)):
            if hand.is_over:
                break
            hand.apply_id(rng.choice(hand.legal_action_ids()))
        if hand.is_over:
            continue
        view = hand.view(hand.to_act)
        got = hint(view)
        assert isinstance(got, Hint)
        assert got.action in view.legal_actions
        assert isinstance(got.reason, Reason) and got.reason.english()
        assert "\n" not in got.reason.english()
        assert hint(view) == got


def _views_in_play(count: int) -> list:
    """Views of seat to act in seeded ``eaai`` hands, some way into each."""
    rng = random.Random(9)
    views = []
    for n in range(count):
        hand = Hand.deal(rules=Rules.preset("eaai"), dealer=n % 2, seed=100 + n)
        for _ in range(rng.randrange(2, 16)):
            if hand.is_over:
                break
            hand.apply_id(rng.choice(hand.legal_action_ids()))
        if not hand.is_over:
            views.append(hand.view(hand.to_act))
    return views


def test_a_hint_is_the_same_on_a_slow_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web's hint differed from the terminal's for the same view (seen on a loaded
    machine: discard 9h against discard Qs): the shared expert stopped its search at
    450 ms, so how far it got depended on the clock.  The hint's budget is a count of
    deals: on a clock that says every search ran out of time, every hint is the same,
    where the plain expert's advice changes."""
    import types

    from hollywood_gin import bots
    from hollywood_gin.bots import expert as expert_module

    views = _views_in_play(40)
    monkeypatch.delitem(bots._HINT_BOT, "expert", raising=False)  # built afresh, put back after
    calm = [hint(view).action for view in views]
    plain = [make_bot("expert", seed=1).choose(view) for view in views]
    ticks = iter(range(10**9))
    slow = types.SimpleNamespace(perf_counter=lambda: float(next(ticks)))  # 1 s a look
    monkeypatch.setattr(expert_module, "time", slow)
    bots._HINT_BOT.pop("expert", None)
    assert [hint(view).action for view in views] == calm
    rushed = [make_bot("expert", seed=1).choose(view) for view in views]
    assert rushed != plain, "the clock changed no plain expert's choice: no test"


def test_every_setting_has_limits_that_hold_its_default() -> None:
    from dataclasses import fields

    from hollywood_gin.bots.expert import EXPERT_LIMITS, ExpertSettings
    from hollywood_gin.bots.greedy import GREEDY_LIMITS, GreedySettings

    for settings, limits in ((ExpertSettings(), EXPERT_LIMITS), (GreedySettings(), GREEDY_LIMITS)):
        assert {f.name for f in fields(settings)} == set(limits)
        for name, (low, high) in limits.items():
            assert low <= getattr(settings, name) <= high, name


def test_hints_asked_on_two_threads_at_once_take_turns_with_the_one_expert(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """bots.hint shares one expert in a process: a second thread asking while the first
    is thought out (the terminal game's ``h`` after a move) must wait, not reset the bot
    in the middle of the other's search."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from hollywood_gin import bots

    inside: list[int] = []
    overlaps: list[int] = []

    class SlowExpert:
        """Stands in for the shared expert: its answer is the seed it was last reset to."""

        seed: int | None = None

        def reset(self, seed: int | None = None) -> None:
            self.seed = seed

        def explain(self, view: object, sheet: object = None) -> Hint:
            inside.append(1)
            if len(inside) > 1:
                overlaps.append(len(inside))
            seed = self.seed
            time.sleep(0.05)  # a search: another thread would reset the bot here
            inside.pop()
            assert self.seed == seed
            return Hint(Pass(), Reason.of("x"))

    monkeypatch.setitem(bots._HINT_BOT, "expert", SlowExpert())
    views = [Hand.deal(rules=Rules(), seed=seed).view(1) for seed in range(6)]
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(bots.hint, views))
    assert overlaps == []
