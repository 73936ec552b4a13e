"""Following the other processes that serve the same tables (PostgreSQL; the bus between
them PostgreSQL's own or Redis, :mod:`.bus`).

:class:`Following` is the table manager's registry of live tables and what keeps them
true when another process changes one: the announcements its :class:`~.bus.TableBus`
hears are applied to the live tables in order, under each table's lock, in one task per
table (an announced action straight from its announcement; a changed row, a gap or a bus
that reconnected from the store's log), and the seats connected here are sent the new
state.  A table is unloaded (and its bot lease released) once nobody is at it here.

An announcement can be lost without the bus noticing: a process that commits and dies
before it announces (the group commit announces after the commit, ``web.commit``).  So
every :data:`SWEEP_SECONDS` the process also reads the saved action counts of its live
tables in one query, and catches up any table the log has moved past.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable

from ..errors import HollywoodGinError
from ..store import PersistentMatch, Store, StoredAction, StoreError, parse_announcement
from .bus import TableBus, make_bus
from .commit import StoreRunner
from .leases import LEASE_SECONDS, Leases
from .live import Table, deal_if_decided
from .protocol import TableInfo

__all__ = ["Following"]

log = logging.getLogger("hollywood_gin.web")

#: Seconds between reads of the live tables' saved action counts: how long a table can
#: lag behind an action whose announcement was lost.
SWEEP_SECONDS = 5.0


class Following(StoreRunner):
    """The live tables of this process, kept in step with the other processes'."""

    def __init__(self, store: Store, store_workers: int | None = None,
                 lease_seconds: float = LEASE_SECONDS,
                 sweep_seconds: float = SWEEP_SECONDS, bus_url: str | None = None) -> None:
        if bus_url is not None and not store.postgresql:
            raise HollywoodGinError("a Redis bus (--bus) needs PostgreSQL: SQLite serves "
                                    "one process, which hears its own changes")
        super().__init__(store, store_workers)
        self.bus_url = bus_url  # None: PostgreSQL's LISTEN/NOTIFY
        self.sweep_seconds = sweep_seconds
        self._sweeper: asyncio.Task[None] | None = None
        self._tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._missed: set[str] = set()  # announced while loading: catch up once loaded
        #: This process, in announcements and leases (random: a restart is a new one).
        self.holder = secrets.token_hex(8)
        self.shared = store.postgresql  # other processes may serve the same tables
        if self.shared:
            store.announce = self.holder
        self.leases = Leases(store, self.holder, self.run, lease_seconds)
        self.bus: TableBus | None = None
        #: Counts what following did, for the metrics: ``followed`` (an action applied
        #: from its announcement), ``reloaded`` (a table read from the log), ``stale``
        #: (an action refused at its commit: another writer saved that step first),
        #: ``swept`` (a table found behind its log whose announcement never came).
        self.count: Callable[[str], None] = lambda what: None

    async def start(self) -> None:
        """Listen for the other processes' changes (PostgreSQL); waits a little for the
        listening connection, so that a server is following before it serves."""
        if self.shared and self.bus is None:
            self.bus = make_bus(self.store, self.bus_url, self.follow, self._resync_all)
            self.store.publisher = self.bus.publisher
            self.bus.start()
            await self.bus.wait_connected(5.0)
        if self.shared and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        await self.close_writer()  # its last announcement, on the bus still
        if self.bus is not None:
            await self.bus.stop()
            self.bus = None

    def close(self) -> None:
        for table in self._tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            if table.catching is not None:
                table.catching.cancel()
        self.leases.release_all()  # announced: the store's publisher is kept for that
        publisher, self.store.publisher = self.store.publisher, None
        if publisher is not None:
            publisher.close()
        super().close()

    def live(self, table_id: str) -> Table | None:
        """The table if this server has it in memory."""
        return self._tables.get(table_id)

    def _unload(self, table: Table) -> None:
        """Forget a table nobody is at (the store has it all; reload on the next visit)."""
        if self._tables.get(table.id) is table:
            del self._tables[table.id]
            self.leases.release(table.id)

    async def _open(self, table_id: str) -> PersistentMatch:
        pm = await self.run(self.store.open_match, table_id)
        deal_if_decided(pm)  # the deal was decided (and saved) before the restart
        return pm

    # The table manager's, used here.
    def _broadcast(self, table: Table) -> None:
        raise NotImplementedError

    def _kick_bot(self, table: Table) -> None:
        raise NotImplementedError


    def follow(self, payload: str) -> None:
        """An announcement from the bus: note what changed at the tables live here and
        catch them up (in a task per table, in order, under the table's lock)."""
        sender, items = parse_announcement(payload)
        if sender == self.holder:
            return  # our own commit: applied already
        for item in items:
            table = self._tables.get(item.match_id)
            if table is None:
                if item.match_id in self._loading:
                    self._missed.add(item.match_id)
                continue
            if item.kind == "a":
                if item.seq < table.pm.action_count:
                    continue
                table.incoming[item.seq] = item
            elif item.kind == "m":
                table.row_changed = True
            else:  # "l": its lease was released; a computer waiting for it tries now
                table.wake.set()
                continue
            self._schedule_catch_up(table)

    def _resync_all(self) -> None:
        """The bus (re)connected: announcements may have been missed; read every live
        table's news from the store."""
        for table in self._tables.values():
            table.row_changed = True
            self._schedule_catch_up(table)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # the database away: the bus's reconnect catches up too
                log.warning("reading the live tables' action counts failed", exc_info=True)

    async def sweep(self) -> int:
        """Catch up every live table whose saved log has moved past it (its announcement
        lost); how many were behind."""
        if not self._tables:
            return 0
        saved = await self.run(self.store.action_counts, list(self._tables))
        behind = 0
        for table_id, count in saved.items():
            table = self._tables.get(table_id)
            if table is not None and count > table.pm.action_count:
                behind += 1
                self.count("swept")
                table.row_changed = True
                self._schedule_catch_up(table)
        return behind

    def _schedule_catch_up(self, table: Table) -> None:
        if table.catching is None:
            table.catching = asyncio.get_running_loop().create_task(self._catch_up(table))

    async def _catch_up(self, table: Table) -> None:
        try:
            while table.incoming or table.row_changed:
                async with table.lock:
                    try:
                        await self._refresh(table)
                    except Exception:
                        log.exception("catching table %s up failed", table.id)
                        table.incoming.clear()
                        table.row_changed = False
                    self._broadcast(table)
                table.wake.set()
                self._kick_bot(table)
        finally:
            table.catching = None

    async def _refresh(self, table: Table) -> None:
        """Apply what other processes committed (call with the table's lock held): the
        announced actions in order, straight from their announcements; the store for the
        rest (a gap, a changed row, a bus that reconnected)."""
        pm = table.pm
        incoming, table.incoming = table.incoming, {}
        need_store = table.row_changed
        table.row_changed = False
        while pm.action_count in incoming:
            item = incoming.pop(pm.action_count)
            try:
                pm.catch_up_one(StoredAction(item.seq, item.hand_number, item.player,
                                             item.action))
            except StoreError:
                need_store = True
                break
            self.count("followed")
        if need_store or any(seq > pm.action_count for seq in incoming):
            await self._reload(table, seats=need_store)
        deal_if_decided(pm)

    async def _reload(self, table: Table, *, seats: bool = False) -> None:
        """Catch the table up from the log (call with its lock held): the actions after
        the ones it has, its meta, and with ``seats`` who sits where."""
        self.count("reloaded")
        try:
            stored = await self.run(self.store.load_since, table.id, table.pm.action_count)
            table.pm.catch_up(stored)
        except StoreError:  # it does not follow on: read the whole match again
            log.warning("table %s did not follow on from the log: reopened", table.id)
            table.pm = await self._open(table.id)
        deal_if_decided(table.pm)
        if seats:
            self._seat_names(table, await self.run(self.store.seats, table.id))

    def _seat_names(self, table: Table, seats: dict[int, str]) -> None:
        names = list(table.info.names)
        for seat, name in seats.items():
            if seat in (0, 1) and seat != table.computer_seat:
                table.joined.add(seat)
                names[seat] = name
        table.info = TableInfo(table.id, (names[0], names[1]), table.info.opponent,
                               table.info.level, table.info.preset)
