"""The expert's hand-strength discard evaluator (issue 14, ``bots/handvalue.py``): it keeps
combinations whose missing cards are live (R2.1, R2.2: a run needs its neighbours), it
does not care which suit is which, the expert really uses it when asked, and late in a
hand only the deadwood now counts."""

from __future__ import annotations

import dataclasses

import pytest
from hg_bot_games import greedy_discards

from hollywood_gin.actions import Discard
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import CardSense, read_view
from hollywood_gin.bots.expert import ExpertBot, ExpertSettings
from hollywood_gin.bots.greedy import GreedySettings, plan_discard
from hollywood_gin.bots.handvalue import HandValue, HandValueSettings, rank_discards
from hollywood_gin.cards import indexes_of_mask, mask_of, parse_cards
from hollywood_gin.hand import Hand, HandView
from hollywood_gin.melds import deadwood_of_mask
from hollywood_gin.rules import Rules

ALL = (1 << 52) - 1


def _sense(mine: int, pile: int, *, opp_known: int = 0, opp_draws: int = 2,
           stock: int = 29) -> CardSense:
    """A position with ``mine`` in hand, ``pile`` thrown and the opponent's ten cards
    unknown (each unseen card as likely as another to be his)."""
    unseen = ALL & ~mine & ~pile & ~opp_known
    unknown = 10 - opp_known.bit_count()
    weight = [unknown / unseen.bit_count() if unseen >> i & 1 else 0.0 for i in range(52)]
    top = pile.bit_length() - 1
    return CardSense(me=0, mine=mine, pile=pile, top=top, opp_known=opp_known,
                     unseen=unseen | opp_known, opp_unknown=unknown, stock=stock, my_draws=2,
                     opp_draws=opp_draws, opp_taken=opp_known, opp_refused=0,
                     opp_discards=pile, weight=weight)


def _mask(text: str) -> int:
    return mask_of(parse_cards(text))


@pytest.mark.parametrize("depth", [1, 2])
def test_a_run_whose_ends_are_dead_goes_before_one_whose_ends_are_live(depth: int) -> None:
    hand = _mask("2c 3c 4c Jd Qd Kd 7h 8h 7s 8s Tc")
    pile = _mask("6s 9s")  # the spade pair's run cards are gone; the heart pair's are live
    sense = _sense(hand, pile)
    probs = sense.opp_probs()
    pairs = [c.index for c in parse_cards("7h 8h 7s 8s")]
    s = HandValueSettings(depth=depth, danger=0.0)
    plans = rank_discards(hand, pairs, sense, probs, 10, 2, s)
    assert plans[0].card in {c.index for c in parse_cards("7s 8s")}
    cost = {p.card: p.cost for p in plans}
    for live, dead in (("7h", "7s"), ("8h", "8s")):
        (lc,), (dc,) = parse_cards(live), parse_cards(dead)
        assert cost[lc.index] > cost[dc.index]


def test_cards_he_holds_or_the_pile_buried_are_never_drawn() -> None:
    hand = _mask("2c 3c 4c Jd Qd Kd 7h 8h 7s 8s")
    pile = _mask("6s 9s")
    known = _mask("9h")
    sense = _sense(hand, pile, opp_known=known)
    hv = HandValue(sense, sense.opp_probs(), 10, 2, HandValueSettings())
    drawn = {u for u, _, _, _ in hv.draws}
    assert not drawn & set(indexes_of_mask(pile | known | hand))
    assert sum(q for _, _, _, q in hv.draws) == pytest.approx(1.0)
    # The heart pair has one live end left (6h), the spade pair none.
    one = HandValue(_sense(hand, pile), _sense(hand, pile).opp_probs(), 10, 2,
                    HandValueSettings())
    assert hv.one_draw(hand) > one.one_draw(hand)


def _positions(hands: int, seed: int) -> list[HandView]:
    """Seat 0's discards with no knock legal, from seeded greedy-against-greedy hands."""
    return [hand.view(0) for hand in greedy_discards(hands, seed)
            if hand.to_act == 0 and len(hand.view(0).legal_actions) > 1]


def _swap_suits(mask: int, perm: tuple[int, int, int, int]) -> int:
    out = 0
    for i in indexes_of_mask(mask):
        s, r = divmod(i, 13)
        out |= 1 << (perm[s] * 13 + r)
    return out


