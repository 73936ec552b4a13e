"""The arena: two bots play mirrored deals, in parallel, and the results come with intervals.

Every deal is played twice with the seats swapped, so the luck of the cards
cancels out of the comparison.  Every game is seeded from ``(seed, pair, seat
order)`` alone, so a report reproduces from its seed whatever the number of
processes; only the decision times vary from run to run.

``hollywood-gin arena BOT BOT [--rules PRESET] [--matches N | --hands N] [--seed S]
[--jobs J] [--json] [--plot FILE] [--engine ours|openspiel]``
"""


from .command import main, register, run
from .games import (
    ENGINES,
    MAX_HANDS_PER_MATCH,
    OPENSPIEL_SIMPLE,
    ArenaError,
    GameResult,
    HandOutcome,
    _play_pair,
    _Task,
)
from .report import ArenaReport, BotReport, plot_report
from .runner import ProgressBar, run_arena
from .stats import derive_seed, mean_ci, percentile, wilson

__all__ = [
    "ENGINES",
    "MAX_HANDS_PER_MATCH",
    "OPENSPIEL_SIMPLE",
    "ArenaError",
    "ArenaReport",
    "BotReport",
    "GameResult",
    "HandOutcome",
    "ProgressBar",
    "_Task",
    "_play_pair",
    "derive_seed",
    "main",
    "mean_ci",
    "percentile",
    "plot_report",
    "register",
    "run",
    "run_arena",
    "wilson",
]

