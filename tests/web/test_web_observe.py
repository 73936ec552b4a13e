"""Issue 14: a web table shows its computer every ended hand (``Bot.observe``), as the arena
does, once each, from the computer's seat with the sheet after it; a table loaded from the
store (a restart, another server) shows a new computer the hands played so far."""

from __future__ import annotations

import asyncio

from hollywood_gin.actions import Action
from hollywood_gin.bots import Bot, make_bot
from hollywood_gin.hand import HandView, Phase
from hollywood_gin.rules import Rules
from hollywood_gin.sheet import ScoreSheet
from hollywood_gin.store import Store
from hollywood_gin.web.protocol import Act, NextHand
from hollywood_gin.web.tables import Outbox, Table, TableManager


class Watcher(Bot):
    """Plays like ``basic`` and keeps every hand it is shown."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.inner = make_bot("basic", seed=seed)
        self.observed: list[tuple[HandView, ScoreSheet | None]] = []

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        return self.inner.choose(view, sheet)

    def observe(self, view: HandView, sheet: ScoreSheet | None = None) -> None:
        self.observed.append((view, sheet))


def _watchers(level: str, seed: int) -> Watcher:
    return Watcher(seed)


async def _play_hand(manager: TableManager, table: Table, person: Bot) -> None:
    """The person (seat 0) plays the hand out; the computer plays its own turns."""
    outbox = Outbox()
    for _ in range(2000):
        hand = table.pm.match.hand
        if hand.is_over:
            return
        if hand.to_act == 0:
            action = person.choose(hand.view(0), table.pm.match.sheet.copy())
            await manager.handle(table, 0, outbox, Act(str(action), table.pm.action_count))
        else:
            await asyncio.sleep(0.005)
    raise AssertionError("the hand did not end")


def _check_seen(bot: Watcher, table: Table) -> None:
    match = table.pm.match
    ended = [h for h in match.hands if h.is_over]
    assert len(bot.observed) == len(ended)  # each ended hand once
    for (view, sheet), hand in zip(bot.observed, ended, strict=True):
        assert view == hand.view(1) and view.phase is Phase.OVER
        assert sheet is not None
    assert bot.observed[-1][1] is not None
    assert bot.observed[-1][1].totals == match.sheet.totals


def test_a_computer_table_shows_its_bot_every_ended_hand(store_url: str) -> None:
    store = Store(store_url)
    manager = TableManager(store, bot_factory=_watchers, bot_delay=0)
    person = make_bot("basic", seed=5)

    async def scenario() -> str:
        table_id, _tokens = await manager.new_table(
            rules=Rules.preset("eaai"), names=("Ann", "Computer"), opponent="computer",
            preset="eaai", level=2, seats=(0,))
        table = await manager.table(table_id)
        bot = table.bot
        assert isinstance(bot, Watcher) and bot.observed == []
        for _ in range(2):
            await _play_hand(manager, table, person)
            _check_seen(bot, table)
            if table.pm.match.finished:
                break
            await manager.handle(table, 0, Outbox(), NextHand())
            assert not table.pm.match.hand.is_over
            _check_seen(bot, table)  # dealing shows nothing new
        return table_id

    try:
        table_id = asyncio.run(scenario())
    finally:
        manager.close()

    # Another server (or a restart) loads the table: its computer is shown the hands so far.
    again = TableManager(store, bot_factory=_watchers, bot_delay=0)

    async def reload() -> None:
        table = await again.table(table_id)
        assert isinstance(table.bot, Watcher)
        assert len(table.bot.observed) == 2
        _check_seen(table.bot, table)

    try:
        asyncio.run(reload())
    finally:
        again.close()
        store.close()


def test_a_bot_without_observe_still_plays(store_url: str) -> None:
    """The web's computer need only choose (a stand-in bot may not learn)."""

    class Chooser:
        def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
            return view.legal_actions[0]

    store = Store(store_url)
    manager = TableManager(store, bot_factory=lambda level, seed: Chooser(), bot_delay=0)
    person = make_bot("basic", seed=5)

    async def scenario() -> None:
        table_id, _tokens = await manager.new_table(
            rules=Rules.preset("eaai"), names=("Ann", "Computer"), opponent="computer",
            preset="eaai", level=2, seats=(0,))
        table = await manager.table(table_id)
        await _play_hand(manager, table, person)
        assert table.pm.match.hand.is_over and table.observed == 0

    try:
        asyncio.run(scenario())
    finally:
        manager.close()
        store.close()
