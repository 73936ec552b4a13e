"""The expert's learned value of a discard (issue 14, ``value_net``): the shipped network
loads, its pure-Python forward pass is NumPy's, it moves discards only when the setting
is on and only among the heuristic's best, and it reads nothing the seat cannot see."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hg_bot_games import greedy_discards

import hollywood_gin.bots.valuenet as vn
from hollywood_gin.actions import Discard
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.greedy import GreedySettings, plan_discard
from hollywood_gin.hand import Hand

#: The expert as greedy but for its discards (no search, greedy's danger): the cheap way
#: to reach them.
FAST = "expert:search_draws=0,search_knocks=0,hn_danger=0,search_discards=0"


@pytest.fixture(scope="module")
def positions() -> list[Hand]:
    return greedy_discards(12, 6_100)


def _plans(view_hand: Hand) -> tuple[list[int], list[float], object]:
    view = view_hand.view(view_hand.to_act)
    sense = read_view(view)
    probs = sense.opp_probs()
    allowed = [a.card.index for a in view.legal_actions if isinstance(a, Discard)]
    return allowed, probs, plan_discard(view.hand_mask, allowed, sense, probs, GreedySettings())


def test_the_shipped_network_loads_with_its_inputs() -> None:
    net = vn.load_net()
    assert len(net.sparse) == vn.SPARSE_SIZE == 52 * len(vn.CARD_GROUPS)
    assert len(net.dense) == len(vn.DENSE)
    assert 16 <= len(net.bias) <= 128
    assert any(w != 0.0 for w in net.out)


def test_the_evaluator_is_the_numpy_forward_pass(positions: list[Hand]) -> None:
    """The sparse pure-Python pass equals a dense NumPy pass over all 270 inputs."""
    net = vn.load_net()
    sparse, dense_w = np.array(net.sparse), np.array(net.dense)
    bias, out = np.array(net.bias), np.array(net.out)
    checked = 0
    for hand in positions[::4]:
        view = hand.view(hand.to_act)
        sense = read_view(view)
        probs = sense.opp_probs()
        for a in view.legal_actions:
            if not isinstance(a, Discard):
                continue
            active, dense = vn.value_features(sense, probs, a.card.index, view.knock_limit)
            x = np.zeros(vn.SPARSE_SIZE)
            x[active] = 1.0
            assert x.sum() == len(active)  # no input counted twice
            h = np.maximum(x @ sparse + np.array(dense) @ dense_w + bias, 0.0)
            want = (h @ out + net.out_bias) * net.scale
            assert net.value(active, dense) == pytest.approx(want, abs=1e-9)
            checked += 1
    assert checked > 50


def test_off_by_default_the_network_is_never_read(
    positions: list[Hand], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom() -> vn.ValueNet:
        raise AssertionError("the value network was read with value_net=0")

    monkeypatch.setattr(vn, "load_net", boom)
    for n, hand in enumerate(positions[:30]):
        make_bot(FAST, seed=n).choose(hand.view(hand.to_act))
        make_bot("expert:samples=32,time_cap_ms=0", seed=n).choose(hand.view(hand.to_act))


def _net_liking(card_rows: dict[int, float]) -> vn.ValueNet:
    """A network whose value is the sum of ``card_rows`` over my discard's input."""
    width = 4
    zero = (0.0,) * width
    sparse = [zero] * vn.SPARSE_SIZE
    for card, value in card_rows.items():
        sparse[156 + card] = (value,) + (0.0,) * (width - 1)  # the "discard" inputs
    return vn.ValueNet(tuple(sparse), tuple(zero for _ in vn.DENSE),
                       (100.0,) + (0.0,) * (width - 1), (1.0,) + (0.0,) * (width - 1),
                       -100.0, 1.0)


def test_on_it_throws_the_valued_card_among_the_heuristics_best(
    positions: list[Hand], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A network that values throwing low cards moves the discard to the lowest, but only
    among the heuristic's three best within its cost window."""
    net = _net_liking({i: 50.0 - i % 13 for i in range(52)})
    monkeypatch.setattr(vn, "load_net", lambda: net)
    moved = 0
    for n, hand in enumerate(positions):
        view = hand.view(hand.to_act)
        _, _, plans = _plans(hand)
        assert isinstance(plans, list)
        action = make_bot(FAST + ",value_net=1", seed=n).choose(view)
        plain = make_bot(FAST, seed=n).choose(view)
        assert isinstance(action, Discard) and isinstance(plain, Discard)
        assert plain.card.index == plans[0].card
        top = [p.card for p in plans[:3] if p.cost <= plans[0].cost + 6.0]
        want = min(top, key=lambda c: (c % 13, top.index(c)))
        assert action.card.index == want
        moved += action != plain
    assert moved


def test_a_margin_keeps_the_heuristics_discard(
    positions: list[Hand], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A network 5 points keener on low discards moves some under a margin of 4, none
    under a margin of 6."""
    net = _net_liking({i: 5.0 for i in range(52) if i % 13 < 5})
    monkeypatch.setattr(vn, "load_net", lambda: net)
    moved = {4: 0, 6: 0}
    for n, hand in enumerate(positions):
        view = hand.view(hand.to_act)
        plain = make_bot(FAST, seed=n).choose(view)
        for margin in moved:
            a = make_bot(FAST + f",value_net=1,vn_margin={margin}", seed=n).choose(view)
            moved[margin] += a != plain
    assert moved[4] and not moved[6]


def test_the_decision_ignores_the_hidden_cards(positions: list[Hand]) -> None:
    """The same view with the opponent's cards and the stock dealt afresh gives the same
    inputs and the same discard from the shipped network."""
    rng = random.Random(5)
    changed = 0
    for n, hand in enumerate(positions[::2]):
        seat = hand.to_act
        view = hand.view(seat)
        other = Hand.sample_from_view(view, rng)
        assert other.view(seat) == view
        changed += other.hands[1 - seat] != hand.hands[1 - seat]
        inputs = []
        for h in (hand, other):
            v = h.view(seat)
            sense = read_view(v)
            inputs.append([vn.value_features(sense, sense.opp_probs(), a.card.index,
                                             v.knock_limit)
                           for a in v.legal_actions if isinstance(a, Discard)])
        assert inputs[0] == inputs[1]
        spec = FAST + ",value_net=1"
        assert make_bot(spec, seed=n).choose(view) == make_bot(spec, seed=n).choose(
            other.view(seat))
    assert changed
