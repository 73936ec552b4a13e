"""How one server process hears what the others committed: PostgreSQL's LISTEN/NOTIFY by
default, or Redis pub/sub (``serve --bus redis://HOST:PORT/DB``, :mod:`.redisbus`).

Every change a process saves to a table (an action, its meta or seats, a released bot
lease) is announced on :data:`hollywood_gin.store.CHANNEL` once it has committed (the
store's ``_announce_now``, and for the group commit's batches of actions ``web.commit``),
so an announcement never comes before its change (who is at a table, which no database
holds, is said straight away: ``p`` and ``q`` lines, ``Following``).  The announcement is
the same text on either engine (``Store.payloads``: the sender, then a line per change);
on PostgreSQL the store NOTIFYs it, on Redis it is PUBLISHed (the bus is then the
store's ``publisher``).
Each process keeps one connection of its own (asynchronous, on the event loop)
subscribed there, and hands every payload to its table manager, which catches its live
tables up (``Following.follow``).

:class:`TableBus` is that subscription whatever the engine: a task that connects, hears
and, when the connection drops, reconnects with a backoff and then tells the manager to
catch every live table up from the log (announcements sent while it was away are gone).
Until it is back, ``/readyz`` says not ready.  An engine only says how to connect and
hear (:meth:`TableBus._hear`).  No broker of our own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING, Any

from ..announce import CHANNEL
from ..store import Store

if TYPE_CHECKING:
    from ..announce import Publisher

__all__ = ["KEEPALIVES", "NOT_LISTENING", "PgBus", "TableBus", "connect_args", "make_bus"]

log = logging.getLogger("hollywood_gin.web")

#: libpq keepalives: a database that vanished without closing the connection (a dead
#: machine, a cut network) is noticed in about ten seconds, not hours.  Redis's
#: connections use the same (:mod:`.redisbus`).
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
              "keepalives_count": 3}
RETRY_FIRST, RETRY_MAX = 0.2, 5.0
NOT_LISTENING = "not listening for the other processes' changes (reconnecting)"


def connect_args(store: Store) -> dict[str, Any]:
    """psycopg's connection arguments for the store's database (from its SQLAlchemy URL)."""
    _args, kwargs = store.engine.dialect.create_connect_args(store.engine.url)
    kwargs = {key: value for key, value in kwargs.items() if key != "context"}
    kwargs.setdefault("connect_timeout", 10)
    return {**kwargs, **KEEPALIVES}


class TableBus:
    """One subscription to the other processes' announcements, run as a task: payloads to
    ``on_payload``, and ``on_connected`` each time it (re)connects (to catch up whatever
    was missed)."""

    #: Where it listens, for the logs.
    where = CHANNEL
    #: The key under which ``/readyz`` names what is wrong with it.
    ready_key = "database"
    #: Where the store sends its announcements, if not to PostgreSQL's NOTIFY.
    publisher: Publisher | None = None

    def __init__(self, on_payload: Callable[[str], None],
                 on_connected: Callable[[], None]) -> None:
        self.on_payload = on_payload
        self.on_connected = on_connected
        self.connected = False
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._delay = RETRY_FIRST

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

    async def problem(self, timeout: float) -> str | None:
        """What keeps this process from hearing the others (``/readyz``), or None."""
        return None if self.connected else NOT_LISTENING

    async def _hear(self) -> AsyncGenerator[str, None]:
        """Connect, subscribe, call :meth:`_listening`, then yield each payload heard; an
        exception (or the end) when the connection is lost."""
        raise NotImplementedError
        yield ""  # pragma: no cover - an async generator, for the type checker

    def _listening(self) -> None:
        """Subscribed (again): whatever was announced meanwhile must be read from the log."""
        self.connected = True
        self._ready.set()
        self._delay = RETRY_FIRST
        log.info("listening for other processes' changes on %s", self.where)
        self.on_connected()

    async def _run(self) -> None:
        while True:
            try:
                async with contextlib.aclosing(self._hear()) as payloads:
                    async for payload in payloads:
                        try:
                            self.on_payload(payload)
                        except Exception:  # one bad payload must not stop the listener
                            log.exception("following an announcement failed")
                if self.connected:
                    log.warning("the listening connection ended: reconnecting")
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
            await asyncio.sleep(self._delay)
            self._delay = min(self._delay * 2, RETRY_MAX)


class PgBus(TableBus):
    """PostgreSQL's LISTEN on its own connection (psycopg 3, asynchronous)."""

    def __init__(self, store: Store, on_payload: Callable[[str], None],
                 on_connected: Callable[[], None]) -> None:
        super().__init__(on_payload, on_connected)
        self.kwargs = connect_args(store)

    async def _hear(self) -> AsyncGenerator[str, None]:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(autocommit=True, **self.kwargs)
        async with conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self._listening()
            async for note in conn.notifies():
                yield note.payload


def make_bus(store: Store, url: str | None, on_payload: Callable[[str], None],
             on_connected: Callable[[], None]) -> TableBus:
    """The bus ``url`` names (a ``redis://`` URL), else PostgreSQL's own (the store's
    database: PostgreSQL, as every bus needs)."""
    if url is None:
        return PgBus(store, on_payload, on_connected)
    from .redisbus import RedisBus

    return RedisBus(url, on_payload, on_connected)
