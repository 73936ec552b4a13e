"""Baiting a watcher (issue 14, ``bots/bait.py``): the expert's ``bait`` setting prices how
much a discard lowers the fear, in an opponent who reads my throws as greedy does, of the
cards my hand then waits for.

The position: I hold 5♠ 6♠ 8♠ K♥ as deadwood beside two runs; my 5♠ 6♠ wait for 4♠ and 7♠.
Throwing 8♠ tells him I hold no 8♠ (and makes 6♠ less likely), so 7♠ looks safer to feed
me; throwing K♥ tells him nothing about the spades.
"""

from __future__ import annotations

import pytest
from hg_bot_games import eaai_deal

from hollywood_gin.actions import Discard, DrawStock, Pass, TakeUpcard
from hollywood_gin.bots import BotError, make_bot
from hollywood_gin.bots.bait import baited, his_read, lure
from hollywood_gin.bots.cardsense import danger, read_view
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.bots.greedy import GreedySettings, plan_discard
from hollywood_gin.cards import CARDS, parse_cards
from hollywood_gin.hand import HandView


def _index(text: str) -> int:
    return parse_cards(text)[0].index


def _position(history: str = "pass") -> HandView:
    hand = eaai_deal("5s 6s 8s Kh 2c 3c 4c Jd Qd Kd", "2s 3s Ks Qh 7d 9d 4h Th Jc Ad",
                     "9c", "Ac 5h 6d")
    if history == "pass":
        actions = ((0, Pass()), (1, Pass()), (0, DrawStock()))
    else:  # I take the upcard 9♣ and throw K♥, he draws and throws, I draw
        actions = ((0, TakeUpcard()), (0, Discard(parse_cards("Kh")[0])), (1, DrawStock()),
                   (1, Discard(parse_cards("Ks")[0])), (0, DrawStock()))
    for seat, action in actions:
        hand.apply(action, seat)
    return hand.view(0)


def test_his_read_of_my_hand_follows_what_he_can_see() -> None:
    view = _position()
    sense = read_view(view)
    odds = his_read(sense, known=0)
    # He cannot tell my eleven cards from the stock's: his odds share out my eleven.
    assert sum(odds) == pytest.approx(11.0)
    assert all(0.0 <= p <= 0.97 for p in odds)
    assert odds[_index("9c")] == 0.0  # the upcard I passed is in the pile
    # A card I throw is no longer mine to him, and its neighbours are less likely.
    after = his_read(sense, known=0, thrown=1 << _index("8s"))
    assert after[_index("8s")] == 0.0
    assert sum(after) == pytest.approx(10.0)
    scale = 10.0 / 11.0
    assert after[_index("7s")] < odds[_index("7s")] * scale
    assert after[_index("8h")] < odds[_index("8h")] * scale


def test_a_card_he_saw_me_take_is_certain_to_him() -> None:
    view = _position("took")
    assert {c.text for c in view.known_to_opponent} == {"9c"}
    sense = read_view(view)
    known = sum(c.bit for c in view.known_to_opponent)
    odds = his_read(sense, known)
    assert odds[_index("9c")] == 1.0
    # Taking 9♣ made its neighbours likelier to him (greedy's nudges of a pick).
    assert odds[_index("8c")] > odds[_index("8d")]


def test_throwing_next_to_my_waiting_cards_lures_more_than_an_unrelated_throw() -> None:
    view = _position()
    sense = read_view(view)
    allowed = [c.index for c in view.hand]
    lures = lure(sense, sense.opp_probs(), 0, allowed)
    assert lures[_index("8s")] > 2 * lures[_index("Kh")]
    # The lure of 8♠ is the fall in his danger of the cards 5♠ 6♠ K♥ ... then wait for.
    before = his_read(sense, 0)
    after = his_read(sense, 0, 1 << _index("8s"))
    assert danger(sense, _index("7s"), after) < danger(sense, _index("7s"), before)


def test_baited_plans_are_the_heuristics_less_the_weighted_lure() -> None:
    view = _position()
    sense = read_view(view)
    probs = sense.opp_probs()
    allowed = [c.index for c in view.hand]
    plans = plan_discard(view.hand_mask, allowed, sense, probs, GreedySettings())
    lures = lure(sense, probs, 0, allowed)
    assert baited(plans, sense, probs, view, 0.0) == plans
    out = baited(plans, sense, probs, view, 3.0)
    cost = {p.card: p.cost for p in plans}
    assert {p.card: p.cost for p in out} == pytest.approx(
        {i: cost[i] - 3.0 * lures[i] for i in allowed})
    assert [p.cost for p in out] == sorted(p.cost for p in out)


def test_the_expert_with_bait_throws_by_the_baited_plans() -> None:
    view = _position()
    sense = read_view(view)
    for weight in (0.0, 40.0):
        bot = make_bot(f"expert:bait={weight},time_cap_ms=0,hand_net=0", seed=1)
        assert isinstance(bot, ExpertBot)
        plans = baited(plan_discard(view.hand_mask, [c.index for c in view.hand], sense,
                                    sense.opp_probs(), bot.greedy), sense, sense.opp_probs(),
                       view, weight)
        assert bot.choose(view) == Discard(CARDS[plans[0].card])
    # With a heavy weight the lure decides: the throw that most calms his fear of my outs.
    heavy = make_bot("expert:bait=40,time_cap_ms=0,hand_net=0", seed=1)
    plain = make_bot("expert:time_cap_ms=0,hand_net=0", seed=1)
    assert heavy.choose(view) != plain.choose(view)


def test_a_negative_bait_is_refused_by_name() -> None:
    with pytest.raises(BotError, match="bait"):
        make_bot("expert:bait=-1")
