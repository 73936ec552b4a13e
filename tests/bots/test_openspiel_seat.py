"""The OpenSpiel adapter: our bots seated in OpenSpiel's gin_rummy against its simple bot.

OpenSpiel (pip package ``open-spiel``) is a dev requirement: this module fails, it does
not skip, when ``pyspiel`` cannot be imported.
"""

from __future__ import annotations

import random

import pyspiel  # type: ignore[import-not-found,unused-ignore]  # missing: fail, not skip

from hollywood_gin.actions import Knock
from hollywood_gin.arena import run_arena
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.openspiel_seat import (
    OPENSPIEL_RULES,
    OpenSpielHand,
    SimpleSeat,
    deck_from_seed,
    from_openspiel,
    play_openspiel_hand,
    tables,
    to_openspiel,
)
from hollywood_gin.cards import CARDS
from hollywood_gin.hand import Phase
from hollywood_gin.melds import deadwood_of_mask, defender_layout_of_masks


def test_card_numbers_translate_both_ways() -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for card in CARDS:
        code = to_openspiel(card.index)
        assert from_openspiel(code) == card.index
        assert utils.card_string(code) == card.text  # e.g. 'Th', 'Ac'


def test_views_show_only_the_seat_and_match_openspiel() -> None:
    rng = random.Random(1)
    for seed in range(30):
        hand = OpenSpielHand(deck_from_seed(seed))
        while not hand.is_over:
            p = hand.to_act
            if hand.needs_choice():
                view = hand.view(p)
                state = hand.state
                assert {c.index for c in view.hand} >= {from_openspiel(c) for c in
                                                         state.hands()[p]}
                assert view.opponent_card_count == len(state.hands()[1 - p])
                assert view.stock_count == state.stock_size()
                assert view.dealer == 1 and view.rules == OPENSPIEL_RULES
                assert not {c.index for c in view.hand} & {c.index for c in view.discard_pile}
                assert view.legal_actions
                other = hand.view(1 - p)
                assert other.legal_actions == ()
                action = rng.choice(view.legal_actions)
                hand.apply(action)
            elif hand.phase == pyspiel.gin_rummy.LAYOFF:
                hand.defend()
            else:
                hand.apply_openspiel(rng.choice(hand.state.legal_actions()))
        _kind, winner, points, _knocker = hand.outcome()
        returns = hand.state.returns()
        assert returns[0] == -returns[1]
        if winner is not None:
            assert returns[winner] == points > 0


def test_our_bots_play_whole_hands_against_the_simple_bot() -> None:
    t = tables()
    assert t.game.get_parameters()["undercut_bonus"] == 25
    kinds = set()
    for seed in range(60):
        deck = deck_from_seed(seed)
        for seats in ((make_bot("basic", seed=seed), SimpleSeat(1)),
                      (SimpleSeat(0), make_bot("greedy", seed=seed))):
            (kind, winner, points, _knocker), _times = play_openspiel_hand(seats, deck)
            kinds.add(kind)
            assert (winner is None) == (points == 0)
    assert {"knock", "undercut"} <= kinds or {"knock", "gin"} <= kinds


def test_the_defender_lays_off_and_the_knocker_shows_its_melds() -> None:
    """A knock by our bot ends with its best melds laid; as defender it lays off."""
    t = tables()
    laid_off = 0
    knocks = 0
    for seed in range(150):
        deck = deck_from_seed(1000 + seed)
        seats = (make_bot("basic", seed=seed), SimpleSeat(1))
        hand = OpenSpielHand(deck)
        simple = seats[1]
        simple.restart()
        while not hand.is_over:
            p = hand.to_act
            if p == 1:
                hand.apply_openspiel(simple.step(hand))
                continue
            if hand.phase == pyspiel.gin_rummy.LAYOFF:
                state = hand.state
                melds = tuple(t.meld_cards[m] for m in state.layed_melds()[1])
                shown = 0
                for m in melds:
                    shown |= m
                mine = sum(1 << from_openspiel(c) for c in state.hands()[0])
                expected = deadwood_of_mask(mine) if state.finished_layoffs() else (
                    defender_layout_of_masks(melds, shown, mine)[0])
                before = len(state.layoffs())
                hand.defend()
                laid_off += len(hand.state.layoffs()) - before
                # OpenSpiel's own count agrees with our optimum of R5.4.
                assert hand.state.deadwood()[0] == expected
                continue
            if not hand.needs_choice():
                hand.apply_openspiel(pyspiel.gin_rummy.PASS_ACTION)
                continue
            view = hand.view(0)
            action = seats[0].choose(view)
            hand.apply(action)
            if isinstance(action, Knock) and action.card is not None:
                knocks += 1
                assert hand.state.knocked()[0]
                # Deadwood left after laying melds is our least deadwood (R2.4).
                rest = sum(1 << c.index for c in view.hand) & ~(1 << action.card.index)
                assert hand.state.deadwood()[0] == deadwood_of_mask(rest)
    assert knocks > 10
    assert laid_off > 0


def test_openspiel_arena_mirrors_and_reports() -> None:
    report = run_arena("greedy", "openspiel-simple", engine="openspiel", hands=40, seed=4)
    assert report.engine == "openspiel" and report.pairs == 20
    a, b = report.bots
    assert a.hands == b.hands == 40
    assert a.name == "greedy" and b.name == "openspiel-simple"
    by_pair: dict[int, list[object]] = {}
    for r in report.results:
        by_pair.setdefault(r.pair, []).append(r.first_deal)
    assert all(len(set(deals)) == 1 for deals in by_pair.values())
    again = run_arena("greedy", "openspiel-simple", engine="openspiel", hands=40, seed=4, jobs=2)
    assert [r.hands for r in report.results] == [r.hands for r in again.results]


def test_wall_knock_is_offered_as_a_taken_upcard() -> None:
    """At the wall our bot sees the upcard as taken and may knock; a discard ends the hand."""
    seen_wall = 0
    for seed in range(400):
        hand = OpenSpielHand(deck_from_seed(seed))
        rng = random.Random(seed)
        while not hand.is_over:
            if hand.phase == pyspiel.gin_rummy.WALL and hand.needs_choice():
                view = hand.view(hand.to_act)
                assert view.phase is Phase.DISCARD and view.stock_count == 2
                assert view.taken_card is not None and len(view.hand) == 11
                assert any(isinstance(a, Knock) for a in view.legal_actions)
                seen_wall += 1
                hand.apply(next(a for a in view.legal_actions if isinstance(a, Knock)))
                break
            if hand.phase == pyspiel.gin_rummy.LAYOFF:
                hand.defend()
                continue
            legal = hand.state.legal_actions()
            # Never knock before the wall, so hands run long.
            choices = [a for a in legal if a != pyspiel.gin_rummy.KNOCK_ACTION] or legal
            hand.apply_openspiel(rng.choice(choices))
        if seen_wall >= 3:
            break
    assert seen_wall >= 1