def test_the_cost_of_a_discard_does_not_depend_on_which_suit_is_which() -> None:
    perm = (2, 0, 3, 1)
    s = HandValueSettings(width=11, inner=11)  # every tie looked at: no index tie-break
    for view in _positions(6, 4_100)[::3]:
        sense = read_view(view)
        probs = sense.opp_probs()
        allowed = [a.card.index for a in view.legal_actions if isinstance(a, Discard)]
        plans = rank_discards(view.hand_mask, allowed, sense, probs, 10, 2, s)
        moved = {
            f.name: _swap_suits(getattr(sense, f.name), perm)
            for f in dataclasses.fields(sense)
            if f.name in {"mine", "pile", "opp_known", "unseen", "opp_taken", "opp_refused",
                          "opp_discards"}
        }
        swapped = dataclasses.replace(sense, **moved)
        to = [(perm[i // 13] * 13 + i % 13) for i in range(52)]
        weight = [0.0] * 52
        for i in range(52):
            weight[to[i]] = sense.weight[i]
        swapped.weight = weight
        sprobs = swapped.opp_probs()
        splans = rank_discards(_swap_suits(view.hand_mask, perm), [to[i] for i in allowed],
                               swapped, sprobs, 10, 2, s)
        cost = {p.card: p.cost for p in splans}
        for p in plans:
            assert cost[to[p.card]] == pytest.approx(p.cost, abs=1e-9)


def test_the_expert_discards_by_the_evaluator_when_asked_and_greedy_is_unchanged() -> None:
    """A position where the evaluator and the greedy heuristic disagree: the expert with
    ``discard_eval=1`` throws the evaluator's card, without it greedy's."""
    found = 0
    for n, view in enumerate(_positions(40, 5_200)):
        sense = read_view(view)
        probs = sense.opp_probs()
        allowed = [a.card.index for a in view.legal_actions if isinstance(a, Discard)]
        best = rank_discards(view.hand_mask, allowed, sense, probs, view.knock_limit,
                             view.rules.dead_hand_stock, HandValueSettings())[0].card
        greedy = plan_discard(view.hand_mask, allowed, sense, probs, GreedySettings())[0].card
        if best == greedy:
            continue
        found += 1
        # greedy's danger (the hand-set odds), not the hand network's (hn_danger); one
        # discard, not the default's two searched
        plain = {"hn_danger": 0, "search_discards": 0}
        on = ExpertBot(n, settings=ExpertSettings(discard_eval=1, **plain)).choose(view)
        off = ExpertBot(n, settings=ExpertSettings(discard_eval=0, **plain)).choose(view)
        v1 = make_bot("expert-v1", seed=n).choose(view)
        assert isinstance(on, Discard) and on.card.index == best
        assert isinstance(off, Discard) and off.card.index == greedy
        assert isinstance(v1, Discard) and v1.card.index == greedy
        assert make_bot("greedy", seed=n).choose(view) == off
    assert found >= 3


def test_with_no_draw_left_only_the_deadwood_now_and_the_danger_count() -> None:
    hand = _mask("2c 3c 4c Jd Qd Kd 7h 8h 7s 8s Tc")
    sense = _sense(hand, _mask("6s 9s"), stock=3)  # he draws, then the hand is dead (R6.1)
    probs = sense.opp_probs()
    allowed = list(indexes_of_mask(hand))
    s = HandValueSettings()
    hv = HandValue(sense, probs, 10, 2, s)
    assert hv.depth == 0
    for p in rank_discards(hand, allowed, sense, probs, 10, 2, s):
        dead = deadwood_of_mask(hand & ~(1 << p.card))
        assert p.cost == pytest.approx(hv.leaf[dead] + s.danger * p.danger)


def test_the_expert_without_its_searches_plays_as_greedy_does() -> None:
    """``search_draws=0,search_knocks=0`` leaves the expert greedy but for its discards
    (and, with ``hn_danger``, their danger): the fast screen of the evaluator
    (docs/bots.md) rests on this."""
    rules = Rules.preset("eaai")
    spec = "expert:search_draws=0,search_knocks=0,hn_danger=0,search_discards=0"
    for k in range(20):
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=6_300 + k)
        bots = [make_bot(spec, seed=k), make_bot("basic", seed=k + 1)]
        greedy = make_bot("greedy", seed=k)
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            action = bots[seat].choose(view)
            if seat == 0:
                assert action == greedy.choose(view)
            hand.apply(action, seat)


def test_the_experts_greedy_stand_in_follows_its_heuristic_settings() -> None:
    """The greedy player the expert hands its unsearched choices to is built once, and
    again whenever the expert's heuristic settings are replaced."""
    from hollywood_gin.bots.expert import ExpertBot
    from hollywood_gin.bots.greedy import GreedySettings

    bot = make_bot("expert:search_draws=0,search_knocks=0", seed=1)
    assert isinstance(bot, ExpertBot)
    first = bot._greedy_bot()
    assert first.settings is bot.greedy and bot._greedy_bot() is first
    bot.greedy = GreedySettings(take_margin=-20.0)
    assert bot._greedy_bot().settings is bot.greedy
