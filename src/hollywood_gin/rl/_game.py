"""One episode (a hand or a whole match) driven by action ids, with per-step rewards.

The PettingZoo and Gymnasium environments share this driver, so the two agree on
rewards, truncation and what a seat sees.
"""

from __future__ import annotations

import operator
import random
from typing import Literal

from ..actions import Action
from ..errors import IllegalActionError
from ..hand import Hand, HandView
from ..match import Match
from ..rules import Rules
from ..sheet import ScoreSheet
from .observation import FloatArray, MaskArray, encode_view, legal_mask

__all__ = ["Episode", "RewardKind", "action_id_of", "at_least_one"]

RewardKind = Literal["points", "result"]


def at_least_one(name: str, value: object) -> int:
    """A count setting checked when the environment is made, not at the first step."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number, 1 or more, not {value!r}")
    return value


def action_id_of(action: object) -> int:
    """An action id given as any integer, NumPy's too: a float, a text or a bool is refused
    (``int()`` would play 2.9 as 2 and True as 1)."""
    if not isinstance(action, bool):
        try:
            return operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise IllegalActionError(f"an action id is a whole number, not {action!r}")


class Episode:
    """A hand (``match=False``) or a Hollywood match (``match=True``) played by ids.

    Rewards, per player and per step: for a hand, the hand's points (the loser the
    negative) or its result (+1, -1, 0 for a dead hand); for a match, ``points`` is
    the change of the sheet's total difference (bonuses included), which sums to the
    match result of R7.5, and ``result`` is +1 / -1 / 0 for the match winner at the end.
    """

    def __init__(
        self,
        *,
        rules: Rules,
        match: bool,
        reward: RewardKind,
        rng: random.Random,
        max_actions: int,
        max_hands: int,
    ) -> None:
        if reward not in ("points", "result"):
            raise ValueError(f"reward must be 'points' or 'result', not {reward!r}")
        self.rules = rules
        self.is_match = match
        self.reward = reward
        self.max_actions = max_actions
        self.max_hands = max_hands
        self.match: Match | None = None
        self.actions_in_hand = 0
        self.terminated = False
        self.truncated = False
        if match:
            self.match = Match(rules=rules, seed=rng.getrandbits(63))
            self.hand = self.match.hand
        else:
            self.hand = Hand.deal(rules=rules, dealer=rng.randrange(2), seed=rng.getrandbits(63))

    @property
    def sheet(self) -> ScoreSheet | None:
        return self.match.sheet if self.match is not None else None

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    @property
    def to_act(self) -> int:
        return self.hand.to_act

    def view(self, player: int) -> HandView:
        return self.hand.view(player)

    def observe(self, player: int) -> tuple[FloatArray, MaskArray]:
        """The seat's observation vector and legal-action mask."""
        view = self.hand.view(player)
        return encode_view(view, self.sheet), legal_mask(view)

    def legal_ids(self) -> list[int]:
        return [] if self.done else self.hand.legal_action_ids()

    def step_id(self, action_id: int) -> tuple[float, float]:
        """Play an id for the player to act (checked); returns both players' rewards."""
        if self.done:
            raise IllegalActionError("the episode is over: reset the environment")
        legal = self.hand.legal_action_ids()
        if action_id not in legal:
            raise IllegalActionError(f"action id {action_id} is not legal now; legal ids: {legal}")
        before = self._margin()
        if self.match is not None:
            self.match.apply_id(action_id)
        else:
            self.hand.apply_id(action_id)
        return self._after(before)

    def step_action(self, action: Action, player: int) -> tuple[float, float]:
        """Play an action value (a bot's choice, melds and all) for ``player``, checked."""
        if self.done:
            raise IllegalActionError("the episode is over: reset the environment")
        before = self._margin()
        if self.match is not None:
            self.match.apply(action, player)
        else:
            self.hand.apply(action, player)
        return self._after(before)

    def _after(self, before: int) -> tuple[float, float]:
        self.actions_in_hand += 1
        result = self.hand.result
        if result is None:
            if self.actions_in_hand >= self.max_actions:
                self.truncated = True
            return (0.0, 0.0)
        if self.match is None:
            self.terminated = True
            if result.winner is None:
                return (0.0, 0.0)
            value = float(result.points) if self.reward == "points" else 1.0
            return (value, -value) if result.winner == 0 else (-value, value)
        sheet = self.match.sheet
        r0 = float(self._margin() - before) if self.reward == "points" else 0.0
        if sheet.finished:
            self.terminated = True
            if self.reward == "result":
                winner = sheet.winner
                r0 = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
        elif len(self.match.hands) >= self.max_hands:
            self.truncated = True
        else:
            self.hand = self.match.next_hand()
            self.actions_in_hand = 0
        return (r0, -r0)

    def _margin(self) -> int:
        if self.match is None:
            return 0
        t0, t1 = self.match.sheet.totals
        return t0 - t1
