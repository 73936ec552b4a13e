"""The expert's learned knock rule (issue 14, ``knock_model``): the shipped model loads,
decides the knock when the setting is on, is never consulted when it is off, and its
features read nothing the knocker cannot see."""

from __future__ import annotations

import random

import pytest

import hollywood_gin.bots.knockmodel as km
from hollywood_gin.actions import Discard, Knock
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.bots.greedy import GreedySettings, plan_discard
from hollywood_gin.hand import Hand, Phase
from hollywood_gin.melds import deadwood_of_mask
from hollywood_gin.rules import Rules


def _knock_positions(hands: int, seed: int = 4_000) -> list[Hand]:
    """Seat 0's discards where a knock without gin is legal, greedy against basic."""
    rules = Rules.preset("eaai")
    out = []
    for k in range(hands):
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=seed + k)
        bots = [make_bot("greedy", seed=k), make_bot("basic", seed=k + 1)]
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            knocks = [a for a in view.legal_actions if isinstance(a, Knock) and a.card]
            if (seat == 0 and view.phase is Phase.DISCARD and knocks and all(
                    deadwood_of_mask(view.hand_mask & ~a.card.bit) > 0 for a in knocks
                    if a.card)):
                out.append(hand.clone())
            hand.apply(bots[seat].choose(view), seat)
    return out


@pytest.fixture(scope="module")
def positions() -> list[Hand]:
    return _knock_positions(40)


def _model(bias: float) -> km.KnockModel:
    """A model that predicts ``bias`` points for every knock."""
    return km.KnockModel(tuple([bias] + [0.0] * (len(km.FEATURES) - 1)))


def test_the_shipped_model_loads_and_matches_its_features() -> None:
    model = km.load_model()
    assert len(model.coef) == len(km.FEATURES)
    assert any(c != 0.0 for c in model.coef)


def test_the_rule_decides_every_knock_when_on(
    positions: list[Hand], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert positions
    for bias, knocks in ((100.0, True), (-100.0, False)):
        monkeypatch.setattr(km, "load_model", lambda bias=bias: _model(bias))
        for n, hand in enumerate(positions):
            # greedy's danger, and its one discard when the rule plays on (no search)
            bot = make_bot("expert:knock_model=1,hn_danger=0,search_discards=0", seed=n)
            action = bot.choose(hand.view(0))
            assert isinstance(action, Knock) is knocks
            assert isinstance(bot, ExpertBot) and bot.searched_deals == 0  # no search
            if not knocks:
                # Playing on throws the heuristic's best discard, as the search would.
                view = hand.view(0)
                sense = read_view(view)
                allowed = [a.card.index for a in view.legal_actions if isinstance(a, Discard)]
                best = plan_discard(view.hand_mask, allowed, sense, sense.opp_probs(),
                                    GreedySettings())[0]
                assert isinstance(action, Discard) and action.card.index == best.card


def test_as_a_veto_the_rule_only_removes_knocks(
    positions: list[Hand], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(km, "load_model", lambda: _model(-100.0))
    for n, hand in enumerate(positions[:15]):
        action = make_bot("expert:knock_model=2,samples=32,time_cap_ms=0", seed=n).choose(
            hand.view(0))
        assert not isinstance(action, Knock)


def test_off_by_default_the_model_is_never_read(
    positions: list[Hand], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom() -> km.KnockModel:
        raise AssertionError("the knock model was read with knock_model=0")

    monkeypatch.setattr(km, "load_model", boom)
    for n, hand in enumerate(positions[:10]):
        make_bot("expert:samples=32,time_cap_ms=0", seed=n).choose(hand.view(0))
        make_bot("expert-v1:samples=32,time_cap_ms=0", seed=n).choose(hand.view(0))


def test_features_and_decision_ignore_the_hidden_cards(positions: list[Hand]) -> None:
    """The same view with the opponent's cards and the stock dealt afresh gives the same
    features and the same decision from the same seed."""
    rng = random.Random(3)
    changed = 0
    for n, hand in enumerate(positions):
        view = hand.view(0)
        other = Hand.sample_from_view(view, rng)
        assert other.view(0) == view
        changed += other.hands[1] != hand.hands[1]
        feats = []
        for h in (hand, other):
            v = h.view(0)
            bot = ExpertBot(seed=n)
            sense = read_view(v)
            deals = [d.opp for d in bot._deals(v, sense, 8)]
            keep = v.hand_mask & ~next(a.card.bit for a in v.legal_actions
                                       if isinstance(a, Knock) and a.card)
            feats.append(km.knock_features(sense, sense.opp_probs(), keep, 0.3, deals, 25))
        assert feats[0] == feats[1]
        a = make_bot("expert:knock_model=1", seed=n).choose(view)
        b = make_bot("expert:knock_model=1", seed=n).choose(other.view(0))
        assert a == b
    assert changed
