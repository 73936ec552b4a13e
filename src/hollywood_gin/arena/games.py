"""One game of the arena in our engine or in OpenSpiel's, seeded from its task alone,
and what it gives back."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import ACTIONS
from ..errors import HollywoodGinError
from ..hand import Hand, Phase
from ..match import Match
from ..rules import Rules
from ..sheet import ScoreSheet
from .stats import derive_seed

ENGINES = ("ours", "openspiel")
OPENSPIEL_SIMPLE = "openspiel-simple"
MAX_HANDS_PER_MATCH = 300  # a match of bots that never knock ends unfinished here

BotSpec = Any  # a bot name for make_bot, or a Bot (copied into each worker)


#: The engine's own action values by identity, to their ids (they live as long as the module).
_ENGINE_ACTION: dict[int, int] = {id(action): i for i, action in enumerate(ACTIONS)}


class ArenaError(HollywoodGinError):
    """The arena cannot run as asked: bad counts, an unknown engine, a missing extra."""



@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One hand, by seat: how it ended, who won, how much, who knocked."""

    kind: str  # knock, undercut, gin, big_gin, dead (or tie: OpenSpiel's equal counts)
    winner: int | None
    points: int
    knocker: int | None


@dataclass(slots=True)
class GameResult:
    """One game of a mirrored pair (a match, or a single hand), by seat."""

    pair: int
    swapped: bool  # True when bot B sits in seat 0
    hands: list[HandOutcome]
    match_winner: int | None  # seat; None for single hands, drawn or unfinished matches
    finished: bool
    times_ms: tuple[list[float], list[float]]  # decision times by seat
    first_deal: tuple[str, str, str] = ("", "", "")  # seat 0's, seat 1's cards, the upcard

    def bot_of_seat(self, seat: int) -> int:
        """0 for bot A, 1 for bot B."""
        return seat ^ int(self.swapped)


_WORKER_BOTS: dict[tuple[str, int], Any] = {}


def _bot(spec: BotSpec, seed: int, seat: int) -> Any:
    """A bot of ``spec`` for one seat of one game, reset with ``seed``: named bots are
    built once per process and seat, bot objects copied afresh for every game."""
    if isinstance(spec, str):
        if spec == OPENSPIEL_SIMPLE:
            raise ArenaError(f"{OPENSPIEL_SIMPLE} plays only with --engine openspiel")
        bot = _WORKER_BOTS.get((spec, seat))
        if bot is None:
            from ..bots import make_bot

            bot = _WORKER_BOTS[spec, seat] = make_bot(spec)
    else:
        from copy import deepcopy

        bot = deepcopy(spec)
    bot.reset(seed)
    return bot


def _play_ours(task: _Task) -> GameResult:
    rules = task.rules
    deal_seed = derive_seed(task.seed, "deal", task.pair)
    specs = (task.specs[1], task.specs[0]) if task.swapped else task.specs
    tag = "ba" if task.swapped else "ab"
    bots = [
        _bot(specs[seat], derive_seed(task.seed, "bot", task.pair, tag, seat), seat)
        for seat in (0, 1)
    ]
    times: tuple[list[float], list[float]] = ([], [])
    hands: list[HandOutcome] = []
    clock = time.perf_counter
    choose = [bots[0].choose, bots[1].choose]
    over = Phase.OVER

    def play_hand(hand: Hand, sheet: ScoreSheet | None, match: Match | None) -> None:
        """Ask the bots until the hand ends, timing each real decision.

        The fast path of the engine where it gives the same game: the legal actions are
        worked out once for the view, and an answer that is one of the engine's own action
        values, legal here, is played unchecked; any other answer goes through the checked
        path, which refuses an illegal one as it always has.
        """
        while hand.phase is not over:
            seat = hand.to_act
            ids = hand.legal_action_ids()
            view = hand._view(seat, ids)
            t0 = clock()
            action = choose[seat](view, sheet)
            t1 = clock()
            if len(ids) > 1:
                times[seat].append((t1 - t0) * 1000.0)
            action_id = _ENGINE_ACTION.get(id(action))
            if action_id is not None and action_id in ids:
                if match is None:
                    hand.apply_id(action_id)
                else:
                    match.apply_id(action_id)
            elif match is None:
                hand.apply(action, seat)
            else:
                match.apply(action, seat)

    if task.mode == "hands":
        hand = Hand.deal(rules=rules, dealer=task.pair % 2, seed=deal_seed)
        first = _first_deal(hand)
        play_hand(hand, None, None)
        hands.append(_outcome(hand))
        _observe(bots, hand, None)
        return GameResult(task.pair, task.swapped, hands, None, True, times, first)
    match = Match(rules=rules, seed=deal_seed)
    first = _first_deal(match.hand)
    while True:
        hand = match.hand
        play_hand(hand, match.sheet.copy(), match)
        hands.append(_outcome(hand))
        _observe(bots, hand, match.sheet)
        if match.finished or len(match.hands) >= MAX_HANDS_PER_MATCH:
            break
        match.next_hand()
    return GameResult(task.pair, task.swapped, hands, match.winner, match.finished, times, first)


