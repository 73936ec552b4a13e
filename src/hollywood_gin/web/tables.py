"""Live tables: the server's one authority over each match, rebuilt from the store on demand.

A :class:`~.live.Table` holds a :class:`PersistentMatch` replayed from the store,
the outboxes of the seats connected to it, and the computer player if there is
one.  Everything that reads or changes a table does so under its lock, so
frames go out in the order the actions were committed.  An action is
committed to the store (``PersistentMatch.act``) before any frame mentions
it; after a server restart the first connection replays the table from the
store and it goes on from the same point.

Nothing that can hold a table up lives only in this process's memory: who is
ready for the next deal, who asked for a rematch (and its table), who
abandoned the match are in the match's saved meta; the computer's turn is
started again whenever a seat connects or asks to sync.

Any number of processes may serve one table (PostgreSQL).  Each commits under
optimistic concurrency (a step taken by another process first is refused as
``stale`` and the table caught up from the log), hears the others' changes through
LISTEN/NOTIFY (:mod:`.follow`, :mod:`.bus`: an announced action is applied straight
from the announcement, anything else is read from the store), and plays the computer
only while it holds the table's bot lease (:mod:`.leases`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from typing import Any, Literal, cast

from ..actions import Action, parse_action
from ..errors import HollywoodGinError, IllegalActionError
from ..rules import Rules
from ..store import PendingAction, Store, StoreConflict
from .follow import SWEEP_SECONDS, Following
from .leases import LEASE_SECONDS, RETRY
from .live import (
    TABLE_ID_RE,
    BotFactory,
    Chooser,
    Outbox,
    Table,
    default_bot_factory,
    table_meta,
)
from .protocol import (
    Act,
    ClientMessage,
    Hello,
    NextHand,
    ProtocolError,
    Rematch,
    Sync,
    TableInfo,
    error_frame,
    seat_frame,
    state_frame,
)

__all__ = [
    "TABLE_ID_RE",
    "BotFactory",
    "Chooser",
    "Outbox",
    "Table",
    "TableManager",
    "default_bot_factory",
]

log = logging.getLogger("hollywood_gin.web")

BOT_RETRY = 1.0  # seconds before the computer tries again after a failure

#: What a move or a next deal after the match's end is told (R7.5).
MATCH_OVER = "the match is over (R7.5): send 'rematch' for another"


class TableManager(Following):
    """Creates, loads, and runs tables; every store call goes through one executor.

    Call :meth:`start` on the event loop (the app's lifespan does) to follow the other
    processes serving the same PostgreSQL database; :meth:`close` at the end.
    """

    def __init__(
        self,
        store: Store,
        *,
        bot_factory: BotFactory = default_bot_factory,
        bot_delay: float = 0.6,
        store_workers: int | None = None,
        lease_seconds: float = LEASE_SECONDS,
        bus_url: str | None = None,
        sweep_seconds: float = SWEEP_SECONDS,
    ) -> None:
        self.bot_factory = bot_factory
        self.bot_delay = bot_delay
        super().__init__(store, store_workers, lease_seconds, sweep_seconds=sweep_seconds,
                         bus_url=bus_url)
        self.on_commit: Callable[[Table, PendingAction, float], None] | None = None  # ops

    # -- new tables ---------------------------------------------------------------------------

    async def new_table(
        self, *, rules: Rules, names: tuple[str, str], opponent: Literal["computer", "friend"],
        preset: str | None, level: int | None, seats: tuple[int, ...],
        extra: dict[str, Any] | None = None,
    ) -> tuple[str, dict[int, str]]:
        """Save a new match with its first hand dealt and tokens for ``seats``; returns its
        id and the tokens by seat."""
        meta = table_meta(opponent, preset, level)
        meta.update(extra or {})
        pm = await self.run(self.store.new_match, rules=rules, players=names,
                            kind=f"web-{opponent}", meta=meta)
        tokens = {}
        for seat in seats:
            tokens[seat] = await self.run(self.store.add_seat, pm.id, seat, names[seat])
        return pm.id, tokens

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
                self._ask_presence(table_id)  # who is at it on the other processes
                if table_id in self._missed:  # changed while it was being read
                    self._missed.discard(table_id)
                    table.row_changed = True
                    self._schedule_catch_up(table)
        self._loading.pop(table_id, None)
        self._kick_bot(table)
        return table

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
        info = TableInfo(
            table=table_id,
            names=(str(names[0]), str(names[1])),
            opponent=opponent,
            level=level if isinstance(level, int) else None,
            preset=pm.match.rules.preset_name,
        )
        table = Table(pm=pm, info=info, computer_seat=computer_seat, bot=bot, joined=joined)
        _show_ended_hands(table)  # a table resumed from the store: the hands played so far
        return table

    async def authenticate(self, table_id: str, token: str) -> tuple[Table, int]:
        """The table and seat a token opens; anything else is the same ``auth`` error."""
        if not TABLE_ID_RE.fullmatch(table_id):
            raise ProtocolError("auth", "no such table, or the token does not open it")
        seat = await self.run(self.store.seat_of_token, table_id, token)
        if seat not in (0, 1):
            raise ProtocolError("auth", "no such table, or the token does not open it")
        return await self.table(table_id), seat

    async def seat_joined(self, table_id: str, seat: int, name: str) -> None:
        """A friend took a seat: tell the table if it is live here."""
        table = self._tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            self._seat_names(table, {seat: name})
            self._broadcast(table)

    async def abandon(self, table_id: str, seat: int) -> str:
        """Abandon an unfinished match for ``seat``: saved (status and meta), the computer
        stopped, the other seat told.  "abandoned", "already" (it was: nothing is done
        again, nor logged) or "finished"."""
        table = self._tables.get(table_id)
        if table is None:
            return await self.run(_abandon_stored, self.store, table_id, seat)
        async with table.lock:
            if table.pm.match.finished:
                return "finished"
            done = await self.run(_abandon_stored, self.store, table_id, seat)
            if done != "abandoned":
                return done
            table.pm.meta = (await self.run(self.store.load, table_id)).meta
            if table.bot_task is not None:
                table.bot_task.cancel()
            self._broadcast(table)
        return "abandoned"

    # -- connections --------------------------------------------------------------------------

    async def attach(self, table: Table, seat: int, outbox: Outbox) -> None:
        async with table.lock:
            table.outboxes[seat].add(outbox)
            self._say_presence(table, (seat,))
            self._broadcast(table)
        self._kick_bot(table)

    async def detach(self, table: Table, seat: int, outbox: Outbox) -> None:
        async with table.lock:
            table.outboxes[seat].discard(outbox)
            self._say_presence(table, (seat,))
            if not any(table.outboxes) and table.bot_task is None:
                self._unload(table)
            else:
                self._broadcast(table)

    def _frame(self, table: Table, seat: int, rid: int | None = None) -> dict[str, Any]:
        pm = table.pm
        ready = table.ready
        asked, new = table.rematch
        deck = pm.match.hand.deck
        return state_frame(
            pm.match.view(seat), table.info, seq=pm.action_count,
            joined=(0 in table.joined, 1 in table.joined), connected=table.connected(),
            ready=(0 in ready, 1 in ready), rid=rid,
            upcard=deck[20] if deck is not None else None,
            rematch=((0 in asked, 1 in asked), new), abandoned=table.abandoned,
            shared=table.shared,
        )

    def _broadcast(self, table: Table) -> None:
        """Send each connected seat its own view (call with the table's lock held)."""
        for seat in (0, 1):
            if table.outboxes[seat]:
                frame = self._frame(table, seat)
                for outbox in table.outboxes[seat]:
                    outbox.put(frame)

    async def _save_meta(self, table: Table, change: Callable[[dict[str, Any]], None]
                         ) -> dict[str, Any]:
        """Change the table's saved meta (row-locked in the store) and keep the result."""
        try:
            meta = await self.run(self.store.update_meta, table.id, change)
        except HollywoodGinError as exc:
            raise ProtocolError("server", f"the table could not be saved: {exc}") from None
        except Exception:
            log.exception("saving the meta of table %s failed", table.id)
            raise ProtocolError("server", "the table could not be saved; try again") from None
        table.pm.meta = meta
        return meta

    # -- messages -----------------------------------------------------------------------------

    async def handle(self, table: Table, seat: int, outbox: Outbox, msg: ClientMessage) -> None:
        """Act on one message of a seat; a refusal raises :class:`ProtocolError`."""
        if isinstance(msg, Hello):
            raise ProtocolError("schema", "this connection has said hello already")
        if isinstance(msg, Sync):
            async with table.lock:
                if self.shared:  # the page asks because it doubts: read the log's news
                    await self._reload(table, seats=True)
                outbox.put(self._frame(table, seat, msg.rid))
            self._kick_bot(table)
            return
        if isinstance(msg, Rematch):
            await self._rematch(table, seat, outbox, msg.rid)
            return
        try:
            if isinstance(msg, NextHand):
                await self._next_hand(table, seat, msg.rid)
            else:
                await self._act(table, seat, outbox, msg)
        finally:
            # Even after a refusal: a store failure reloads the table, which may then be at
            # the computer's turn (the action was saved after all); nobody else would start it.
            self._kick_bot(table)

    def _check_open(self, table: Table) -> None:
        if table.abandoned is not None:
            raise ProtocolError("abandoned", "the match was abandoned: start a new one")

    async def _act(self, table: Table, seat: int, outbox: Outbox, msg: Act) -> None:
        async with table.lock:
            self._check_open(table)
            pm = table.pm
            if len(table.joined) < 2:
                raise ProtocolError("waiting", "your friend has not joined the table yet")
            if msg.seq != pm.action_count:
                raise ProtocolError(
                    "stale", f"the table is at action {pm.action_count}, not {msg.seq}: sync first"
                )
            hand = pm.match.hand
            if pm.match.finished:
                raise ProtocolError("illegal", MATCH_OVER)
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

    async def _commit(self, table: Table, seat: int, action: Action) -> None:
        """Check, commit, then apply; on a store failure reload the truth from the store."""
        pm, started = table.pm, time.perf_counter()
        try:
            pending = pm.prepare(action, seat)
        except IllegalActionError as exc:
            raise ProtocolError("illegal", str(exc)) from None
        try:
            await self.commit(pending)
        except StoreConflict:  # another process (or seat) took this step first
            self.count("stale")
            try:
                await self._reload(table)
            except Exception:
                log.exception("reloading table %s failed", table.id)
            self._broadcast(table)
            raise ProtocolError("stale", "this step was saved already (another server or an "
                                "earlier try was first): here is the table as saved; decide "
                                "again") from None
        except Exception:
            log.exception("saving an action of table %s failed", table.id)
            try:  # the commit may or may not have happened: the store says which
                table.pm = await self._open(table.id)
            except Exception:
                log.exception("reloading table %s failed", table.id)
            self._broadcast(table)
            raise ProtocolError("server", "the action could not be saved; try again") from None
        pm.applied(pending, action)
        _show_ended_hands(table)
        if self.on_commit is not None:
            self.on_commit(table, pending, time.perf_counter() - started)

    async def _next_hand(self, table: Table, seat: int, rid: int | None) -> None:
        """A seat is ready for the next deal; deal it once both are (the computer always is).
        Readiness is saved, so a restart between the two clicks loses neither."""
        async with table.lock:
            self._check_open(table)
            match = table.pm.match
            if not match.hand.is_over:
                raise ProtocolError("illegal", "the hand is not over yet")
            if match.finished:
                raise ProtocolError("illegal", MATCH_OVER)
            number = len(match.hands)
            seats = {seat} | ({table.computer_seat} if table.computer_seat is not None else set())

            def ready(meta: dict[str, Any]) -> None:
                saved = meta.get("ready")
                have = set(seats)
                if isinstance(saved, dict) and saved.get("hand") == number:
                    have |= {s for s in saved.get("seats", ()) if s in (0, 1)}
                dealt = meta.get("dealt", 1)
                if have >= {0, 1} or (isinstance(dealt, int) and dealt > number):
                    meta["dealt"] = max(number + 1, dealt if isinstance(dealt, int) else 1)
                    meta.pop("ready", None)
                else:
                    meta["ready"] = {"hand": number, "seats": sorted(have)}

            meta = await self._save_meta(table, ready)
            if meta.get("dealt", 1) > number:
                match.next_hand()
            self._broadcast(table)

    async def _rematch(self, table: Table, seat: int, outbox: Outbox, rid: int | None) -> None:
        """At the match's end: count this seat in for a rematch; once both are (the computer
        always is), a new match with the same seats, names, rules and level is saved, and
        each seat that asks is sent its own token to it: derived from the token the asking
        socket opened this seat with (:func:`rematch_token`), so two tabs or devices of one
        seat get the same one and neither ask locks the other out; a page that lost it can
        ask again."""
        async with table.lock:
            self._check_open(table)
            if not table.pm.match.finished:
                raise ProtocolError("illegal", "the match is not over yet: a rematch comes after")
            wanted = {seat} | ({table.computer_seat} if table.computer_seat is not None
                               else set())

            def ask(meta: dict[str, Any]) -> None:
                saved = meta.get("rematch")
                saved = saved if isinstance(saved, dict) else {}
                seats = {s for s in saved.get("seats", ()) if s in (0, 1)} | wanted
                meta["rematch"] = {"seats": sorted(seats), "table": saved.get("table")}

            await self._save_meta(table, ask)
            asked, new = table.rematch
            token: str | None = None
            if new is None and asked >= {0, 1}:
                new, tokens = await self._new_rematch(table)
                token = tokens.get(seat)
            if new is not None:
                if outbox.token is not None:
                    token = rematch_token(outbox.token, new)
                    await self.run(self.store.set_seat_token, new, seat, token)
                elif token is None:
                    token = await self.run(self.store.reset_seat_token, new, seat)
                outbox.put(seat_frame(new, seat, token, rid))
            self._broadcast(table)

    async def _new_rematch(self, table: Table) -> tuple[str, dict[int, str]]:
        info = table.info
        human = [s for s in (0, 1) if s != table.computer_seat]
        try:
            new, tokens = await self.new_table(
                rules=table.pm.match.rules, names=info.names, opponent=info.opponent,
                preset=table.pm.meta.get("preset"), level=info.level, seats=tuple(human),
                extra={"rematch_of": table.id})
        except Exception:
            log.exception("creating the rematch of table %s failed", table.id)
            raise ProtocolError("server", "the rematch could not be saved; try again") from None

        def link(meta: dict[str, Any]) -> None:
            saved = meta["rematch"]
            if saved.get("table") is None:
                saved["table"] = new

        meta = await self._save_meta(table, link)
        if meta["rematch"]["table"] != new:  # another server linked its own first
            await self.run(self.store.set_status, new, "abandoned")
            return meta["rematch"]["table"], {}
        return new, tokens

    # -- the computer -------------------------------------------------------------------------

    def _kick_bot(self, table: Table) -> None:
        if table.bot is None or table.bot_task is not None or table.abandoned is not None:
            return
        hand = table.pm.match.hand
        if hand.is_over or hand.to_act != table.computer_seat:
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(table))

    async def _bot_turns(self, table: Table) -> None:
        """Play the computer's actions while it is its turn, a short pause before each,
        as long as this process holds the table's bot lease (else wait for the holder to
        move, to release it, or to let it expire).  A failure is logged and tried again
        while anyone is at the table: a computer that stopped would hold the table up
        for good."""
        seat, bot = table.computer_seat, table.bot
        assert seat is not None and bot is not None
        try:
            while True:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                try:
                    if not self._computers_turn(table):
                        return
                    if not await self.leases.hold(table.id):
                        if not any(table.outboxes):
                            return  # nobody here to wait for it
                        table.wake.clear()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(table.wake.wait(), RETRY)
                        continue
                    if not await self._bot_turn(table, seat, bot):
                        return
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("the computer failed at table %s", table.id)
                    if not any(table.outboxes):
                        return
                    await asyncio.sleep(BOT_RETRY)
        finally:
            table.bot_task = None
            if not any(table.outboxes):
                self._unload(table)

    def _computers_turn(self, table: Table) -> bool:
        hand = table.pm.match.hand
        return not (hand.is_over or hand.to_act != table.computer_seat
                    or table.abandoned is not None)

    async def _bot_turn(self, table: Table, seat: int, bot: Chooser) -> bool:
        """One computer action if it is its turn; False when it is not (stop)."""
        async with table.lock:
            if not self._computers_turn(table):
                return False
            pm = table.pm
            hand = pm.match.hand
            _show_ended_hands(table)  # in case a reload or another process ended one unseen
            view, sheet, seq = hand.view(seat), pm.match.sheet.copy(), pm.action_count
        try:
            action = await asyncio.to_thread(bot.choose, view, sheet)
        except Exception:
            log.exception("the computer failed to choose at table %s", table.id)
            action = view.legal_actions[0]
        async with table.lock:
            if table.pm.action_count != seq or not self._computers_turn(table):
                return True  # the table moved on meanwhile (another process): look again
            hand = table.pm.match.hand
            if not hand.is_legal(action, seat):
                log.error("the computer chose illegal %s at table %s", action, table.id)
                action = view.legal_actions[0]
            try:
                await self._commit(table, seat, action)
            except ProtocolError as exc:
                if exc.code == "stale":
                    return True  # another process played this step: caught up, look again
                log.error("the computer's action was refused: %s", exc.message)
                refused = True
            else:
                refused = False
                self._broadcast(table)
        if refused:
            await asyncio.sleep(BOT_RETRY)
        return True


def _show_ended_hands(table: Table) -> None:
    """Show the computer each hand that has ended since it was last shown one, from its
    seat with the sheet after it, as the arena does (``Bot.observe``): it learns this
    opponent as the match goes on, and a table loaded from the store replays them all."""
    bot, seat = table.bot, table.computer_seat
    observe = getattr(bot, "observe", None)
    if seat is None or observe is None:
        return
    from ..bots.base import Observer, observe_match

    match = table.pm.match
    try:
        table.observed = observe_match(cast(Observer, bot), match, seat, table.observed)
    except Exception:  # a computer that cannot learn still plays: never hold the table up
        log.exception("the computer failed to observe a hand at table %s", table.id)
        table.observed = len(match.hands) - (0 if match.hand.is_over else 1)


def _abandon_stored(store: Store, table_id: str, seat: int) -> str:
    """Mark a saved match abandoned by ``seat`` unless it is finished or abandoned already
    (a store call): what :meth:`TableManager.abandon` answers."""
    status = store.load(table_id).status
    if status in ("finished", "abandoned"):
        return "already" if status == "abandoned" else "finished"

    def mark(meta: dict[str, Any]) -> None:
        meta.setdefault("abandoned_by", seat)

    store.update_meta(table_id, mark, status="abandoned")
    return "abandoned"


def error_for(exc: ProtocolError, rid: int | None = None) -> dict[str, Any]:
    """The error frame of a refused message."""
    return error_frame(exc.code, exc.message, rid)


def rematch_token(token: str, new_table: str) -> str:
    """A seat's token at the rematch table, from its token at the old one: as secret as that
    one (an HMAC keyed by it), and the same for every socket that opened the seat with it."""
    digest = hmac.new(token.encode(), new_table.encode(), hashlib.sha256).digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()
