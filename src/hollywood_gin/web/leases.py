"""Bot leases: the computer at a table is played by one server process at a time.

A lease is a row (``hg_leases``: table, holder, expiry by the database's clock) that a
process takes before the computer's first move at a table and keeps, renewing all of
its leases in one statement every :data:`RENEW_EVERY` of the lease's length, while the
table is live in its memory; it releases it when it unloads the table or shuts down. A
process killed outright renews nothing: its leases expire and another process serving
the table takes over (it retries every :data:`RETRY` seconds, or at once when a release
is announced).

The lease keeps a second process from playing the same turn; it is not what keeps the
log whole: every action, the computer's too, is committed under optimistic concurrency
(``Store.commit_actions``), so even two processes that both believed they held a lease
(a process paused past its expiry) could not both save a move at one step.

On SQLite (one process by design) there is nothing to share: every lease is granted
without a word to the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..store import Store

__all__ = ["LEASE_SECONDS", "RETRY", "Leases"]

log = logging.getLogger("hollywood_gin.web")

LEASE_SECONDS = 6.0
#: Renew when this share of the lease has passed; trust it locally for less than its
#: length, so a renewal that is late (a slow database) never leaves us playing on a
#: lease that has expired.
RENEW_EVERY = 1 / 3
TRUST = 0.75
RETRY = 1.0  # seconds between tries at a lease another process holds

T = TypeVar("T")
Runner = Callable[..., Awaitable[Any]]


class Leases:
    """This process's bot leases: which tables it holds, until when (loop time)."""

    def __init__(self, store: Store, holder: str, run: Runner,
                 seconds: float = LEASE_SECONDS) -> None:
        self.store = store
        self.holder = holder
        self.run = run
        self.seconds = seconds
        self.shared = store.postgresql
        self._until: dict[str, float] = {}
        self._renewer: asyncio.Task[None] | None = None

    def held(self) -> list[str]:
        return list(self._until)

    async def hold(self, table_id: str) -> bool:
        """Whether this process may play the computer at the table now (taking the lease
        if it is free or expired)."""
        if not self.shared:
            return True
        loop = asyncio.get_running_loop()
        if self._until.get(table_id, 0.0) > loop.time():
            return True
        asked = loop.time()
        got = await self.run(self.store.acquire_lease, table_id, self.holder, self.seconds)
        if got:
            self._until[table_id] = asked + self.seconds * TRUST
            self._start_renewing()
        else:
            self._until.pop(table_id, None)
        return bool(got)

    def release(self, table_id: str) -> None:
        """Give the table's lease up (the table left this process's memory)."""
        if self._until.pop(table_id, None) is None:
            return
        task = asyncio.ensure_future(self.run(self.store.release_lease, table_id, self.holder))
        task.add_done_callback(_logged)

    def release_all(self) -> None:
        """At shutdown (a blocking store call): nobody waits for our leases to expire."""
        if self.shared and self._until:
            self._until.clear()
            try:
                self.store.release_leases(self.holder)
            except Exception:
                log.exception("releasing the bot leases failed (they expire by themselves)")
        if self._renewer is not None:
            self._renewer.cancel()

    def _start_renewing(self) -> None:
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._renew())

    async def _renew(self) -> None:
        loop = asyncio.get_running_loop()
        while self._until:
            await asyncio.sleep(self.seconds * RENEW_EVERY)
            ids = list(self._until)
            asked = loop.time()
            try:
                kept = await self.run(self.store.renew_leases, self.holder, ids, self.seconds)
            except Exception:
                log.exception("renewing the bot leases failed")
                continue
            for table_id in ids:
                if table_id in kept and table_id in self._until:
                    self._until[table_id] = asked + self.seconds * TRUST
                elif table_id not in kept:
                    self._until.pop(table_id, None)


def _logged(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        with contextlib.suppress(Exception):
            log.error("releasing a bot lease failed (it expires by itself): %s",
                      type(task.exception()).__name__)
