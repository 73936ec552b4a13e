"""Live tables: the server's one authority over each match, rebuilt from the store on demand.

A :class:`Table` holds a :class:`PersistentMatch` replayed from the store, the
outboxes of the seats connected to it, and the computer player if there is
one.  Everything that reads or changes a table does so under its lock, so
frames go out in the order the actions were committed.  An action is
committed to the store (``PersistentMatch.act``) before any frame mentions
it; after a server restart the first connection replays the table from the
store and it goes on from the same point.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from sqlalchemy.exc import IntegrityError

from ..actions import Action, parse_action
from ..errors import HollywoodGinError, IllegalActionError
from ..hand import HandView
from ..rules import PRESETS, Rules
from ..sheet import ScoreSheet
from ..store import PendingAction, PersistentMatch, Store, StoreConflict, StoreError
from .protocol import (
    Act,
    ClientMessage,
    Hello,
    NextHand,
    ProtocolError,
    Sync,
    TableInfo,
    error_frame,
    state_frame,
)

__all__ = [
    "BotFactory",
    "Chooser",
    "Outbox",
    "Table",
    "TableError",
    "TableManager",
    "default_bot_factory",
]

log = logging.getLogger("hollywood_gin.web")

TABLE_ID_RE = re.compile(r"^[0-9a-f]{32}$")
LEVELS = (1, 2, 3, 4, 5)
MAX_NAME = 24
OUTBOX_LIMIT = 512
MAX_BATCH = 256

T = TypeVar("T")


class Chooser(Protocol):
    """What the web needs of a bot: the fixed API of ``hollywood_gin.bots``."""

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action: ...


BotFactory = Callable[[str, int], Chooser]


def default_bot_factory(level: str, seed: int) -> Chooser:
    """The project's bots, imported only when a computer table first needs one."""
    from ..bots import make_bot

    bot: Chooser = make_bot(level, seed=seed)
    return bot


