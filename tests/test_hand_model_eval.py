"""benchmarks/hand_model_eval.py's ``throw=1`` rebuilds the opponent's view at his last
throw from mine and a hand of his: the view must be exactly the one he had, or the
evidence it reads (would he have thrown that card?) is about another position."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from hg_benchmarks import load_benchmark
from hollywood_gin.bots import make_bot
from hollywood_gin.cards import indexes_of_mask
from hollywood_gin.hand import Hand, HandView, Phase
from hollywood_gin.rules import Rules


def _hand_model_eval() -> Any:
    return load_benchmark("hand_model_eval")


def _positions(hands: int) -> list[tuple[HandView, int, HandView]]:
    """Seat 0's discards right after a throw of seat 1: (my view, his hand now, the view
    he had when he threw)."""
    out = []
    for k in range(hands):
        hand = Hand.deal(rules=Rules.preset("eaai"), dealer=k % 2, seed=4_000 + k)
        bots = [make_bot("greedy", seed=k), make_bot("greedy", seed=k + 1)]
        his_last: HandView | None = None
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if seat == 1 and view.phase is Phase.DISCARD:
                his_last = view
            if seat == 0 and view.phase is Phase.DISCARD and his_last is not None \
                    and view.history[-2][0] == 1:
                his = sum(c.bit for c in hand.cards_of(1))
                out.append((view, his, his_last))
            hand.apply(bots[seat].choose(view, None), seat)
    return out


def test_the_opponents_view_at_his_last_throw_is_rebuilt_exactly() -> None:
    hme = _hand_model_eval()
    positions = _positions(40)
    assert len(positions) > 150
    for view, his, then in positions:
        assert hme.last_throw(view) >= 0
        rebuilt = hme.his_throw_view(view, his)
        # He saw which card his stock draw brought; I do not, and his choice does not read it.
        assert rebuilt == dataclasses.replace(then, drawn_card=None)
        assert hme.throws_it(make_bot("greedy", seed=0), view, his)


def test_a_hand_he_would_not_have_thrown_from_is_told_apart() -> None:
    """The evidence is not empty: some hands dealt at random would have thrown another card."""
    hme = _hand_model_eval()
    greedy = make_bot("greedy", seed=0)
    rng = random.Random(1)
    refused = 0
    for view, his, _then in _positions(10):
        unknown = [i for i in indexes_of_mask(view.unseen_mask)
                   if i != hme.last_throw(view)]
        other = sum(1 << i for i in rng.sample(unknown, his.bit_count()))
        refused += not hme.throws_it(greedy, view, other)
    assert refused > 0
