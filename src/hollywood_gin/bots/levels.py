"""Levels 1–5 for people: named settings of the bots, each with a time budget per decision.

=====  ==========  ===========================================================  ======
level  name        what it is                                                   budget
=====  ==========  ===========================================================  ======
1      beginner    ``basic``, but half its choices are random                     1 ms
2      casual      ``basic``: the EAAI baseline                                   1 ms
3      club        ``greedy``: watches the opponent, knocks with judgement        2 ms
4      strong      ``expert`` with a small search (12 deals a decision)          30 ms
5      expert      ``expert`` at full strength                                  100 ms
=====  ==========  ===========================================================  ======

The budget is a cap: the expert stops sampling when it is spent, so a slow
machine plays a little weaker rather than slower.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..hand import HandView
from ..sheet import ScoreSheet
from .base import Bot, BotError, Hint
from .simple import BasicBot, RandomBot

__all__ = ["LEVELS", "Level", "LevelBot", "level_bot"]


@dataclass(frozen=True, slots=True)
class Level:
    """One level's name, the bot behind it and its time budget per decision."""

    number: int
    title: str
    description: str
    budget_ms: float


LEVELS: dict[int, Level] = {
    1: Level(1, "beginner", "the basic bot, but half its choices are random", 1.0),
    2: Level(2, "casual", "the basic bot: the EAAI challenge's baseline", 1.0),
    3: Level(3, "club", "the greedy bot: watches the opponent, knocks with judgement", 2.0),
    4: Level(4, "strong", "the expert with a small search (12 deals a decision)", 30.0),
    5: Level(5, "expert", "the expert at full strength", 100.0),
}


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
    """The bot of level ``number`` (1–5); settings tune the expert of levels 4 and 5."""
    level = LEVELS.get(number)
    if level is None:
        raise BotError(f"no level {number}; the levels are 1 to 5")
    if settings and number < 4:
        raise BotError(f"level {number} takes no settings, but {spec!r} gives some")
    if number == 1:
        return LevelBot(level, BasicBot(seed), blunder=0.5, seed=seed)
    if number == 2:
        return LevelBot(level, BasicBot(seed), seed=seed)
    if number == 3:
        from .greedy import GreedyBot

        return LevelBot(level, GreedyBot(seed), seed=seed)
    from .expert import ExpertBot, ExpertSettings

    base = {"time_cap_ms": level.budget_ms}
    if number == 4:
        base["samples"] = 12
    base.update(settings)
    expert = ExpertBot(seed, settings=ExpertSettings.from_overrides(base, spec))
    return LevelBot(level, expert, seed=seed)
