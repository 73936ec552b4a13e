"""Levels 1–5 for people: named settings of the bots, each stronger than the one below.

=====  ==========  ============================================================  =======
level  name        what it is                                                     deals
=====  ==========  ============================================================  =======
1      beginner    ``basic``, but half its choices are random                          0
2      casual      ``basic``: the EAAI baseline                                        0
3      club        ``greedy`` blind to the opponent, knocking as soon as it can        0
4      strong      ``greedy``: watches the opponent, knocks with judgement             0
5      expert      ``expert`` at full strength (32 to 256 deals a decision)          256
=====  ==========  ============================================================  =======

Each level must beat the one below in matches, by a margin a player feels and an
interval that shows it (the README's ladder).  The expert with a small search was level
4 once: it won 52% of matches against the full expert, no more than a coin, since the
search's depth is not what makes the expert strong; level 3 is now the greedy heuristic
without its two judgements (what the opponent wants, when to knock), between ``basic``
and ``greedy``.

A level's budget is a count of deals searched per decision, not a time: the same
seed plays the same moves on any machine, fast or slow, so the arena's reports
reproduce for the levels too.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..hand import HandView
from ..sheet import ScoreSheet
from .base import Bot, BotError, Hint
from .simple import BasicBot, RandomBot

__all__ = ["EXPERT_LEVELS", "LEVELS", "Level", "LevelBot", "level_bot"]


@dataclass(frozen=True, slots=True)
class Level:
    """One level's name, the bot behind it and its budget: deals searched per decision at
    most (0: a heuristic that does not search)."""

    number: int
    title: str
    description: str
    deals: int


LEVELS: dict[int, Level] = {
    1: Level(1, "beginner", "the basic bot, but half its choices are random", 0),
    2: Level(2, "casual", "the basic bot: the EAAI challenge's baseline", 0),
    3: Level(3, "club", "the greedy bot blind to the opponent, knocking as soon as it can",
             0),
    4: Level(4, "strong", "the greedy bot: watches the opponent, knocks with judgement", 0),
    5: Level(5, "expert", "the expert at full strength (32 to 256 deals a decision)", 256),
}

#: The expert's settings at level 5 (a spec's own settings come on top).
EXPERT_LEVELS: dict[int, dict[str, float]] = {
    5: {"time_cap_ms": 0},
}

#: Level 3's greedy heuristic: no cost for feeding the opponent (``danger``), and a knock
#: limit that never tightens (it knocks at once, as ``basic`` does).
CLUB = {"danger": 0.0, "knock_early": 60, "knock_slope": 0.0}


class LevelBot(Bot):
    """A level: an inner bot (and for level 1, a chance of a random move)."""

    def __init__(self, level: Level, inner: Bot, *, blunder: float = 0.0,
                 seed: int | None = None) -> None:
        super().__init__(seed)
        self.level = level
        self.inner = inner
        self.blunder = blunder
        self._random = RandomBot(seed)
        self.name = f"level{level.number}"

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.inner.reset(seed)
        self._random.reset(None if seed is None else seed + 1)

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        action = self.inner.choose(view, sheet)  # always asked, so stateful bots keep up
        if self.blunder and len(view.legal_actions) > 1 and self.rng.random() < self.blunder:
            return self._random.choose(view, sheet)
        return action

    def observe(self, view: HandView, sheet: ScoreSheet | None = None) -> None:
        self.inner.observe(view, sheet)

    def explain(self, view: HandView, sheet: ScoreSheet | None = None) -> Hint:
        return self.inner.explain(view, sheet)


def level_bot(number: int, seed: int | None, settings: dict[str, float], spec: str) -> Bot:
    """The bot of level ``number`` (1–5); settings tune the expert of level 5."""
    level = LEVELS.get(number)
    if level is None:
        raise BotError(f"no level {number}; the levels are 1 to 5")
    if settings and number < 5:
        raise BotError(f"level {number} takes no settings, but {spec!r} gives some")
    if number == 1:
        return LevelBot(level, BasicBot(seed), blunder=0.5, seed=seed)
    if number == 2:
        return LevelBot(level, BasicBot(seed), seed=seed)
    if number in (3, 4):
        from .greedy import GreedyBot, GreedySettings

        chosen = GreedySettings.from_overrides(CLUB, "level3") if number == 3 else None
        return LevelBot(level, GreedyBot(seed, settings=chosen), seed=seed)
    from .expert import ExpertBot, ExpertSettings

    base = dict(EXPERT_LEVELS[number])
    base.update(settings)
    expert = ExpertBot(seed, settings=ExpertSettings.from_overrides(base, spec))
    return LevelBot(level, expert, seed=seed)
