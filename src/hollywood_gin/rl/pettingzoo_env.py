"""PettingZoo AEC environments: one hand (:func:`hand_env`) or a whole match (:func:`match_env`).

Agents are ``player_0`` and ``player_1`` (the engine's players 0 and 1).  Actions
are the fixed ids of :mod:`hollywood_gin.actions` (``Discrete(109)``); each
observation is ``{"observation": float32[OBS_SIZE], "action_mask": int8[109]}``
from :mod:`hollywood_gin.rl.observation`, built from that seat's
:class:`~hollywood_gin.hand.HandView` only.  An illegal id raises
:class:`~hollywood_gin.errors.IllegalActionError` (mask your policy).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # pettingzoo ships no types

from ..actions import ACTION_COUNT
from ..errors import IllegalActionError
from ..rules import Rules
from ..shuffle import checked_seed
from ._game import Episode, RewardKind, action_id_of, at_least_one
from .observation import OBS_SIZE, observation_high

__all__ = ["HollywoodGinAEC", "hand_env", "match_env"]

AGENTS = ("player_0", "player_1")


def observation_space() -> spaces.Dict:
    """The Dict space of one seat's observation."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, observation_high(), (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
        }
    )


class HollywoodGinAEC(AECEnv):  # type: ignore[misc]  # AECEnv is untyped
    """Two seats alternating on one hand or one match; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's class attribute
        "name": "hollywood_gin_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        match: bool = False,
        rules: Rules | str = "hollywood",
        reward: RewardKind = "points",
        max_actions: int = 1000,
        max_hands: int = 300,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules
        if reward not in ("points", "result"):
            raise ValueError(f"reward must be 'points' or 'result', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.is_match = match
        self.reward_kind: RewardKind = reward
        self.max_actions = at_least_one("max_actions", max_actions)
        self.max_hands = at_least_one("max_hands", max_hands)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: observation_space() for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in AGENTS}
        self._rng = random.Random()
        self._episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def episode(self) -> Episode:
        """The hand or match being played (the whole truth: for tests and tools, not agents)."""
        if self._episode is None:
            raise RuntimeError("call reset() first")
        return self._episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand or match; ``seed`` makes every later reset reproducible too."""
        if seed is not None:
            self._rng = random.Random(None if seed is None else checked_seed(seed))
        self._episode = Episode(
            rules=self.rules,
            match=self.is_match,
            reward=self.reward_kind,
            rng=self._rng,
            max_actions=self.max_actions,
            max_hands=self.max_hands,
        )
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self._episode.to_act]

    def observe(self, agent: str) -> dict[str, Any]:
        if agent not in AGENTS:  # tuple.index said only "x not in tuple"
            raise ValueError(f"no agent {agent!r}: the agents are {', '.join(AGENTS)}")
        obs, mask = self.episode.observe(AGENTS.index(agent))
        if self.episode.done:
            mask[:] = 0
        return {"observation": obs, "action_mask": mask}

    def _check_running(self) -> None:
        """Before a reset, or once every agent has left a finished episode, there is nobody
        to act: say so (it was an AttributeError or a KeyError of PettingZoo's dicts)."""
        if self._episode is None:
            raise RuntimeError("call reset() first")
        if not self.agents:
            raise IllegalActionError("the episode is over: reset the environment")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check_running()
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        self._check_running()
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        episode = self.episode
        agent = self.agent_selection
        r0, r1 = episode.step_id(action_id_of(action))  # raises, changing nothing, if illegal
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {AGENTS[0]: r0, AGENTS[1]: r1}
        if episode.terminated:
            self.terminations = dict.fromkeys(self.agents, True)
        elif episode.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if not episode.done:
            self.agent_selection = AGENTS[episode.to_act]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """A text picture of the game from the acting seat's view: returned (``ansi``), or
        printed (``human``, which returns None, as PettingZoo's convention has it)."""
        if self.render_mode is None or self._episode is None:
            return None
        picture = self._picture(self._episode)
        if self.render_mode == "human":
            print(picture)
            return None
        return picture

    def _picture(self, episode: Episode) -> str:
        view = episode.view(AGENTS.index(self.agent_selection))
        lines = [
            f"{self.agent_selection} to act, phase {view.phase.value}, stock {view.stock_count}",
            "hand: " + " ".join(c.text for c in view.hand),
            "pile: " + " ".join(c.text for c in view.discard_pile),
        ]
        if episode.sheet is not None:
            lines.append(str(episode.sheet))
        return "\n".join(lines)

    def close(self) -> None:
        pass


def hand_env(
    *,
    rules: Rules | str = "hollywood",
    reward: RewardKind = "points",
    max_actions: int = 1000,
    render_mode: str | None = None,
) -> HollywoodGinAEC:
    """One hand per episode; the reward is the hand's points (or its result, +1 / -1 / 0)."""
    return HollywoodGinAEC(
        match=False, rules=rules, reward=reward, max_actions=max_actions, render_mode=render_mode
    )


def match_env(
    *,
    rules: Rules | str = "hollywood",
    reward: RewardKind = "points",
    max_actions: int = 1000,
    max_hands: int = 300,
    render_mode: str | None = None,
) -> HollywoodGinAEC:
    """One Hollywood match per episode.  ``reward="points"``: after each hand, the change of
    the sheet's total difference (sums to the match result, R7.5); ``"result"``: +1 / -1 /
    0 for the match winner at the end.  A match longer than ``max_hands`` is truncated."""
    return HollywoodGinAEC(
        match=True,
        rules=rules,
        reward=reward,
        max_actions=max_actions,
        max_hands=max_hands,
        render_mode=render_mode,
    )
