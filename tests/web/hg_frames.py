"""Real state frames for page tests that need a particular position (eleven cards in many
groups, a knock with lay-offs and deadwood): matches played by the basic bot from seeds
until one shows it, turned into frames by the server's own ``state_frame``.  A page test
serves them on a routed WebSocket, so the position is the same on every run."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from hollywood_gin.bots import make_bot
from hollywood_gin.hand import Phase
from hollywood_gin.match import Match
from hollywood_gin.rules import Rules
from hollywood_gin.web.protocol import TableInfo, state_frame

TABLE = "f" * 32
LONG = ("Annabel Featherstonehaugh", "Bartholomew Okonkwo-Smyth")  # 25 and 25 characters


def frame(match: Match, seat: int, *, names: tuple[str, str] = LONG, seq: int = 0,
          opponent: str = "friend", **extra: Any) -> dict[str, Any]:
    """The state frame ``seat`` would get of ``match`` (names cut to 24 like the server's)."""
    info = TableInfo(TABLE, (names[0][:24], names[1][:24]), opponent,  # type: ignore[arg-type]
                     3 if opponent == "computer" else None, match.rules.preset_name)
    deck = match.hand.deck
    extra.setdefault("upcard", deck[20] if deck is not None else None)
    # Only what this server's state_frame takes, so the same test can be run against an
    # older server (to show that it fails there for the reason it names).
    for name, value in (("joined", (True, True)), ("connected", (True, True)),
                        ("ready", (False, False))):
        extra.setdefault(name, value)
    takes = inspect.signature(state_frame).parameters
    extra = {k: v for k, v in extra.items() if k in takes}
    return state_frame(match.view(seat), info, seq=seq, **extra)


class Game:
    """A match played by the basic bot at both seats, one step at a time."""

    def __init__(self, seed: int, rules: Rules | None = None) -> None:
        self.match = Match(rules=rules or Rules(), seed=seed, first_dealer=0)
        self.bots = (make_bot("basic", seed=seed), make_bot("basic", seed=seed + 1))
        self.seq = 0

    def step(self) -> bool:
        """One action (or the next deal); False once the match is over."""
        match = self.match
        hand = match.hand
        if hand.is_over:
            if match.finished:
                return False
            match.next_hand()
            return True
        p = hand.to_act
        match.apply(self.bots[p].choose(hand.view(p), match.sheet.copy()), p)
        self.seq += 1
        return True

    def until(self, stop: Callable[[Match], bool], limit: int = 400) -> bool:
        for _ in range(limit):
            if stop(self.match):
                return True
            if not self.step():
                return False
        return False

    def frame(self, seat: int, **extra: Any) -> dict[str, Any]:
        extra.setdefault("seq", self.seq)
        return frame(self.match, seat, **extra)


def find(stop: Callable[[Match], bool], seeds: int = 4000) -> Game:
    """The first seed's game that reaches a position ``stop`` accepts, stopped there."""
    for seed in range(seeds):
        game = Game(seed)
        if game.until(stop):
            return game
    raise AssertionError("no seed reaches the position")


def _groups(match: Match, seat: int) -> int:
    view = match.hand.view(seat)
    from hollywood_gin.melds import best_melds

    layout = best_melds(view.hand)
    return len(layout.melds) + (1 if layout.unmatched else 0)


def eleven_cards() -> Game:
    """Seat 0 to discard from eleven cards in four groups, the opponent holding a card it
    took from the pile (shown face up)."""
    return find(lambda m: m.hand.phase is Phase.DISCARD and m.hand.to_act == 0
                and len(m.hand.cards_of(0)) == 11 and _groups(m, 0) >= 4
                and m.hand.view(0).opponent_known != ())


def knock_with_layoffs() -> Game:
    """A hand just ended by a knock where the defender laid off cards and kept deadwood:
    the hand-end panel's every kind of group at once."""
    def there(m: Match) -> bool:
        r = m.hand.result
        return (r is not None and r.kind in ("knock", "undercut") and r.score is not None
                and len(r.score.layoffs) >= 1 and len(r.score.defender_unmatched) >= 1)
    return find(there)
