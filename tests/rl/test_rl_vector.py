"""The vector environment steps many hands at once, auto-resets, and its fast observations
equal the reference view encoding at every step."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hollywood_gin.errors import IllegalActionError
from hollywood_gin.rl import (
    OBS_SIZE,
    GinEnv,
    VectorGinEnv,
    encode_view,
    hand_env,
    legal_mask,
    match_env,
)


def _random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def test_vector_observations_equal_view_encoding() -> None:
    env = VectorGinEnv(6, seed=0)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(600):
        assert obs["observation"].shape == (6, OBS_SIZE)
        for i, hand in enumerate(env.hands):
            seat = hand.to_act
            assert info["to_play"][i] == seat
            view = hand.view(seat)
            np.testing.assert_array_equal(obs["observation"][i], encode_view(view))
            np.testing.assert_array_equal(obs["action_mask"][i], legal_mask(view))
        obs, rewards, term, trunc, info = env.step(_random_actions(rng, obs["action_mask"]))
        assert (rewards.sum(axis=1) == 0).all()
        finished += int(term.sum() + trunc.sum())
    assert finished > 0  # auto-reset happened and the new hands were checked too


def test_vector_rewards_and_determinism() -> None:
    runs = []
    for _ in range(2):
        env = VectorGinEnv(4, reward="result", seed=9)
        obs, _ = env.reset()
        rng = np.random.default_rng(1)
        trace = []
        for _ in range(300):
            obs, rewards, term, _, _ = env.step(_random_actions(rng, obs["action_mask"]))
            assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
            trace.append((rewards.copy(), term.copy()))
        runs.append(trace)
    for (r1, t1), (r2, t2) in zip(*runs, strict=True):
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(t1, t2)


def test_vector_rejects_illegal_and_wrong_shapes() -> None:
    env = VectorGinEnv(2, seed=0)
    obs, _ = env.reset()
    bad = np.argmin(obs["action_mask"], axis=1)
    with pytest.raises(IllegalActionError):
        env.step(bad)
    with pytest.raises(ValueError):
        env.step([2])


def test_vector_checks_every_id_before_playing_any() -> None:
    env = VectorGinEnv(3, seed=4)
    obs, _ = env.reset()
    good = np.argmax(obs["action_mask"], axis=1)
    before = [slot.hand.clone() for slot in env._slots]
    bad = good.copy()
    bad[2] = np.argmin(obs["action_mask"][2])
    # an illegal id last; ids that are floats (said as such: "0.0 is not legal now; legal
    # ids: [0, 1]" seemed to contradict itself)
    for actions, words in ((bad, "is not legal now"),
                           (good.astype(np.float64), "hand 0: an action id is a whole number")):
        with pytest.raises(IllegalActionError, match=words):
            env.step(actions)
        assert [slot.hand for slot in env._slots] == before
    env.step(good)
    assert [slot.hand for slot in env._slots] != before
    with pytest.raises(ValueError):
        VectorGinEnv(0)


@pytest.mark.parametrize("make", [
    lambda v: VectorGinEnv(2, max_actions=v), lambda v: VectorGinEnv(v),
    lambda v: GinEnv("random", max_actions=v), lambda v: GinEnv("random", max_hands=v),
    lambda v: hand_env(max_actions=v), lambda v: match_env(max_hands=v),
])
@pytest.mark.parametrize("value", [0, -5, "x", 2.5, True])
def test_every_environment_checks_its_counts_when_made(make: Any, value: object) -> None:
    """Not at the first step ('x'), nor by cutting every episode after one action (-5)."""
    with pytest.raises(ValueError, match=r"must be a whole number, 1 or more, not"):
        make(value)


@pytest.mark.parametrize("reset", [
    lambda: VectorGinEnv(2, seed=-1), lambda: VectorGinEnv(2).reset(seed=-1),
    lambda: hand_env().reset(seed=-1), lambda: match_env().reset(seed=-3),
])
def test_every_environment_refuses_a_negative_seed(reset: Any) -> None:
    """random.Random would seed -1 as 1: two runs with different seeds would deal alike."""
    with pytest.raises(ValueError, match=r"seed must be 0 or more, not -\d"):
        reset()


@pytest.mark.parametrize("seat", [True, 2, "0", 1.0])
def test_the_gym_seat_is_0_1_or_random_and_never_a_bool(seat: object) -> None:
    with pytest.raises(ValueError, match="seat must be 0, 1 or 'random'"):
        GinEnv("random", seat=seat)  # type: ignore[arg-type]


def test_numpy_whole_numbers_seed_every_environment_as_python_ints_do() -> None:
    """np.int64(3) was refused by the core ("must be a whole number") and by PettingZoo's
    reset with a bare TypeError."""
    import numpy as np

    from hollywood_gin.hand import Hand
    from hollywood_gin.match import Match

    assert Hand.deal(seed=np.int64(3)) == Hand.deal(seed=3)
    assert Match(seed=np.int64(3)).hand == Match(seed=3).hand
    one, two = hand_env(), hand_env()
    one.reset(seed=np.int64(3))
    two.reset(seed=3)
    assert one.episode.hand == two.episode.hand
    for bad in (1.0, 1.5, True):
        with pytest.raises(ValueError, match="seed must be a whole number"):
            hand_env().reset(seed=bad)  # type: ignore[arg-type]
