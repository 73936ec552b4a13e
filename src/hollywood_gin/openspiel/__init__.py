"""OpenSpiel integration (optional extra ``openspiel``): importing this module registers
``python_hollywood_gin`` with pyspiel, so ``pyspiel.load_game("python_hollywood_gin")``
and OpenSpiel's algorithms and bots work on Hollywood Gin.  See :mod:`.game`.
"""

from __future__ import annotations

from ..errors import needs_extra

with needs_extra("hollywood_gin.openspiel", "openspiel"):
    from .game import GAME_NAME, HollywoodGinGame, HollywoodGinState, rules_from_params

__all__ = ["GAME_NAME", "HollywoodGinGame", "HollywoodGinState", "rules_from_params"]
