"""Following the other processes that serve the same tables (PostgreSQL; the bus between
them PostgreSQL's own or Redis, :mod:`.bus`).

:class:`Following` is the table manager's registry of live tables and what keeps them
true when another process changes one: the announcements its :class:`~.bus.TableBus`
hears are applied to the live tables in order, under each table's lock, in one task per
table (an announced action straight from its announcement; a changed row, a gap or a bus
that reconnected from the store's log), and the seats connected here are sent the new
state.  A table is unloaded (and its bot lease released) once nobody is at it here.

An announcement can be lost without the bus noticing: a process that commits and dies
before it announces (the group commit announces after the commit, ``web.commit``), a
publish that failed (Redis paused, a timeout).  So every :data:`SWEEP_SECONDS` the
process also reads its live tables' saved rows in one query (action count, meta, seats
taken), and catches up any table the log has moved past or whose row differs from what
it last read (a friend joined, both seats were ready, a rematch, an abandon).

Who is at a table is no process's alone either: a seat's socket may be held by another
process.  Each process says on the bus how many sockets it holds at each seat (``p``
lines of :mod:`hollywood_gin.announce`, straight away, not after a commit) when one
attaches or detaches, and again at every sweep as a heartbeat; it asks the others for
theirs (``q``) when it loads a table and when its bus reconnects.  A live table keeps what
the others said for :data:`PRESENCE_SWEEPS` sweeps (a process killed with -9 falls
silent, and stops counting), and its seats here are sent the new state whenever that
changes whether a seat is connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from ..announce import presence_line
from ..errors import HollywoodGinError
from ..store import (
    Announcement,
    PersistentMatch,
    Store,
    StoredAction,
    StoreError,
    parse_announcement,
)
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
#: Sweeps that another process's word that it holds sockets at a seat lasts (it says it
#: again at each of its own): how long a process that died keeps its seats connected.
PRESENCE_SWEEPS = 3


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
        # Who is at the tables here, to say on the bus (in order: one payload at a time):
        # sockets by (table, seat), and the tables whose others are asked to say theirs.
        self._to_say: dict[tuple[str, int], int] = {}
        self._to_ask: set[str] = set()
        self._saying: asyncio.Task[None] | None = None
        self._quiet = False  # stopping: nothing more is said
        self._tasks: set[asyncio.Task[None]] = set()  # frames showing presence changes
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
        #: ``swept`` (a table found behind its log or its saved row, whose announcement
        #: never came).
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

    @property
    def presence_seconds(self) -> float:
        """How long another process's word that it holds sockets at a seat lasts."""
        return PRESENCE_SWEEPS * self.sweep_seconds

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        await self._leave_all()
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

    # -- who is at the tables ---------------------------------------------------------------

    def _say_presence(self, table: Table, seats: Iterable[int] = (0, 1)) -> None:
        """Tell the other processes how many sockets this one holds at ``seats`` of the
        table (soon, in order: :meth:`_say`)."""
        if not self.shared or self._quiet:
            return
        for seat in seats:
            if seat != table.computer_seat:
                self._to_say[(table.id, seat)] = len(table.outboxes[seat])
        self._start_saying()

    def _ask_presence(self, table_id: str) -> None:
        """Ask the other processes to say at once who they hold at the table."""
        if not self.shared or self._quiet:
            return
        self._to_ask.add(table_id)
        self._start_saying()

    def _start_saying(self) -> None:
        if self._saying is None:
            self._saying = asyncio.get_running_loop().create_task(self._say())

    async def _say(self) -> None:
        """Say what is waiting to be said, one payload at a time (a later count of a seat
        never overtaken by an earlier one), off the event loop."""
        try:
            while self._to_say or self._to_ask:
                lines = [presence_line(table_id, seat, count)
                         for (table_id, seat), count in self._to_say.items()]
                lines += [f"q {table_id}" for table_id in self._to_ask]
                self._to_say, self._to_ask = {}, set()
                try:
                    await self.run(self.store.say, lines)
                except Exception as exc:  # said again at the next sweep
                    log.warning("saying who is at the tables failed (%s)", type(exc).__name__)
        finally:
            self._saying = None

    def _heard_presence(self, table: Table, sender: str, item: Announcement) -> None:
        """Another process said who it holds at the table (``p``), or asked (``q``)."""
        if item.kind == "q":
            if any(table.outboxes):
                self._say_presence(table)
            return
        before = table.connected()
        key = (sender, item.player)
        if item.count > 0:
            table.elsewhere[key] = asyncio.get_running_loop().time() + self.presence_seconds
        else:
            table.elsewhere.pop(key, None)
        if table.connected() != before:
            self._show_presence(table)

    def _presence_sweep(self) -> None:
        """Forget the other processes' words that have expired, and say ours again. Not
        while the bus is away: nobody's word can reach us then (a Redis down for 30 s made
        both players look gone); it reconnects asking (:meth:`_resync_all`)."""
        now = asyncio.get_running_loop().time()
        hearing = self.bus is None or self.bus.connected
        for table in list(self._tables.values()):
            if table.elsewhere and hearing:
                before = table.connected()
                table.elsewhere = {key: until for key, until in table.elsewhere.items()
                                   if until > now}
                if table.connected() != before:
                    self._show_presence(table)
            if any(table.outboxes):
                self._say_presence(table)

    def _show_presence(self, table: Table) -> None:
        """Send the table's seats here the state: whether a seat is connected changed."""
        if not table.showing:
            table.showing = True
            self._spawn(self._show(table))

    async def _show(self, table: Table) -> None:
        async with table.lock:
            table.showing = False
            self._broadcast(table)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _leave_all(self) -> None:
        """Stopping: tell the others that this process holds nobody any more (best
        effort, briefly), then say nothing more."""
        if self.shared and not self._quiet:
            for table in self._tables.values():
                for seat in (0, 1):
                    if table.outboxes[seat] and seat != table.computer_seat:
                        self._to_say[(table.id, seat)] = 0
            if self._to_say:
                self._start_saying()
        self._quiet = True
        saying = self._saying
        if saying is not None:
            try:
                await asyncio.wait_for(asyncio.shield(saying), 5.0)
            except Exception:  # a bus that cannot be reached: the others' expiry
                saying.cancel()

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
            if item.kind in ("p", "q"):  # who is at the table, not a change of it
                if table is not None:
                    self._heard_presence(table, sender, item)
                continue
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
        table's news from the store, and ask the others who is at them (and say who is
        here: what we said meanwhile may have been lost too)."""
        until = asyncio.get_running_loop().time() + self.presence_seconds
        for table in self._tables.values():
            table.row_changed = True
            self._schedule_catch_up(table)
            # what the others said before the bus went away counts until they say it again
            table.elsewhere = dict.fromkeys(table.elsewhere, until)
            self._ask_presence(table.id)
            if any(table.outboxes):
                self._say_presence(table)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # the database away: the bus's reconnect catches up too
                log.warning("reading the live tables' saved rows failed", exc_info=True)

    async def sweep(self) -> int:
        """Say again who is at the tables here and forget what the others said too long
        ago; then catch up every live table whose saved log has moved past it, or whose
        saved row (meta, seats taken) is not what it last read (an announcement lost);
        how many were behind."""
        self._presence_sweep()
        if not self._tables:
            return 0
        saved = await self.run(self.store.row_states, list(self._tables))
        behind = 0
        for table_id, (count, meta, seats) in saved.items():
            table = self._tables.get(table_id)
            if table is None or table.row_changed:
                continue
            taken = len(table.joined - {table.computer_seat})
            if count > table.pm.action_count or (
                    count == table.pm.action_count and (meta != table.pm.meta or seats > taken)):
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
