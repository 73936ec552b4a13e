"""How one server process hears what the others committed: PostgreSQL's LISTEN/NOTIFY.

Every change a process saves to a table (an action, its meta or seats, a released bot
lease) is announced on :data:`hollywood_gin.store.CHANNEL`: in the same transaction, or
for the group commit's batches of actions right after their commit (``web.commit``), so
an announcement never comes before its change (PostgreSQL delivers NOTIFY at COMMIT, to
every session listening).  Each process keeps one connection of its own
(psycopg 3, asynchronous, on the event loop) listening there, and hands every payload to
its table manager, which catches its live tables up (``TableManager.follow``).

No broker of our own: if the connection drops, the listener reconnects with a backoff
and then tells the manager to catch every live table up from the log (announcements
sent while it was away are gone).  Until it is back, ``/readyz`` says not ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from ..store import CHANNEL, Store

__all__ = ["TableBus"]

log = logging.getLogger("hollywood_gin.web")

#: libpq keepalives: a database that vanished without closing the connection (a dead
#: machine, a cut network) is noticed in about ten seconds, not hours.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
              "keepalives_count": 3}
RETRY_FIRST, RETRY_MAX = 0.2, 5.0


def connect_args(store: Store) -> dict[str, Any]:
    """psycopg's connection arguments for the store's database (from its SQLAlchemy URL)."""
    _args, kwargs = store.engine.dialect.create_connect_args(store.engine.url)
    kwargs = {key: value for key, value in kwargs.items() if key != "context"}
    kwargs.setdefault("connect_timeout", 10)
    return {**kwargs, **KEEPALIVES}


class TableBus:
    """One LISTEN connection, run as a task: payloads to ``on_payload``, and
    ``on_connected`` each time it (re)connects (to catch up whatever was missed)."""

    def __init__(self, store: Store, on_payload: Callable[[str], None],
                 on_connected: Callable[[], None]) -> None:
        self.kwargs = connect_args(store)
        self.on_payload = on_payload
        self.on_connected = on_connected
        self.connected = False
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def wait_connected(self, timeout: float) -> bool:
        """Wait (up to ``timeout`` s) for the first connection; whether it is listening."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), timeout)
        return self.connected

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _run(self) -> None:
        import psycopg

        delay = RETRY_FIRST
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(autocommit=True, **self.kwargs)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected = True
                    self._ready.set()
                    delay = RETRY_FIRST
                    log.info("listening for other processes' changes on %s", CHANNEL)
                    self.on_connected()
                    async for note in conn.notifies():
                        try:
                            self.on_payload(note.payload)
                        except Exception:  # one bad payload must not stop the listener
                            log.exception("following an announcement failed")
            except asyncio.CancelledError:
                self.connected = False
                raise
            except Exception as exc:
                if self.connected:
                    log.warning("the listening connection was lost (%s): reconnecting",
                                type(exc).__name__)
                else:
                    log.warning("cannot listen for other processes' changes (%s): retrying",
                                type(exc).__name__)
            self.connected = False
            self._ready.set()  # whoever waits for the first connection: it failed, for now
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX)
