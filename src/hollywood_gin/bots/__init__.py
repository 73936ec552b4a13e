"""Computer opponents, from a beginner to the expert, all playing from views only.

``make_bot(spec)`` builds one by name; ``hint(view)`` asks the expert what it would
play and why.  A spec is a name from :data:`BOT_NAMES`, optionally followed by
settings for tuning and benchmarks: ``"expert:samples=48,time_cap_ms=0"``.
"""

from __future__ import annotations

import math
import threading

from ..errors import shortened
from ..hand import HandView
from ..sheet import ScoreSheet
from .base import Bot, BotError, Hint, Reason
from .simple import BasicBot, RandomBot

__all__ = ["BOT_NAMES", "Bot", "BotError", "Hint", "Reason", "hint", "make_bot"]

#: Every name :func:`make_bot` knows (``openspiel-simple`` lives in the arena's OpenSpiel
#: engine, not here).
BOT_NAMES: tuple[str, ...] = (
    "random",
    "basic",
    "greedy",
    "expert",
    "expert-v1",
    "level1",
    "level2",
    "level3",
    "level4",
    "level5",
)


def _parse_settings(text: str, spec: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = item.partition("=")
        try:
            if not sep:
                raise ValueError
            number = float(value)
            if not math.isfinite(number):
                raise ValueError
        except ValueError:
            raise BotError(
                f"cannot read bot setting {shortened(item, 60)!r} in "
                f"{shortened(spec, 60)!r}: expected name=number (a finite number, of at most "
                "300 digits)"
            ) from None
        out[key.strip()] = number  # given twice, the last counts: "BASE,samples=8" overrides
    return out


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """A new bot by name (see :data:`BOT_NAMES`); raises :class:`BotError` (a ValueError)
    naming the known bots for an unknown one."""
    if not isinstance(spec, str):
        raise BotError(f"a bot spec must be a name like 'greedy', not {spec!r}")
    name, _, settings_text = spec.strip().partition(":")
    name = name.strip().lower()
    settings = _parse_settings(settings_text, spec)
    bot: Bot
    if name == "random":
        bot = RandomBot(seed)
    elif name == "basic":
        bot = BasicBot(seed)
    elif name == "greedy":
        from .greedy import GreedyBot, GreedySettings

        bot = GreedyBot(seed, settings=GreedySettings.from_overrides(settings, spec))
    elif name == "expert":
        from .expert import ExpertBot, ExpertSettings

        bot = ExpertBot(seed, settings=ExpertSettings.from_overrides(settings, spec))
    elif name == "expert-v1":
        from .expert import V1_SETTINGS, ExpertBot, ExpertSettings

        bot = ExpertBot(seed, settings=ExpertSettings.from_overrides(settings, spec, V1_SETTINGS))
        bot.name = "expert-v1"
    elif name.startswith("level") and name[5:] in ("1", "2", "3", "4", "5"):
        from .levels import level_bot

        bot = level_bot(int(name[5:]), seed, settings, spec)
    else:
        raise BotError(f"no bot named {spec!r}; the bots are {', '.join(BOT_NAMES)}")
    if settings and name in ("random", "basic"):
        raise BotError(f"the {name} bot takes no settings, but {spec!r} gives some")
    if settings:
        bot.name = spec.strip()
    return bot


_HINT_BOT: dict[str, Bot] = {}
#: One expert gives every hint in a process; a hint asked on another thread while one is
#: thought out (the terminal game's ``h`` after a move) waits for it instead of resetting
#: the bot in the middle of its search.
_HINT_LOCK = threading.Lock()


def hint(view: HandView, sheet: ScoreSheet | None = None) -> Hint:
    """The expert's suggestion for ``view`` with a one-line reason for a person.

    Always the same advice for the same view, on any machine: the expert is seeded from
    the view, and its budget is a count of deals, not a time (as level 5's), so a loaded
    web server and a quiet terminal give the same hint.
    """
    with _HINT_LOCK:
        bot = _HINT_BOT.get("expert")
        if bot is None:
            bot = _HINT_BOT["expert"] = make_bot("expert:time_cap_ms=0")
        bot.reset(_view_seed(view))
        return bot.explain(view, sheet)


def _view_seed(view: HandView) -> int:
    """A seed that depends only on what the view shows."""
    text = f"{view.player}|{view.hand_mask}|{len(view.history)}|{view.stock_count}|" + ",".join(
        str(a) for _, a in view.history
    )
    h = 1469598103934665603
    for ch in text.encode():
        h = (h ^ ch) * 1099511628211 % (1 << 64)
    return h
