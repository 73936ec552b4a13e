"""Bots never read hidden information: two hands that look the same from a seat but differ
in the opponent's cards and the stock get the same decision from the same seed."""

from __future__ import annotations

import random

import pytest

from hollywood_gin.bots import make_bot
from hollywood_gin.hand import Hand
from hollywood_gin.rules import Rules


def positions(count: int, seed: int) -> list[Hand]:
    """Hands stopped at many points of play by two greedy bots, under several rule sets."""
    rng = random.Random(seed)
    players = (make_bot("greedy", seed=1), make_bot("basic", seed=2))
    rule_sets = [Rules.preset("eaai"), Rules.preset("hollywood"), Rules(discard_taken_card=True)]
    out: list[Hand] = []
    n = 0
    while len(out) < count:
        hand = Hand.deal(rules=rule_sets[n % 3], dealer=n % 2, seed=rng.getrandbits(63))
        n += 1
        stop = rng.randrange(0, 40)
        for _ in range(stop):
            if hand.is_over:
                break
            seat = hand.to_act
            hand.apply(players[seat].choose(hand.view(seat)), seat)
        if not hand.is_over and len(hand.view(hand.to_act).legal_actions) > 1:
            out.append(hand)
    return out


def twin(hand: Hand, rng: random.Random) -> Hand:
    """The same position from the mover's seat, with the hidden cards dealt afresh."""
    seat = hand.to_act
    for _ in range(20):
        other = Hand.sample_from_view(hand.view(seat), rng)
        if other.hands[1 - seat] != hand.hands[1 - seat] or other.stock != hand.stock:
            return other
    raise AssertionError("could not re-deal the hidden cards")


@pytest.mark.parametrize(
    ("spec", "count"),
    [("random", 150), ("basic", 200), ("greedy", 200), ("level1", 100), ("expert", 40),
     ("level3", 100), ("level5:samples=48,min_samples=16", 30)],
)
def test_same_view_same_decision(spec: str, count: int) -> None:
    rng = random.Random(7)
    differ = 0
    for k, hand in enumerate(positions(count, seed=count)):
        seat = hand.to_act
        other = twin(hand, rng)
        view, other_view = hand.view(seat), other.view(seat)
        assert view == other_view  # the premise: nothing visible changed
        differ += other.hands[1 - seat] != hand.hands[1 - seat]
        bot_a, bot_b = make_bot(spec, seed=k), make_bot(spec, seed=k)
        assert bot_a.choose(view) == bot_b.choose(other_view), (spec, view)
    assert differ > count // 2  # the hidden cards really differed


def test_expert_decision_depends_only_on_the_view_over_a_whole_hand() -> None:
    """Stateful play too: the expert, fed twin views through a whole hand, plays the same."""
    rng = random.Random(3)
    base = Hand.deal(rules=Rules.preset("eaai"), dealer=0, seed=11)
    opponent = make_bot("basic", seed=5)
    a, b = make_bot("expert:samples=6", seed=9), make_bot("expert:samples=6", seed=9)
    hand = base
    while not hand.is_over:
        seat = hand.to_act
        if seat == 1:
            view = hand.view(1)
            choice = a.choose(view)
            assert b.choose(twin(hand, rng).view(1)) == choice
            hand.apply(choice, 1)
        else:
            hand.apply(opponent.choose(hand.view(0)), 0)