class TableError(ValueError):
    """A table cannot be created or joined; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Outbox:
    """Frames waiting to go to one connection, in order; a writer task drains it."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000

    def put(self, frame: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= OUTBOX_LIMIT:  # a reader this slow is gone: let it reconnect
            self.close(1013)
            return
        self.queue.put_nowait(json.dumps(frame, separators=(",", ":")))

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


@dataclass(eq=False)
class Table:
    """One live match and who is at it."""

    pm: PersistentMatch
    info: TableInfo
    computer_seat: int | None
    bot: Chooser | None
    joined: set[int]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    outboxes: tuple[set[Outbox], set[Outbox]] = field(default_factory=lambda: (set(), set()))
    ready: set[int] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.pm.id

    def connected(self) -> tuple[bool, bool]:
        return (bool(self.outboxes[0]) or self.computer_seat == 0,
                bool(self.outboxes[1]) or self.computer_seat == 1)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def clean_name(raw: object, default: str) -> str:
    """A display name: printable, trimmed, at most 24 characters."""
    if raw is None:
        return default
    if not isinstance(raw, str):
        raise TableError(400, "name must be a string")
    name = " ".join("".join(ch for ch in raw if ch.isprintable()).split())[:MAX_NAME]
    return name or default


class TableManager:
    """Creates, loads, and runs tables; every store call goes through one executor."""

    def __init__(
        self,
        store: Store,
        *,
        bot_factory: BotFactory = default_bot_factory,
        bot_delay: float = 0.6,
        store_workers: int | None = None,
    ) -> None:
        self.store = store
        self.bot_factory = bot_factory
        self.bot_delay = bot_delay
        if store_workers is None:  # SQLite has one writer: more threads only wait on its lock
            store_workers = 1 if store.url.startswith("sqlite") else 4
        self._executor = ThreadPoolExecutor(store_workers, thread_name_prefix="hg-store")
        self._tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._pending: list[tuple[PendingAction, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.on_commit: Callable[[Table, PendingAction, float], None] | None = None  # ops

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking store call off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(*args, **kwargs))

    async def commit(self, item: PendingAction) -> None:
        """Commit one action, together with whatever other tables' actions are waiting.

        Group commit: while a transaction is on the disk the next actions queue up, and
        the writer commits them all in the next one; each caller returns only once its
        own action is committed.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_batches())
        await future

    async def _write_batches(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
                try:
                    await self.run(self.store.append_actions, [item for item, _ in batch])
                except Exception:  # find out which one could not be saved
                    for item, future in batch:
                        try:
                            await self.run(self.store.append_actions, [item])
                        except Exception as exc:
                            if not future.done():  # its caller may have gone (cancelled)
                                future.set_exception(exc)
                        else:
                            if not future.done():
                                future.set_result(None)
                else:
                    for _, future in batch:
                        if not future.done():
                            future.set_result(None)
        finally:
            self._writer = None

    def close(self) -> None:
        for table in self._tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
        self._executor.shutdown(wait=True, cancel_futures=True)

    # -- creating and joining ---------------------------------------------------------------

    async def create(
        self, *, opponent: object, level: object, preset: object, name: object
    ) -> dict[str, Any]:
        """A new table with its first hand dealt; returns seat 0's token (and an invite)."""
        if opponent not in ("computer", "friend"):
            raise TableError(400, "opponent must be 'computer' or 'friend'")
        if preset is None:
            preset = "hollywood"
        if not isinstance(preset, str) or preset not in PRESETS:
            raise TableError(400, f"preset must be one of {', '.join(sorted(PRESETS))}")
        me = clean_name(name, "You")
        meta: dict[str, Any] = {"web": 1, "opponent": opponent, "preset": preset, "dealt": 1}
        invite: str | None = None
        if opponent == "computer":
            if level is None:
                level = 3
            if isinstance(level, bool) or level not in LEVELS:
                raise TableError(400, "level must be a whole number from 1 to 5")
            assert isinstance(level, int)
            meta.update(level=level, computer_seat=1, bot_seed=secrets.randbits(62))
            try:  # fail now, not at the computer's first turn
                self.bot_factory(f"level{level}", 0)
            except Exception as exc:
                log.exception("no computer player")
                raise TableError(503, f"the computer player is not available: {exc}") from None
            players = (me, "Computer")
        else:
            invite = secrets.token_urlsafe(18)
            meta["invite"] = _hash(invite)
            players = (me, "Friend")
        rules = Rules.preset(preset)
        pm = await self.run(self.store.new_match, rules=rules, players=players,
                            kind=f"web-{opponent}", meta=meta)
        token = await self.run(self.store.add_seat, pm.id, 0, me)
        out: dict[str, Any] = {"table": pm.id, "seat": 0, "token": token}
        if invite is not None:
            out["invite"] = invite
        return out

    async def join(self, table_id: str, *, invite: object, name: object) -> dict[str, Any]:
        """Claim seat 1 of a friend table with its invite code (once)."""
        if not TABLE_ID_RE.match(table_id):
            raise TableError(404, "no such table")
        if not isinstance(invite, str) or len(invite) > 64:
            raise TableError(400, "invite must be the code from the invite link")
        friend = clean_name(name, "Friend")
        try:
            stored = await self.run(self.store.load, table_id)
        except StoreError:
            raise TableError(404, "no such table") from None
        expected = stored.meta.get("invite")
        if not isinstance(expected, str) or not hmac.compare_digest(expected, _hash(invite)):
            raise TableError(403, "this invite code does not open the table")
        try:
            token = await self.run(self.store.add_seat, table_id, 1, friend)
        except IntegrityError:
            raise TableError(409, "your friend's seat at this table is taken already") from None
        table = self._tables.get(table_id)
        if table is not None:
            async with table.lock:
                table.joined.add(1)
                names = (table.info.names[0], friend)
                table.info = TableInfo(table.id, names, table.info.opponent, table.info.level,
                                       table.info.preset)
                self._broadcast(table)
        return {"table": table_id, "seat": 1, "token": token}

    # -- loading ------------------------------------------------------------------------------

    async def table(self, table_id: str) -> Table:
        """The live table, replayed from the store if this server has not got it yet."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self._tables.get(table_id)
            if table is None:
                table = await self._load(table_id)
                self._tables[table_id] = table
        self._loading.pop(table_id, None)
        self._kick_bot(table)
        return table

    async def _open(self, table_id: str) -> PersistentMatch:
        pm = await self.run(self.store.open_match, table_id)
        match = pm.match
        dealt = pm.meta.get("dealt", 1)
        if isinstance(dealt, int) and dealt > len(match.hands) and match.hand.is_over \
                and not match.finished:
            match.next_hand()  # the deal was decided (and saved) before the restart
        return pm

    async def _load(self, table_id: str) -> Table:
        pm = await self._open(table_id)
        seats = await self.run(self.store.seats, table_id)
        meta = pm.meta
        opponent: Literal["computer", "friend"] = (
            "computer" if meta.get("opponent") == "computer" else "friend")
        level = meta.get("level") if opponent == "computer" else None
        computer_seat: int | None = None
        bot: Chooser | None = None
        names = [seats.get(0, pm.players[0]), seats.get(1, pm.players[1])]
        if opponent == "computer":
            computer_seat = int(meta.get("computer_seat", 1))
            bot = self.bot_factory(f"level{level}", int(meta.get("bot_seed", 0)))
            names[computer_seat] = pm.players[computer_seat]
        joined = set(seats) | ({computer_seat} if computer_seat is not None else set())
        preset = meta.get("preset")
        info = TableInfo(
            table=table_id,
            names=(str(names[0]), str(names[1])),
            opponent=opponent,
            level=level if isinstance(level, int) else None,
            preset=preset if isinstance(preset, str) else None,
        )
        return Table(pm=pm, info=info, computer_seat=computer_seat, bot=bot, joined=joined)

    async def authenticate(self, table_id: str, token: str) -> tuple[Table, int]:
        """The table and seat a token opens; anything else is the same ``auth`` error."""
        if not TABLE_ID_RE.match(table_id):
            raise ProtocolError("auth", "no such table, or the token does not open it")
        seat = await self.run(self.store.seat_of_token, table_id, token)
        if seat not in (0, 1):
            raise ProtocolError("auth", "no such table, or the token does not open it")
        return await self.table(table_id), seat

    # -- connections --------------------------------------------------------------------------

    async def attach(self, table: Table, seat: int, outbox: Outbox) -> None:
        async with table.lock:
            table.outboxes[seat].add(outbox)
            self._broadcast(table)

    async def detach(self, table: Table, seat: int, outbox: Outbox) -> None:
        async with table.lock:
            table.outboxes[seat].discard(outbox)
            if not any(table.outboxes) and table.bot_task is None:
                if self._tables.get(table.id) is table:
                    del self._tables[table.id]  # the store has it all; reload on next visit
            else:
                self._broadcast(table)

    def _frame(self, table: Table, seat: int, rid: int | None = None) -> dict[str, Any]:
        pm = table.pm
        ready = (0 in table.ready, 1 in table.ready)
        return state_frame(
            pm.match.view(seat), table.info, seq=pm.action_count,
            joined=(0 in table.joined, 1 in table.joined), connected=table.connected(),
            ready=ready, rid=rid,
        )

    def _broadcast(self, table: Table) -> None:
        """Send each connected seat its own view (call with the table's lock held)."""
        for seat in (0, 1):
            if table.outboxes[seat]:
                frame = self._frame(table, seat)
                for outbox in table.outboxes[seat]:
                    outbox.put(frame)

    # -- messages -----------------------------------------------------------------------------

    async def handle(self, table: Table, seat: int, outbox: Outbox, msg: ClientMessage) -> None:
        """Act on one message of a seat; a refusal raises :class:`ProtocolError`."""
        if isinstance(msg, Hello):
            raise ProtocolError("schema", "this connection has said hello already")
        if isinstance(msg, Sync):
            async with table.lock:
                outbox.put(self._frame(table, seat, msg.rid))
            return
        if isinstance(msg, NextHand):
            await self._next_hand(table, seat, msg.rid)
            return
        await self._act(table, seat, outbox, msg)

    async def _act(self, table: Table, seat: int, outbox: Outbox, msg: Act) -> None:
        async with table.lock:
            pm = table.pm
            if len(table.joined) < 2:
                raise ProtocolError("waiting", "your friend has not joined the table yet")
            if msg.seq != pm.action_count:
                raise ProtocolError(
                    "stale", f"the table is at action {pm.action_count}, not {msg.seq}: sync first"
                )
            hand = pm.match.hand
            if hand.is_over:
                raise ProtocolError("illegal", "the hand is over: send 'next' for the next deal")
            if hand.to_act != seat:
                raise ProtocolError("not_your_turn", "it is your opponent's turn")
            try:
                action = parse_action(msg.action)
                hand.check(action, seat)
            except IllegalActionError as exc:
                raise ProtocolError("illegal", str(exc)) from None
            await self._commit(table, seat, action)
            outbox.put({"type": "ack", "rid": msg.rid, "seq": table.pm.action_count,
                        "action": str(action)})
            self._broadcast(table)
        self._kick_bot(table)

    async def _commit(self, table: Table, seat: int, action: Action) -> None:
        """Check, commit, then apply; on a store failure reload the truth from the store."""
        pm, started = table.pm, time.perf_counter()
        try:
            pending = pm.prepare(action, seat)
        except IllegalActionError as exc:
            raise ProtocolError("illegal", str(exc)) from None
        try:
            await self.commit(pending)
        except StoreConflict:
            table.pm = await self._open(table.id)
            self._broadcast(table)
            raise ProtocolError("conflict", "another server changed this table first; "
                                "here is the table as saved") from None
        except Exception:
            log.exception("saving an action of table %s failed", table.id)
            try:  # the commit may or may not have happened: the store says which
                table.pm = await self._open(table.id)
            except Exception:
                log.exception("reloading table %s failed", table.id)
            self._broadcast(table)
            raise ProtocolError("server", "the action could not be saved; try again") from None
        pm.applied(pending, action)
        if self.on_commit is not None:
            self.on_commit(table, pending, time.perf_counter() - started)

    async def _next_hand(self, table: Table, seat: int, rid: int | None) -> None:
        async with table.lock:
            match = table.pm.match
            if not match.hand.is_over:
                raise ProtocolError("illegal", "the hand is not over yet")
            if match.finished:
                raise ProtocolError("illegal", "the match is over (R7.5): start a new one")
            table.ready.add(seat)
            if table.computer_seat is not None:
                table.ready.add(table.computer_seat)
            if table.ready >= {0, 1}:
                number = len(match.hands) + 1
                try:
                    await self.run(self.store.set_meta, table.id, dealt=number)
                except HollywoodGinError as exc:
                    raise ProtocolError("server", f"the next deal could not be saved: {exc}") \
                        from None
                match.next_hand()
                table.ready.clear()
            self._broadcast(table)
        self._kick_bot(table)

    # -- the computer -------------------------------------------------------------------------

    def _kick_bot(self, table: Table) -> None:
        if table.bot is None or table.bot_task is not None:
            return
        hand = table.pm.match.hand
        if hand.is_over or hand.to_act != table.computer_seat:
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(table))

    async def _bot_turns(self, table: Table) -> None:
        """Play the computer's actions while it is its turn, a short pause before each."""
        seat, bot = table.computer_seat, table.bot
        assert seat is not None and bot is not None
        try:
            while True:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                async with table.lock:
                    pm = table.pm
                    hand = pm.match.hand
                    if hand.is_over or hand.to_act != seat:
                        return
                    view, sheet, seq = hand.view(seat), pm.match.sheet.copy(), pm.action_count
                try:
                    action = await asyncio.to_thread(bot.choose, view, sheet)
                except Exception:
                    log.exception("the computer failed to choose at table %s", table.id)
                    action = view.legal_actions[0]
                async with table.lock:
                    if table.pm.action_count != seq:
                        continue
                    hand = table.pm.match.hand
                    if not hand.is_legal(action, seat):
                        log.error("the computer chose illegal %s at table %s", action, table.id)
                        action = view.legal_actions[0]
                    try:
                        await self._commit(table, seat, action)
                    except ProtocolError as exc:
                        log.error("the computer's action was refused: %s", exc.message)
                        await asyncio.sleep(1.0)
                        continue
                    self._broadcast(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer stopped at table %s", table.id)
        finally:
            table.bot_task = None
            if not any(table.outboxes) and self._tables.get(table.id) is table:
                del self._tables[table.id]


def error_for(exc: ProtocolError, rid: int | None = None) -> dict[str, Any]:
    """The error frame of a refused message."""
    return error_frame(exc.code, exc.message, rid)
