"""Group commit survives a caller that goes away: a cancelled action (its WebSocket closed
while the batch was on the disk) must not stop the other tables' actions of the batch."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hg_web_support import bot_factory

from hollywood_gin import Rules
from hollywood_gin.actions import Pass
from hollywood_gin.store import Store
from hollywood_gin.web.tables import TableManager


def test_a_cancelled_caller_does_not_stall_the_rest_of_its_batch(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    manager = TableManager(store, bot_factory=bot_factory, bot_delay=0)
    first = store.new_match(rules=Rules(), seed=1, players=("a", "b"))
    second = store.new_match(rules=Rules(), seed=2, players=("c", "d"))

    async def scenario() -> None:
        gone = asyncio.create_task(manager.commit(first.prepare(Pass())))
        stays = asyncio.create_task(manager.commit(second.prepare(Pass())))
        while manager._writer is None or manager._pending:  # both taken into one batch
            await asyncio.sleep(0)
        gone.cancel()
        await asyncio.wait_for(stays, 30)  # before the fix: never, the writer died
        assert manager._writer is None

    try:
        asyncio.run(scenario())
        assert [len(store.load(pm.id).actions) for pm in (first, second)] == [1, 1]
    finally:
        manager.close()
        store.close()