def _observe(bots: Sequence[Any], hand: Hand, sheet: ScoreSheet | None) -> None:
    """Show each bot the ended hand from its own seat: what the rules reveal, no more."""
    for seat in (0, 1):
        observe = getattr(bots[seat], "observe", None)
        if observe is not None:
            observe(hand.view(seat), None if sheet is None else sheet.copy())


def _first_deal(hand: Hand) -> tuple[str, str, str]:
    pile = hand.discard_pile
    return (
        " ".join(c.text for c in hand.cards_of(0)),
        " ".join(c.text for c in hand.cards_of(1)),
        pile[-1].text if pile else "",
    )


def _outcome(hand: Hand) -> HandOutcome:
    result = hand.result
    assert result is not None
    return HandOutcome(result.kind, result.winner, result.points, result.knocker)


@dataclass(frozen=True, slots=True)
class _Task:
    specs: tuple[BotSpec, BotSpec]
    rules: Rules
    mode: str  # "matches" or "hands"
    engine: str
    seed: int
    pair: int
    swapped: bool


def _play_openspiel(task: _Task) -> GameResult:
    """One hand inside OpenSpiel's gin_rummy; player 0 has the first offer there."""
    from ..bots.openspiel_seat import (
        SimpleSeat,
        deck_from_seed,
        from_openspiel,
        play_openspiel_hand,
    )
    from ..cards import CARDS

    deck = deck_from_seed(derive_seed(task.seed, "deal", task.pair))
    specs = (task.specs[1], task.specs[0]) if task.swapped else task.specs
    tag = "ba" if task.swapped else "ab"
    seats: list[Any] = []
    for seat in (0, 1):
        spec = specs[seat]
        if spec == OPENSPIEL_SIMPLE:
            seats.append(SimpleSeat(seat))
        else:
            seats.append(_bot(spec, derive_seed(task.seed, "bot", task.pair, tag, seat), seat))
    (kind, winner, points, knocker), times = play_openspiel_hand(seats, deck)
    hands = [HandOutcome(kind, winner, points, knocker)]
    first = (
        " ".join(CARDS[i].text for i in sorted(from_openspiel(c) for c in deck[:10])),
        " ".join(CARDS[i].text for i in sorted(from_openspiel(c) for c in deck[10:20])),
        CARDS[from_openspiel(deck[20])].text,
    )
    return GameResult(task.pair, task.swapped, hands, None, True, times, first)


def _play(task: _Task) -> GameResult:
    if task.engine == "openspiel":
        return _play_openspiel(task)
    return _play_ours(task)


def _play_pair(args: tuple[_Task, _Task]) -> tuple[GameResult, GameResult]:
    return _play(args[0]), _play(args[1])


