"""A Gymnasium single-agent environment: the learner holds one seat, one of our bots the other.

The opponent plays from its own views only (through :func:`hollywood_gin.bots.make_bot`
or any object with the bot interface), between the learner's steps, so every
observation is the learner's turn (or the end).  Observations and actions are those
of :mod:`hollywood_gin.rl.pettingzoo_env`; :meth:`GinEnv.action_masks` serves
mask-aware learners such as sb3-contrib's MaskablePPO.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import ACTION_COUNT, Action
from ..cards import as_whole_number
from ..errors import IllegalActionError, shortened
from ..hand import Hand, HandView
from ..rules import Rules
from ..sheet import ScoreSheet
from ._game import Episode, RewardKind, action_id_of, at_least_one
from .observation import MaskArray
from .pettingzoo_env import observation_space

__all__ = ["BotLike", "GinEnv"]


class BotLike(Protocol):
    """What :class:`GinEnv` needs of an opponent (every :class:`hollywood_gin.bots.Bot` has it).

    If it also has ``observe(view, sheet)``, it is shown each hand that ends, as every game
    loop shows a bot (:meth:`hollywood_gin.bots.Bot.observe`)."""

    def reset(self, seed: int | None = None) -> None: ...

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action: ...


class GinEnv(gym.Env[dict[str, Any], np.int64]):
    """One hand (or, with ``match=True``, one Hollywood match) against ``opponent``.

    ``seat`` is 0, 1 or ``"random"`` (drawn at every reset).  An illegal action
    ends the episode with ``illegal_reward`` (default: -1 for ``result`` rewards,
    -300 for ``points``, worse than losing any hand) unless ``illegal="raise"``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        opponent: str | BotLike = "random",
        *,
        rules: Rules | str = "hollywood",
        match: bool = False,
        reward: RewardKind = "points",
        seat: int | str = "random",
        illegal: str = "lose",
        illegal_reward: float | None = None,
        max_actions: int = 1000,
        max_hands: int = 300,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(opponent, str):
            from ..bots import make_bot

            opponent = make_bot(opponent)
        if not (callable(getattr(opponent, "reset", None))
                and callable(getattr(opponent, "choose", None))):
            raise TypeError(f"opponent must be a bot name or an object with reset() and "
                            f"choose(), not {shortened(repr(opponent), 60)}")
        if not (seat == "random" if isinstance(seat, str) else as_whole_number(seat) in (0, 1)):
            raise ValueError(f"seat must be 0, 1 or 'random', not {seat!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if reward not in ("points", "result"):
            raise ValueError(f"reward must be 'points' or 'result', not {reward!r}")
        self.opponent: BotLike = opponent
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules
        self.is_match = match
        self.reward_kind: RewardKind = reward
        self.seat_choice = seat
        self.illegal = illegal
        if illegal_reward is None:
            illegal_reward = -1.0 if reward == "result" else -300.0
        self.illegal_reward = float(illegal_reward)
        self.max_actions = at_least_one("max_actions", max_actions)
        self.max_hands = at_least_one("max_hands", max_hands)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self._rng = random.Random()
        self._episode: Episode | None = None
        self._pending = 0.0
        self.seat = 0

    @property
    def episode(self) -> Episode:
        """The hand or match being played (the whole truth: for tests and tools)."""
        if self._episode is None:
            raise RuntimeError("call reset() first")
        return self._episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        rng = self._rng
        self.seat = rng.randrange(2) if self.seat_choice == "random" else int(self.seat_choice)
        self.opponent.reset(rng.getrandbits(63))
        while True:
            self._episode = Episode(
                rules=self.rules,
                match=self.is_match,
                reward=self.reward_kind,
                rng=rng,
                max_actions=self.max_actions,
                max_hands=self.max_hands,
            )
            # The opponent may move first; what that earns the learner is paid with its
            # first step.  A hand the opponent ends before the learner moves is re-dealt.
            self._pending = self._opponent_plays()
            if not self._episode.done:
                return self._obs(), {"seat": self.seat}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        episode = self.episode
        if episode.done:
            raise IllegalActionError("the episode is over: call reset()")
        action_id = action_id_of(action)
        if action_id not in episode.legal_ids():
            if self.illegal == "raise":
                raise IllegalActionError(
                    f"action id {action_id} is not legal now; legal ids: {episode.legal_ids()}"
                )
            episode.terminated = True
            return self._obs(), self.illegal_reward, True, False, {"illegal_action": True}
        hand = episode.hand
        rewards = episode.step_id(action_id)
        self._show_end(hand)
        reward = rewards[self.seat] + self._opponent_plays() + self._pending
        self._pending = 0.0
        return self._obs(), reward, episode.terminated, episode.truncated, {}

    def action_masks(self) -> MaskArray:
        """The legal-action mask of the current observation (sb3-contrib's convention)."""
        mask: MaskArray = self._obs()["action_mask"]
        return mask

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``)."""
        if self.render_mode is None or self._episode is None:
            return None
        view = self._episode.view(self.seat)
        return (
            f"seat {self.seat}, phase {view.phase.value}, stock {view.stock_count}\n"
            f"hand: {' '.join(c.text for c in view.hand)}\n"
            f"pile: {' '.join(c.text for c in view.discard_pile)}"
        )

    def _opponent_plays(self) -> float:
        """Let the opponent act until it is the learner's turn; the learner's reward meanwhile."""
        episode = self.episode
        total = 0.0
        other = 1 - self.seat
        while not episode.done and episode.to_act == other:
            sheet = episode.sheet.copy() if episode.sheet is not None else None
            action = self.opponent.choose(episode.view(other), sheet)
            hand = episode.hand
            total += episode.step_action(action, other)[self.seat]
            self._show_end(hand)
        return total

    def _show_end(self, hand: Hand) -> None:
        """Show the opponent ``hand`` if that step ended it, with the sheet after it: the
        expert learns how this learner knocks from the hands a match reveals."""
        observe = getattr(self.opponent, "observe", None)
        if hand.result is None or observe is None:
            return
        sheet = self.episode.sheet
        observe(hand.view(1 - self.seat), None if sheet is None else sheet.copy())

    def _obs(self) -> dict[str, Any]:
        episode = self.episode
        obs, mask = episode.observe(self.seat)
        if episode.done:
            mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}


def _register() -> None:
    """Make ``gymnasium.make("HollywoodGin-v0")`` work once this module is imported."""
    from gymnasium.envs.registration import register, registry

    from . import GYM_ID

    if GYM_ID not in registry:
        register(id=GYM_ID, entry_point="hollywood_gin.rl.gym_env:GinEnv")


_register()
