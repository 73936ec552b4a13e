"""Many hands stepped at once with arrays, for self-play training throughput.

:class:`VectorGinEnv` keeps ``n`` independent hands.  Each step takes one action id
per hand, for whichever seat is to act there, and returns the next observation of
the seat to act, both seats' rewards, and auto-resets finished hands.  Observations
follow :mod:`hollywood_gin.rl.observation` exactly (the sheet part is zero: these are
single hands) but are computed from the engine's masks directly, several times faster
than building views; the tests check them against :func:`encode_view` step by step.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import ACTION_COUNT, DISCARD_BASE, DRAW_STOCK_ID, KNOCK_BASE, PASS_ID
from ..errors import IllegalActionError
from ..hand import Hand, Phase
from ..rules import Rules
from ..shuffle import checked_seed
from ._game import RewardKind, action_id_of, at_least_one
from .observation import OBS_SIZE, SCALAR_OFFSET, FloatArray, MaskArray

__all__ = ["VectorGinEnv"]

_PHASE_INDEX = {Phase.OFFER: 0, Phase.DRAW: 1, Phase.DISCARD: 2, Phase.OVER: 3}
_PLANES = 7


class _Slot:
    """One hand and the public facts the observation needs that the hand does not keep."""

    __slots__ = ("actions", "discards", "hand", "legal", "refused")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.discards = [0, 0]
        self.refused = False
        self.actions = 0
        self.legal: list[int] = []


class VectorGinEnv:
    """``n`` hands in lockstep (self-play: the caller plays both seats).

    ``reset()`` and ``step(actions)`` return observations as a dict of arrays,
    ``{"observation": float32[n, OBS_SIZE], "action_mask": int8[n, 109]}``, each row
    from the seat in ``info["to_play"]``.  ``step`` also returns ``rewards``
    (float32[n, 2], by seat: the hand's points, or +1 / -1 with ``reward="result"``),
    ``terminated`` and ``truncated`` (bool[n]); a finished hand is replaced at once by
    a new deal, so the returned row is already the new hand's first observation.
    """

    def __init__(
        self,
        n: int,
        *,
        rules: Rules | str = "hollywood",
        reward: RewardKind = "points",
        max_actions: int = 1000,
        seed: int | None = None,
    ) -> None:
        if reward not in ("points", "result"):
            raise ValueError(f"reward must be 'points' or 'result', not {reward!r}")
        self.num_envs = at_least_one("n", n)
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules
        self.reward_kind: RewardKind = reward
        self.max_actions = at_least_one("max_actions", max_actions)
        self._rng = random.Random(None if seed is None else checked_seed(seed))
        self._slots: list[_Slot] = []
        self._masks = np.zeros((n, _PLANES), dtype=np.uint64)
        self._scalars = np.zeros((n, 10), dtype=np.float32)
        self._to_play = np.zeros(n, dtype=np.int8)

    @property
    def hands(self) -> list[Hand]:
        """The hands being played (the whole truth: for tests and tools, not agents)."""
        return [slot.hand for slot in self._slots]

    def reset(
        self, *, seed: int | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Deal ``n`` new hands."""
        if seed is not None:
            self._rng = random.Random(None if seed is None else checked_seed(seed))
        self._slots = [_Slot(self._deal()) for _ in range(self.num_envs)]
        for i in range(self.num_envs):
            self._record(i)
        return self._obs(), {"to_play": self._to_play.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        dict[str, npt.NDArray[Any]],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Apply one action id per hand; raises :class:`IllegalActionError` for an illegal id."""
        if not self._slots:
            raise RuntimeError("call reset() first")
        ids = np.asarray(actions).reshape(-1).tolist()
        n = self.num_envs
        if len(ids) != n:
            raise ValueError(f"expected {n} actions, got {len(ids)}")
        # Every id is checked before any is played, so a bad one changes no hand.
        for i, raw in enumerate(ids):
            try:
                action_id = action_id_of(raw)  # 0.0 is not an id (it said "0.0 is not legal")
            except IllegalActionError as exc:
                raise IllegalActionError(f"hand {i}: {exc}") from None
            legal = self._slots[i].legal
            if action_id not in legal:
                raise IllegalActionError(
                    f"hand {i}: action id {action_id!r} is not legal now; legal ids: {legal}"
                )
            ids[i] = action_id
        rewards = np.zeros((n, 2), dtype=np.float32)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        points = self.reward_kind == "points"
        for i, action_id in enumerate(ids):
            slot = self._slots[i]
            hand = slot.hand
            player = hand.to_act
            if DISCARD_BASE <= action_id < KNOCK_BASE:
                slot.discards[player] |= 1 << (action_id - DISCARD_BASE)
            hand.apply_id(action_id)
            slot.actions += 1
            if action_id == PASS_ID:
                slot.refused = hand.phase is Phase.DRAW
            elif action_id == DRAW_STOCK_ID:
                slot.refused = False
            result = hand.result
            if result is not None:
                terminated[i] = True
                if result.winner is not None:
                    value = float(result.points) if points else 1.0
                    rewards[i, result.winner] = value
                    rewards[i, 1 - result.winner] = -value
            elif slot.actions >= self.max_actions:
                truncated[i] = True
            if terminated[i] or truncated[i]:
                self._slots[i] = _Slot(self._deal())
            self._record(i)
        return self._obs(), rewards, terminated, truncated, {"to_play": self._to_play.copy()}

    def _deal(self) -> Hand:
        rng = self._rng
        return Hand.deal(rules=self.rules, dealer=rng.randrange(2), seed=rng.getrandbits(63))

    def _record(self, i: int) -> None:
        """Store the masks and numbers of hand ``i`` for the seat to act."""
        slot = self._slots[i]
        hand = slot.hand
        p = hand.to_act
        pile = 0
        for c in hand.pile:
            pile |= 1 << c
        top = 1 << hand.pile[-1] if hand.pile else 0
        m = self._masks[i]
        m[0] = hand.hands[p]
        m[1] = pile
        m[2] = top
        m[3] = slot.discards[p]
        m[4] = slot.discards[1 - p]
        m[5] = hand.known[1 - p]
        m[6] = hand.known[p]
        s = self._scalars[i]
        s.fill(0.0)
        s[_PHASE_INDEX[hand.phase]] = 1.0
        s[4] = 0.0 if hand.phase is Phase.OVER else 1.0
        s[5] = 1.0 if hand.dealer == p else 0.0
        s[6] = len(hand.stock) / 31.0
        s[7] = hand.hands[1 - p].bit_count() / 11.0
        s[8] = hand.knock_limit / 10.0
        s[9] = 1.0 if slot.refused else 0.0
        self._to_play[i] = p
        slot.legal = hand.legal_action_ids()

    def _obs(self) -> dict[str, npt.NDArray[Any]]:
        n = self.num_envs
        # Little-endian bytes, little bit order: bit k of a mask lands in column k.
        raw = self._masks.astype("<u8", copy=False).view(np.uint8)
        bits = np.unpackbits(raw, axis=1, bitorder="little")
        obs: FloatArray = np.zeros((n, OBS_SIZE), dtype=np.float32)
        obs[:, :SCALAR_OFFSET] = bits.reshape(n, _PLANES, 64)[:, :, :52].reshape(n, -1)
        obs[:, SCALAR_OFFSET : SCALAR_OFFSET + 10] = self._scalars
        mask: MaskArray = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        flat: list[int] = []
        for i, slot in enumerate(self._slots):
            base = i * ACTION_COUNT
            flat.extend(base + a for a in slot.legal)
        mask.reshape(-1)[flat] = 1
        return {"observation": obs, "action_mask": mask}
