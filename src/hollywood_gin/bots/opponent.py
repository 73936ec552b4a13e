"""What the expert learns of its opponent during a match: how he decides to knock.

Players knock very differently: ``basic`` knocks the moment the rules let it,
``greedy`` waits for a lower count as the hand ages, people do either.  The
expert's search plays the opponent by a model, and a wrong one costs points (it
fears knocks that will not come, or misses ones that will).  The end of every hand
shows both hands (R3.4, R5.2), and two things in it are evidence:

- he knocked with some count after some of my draws: a cautious player would not
  have knocked with that count so late;
- he did not knock, yet the ten cards he kept after his last discard were within
  the knock limit: he declined a knock, which an eager player never does.

Each style gives each event a likelihood (a style that cannot explain an event
still gives it a small ``slip`` chance, as people are not schedules), and Bayes'
rule turns a prior into the posterior the search samples its opponents from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Discard, DrawStock, Knock, TakeDiscard, TakeUpcard
from ..hand import HandView
from ..melds import deadwood_of_mask

__all__ = [
    "CAUTIOUS",
    "EAGER",
    "GIN_HUNT_DRAWS",
    "KnockEvent",
    "KnockStyle",
    "OpponentModel",
    "knock_events",
]

#: Cards in the stock after the deal (52 less two hands of ten and the upcard, R3.3).
_FIRST_STOCK = 31


#: A gin hunt lasts while the other player has drawn at most this many times.
GIN_HUNT_DRAWS = 3


@dataclass(frozen=True, slots=True)
class KnockStyle:
    """A way of deciding to knock: with any count within ``limit`` until the other player
    has drawn ``early`` times, then with ``slope`` points less per draw of his, never
    demanding less than ``floor``; ``gin_hunt``: plays on with this count or less (-1:
    never) while ``gin_hunt_stock`` cards or more are in the stock and the other player
    has drawn at most :data:`GIN_HUNT_DRAWS` times.

    The one definition of the knock schedule: ``greedy``'s knocks, the expert's playouts
    and its model of the opponent all read it from here.
    """

    early: int
    slope: float
    floor: int
    gin_hunt: int = -1
    gin_hunt_stock: int = 20
    name: str = ""

    def threshold(self, limit: int, other_draws: int) -> float:
        """The highest count this style knocks with after the other player's draws."""
        late = max(0, other_draws - self.early)
        return max(min(float(self.floor), float(limit)), limit - self.slope * late)

    def hunts_gin(self, dead: int, other_draws: int, stock: int) -> bool:
        """Does this style play on for gin with ``dead`` now, whatever the schedule says?"""
        return dead <= self.gin_hunt and stock >= self.gin_hunt_stock and (
            other_draws <= GIN_HUNT_DRAWS)

    def knocks(self, dead: int, limit: int, other_draws: int, stock: int) -> bool:
        """Would a player of this style knock with ``dead`` (within ``limit``) now?"""
        if dead == 0:
            return True
        if self.hunts_gin(dead, other_draws, stock):
            return False
        return dead <= self.threshold(limit, other_draws)


#: Knocks whenever the rules allow it (``basic``, and the expert's old model).
EAGER = KnockStyle(early=0, slope=0.0, floor=10, name="eager")
#: Knocks early with anything, later only with little (``greedy``'s schedule and gin hunt
#: at its default settings).
CAUTIOUS = KnockStyle(early=4, slope=0.8, floor=2, gin_hunt=2, name="cautious")


@dataclass(frozen=True, slots=True)
class KnockEvent:
    """One knock decision of a player, as the end of the hand reveals it."""

    knocked: bool
    deadwood: int  # of the ten cards he kept (knocked with, or held on)
    other_draws: int  # the other player's draws before that decision
    stock: int  # cards left in the stock then


def knock_events(view: HandView, player: int) -> list[KnockEvent]:
    """The knock decisions of ``player`` that the ended hand of ``view`` reveals (none
    while the hand is in play: only the end shows his cards)."""
    result = view.result
    if result is None:
        return []
    other = 1 - player
    draws = [0, 0]
    stock = _FIRST_STOCK
    last: tuple[bool, int, int] | None = None  # (knocked, other's draws, stock) of his last
    for p, action in view.history:
        if isinstance(action, DrawStock):
            draws[p] += 1
            stock -= 1
        elif isinstance(action, TakeUpcard | TakeDiscard):
            draws[p] += 1
        elif p == player and isinstance(action, Discard | Knock):
            last = (isinstance(action, Knock), draws[other], stock)
    if last is None:
        return []
    knocked, other_draws, stock_then = last
    dead = deadwood_of_mask(sum(1 << c.index for c in result.hands[player]))
    if knocked != (result.knocker == player):
        return []  # a log that does not end as the result says: learn nothing
    if not knocked and dead > view.knock_limit:
        return []  # he could not knock: no choice to learn from
    return [KnockEvent(knocked, dead, other_draws, stock_then)]


class OpponentModel:
    """A posterior over knock styles, updated from the hands a match reveals."""

    __slots__ = ("_log", "prior", "slip", "styles")

    def __init__(
        self,
        styles: Sequence[KnockStyle] = (EAGER, CAUTIOUS),
        prior: Sequence[float] = (0.7, 0.3),
        slip: float = 0.1,
    ) -> None:
        if len(styles) != len(prior) or not styles:
            raise ValueError("one prior weight per style")
        self.styles = tuple(styles)
        self.prior = tuple(float(p) for p in prior)
        self.slip = slip
        self._log = [math.log(max(p, 1e-12)) for p in self.prior]

    def reset(self) -> None:
        """Forget the opponent: a new match."""
        self._log = [math.log(max(p, 1e-12)) for p in self.prior]

    def observe(self, view: HandView) -> None:
        """Learn from an ended hand, seen from ``view``'s seat."""
        for event in knock_events(view, 1 - view.player):
            self.update(event, view.knock_limit)

    def update(self, event: KnockEvent, limit: int) -> None:
        """Bayes' rule for one knock decision."""
        if event.knocked and event.deadwood == 0:
            return  # every style goes gin
        for k, style in enumerate(self.styles):
            would = style.knocks(event.deadwood, limit, event.other_draws, event.stock)
            self._log[k] += 0.0 if would == event.knocked else math.log(self.slip)

    def weights(self) -> list[float]:
        """The posterior probability of each style."""
        top = max(self._log)
        raw = [math.exp(v - top) for v in self._log]
        total = sum(raw)
        return [r / total for r in raw]
