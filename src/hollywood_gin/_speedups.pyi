"""The optional C path of the card API (its C sources are in ``_speedups_c/``); see melds.py
and scoring.py."""

from collections.abc import Callable, Iterable
from typing import Any

from .cards import Card
from .melds import Arrangement
from .rules import Rules
from .scoring import HandScore

def setup_melds(card: type[Card], arrangement: type[Arrangement], slots: tuple[str, ...],
                runs: list[int], deadwood: Callable[..., int],
                best_melds: Callable[..., Arrangement], with_sets: Callable[..., Any],
                later: object) -> None: ...
def setup_score(score: type[HandScore], slots: tuple[str, ...],
                score_hand: Callable[..., HandScore], rules: Rules) -> None: ...
def deadwood(cards: Iterable[Card]) -> int: ...
def best_melds(cards: Iterable[Card]) -> Arrangement: ...
def score_hand(knocker: Iterable[Card], defender: Iterable[Card], *, rules: Rules = ...,
               knocker_melds: Iterable[Iterable[Card]] | None = None,
               knock_limit: int | None = None) -> HandScore: ...
def deadwood_of_mask(mask: int, /) -> int: ...
def block_ways(suit: int, block: int, /) -> tuple[tuple[tuple[int, ...], ...],
                                                   tuple[int, ...]]: ...
