"""The expert's learned distribution of the knock's outcome (issue 14, ``knock_net``): the
shipped network loads, its pure-Python forward pass is NumPy's, its probabilities sum to
one, it reads nothing the seat cannot see, and the setting changes only the knock's value
in the search (off by default)."""

from __future__ import annotations

import json
import math
import random
from importlib import resources

import numpy as np
import pytest

import hollywood_gin.bots.knocknet as kn
from hollywood_gin.actions import Discard, Knock
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.equity import SheetValue
from hollywood_gin.bots.expert import ExpertBot, ExpertSettings, _greedy_of
from hollywood_gin.bots.greedy import knock_threshold, plan_discard
from hollywood_gin.bots.search import ChoiceSampler, Continuation
from hollywood_gin.cards import CARDS
from hollywood_gin.hand import Hand, Phase
from hollywood_gin.melds import deadwood_of_mask
from hollywood_gin.rules import Rules


def _knock_positions(hands: int, seed: int) -> list[tuple[Hand, int]]:
    """Either seat's discards with a knock (not gin) legal, and the expert's best knock
    card there, from seeded greedy-against-greedy ``eaai`` hands."""
    rules = Rules.preset("eaai")
    out = []
    greedy = _greedy_of(ExpertSettings())
    for k in range(hands):
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=seed + k)
        bots = [make_bot("greedy", seed=k), make_bot("greedy", seed=k + 1)]
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            knockable = {a.card.index for a in view.legal_actions
                         if isinstance(a, Knock) and a.card is not None}
            if view.phase is Phase.DISCARD and knockable:
                sense = read_view(view)
                allowed = [a.card.index for a in view.legal_actions if isinstance(a, Discard)]
                plans = plan_discard(view.hand_mask, allowed, sense, sense.opp_probs(), greedy)
                best = min((p for p in plans if p.card in knockable),
                           key=lambda p: (p.deadwood, p.cost))
                if best.deadwood > 0:
                    out.append((hand.clone(), best.card))
            hand.apply(bots[seat].choose(view), seat)
    return out


@pytest.fixture(scope="module")
def positions() -> list[tuple[Hand, int]]:
    found = _knock_positions(30, 7_100)
    assert len(found) >= 10
    return found


def _inputs(hand: Hand, card: int, cautious: float = 0.3) -> tuple[list[int], list[float]]:
    sense = read_view(hand.view(hand.to_act))
    return kn.knock_features(sense, sense.mine & ~(1 << card), card, cautious)


def test_the_shipped_network_loads_with_its_inputs() -> None:
    net = kn.load_net()
    assert len(net.sparse) == kn.SPARSE_SIZE == 52 * len(kn.CARD_GROUPS)
    assert len(net.dense) == kn.DENSE_SIZE
    assert 16 <= len(net.bias) <= 256
    assert len(net.out_bias) == len(kn.BINS) == len(net.centers)


def test_the_bins() -> None:
    assert [kn.bin_of(d) for d in (0, 7, 40, 41, 50, 51, 60, 61, 80, 81, 99)] == [
        0, 7, 40, 41, 41, 42, 42, 43, 43, 44, 44]


def test_the_evaluator_is_the_numpy_forward_pass(positions: list[tuple[Hand, int]]) -> None:
    """The sparse pure-Python pass equals a dense NumPy pass over every input, and its
    probabilities sum to one."""
    net = kn.load_net()
    w1 = np.concatenate([np.array(net.sparse), np.array(net.dense)])
    b1, w2, b2 = np.array(net.bias), np.array(net.out), np.array(net.out_bias)
    for hand, card in positions[:12]:
        active, dense = _inputs(hand, card)
        x = np.zeros(kn.SPARSE_SIZE + kn.DENSE_SIZE)
        x[active] = 1.0
        x[kn.SPARSE_SIZE:] = dense
        z = np.maximum(x @ w1 + b1, 0.0) @ w2 + b2
        ref = np.exp(z - z.max())
        ref /= ref.sum()
        got = net.probs(active, dense)
        assert math.isclose(sum(got), 1.0, abs_tol=1e-9)
        assert all(p >= 0.0 for p in got)
        assert np.allclose(got, ref, atol=1e-9)


