"""The learned model of the opponent's hand (issue 14, ``hand_net``): the shipped network
loads, its pure-Python forward pass is NumPy's (or, without NumPy, gives the stored
values), its chances are proper, it reads nothing the seat cannot see, and the expert's
setting changes its deals only when it is on."""

from __future__ import annotations

import random

import pytest
from hg_bot_games import greedy_discards

import hollywood_gin.bots.handnet as hn
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.hand import Hand

try:
    import numpy as np
except ImportError:  # pragma: no cover - the stored values below stand in
    np = None  # type: ignore[assignment]

#: Seeded positions, and for the first few of them (every seventh) the network's guess of
#: his deadwood and the sum of its logits over the live cards (from the NumPy pass).
EXPECTED: list[tuple[float, float]] = [
    (54.584939, -45.973185), (38.164512, -38.172683), (15.092811, -30.819775),
    (36.704766, -48.808895), (21.53958, -45.077526),
]


@pytest.fixture(scope="module")
def positions() -> list[Hand]:
    return greedy_discards(10, 6_300)


def test_the_shipped_network_loads_with_its_inputs() -> None:
    net = hn.load_hand_net()
    assert len(net.w1) == hn.INPUTS
    assert 16 <= len(net.b1) <= 256
    assert len(net.w2) == len(net.b1) and all(len(r) == 52 for r in net.w2)


def _dense(bits: list[int], planes: list[list[float]], scalars: list[float]) -> list[float]:
    x = [float(m >> i & 1) for m in bits for i in range(52)]
    x += [v for plane in planes for v in plane]
    return x + scalars


def test_the_evaluator_is_the_dense_forward_pass(positions: list[Hand]) -> None:
    """The sparse pure-Python pass equals a dense pass over all the inputs (NumPy's when
    it is there), and the stored values of a few positions."""
    net = hn.load_hand_net()
    checked = []
    for hand in positions[::7]:
        view = hand.view(hand.to_act)
        sense = read_view(view)
        bits, planes, scalars = hn.hand_features(view, sense)
        logits, dead = net.forward(bits, planes, scalars)
        x = _dense(bits, planes, scalars)
        assert len(x) == hn.INPUTS
        if np is not None:
            w1, b1 = np.array(net.w1), np.array(net.b1)
            h = np.maximum(np.array(x) @ w1 + b1, 0.0)
            offset = np.array([hn._offset(w) for w in planes[0]])
            want = h @ np.array(net.w2) + np.array(net.b2) + offset
            assert logits == pytest.approx(list(want), abs=1e-9)
            assert dead == pytest.approx((h @ np.array(net.wd) + net.bd) * net.dead_scale,
                                         abs=1e-9)
        live = bits[hn.BIT_PLANES.index("live")]
        checked.append((dead, sum(z for i, z in enumerate(logits) if live >> i & 1)))
    assert len(checked) >= len(EXPECTED) == 5
    for got, want in zip(checked, EXPECTED, strict=False):
        assert got == pytest.approx(want, abs=1e-5)


def test_the_chances_sum_to_his_unknown_cards(positions: list[Hand]) -> None:
    net = hn.load_hand_net()
    for hand in positions[::3]:
        view = hand.view(hand.to_act)
        sense = read_view(view)
        probs, dead = net.predict(view, sense)
        live = sense.unseen & ~sense.opp_known
        assert dead >= 0.0
        for i, p in enumerate(probs):
            if live >> i & 1:
                assert 0.0 < p < 1.0
            else:
                assert p == 0.0
        assert sum(probs) == pytest.approx(sense.opp_unknown, abs=1e-6)


def test_normalise_at_the_edges() -> None:
    assert hn.normalise([0.0] * 52, 0, 3) == [0.0] * 52
    assert hn.normalise([0.0] * 52, 0b111, 3)[:3] == [1.0, 1.0, 1.0]
    probs = hn.normalise([5.0] * 26 + [-5.0] * 26, (1 << 52) - 1, 10)
    assert sum(probs) == pytest.approx(10.0, abs=1e-9)
    assert probs[0] > 0.38 > 0.001 > probs[51] > 0.0  # ordered as the logits
    even = hn.normalise([0.3] * 52, (1 << 52) - 1, 10)
    assert even == pytest.approx([10 / 52] * 52, abs=1e-9)


def test_no_hidden_card_is_read(positions: list[Hand]) -> None:
    """Hands with the same view and other hidden cards give the same output."""
    net = hn.load_hand_net()
    rng = random.Random(8)
    for hand in positions[::4]:
        seat = hand.to_act
        view = hand.view(seat)
        other = Hand.sample_from_view(view, rng)
        assert other.cards_of(1 - seat) != hand.cards_of(1 - seat) or not read_view(
            view).opp_unknown
        again = other.view(seat)
        a = net.predict(view, read_view(view))
        b = net.predict(again, read_view(again))
        assert a == b


def test_the_setting_changes_the_deals_and_only_when_on(positions: list[Hand]) -> None:
    hand = positions[20]
    view = hand.view(hand.to_act)
    sense = read_view(view)
    deals = {}
    for spec in ("expert", "expert:hand_net=0", "expert:hand_net=1", "expert:hand_net=2",
                 "expert:hand_net=1,hn_dead=0.5"):
        bot = make_bot(spec, seed=4)
        assert isinstance(bot, ExpertBot)
        deals[spec] = [d.opp for d in bot._deals(view, sense, 32)]
    assert deals["expert"] == deals["expert:hand_net=1"]  # on by default
    for spec in ("expert:hand_net=0", "expert:hand_net=2", "expert:hand_net=1,hn_dead=0.5"):
        assert deals[spec] != deals["expert"]


def test_off_the_network_is_never_read(
    positions: list[Hand], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hand_net=0`` and expert-v1 re-deal by the hand-set weights alone."""
    def boom() -> hn.HandNet:
        raise AssertionError("the hand network was read with hand_net=0")

    monkeypatch.setattr(hn, "load_hand_net", boom)
    for n, hand in enumerate(positions[:20]):
        for spec in ("expert:samples=32,time_cap_ms=0,hand_net=0", "expert-v1:time_cap_ms=0"):
            make_bot(spec, seed=n).choose(hand.view(hand.to_act))


def test_hn_danger_reads_the_network_for_the_heuristic(
    positions: list[Hand], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = hn.load_hand_net

    def counted() -> hn.HandNet:
        calls.append(1)
        return real()

    monkeypatch.setattr(hn, "load_hand_net", counted)
    fast = "expert:search_draws=0,search_knocks=0,hn_danger=1"
    for n, hand in enumerate(positions[:10]):
        make_bot(fast, seed=n).choose(hand.view(hand.to_act))
    assert len(calls) >= 10
