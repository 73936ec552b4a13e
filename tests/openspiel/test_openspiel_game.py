"""``python_hollywood_gin`` passes OpenSpiel's random-simulation API test, OpenSpiel's MCTS
bot plays it, and determinization keeps the information state."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import hollywood_gin.openspiel  # noqa: F401  # registers the game
from hollywood_gin.errors import IllegalActionError
from hollywood_gin.openspiel import GAME_NAME, rules_from_params
from hollywood_gin.rl import OBS_SIZE, encode_view
from hollywood_gin.rules import Rules


def _advance(state, rng: random.Random, player_moves: int):
    moves = 0
    while not state.is_terminal() and (state.is_chance_node() or moves < player_moves):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return state


@pytest.mark.parametrize(
    "spec, sims",
    [
        (GAME_NAME, 10),
        (f"{GAME_NAME}(preset=eaai,knock_limit=8,big_gin_bonus=31)", 5),
        (f"{GAME_NAME}(match=True,max_hands=4)", 2),
        (f"{GAME_NAME}(match=True,reward=result,preset=classic,max_hands=3)", 1),
    ],
)
def test_random_sim_test(spec: str, sims: int) -> None:
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_parameters_are_the_rule_options() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(preset=hollywood-20,undercut_bonus=20,oklahoma=True)")
    assert game.rules == Rules(gin_bonus=20, undercut_bonus=20, oklahoma=True)
    assert rules_from_params({"preset": "eaai"}) == Rules.preset("eaai")
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    assert game.num_distinct_actions() == 109
    assert game.observation_tensor_shape() == [OBS_SIZE]


def test_every_rule_option_is_a_parameter() -> None:
    # Each option of Rules (rule book §9) away from its default, taken by name.
    changed = Rules(knock_limit=7, gin_bonus=30, big_gin_bonus=40, undercut_bonus=15,
                    discard_taken_card=True, dead_hand_stock=3, next_dealer="alternate",
                    columns=2, game_target=150, game_bonus=50, shutout_game_bonus=80,
                    box_bonus=10, entry_rule="by_count")
    options = changed.to_dict()
    assert [k for k in options if k != "oklahoma" and options[k] == getattr(Rules(), k)] == []
    assert pyspiel.load_game(GAME_NAME, options).rules == changed
    assert pyspiel.load_game(f"{GAME_NAME}(preset=eaai,entry_rule=by_count)").rules == (
        Rules.preset("eaai").replace(entry_rule="by_count"))


def test_observation_tensor_is_the_view_encoding() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(match=True)")
    state = _advance(game.new_initial_state(), random.Random(3), 25)
    for player in (0, 1):
        expected = encode_view(state.view(player), state.sheet)
        np.testing.assert_array_equal(np.asarray(state.observation_tensor(player)), expected)


def _observer(game, private: str, perfect_recall: bool = False):
    from open_spiel.python.observation import make_observation

    kind = getattr(pyspiel.PrivateInfoType, private)
    return make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=perfect_recall, private_info=kind))


def test_a_public_observer_never_sees_the_seats_own_cards_r3_4() -> None:
    """Asked for the public view alone (private_info=NONE), the observer gave the seat's ten
    cards, in the tensor and the text (a QA pass); ALL_PLAYERS was answered with one seat's
    view. The public view is the seat's view without its cards, from the deal on, and the
    views it does not offer are refused."""
    game = pyspiel.load_game(GAME_NAME)
    public, seat = _observer(game, "NONE"), _observer(game, "SINGLE_PLAYER")
    rng = random.Random(5)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        for player in (0, 1):
            public.set_from(state, player)
            seat.set_from(state, player)
            assert not public.tensor[:52].any()
            text = public.string_from(state, player)
            own = (state.view(player).hand if state.view(player) is not None else ())
            assert not [c for c in own if f" {c.text}" in text.split(" pile ")[0]], text
            if own:  # the rest is the seat's view
                assert seat.tensor[:52].sum() == len(own)
                np.testing.assert_array_equal(public.tensor[52:], seat.tensor[52:])
            checked += 1
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50
    with pytest.raises(NotImplementedError, match="ALL_PLAYERS"):
        _observer(game, "ALL_PLAYERS")
    with pytest.raises(NotImplementedError, match="public perfect-recall"):
        _observer(game, "NONE", perfect_recall=True)
    with pytest.raises(NotImplementedError, match="information_state_string"):
        _observer(game, "SINGLE_PLAYER", perfect_recall=True).set_from(state, 0)
    with pytest.raises(IllegalActionError, match="there is no action 200; they are 0-108"):
        state.action_to_string(0, 200)


def test_resample_keeps_the_information_state() -> None:
    game = pyspiel.load_game(GAME_NAME)
    rng = random.Random(7)
    differed = 0
    for trial in range(12):
        state = _advance(game.new_initial_state(), rng, rng.randrange(0, 60))
        for player in (0, 1):
            sample = state.resample_from_infostate(player, rng.random)
            assert sample.information_state_string(player) == state.information_state_string(
                player
            ), trial
            assert sample.observation_string(player) == state.observation_string(player)
            assert sample.current_player() == state.current_player()
            if state.view(player) is not None and not state.is_terminal():
                other = 1 - player
                differed += sample.view(other).hand != state.view(other).hand
    assert differed > 0


def test_mcts_bot_plays_a_hand() -> None:
    game = pyspiel.load_game(GAME_NAME)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=8,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(0),
    )
    rng = random.Random(0)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 0
    returns = state.returns()
    assert returns[0] == -returns[1]


def test_mcts_bot_moves_in_a_match() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(match=True)")
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=2,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
        random_state=np.random.RandomState(1),
    )
    state = _advance(game.new_initial_state(), random.Random(1), 0)
    assert state.legal_actions()
    assert bot.step(state) in state.legal_actions()


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = pyspiel.load_game(GAME_NAME).new_initial_state()
    with pytest.raises(IllegalActionError, match="not legal now"):
        state.apply_action(52)  # the first chance node picks the dealer: 0 or 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = (state.history(), state.core.hand.clone(), state.information_state_string(0))
    for action in (2, 50, 108, 109):  # the opening offers only pass (0) and take (1)
        with pytest.raises(IllegalActionError, match=r"legal actions: \[0, 1\]"):
            state.apply_action(action)
    assert (state.history(), state.core.hand, state.information_state_string(0)) == before
    state.apply_action(0)  # and the game goes on
    assert state.history() == [*before[0], 0]
