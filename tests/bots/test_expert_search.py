"""The expert's search stops when its answer is clear, and only then.

It compares candidates on the same deals, so what decides is the paired
difference: once the leader beats every other candidate by ``stop_z`` standard
errors of that difference (after ``min_samples`` deals), more deals would not
change the choice and are not spent.
"""

from __future__ import annotations

import random

from hollywood_gin.bots import make_bot
from hollywood_gin.bots.expert import ExpertBot, _settled
from hollywood_gin.hand import Hand
from hollywood_gin.rules import Rules


def _sums(rows: list[list[float]]) -> tuple[list[float], list[float], list[float], int]:
    """totals, diff sums and diff squares (against candidate 0) of per-deal values."""
    k = len(rows[0])
    totals = [sum(r[c] for r in rows) for c in range(k)]
    diffs = [sum(r[c] - r[0] for r in rows) for c in range(k)]
    squares = [sum((r[c] - r[0]) ** 2 for r in rows) for c in range(k)]
    return totals, diffs, squares, len(rows)


def test_a_candidate_that_wins_on_every_deal_is_settled() -> None:
    rng = random.Random(1)
    rows = [[10 + rng.gauss(0, 1), rng.gauss(0, 1)] for _ in range(32)]
    assert _settled(*_sums(rows), z=2.0)


def test_a_close_call_is_not_settled() -> None:
    rng = random.Random(2)
    rows = [[rng.gauss(0, 10), rng.gauss(0.5, 10)] for _ in range(32)]
    assert not _settled(*_sums(rows), z=2.0)


def test_identical_results_are_not_settled() -> None:
    """No difference seen yet is no evidence: keep sampling."""
    rows = [[3.0, 3.0] for _ in range(40)]
    assert not _settled(*_sums(rows), z=2.0)


def test_a_leader_other_than_the_first_candidate_must_beat_all_the_others() -> None:
    rng = random.Random(3)
    # Candidate 2 leads clearly over 0, but candidate 1 is nearly as good.
    rows = [[0.0, 9 + rng.gauss(0, 4), 10 + rng.gauss(0, 4)] for _ in range(32)]
    assert not _settled(*_sums(rows), z=2.0)
    rows = [[0.0, rng.gauss(0, 1), 10 + rng.gauss(0, 1)] for _ in range(32)]
    assert _settled(*_sums(rows), z=2.0)


def _searched_deals(spec: str, hands: int = 8) -> list[int]:
    """How many deals each searched decision of the expert used, over a few hands."""
    bot = make_bot(spec, seed=5)
    assert isinstance(bot, ExpertBot)
    other = make_bot("greedy", seed=6)
    rules = Rules.preset("eaai")
    used = []
    for n in range(hands):
        hand = Hand.deal(rules=rules, dealer=n % 2, seed=100 + n)
        while not hand.is_over:
            seat = hand.to_act
            player = bot if seat == 0 else other
            action = player.choose(hand.view(seat))
            if seat == 0 and bot.searched_deals:
                used.append(bot.searched_deals)
            hand.apply(action, seat)
    return used


def test_clear_choices_stop_early_and_close_calls_use_the_whole_budget() -> None:
    used = _searched_deals("expert:samples=96,min_samples=16,time_cap_ms=0")
    assert used, "the expert searched no decision in eight hands"
    assert min(used) >= 16
    assert max(used) <= 96
    assert any(n < 96 for n in used), "no search ever stopped early"
    assert any(n == 96 for n in used), "no search ever needed the whole budget"


def test_without_a_minimum_every_search_uses_every_deal() -> None:
    used = _searched_deals("expert:samples=24,min_samples=0,time_cap_ms=0", hands=4)
    assert used and set(used) == {24}


def test_two_plans_after_the_same_action_need_not_be_told_apart() -> None:
    """With ``chase``, playing on is priced twice (knocking at the next chance, or waiting
    for gin); the search stops once the knock and playing on are told apart, however
    close the two ways of playing on are."""
    from hollywood_gin.actions import Discard, Knock
    from hollywood_gin.cards import Card

    rng = random.Random(3)
    rows = []
    for _ in range(64):
        on = rng.gauss(0, 3)
        rows.append([-20 + rng.gauss(0, 1), on, on + rng.gauss(0, 0.1)])
    card = Card.parse("Kc")
    actions = [Knock(card), Discard(card), Discard(card)]
    assert not _settled(*_sums(rows), z=2.0)
    assert _settled(*_sums(rows), z=2.0, actions=actions)  # type: ignore[arg-type]


def test_a_gin_chase_playout_knocks_only_with_gin() -> None:
    from hollywood_gin.bots.cardsense import read_view
    from hollywood_gin.bots.expert import _GIN_ONLY
    from hollywood_gin.bots.opponent import EAGER

    bot = make_bot("expert:chase=1", seed=1)
    assert isinstance(bot, ExpertBot)
    view = Hand.deal(rules=Rules.preset("eaai"), dealer=1, seed=4).view(0)
    sense = read_view(view)
    chaser, _ = bot._model(view, sense, EAGER, mine=_GIN_ONLY)
    usual, _ = bot._model(view, sense, EAGER)
    for draws in range(1, 15):
        assert chaser.knock_limit_for(0, draws) == 0
        assert chaser.knock_limit_for(1, draws) == usual.knock_limit_for(1, draws) == 10
    assert usual.knock_limit_for(0, 1) == 10
