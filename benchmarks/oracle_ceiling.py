"""How far knowing the opponent's hand would take the expert (issue 14): a ceiling, not a
bot.  ``peek:<spec>`` is the expert of ``<spec>`` whose re-deals are all the true deal:
his real hand, and the real stock's cards in a fresh random order each time (so it does
not see what it will draw).  Everything else is the expert's own: the same candidates,
playouts, knock styles learnt in the match and stopping rule.  Its margin over the
expert on the same mirrored deals (``paired_screen.py``'s report) is the most that a
better model of his hand could give this search.

    PYTHONPATH=src python3 benchmarks/oracle_ceiling.py --matches --opponent greedy \\
        --pairs 300 --seed 9101 expert "peek:expert:knock_net=0"

``knock_net=0``: the knock network prices a knock from what the knocker sees, so the
peeking expert values its knocks by its (true) re-deals instead.  The peeking happens
only here, in a benchmark: the bots, the arena and every game loop give a bot its view.
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import paired_screen

from hollywood_gin.arena import games
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import CardSense
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.bots.search import Deal
from hollywood_gin.hand import Hand
from hollywood_gin.view import HandView

PEEK = "peek:"
_playing: dict[str, Hand] = {}  # the hand whose view was built last (the arena's loop)
_real_view = Hand._view


def _view_noted(self: Hand, player: int, ids: Any) -> HandView:
    _playing["hand"] = self
    return _real_view(self, player, ids)


class PeekingExpert(ExpertBot):
    """The expert re-dealing the true deal (this benchmark's ceiling)."""

    _truth: tuple[int, list[int]] = (0, [])

    def choose(self, view: HandView, sheet: Any = None) -> Any:
        hand = _playing["hand"]
        self._truth = (hand.hands[1 - view.player], list(hand.stock))
        return super().choose(view, sheet)

    def _deals(self, view: HandView, sense: CardSense, count: int) -> list[Deal]:
        opp, stock = self._truth
        deals = []
        for _ in range(count):
            order = stock[:]
            self.rng.shuffle(order)
            deals.append(Deal(opp, order))
        return deals


_real_bot = games._bot
_peekers: dict[tuple[str, int], ExpertBot] = {}


def _bot_or_peeker(spec: Any, seed: int, seat: int) -> Any:
    if not (isinstance(spec, str) and spec.startswith(PEEK)):
        return _real_bot(spec, seed, seat)
    bot = _peekers.get((spec, seat))
    if bot is None:
        made = make_bot(spec[len(PEEK):])
        if not isinstance(made, ExpertBot):
            raise SystemExit(f"{spec}: only an expert can peek")
        bot = _peekers[spec, seat] = PeekingExpert(settings=made.plain)
    bot.reset(seed)
    return bot


def main() -> int:
    Hand._view = _view_noted  # type: ignore[method-assign]
    games._bot = _bot_or_peeker
    return paired_screen.main(__doc__)


if __name__ == "__main__":
    raise SystemExit(main())
