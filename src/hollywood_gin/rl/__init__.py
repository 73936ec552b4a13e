"""Reinforcement-learning interfaces (optional extra ``rl``: pettingzoo, gymnasium, numpy).

- :func:`hand_env`, :func:`match_env`: PettingZoo AEC environments for two learners.
- :class:`GinEnv`: a Gymnasium environment against one of our bots (registered as
  :data:`GYM_ID` once :class:`GinEnv` is imported).
- :class:`VectorGinEnv`: many hands stepped at once with arrays, for throughput.

All share the fixed action space of :mod:`hollywood_gin.actions` (109 ids) and the
observation layout of :mod:`hollywood_gin.rl.observation`, built from views only.
The environments are imported on first use, so the observation encoder needs NumPy
alone (the OpenSpiel game uses it without PettingZoo or Gymnasium).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..errors import needs_extra

with needs_extra("hollywood_gin.rl", "rl"):
    from .observation import OBS_SIZE, encode_view, legal_mask

if TYPE_CHECKING:
    from .gym_env import BotLike, GinEnv
    from .pettingzoo_env import HollywoodGinAEC, hand_env, match_env
    from .vector import VectorGinEnv

#: The Gymnasium id of :class:`GinEnv`: ``gymnasium.make(GYM_ID, opponent="greedy")``.
GYM_ID = "HollywoodGin-v0"

_LAZY = {
    "BotLike": "gym_env",
    "GinEnv": "gym_env",
    "HollywoodGinAEC": "pettingzoo_env",
    "hand_env": "pettingzoo_env",
    "match_env": "pettingzoo_env",
    "VectorGinEnv": "vector",
}

__all__ = [
    "GYM_ID",
    "OBS_SIZE",
    "BotLike",
    "GinEnv",
    "HollywoodGinAEC",
    "VectorGinEnv",
    "encode_view",
    "hand_env",
    "legal_mask",
    "match_env",
]


def __getattr__(name: str) -> Any:
    """Import an environment module when one of its names is first used (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
