"""The Gymnasium environment against our bots passes Gymnasium's checker and plays
whole hands and matches with the opponent moving between the learner's steps."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from hollywood_gin.actions import Action
from hollywood_gin.bots import make_bot
from hollywood_gin.errors import IllegalActionError
from hollywood_gin.hand import HandView
from hollywood_gin.rl import GYM_ID, GinEnv
from hollywood_gin.sheet import ScoreSheet


class FirstLegal:
    """The smallest opponent: anything with ``reset`` and ``choose`` will do."""

    def reset(self, seed: int | None = None) -> None:
        self.seen = 0

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        self.seen += 1
        return view.legal_actions[0]


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"opponent": "basic", "match": True}, {"opponent": "greedy", "reward": "result"}],
)
def test_gymnasium_check_env(kwargs) -> None:
    check_env(GinEnv(**kwargs), skip_render_check=True)


def test_registered_id_and_render() -> None:
    env = gymnasium.make(GYM_ID, opponent="random", render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=0)
    assert "hand:" in env.render()
    env.close()


def _episode(env: GinEnv, seed: int) -> tuple[float, int, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        assert env.episode.to_act == env.seat or env.episode.done
        mask = env.action_masks()
        np.testing.assert_array_equal(mask, obs["action_mask"])
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if term or trunc:
            return total, steps, info


def test_hand_against_a_bot_object_and_by_name() -> None:
    bot = FirstLegal()
    env = GinEnv(bot, seat=1)
    total, _, _ = _episode(env, 4)
    assert bot.seen > 0 and env.seat == 1
    result = env.episode.hand.result
    assert result is not None
    if result.winner is None:
        assert total == 0.0
    else:
        assert abs(total) == result.points
        assert (total > 0) == (result.winner == 1)
    env = GinEnv(make_bot("greedy", seed=1))
    _episode(env, 5)


def test_match_points_reward_is_the_sheet_difference() -> None:
    env = GinEnv("basic", match=True, rules="classic", seat=0)
    total, _, _ = _episode(env, 6)
    t0, t1 = env.episode.match.sheet.totals
    assert total == pytest.approx(t0 - t1)


def test_illegal_action_loses_or_raises() -> None:
    env = GinEnv("random")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = env.step(illegal)
    assert term and reward == -300.0 and info["illegal_action"]
    env = GinEnv("random", illegal="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        env.step(illegal)


class Watcher(FirstLegal):
    """An opponent that also learns from ended hands, as Bot.observe is called."""

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.shown: list[tuple[HandView, tuple[int, ...] | None]] = []

    def observe(self, view: HandView, sheet: ScoreSheet | None = None) -> None:
        self.shown.append((view, None if sheet is None else sheet.totals))


@pytest.mark.parametrize("seat", [0, 1])
def test_the_opponent_is_shown_every_ended_hand_of_a_match(seat: int) -> None:
    env = GinEnv(Watcher(), match=True, rules="eaai", seat=seat)
    obs, _ = env.reset(seed=5)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(int(np.argmax(obs["action_mask"])))
        done = terminated or truncated
    match = env.episode.match
    shown = env.opponent.shown
    assert len(shown) == len(match.hands) > 1
    for (view, _), hand in zip(shown, match.hands, strict=True):
        assert view == hand.view(1 - seat) and view.result == hand.result  # his own view
    assert shown[-1][1] == match.sheet.totals


@pytest.mark.parametrize("action", [2.9, np.float32(1.0), "1", True, None])
def test_an_action_that_is_not_a_whole_number_is_refused(action: object) -> None:
    """Refused even when illegal actions lose: it is a wrong value, not a move."""
    env = GinEnv("random")
    obs, _ = env.reset(seed=4)
    with pytest.raises(IllegalActionError, match="an action id is a whole number"):
        env.step(action)  # type: ignore[arg-type]
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    *_, info = env.step(np.int64(legal))
    assert "illegal_action" not in info


def test_an_opponent_that_is_no_bot_is_refused_at_once() -> None:
    """GinEnv(42) was accepted, and reset() then said 'int' object has no attribute
    'reset' (a QA pass)."""
    with pytest.raises(TypeError, match=r"opponent must be a bot name or an object with "
                                        r"reset\(\) and choose\(\), not 42"):
        GinEnv(42)  # type: ignore[arg-type]
