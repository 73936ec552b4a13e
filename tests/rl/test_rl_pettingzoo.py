"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests, and keep
each seat's observation to what that seat may know (R3.4, R4.4)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from hollywood_gin.actions import ACTION_COUNT
from hollywood_gin.errors import IllegalActionError
from hollywood_gin.rl import OBS_SIZE, encode_view, hand_env, match_env
from hollywood_gin.rl.observation import SHEET_OFFSET


def _play(env, seed: int, max_steps: int = 100_000) -> tuple[dict[str, float], int]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter(max_steps):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("make", [hand_env, match_env])
def test_pettingzoo_api_test(make) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations draw PettingZoo's advisory warnings
        api_test(make(), num_cycles=200)


@pytest.mark.parametrize("make", [hand_env, match_env])
def test_pettingzoo_seed_test(make) -> None:
    seed_test(make, num_cycles=200)


def test_hand_rewards_are_the_hand_points_zero_sum() -> None:
    for seed in range(5):
        env = hand_env()
        totals, _ = _play(env, seed)
        result = env.episode.hand.result
        assert result is not None
        expected = 0.0 if result.winner is None else float(result.points)
        winner = "player_0" if result.winner == 0 else "player_1"
        assert totals["player_0"] == -totals["player_1"]
        if result.winner is not None:
            assert totals[winner] == expected


def test_match_points_reward_sums_to_the_sheet_difference() -> None:
    env = match_env(rules="classic", max_hands=60)
    totals, _ = _play(env, 3)
    t0, t1 = env.episode.match.sheet.totals
    assert totals["player_0"] == pytest.approx(t0 - t1)
    assert totals["player_1"] == pytest.approx(t1 - t0)


def test_match_result_reward_is_plus_minus_one_for_the_winner() -> None:
    env = match_env(rules="classic", reward="result", max_hands=400)
    totals, _ = _play(env, 5)
    sheet = env.episode.match.sheet
    if sheet.finished and sheet.winner is not None:
        assert totals[f"player_{sheet.winner}"] == 1.0
        assert totals[f"player_{1 - sheet.winner}"] == -1.0
    else:
        assert totals == {"player_0": 0.0, "player_1": 0.0}


def test_observation_is_the_view_encoding_and_hides_the_opponent() -> None:
    env = match_env()
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(300):
        agent = env.agent_selection
        obs, *_ = env.last()
        seat = env.possible_agents.index(agent)
        episode = env.episode
        view = episode.hand.view(seat)
        assert obs["observation"].shape == (OBS_SIZE,)
        np.testing.assert_array_equal(obs["observation"], encode_view(view, episode.sheet))
        hidden = episode.hand.hands[1 - seat] & ~episode.hand.known[1 - seat]
        for i in range(52):
            if hidden >> i & 1:
                assert obs["observation"][i] == 0  # own-hand plane
                assert obs["observation"][260 + i] == 0  # opponent-known plane
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal.tolist()) == sorted(episode.hand.legal_action_ids())
        other = env.observe(env.possible_agents[1 - seat])
        assert not other["action_mask"].any()  # the seat not to act has no legal action
        env.step(int(rng.choice(legal)))
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break


def test_hand_env_has_no_sheet_and_match_env_does() -> None:
    env = hand_env()
    env.reset(seed=1)
    assert not env.observe("player_0")["observation"][SHEET_OFFSET:].any()
    env = match_env()
    env.reset(seed=1)
    assert env.observe("player_0")["observation"][SHEET_OFFSET + 4] == 1.0  # column 1 open


def test_illegal_action_raises_and_action_space_is_the_fixed_one() -> None:
    env = hand_env()
    env.reset(seed=2)
    assert env.action_space("player_0").n == ACTION_COUNT
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    # an agent that is not there is named (it said "tuple.index(x): x not in tuple")
    with pytest.raises(ValueError, match="no agent 'player_9': the agents are player_0, "
                                         "player_1"):
        env.observe("player_9")


@pytest.mark.parametrize("make", [hand_env, match_env])
def test_render_modes_follow_pettingzoo(make, capsys) -> None:
    # ansi returns the picture; human prints it and returns None (PettingZoo's render_test).
    render_test(lambda render_mode=None: make(render_mode=render_mode))
    env = make(render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "to act" in capsys.readouterr().out
    env = make(render_mode="ansi")
    env.reset(seed=1)
    assert "to act" in env.render()


def test_a_refused_step_keeps_the_reward_won_so_far() -> None:
    env = match_env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        obs, reward, *_ = env.last()
        if reward:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    with pytest.raises(IllegalActionError):
        env.step(999)
    assert env.last()[1] == reward


@pytest.mark.parametrize("action", [2.9, np.float32(1.0), "1", True, None, [1]])
def test_an_action_that_is_not_a_whole_number_is_refused(action: object) -> None:
    """int() would play 2.9 as 2 and True as 1."""
    env = hand_env()
    env.reset(seed=2)
    first = env.agent_selection
    with pytest.raises(IllegalActionError, match="an action id is a whole number"):
        env.step(action)
    assert env.agent_selection == first
    env.step(np.int64(0))  # NumPy's integers are whole numbers: the pass is played
    assert env.agent_selection != first


def test_before_a_reset_and_after_the_end_nobody_is_to_act() -> None:
    """last() and step() said AttributeError before a reset, and KeyError: 'player_0' once
    every agent had left a finished hand (a QA pass)."""
    env = hand_env()
    for call in (env.last, lambda: env.step(0)):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()
    _play(env, 3)
    assert env.agents == []
    for call in (env.last, lambda: env.step(0), lambda: env.step(None)):
        with pytest.raises(IllegalActionError, match="the episode is over: reset"):
            call()
    env.reset(seed=3)  # and it plays on after a reset
    assert env.last()[0]["action_mask"].any()