def test_the_stored_reference() -> None:
    """The outputs NumPy gave for a few held-out inputs when the network was written
    (``checks`` in the JSON): the pure-Python pass gives them too."""
    data = json.loads(resources.files("hollywood_gin.bots").joinpath("knock_net.json")
                      .read_text("utf-8"))
    net = kn.load_net()
    assert len(data["checks"]) >= 3
    for check in data["checks"]:
        got = net.probs(check["active"], check["dense"])
        assert math.isclose(sum(got), 1.0, abs_tol=1e-9)
        assert got == pytest.approx(check["probs"], abs=1e-9)


def test_the_network_records_its_build() -> None:
    """The JSON names the builds it was fitted on (seed, hands, opponents, any of which
    ``make_bot`` can play again) and the fit's settings, so that it can be rebuilt."""
    data = json.loads(resources.files("hollywood_gin.bots").joinpath("knock_net.json")
                      .read_text("utf-8"))
    builds = data["build"] if isinstance(data["build"], list) else [data["build"]]
    assert builds
    for build in builds:
        assert isinstance(build["seed"], int) and build["hands"] > 0
        assert build["opponents"]
        for spec in build["opponents"]:
            make_bot(spec, seed=1)
    assert data["fit"]["train_rows"] > data["fit"]["test_rows"] > 0


def test_the_features_read_only_the_view(positions: list[tuple[Hand, int]]) -> None:
    """Another hand with the same view (his cards and the stock re-dealt) gives the same
    inputs and the same distribution."""
    net = kn.load_net()
    rng = random.Random(3)
    checked = 0
    for hand, card in positions[:10]:
        seat = hand.to_act
        view = hand.view(seat)
        other = Hand.sample_from_view(view, rng)
        assert other.view(seat).hand_mask == view.hand_mask
        theirs = sum(1 << c.index for c in other.cards_of(1 - seat))
        mine = sum(1 << c.index for c in hand.cards_of(1 - seat))
        checked += theirs != mine
        a = _inputs(hand, card)
        b = _inputs(other, card)
        assert a == b
        assert net.probs(*a) == net.probs(*b)
    assert checked >= 5


def test_knock_points() -> None:
    assert kn.knock_points(5, 12, 25) == (True, 7)
    assert kn.knock_points(5, 5, 25) == (False, 25)
    assert kn.knock_points(7, 2, 25) == (False, 30)


def test_the_setting_changes_only_the_knock_value(positions: list[tuple[Hand, int]]) -> None:
    """On the same deals (fixed budget, no stopping, no time cap) the play-on candidates
    keep their values; the knock's is the network's expectation on the sheet."""
    fixed_budget = {"samples": 24, "min_samples": 0, "time_cap_ms": 0, "learn": 0}
    net = kn.load_net()
    for n, (hand, card) in enumerate(positions[:6]):
        view = hand.view(hand.to_act)
        sense = read_view(view)
        candidates = [Knock(CARDS[card]), Discard(CARDS[card])]
        plain = ExpertBot(seed=n, settings=ExpertSettings(knock_net=0, **fixed_budget))
        with_net = ExpertBot(seed=n, settings=ExpertSettings(knock_net=1, **fixed_budget))
        value = with_net._net_knock_value(view, None, sense, card)
        a = plain._search(view, None, sense, candidates)
        b = with_net._search(view, None, sense, candidates, 0, None, value)
        assert a[1:] == b[1:]
        assert b[0] == pytest.approx(value)
        keep = sense.mine & ~(1 << card)
        k = deadwood_of_mask(keep)
        active, dense = kn.knock_features(sense, keep, card, with_net.cautious_share())
        points = SheetValue(None, view.player)
        expect = 0.0
        for p, d in net.outcomes(k, active, dense):
            won, pts = kn.knock_points(k, d, view.rules.undercut_bonus)
            expect += p * points.value(view.player if won else 1 - view.player, pts)
        assert value == pytest.approx(expect)


def test_on_by_default_and_off_for_expert_v1() -> None:
    """Both learned models are the expert's default since they won matches against greedy
    and basic (docs/bots.md); expert-v1 stays the expert of issue 3."""
    assert (ExpertSettings().knock_net, ExpertSettings().hand_net) == (1, 1)
    v1 = make_bot("expert-v1")
    assert isinstance(v1, ExpertBot)
    assert (v1.settings.knock_net, v1.settings.hand_net) == (0, 0)
    bot = make_bot("expert:knock_net=2")
    assert isinstance(bot, ExpertBot) and bot.settings.knock_net == 2


def test_knock_net_2_lifts_the_late_veto(monkeypatch: pytest.MonkeyPatch) -> None:
    """Late, beyond greedy's tightened limit, ``knock_net=1`` still vetoes the knock (it
    is no candidate of the search) and ``knock_net=2`` searches it, valued by the net."""
    seen: list[tuple[bool, bool]] = []
    original = ExpertBot._search

    def spy(self: ExpertBot, view, sheet, sense, candidates, budget=0, chasing=None,  # type: ignore[no-untyped-def]
            fixed=None, *rest):
        seen.append((any(isinstance(a, Knock) for a in candidates), fixed is not None))
        return original(self, view, sheet, sense, candidates, budget, chasing, fixed, *rest)

    monkeypatch.setattr(ExpertBot, "_search", spy)
    greedy = _greedy_of(ExpertSettings())
    late = 0
    for n, (hand, card) in enumerate(_knock_positions(80, 9_000)):
        view = hand.view(hand.to_act)
        sense = read_view(view)
        dead = deadwood_of_mask(view.hand_mask & ~(1 << card))
        if sense.opp_draws < 8 or dead <= knock_threshold(sense, view.knock_limit, greedy):
            continue
        late += 1
        for setting in (1, 2):
            seen.clear()
            action = make_bot(f"expert:time_cap_ms=0,samples=32,knock_net={setting}",
                              seed=n).choose(view)
            if setting == 1:  # vetoed: one discard left, no search at all
                assert not isinstance(action, Knock) and not any(k for k, _ in seen)
            else:
                assert seen == [(True, True)]
    assert late, "no late knock beyond greedy's limit in these hands"


def test_the_expert_reads_the_network_only_from_his_third_draw(
    positions: list[tuple[Hand, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kn_from``: before his third draw the re-deals value the knock (the network saw few
    knocks that early and underrates his deadwood), from it the network."""
    seen: list[int] = []
    real = kn.knock_value

    def spy(view, sense, card, cautious, value):  # type: ignore[no-untyped-def]
        seen.append(sense.opp_draws)
        return real(view, sense, card, cautious, value)

    monkeypatch.setattr(kn, "knock_value", spy)
    draws = set()
    for n, (hand, _) in enumerate(positions):
        view = hand.view(hand.to_act)
        draws.add(read_view(view).opp_draws)
        make_bot("expert:samples=16,min_samples=0,time_cap_ms=0,late_veto=0",
                 seed=n).choose(view)
    assert min(draws) < 3 <= max(draws)  # the positions cover both sides of the gate
    assert seen and min(seen) >= 3
    seen.clear()
    for n, (hand, _) in enumerate(positions):
        make_bot("expert:samples=16,min_samples=0,time_cap_ms=0,late_veto=0,kn_from=0",
                 seed=n).choose(hand.view(hand.to_act))
    assert min(seen) < 3


def test_the_review_values_a_knock_by_the_network_the_same_on_every_deal(
    positions: list[tuple[Hand, int]]
) -> None:
    """The review's sampler: a knock short of gin is worth the network's expectation on
    every deal (from his third draw); with ``knock_net`` off the
    knock is played out too, deal by deal."""
    checked = 0
    for n, (hand, card) in enumerate(positions):
        view = hand.view(hand.to_act)
        sense = read_view(view)
        actions = [Knock(CARDS[card]), Discard(CARDS[card])]
        on = ChoiceSampler(view, actions, random.Random(n))
        on.run([0, 1], 24)
        off = ChoiceSampler(view, actions, random.Random(n),
                            continuation=Continuation(knock_net=False))
        off.run([0], 24)
        if sense.opp_draws < 3:
            assert on.fixed == {}
            continue
        expect = kn.knock_value(view, sense, card, 0.3, SheetValue(None, view.player))
        assert on.points[0] == pytest.approx([expect] * 24)
        assert len(set(off.points[0])) > 1  # re-dealt hands give different results
        checked += 1
    assert checked >= 5
