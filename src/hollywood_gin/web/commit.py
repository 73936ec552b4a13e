"""The store seen from the event loop: blocking calls on a small thread pool, and group
commit (the actions of many tables that arrive together share one transaction).

A batch is committed like ``Store.commit_actions``: an action another process saved
first at its step (stale) fails alone with :class:`StoreConflict`; the rest of the batch
is committed.  On PostgreSQL the batch is one statement (``Store.commit_statement``) run
on a connection of the writer's own, asynchronously on the event loop: no thread to wake
and no lock to share with one, which under load is most of a commit's wait.  A batch
that fails is tried again one action at a time through the store (its pool, a thread).
The other processes are told of a committed batch right after its callers are, on a
second connection (``StoreRunner._announce``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from ..store import PendingAction, Store, StoreConflict
from .bus import connect_args

if TYPE_CHECKING:
    from psycopg import AsyncConnection

__all__ = ["MAX_BATCH", "StoreRunner"]

log = logging.getLogger("hollywood_gin.web")

MAX_BATCH = 256

T = TypeVar("T")


class StoreRunner:
    """Runs store calls off the event loop; SQLite gets one thread (it has one writer)."""

    def __init__(self, store: Store, store_workers: int | None = None) -> None:
        self.store = store
        if store_workers is None:  # SQLite has one writer: more threads only wait on its lock
            store_workers = 1 if store.url.startswith("sqlite") else 4
        self._executor = ThreadPoolExecutor(store_workers, thread_name_prefix="hg-store")
        self._pending: list[tuple[PendingAction, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._conn: AsyncConnection[Any] | None = None  # the writer's (PostgreSQL)
        self._notifier: AsyncConnection[Any] | None = None  # its announcements
        #: Told of a database error on the writer's connection (ops counts them).
        self.db_error: Callable[[str, BaseException], None] = lambda operation, exc: None

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
                    stale = await self._commit_batch([item for item, _ in batch])
                except Exception:  # find out which one could not be saved
                    for item, future in batch:
                        try:
                            lost = await self.run(self.store.commit_actions, [item])
                        except Exception as exc:
                            _settle(future, exc)
                        else:
                            _settle(future, _stale(item) if lost else None)
                else:
                    for item, future in batch:
                        _settle(future, _stale(item) if item.match_id in stale else None)
                    # Announced once its tables have been told: a seat on this process
                    # waits for no other process's hearing (routing by table puts both
                    # seats here), and the next batch gathers meanwhile.
                    landed = [item for item, _ in batch if item.match_id not in stale]
                    if landed and self.store.postgresql and self.store.announce is not None:
                        await self._announce(landed)
        finally:
            self._writer = None

    async def _commit_batch(self, items: list[PendingAction]) -> set[str]:
        """Commit a batch; the ids of its stale actions' matches."""
        if not self.store.postgresql:
            return await self.run(self.store.commit_actions, items)
        import psycopg

        try:
            if self._conn is None or self._conn.closed:
                self._conn = await psycopg.AsyncConnection.connect(
                    autocommit=True, **connect_args(self.store))
            sql, params = self.store.commit_statement(items, announce=False)
            cursor = await self._conn.execute(sql, params)
            row = await cursor.fetchone()
        except psycopg.IntegrityError:  # a writer that skipped the row lock
            raise StoreConflict("an action of the batch is saved already") from None
        except psycopg.Error as exc:
            self.db_error("commit", exc)
            await self.close_writer()
            raise
        landed = set(row[0] or ()) if row is not None else set()
        return {item.match_id for item in items} - landed

    async def _announce(self, landed: list[PendingAction]) -> None:
        """Announce committed actions to the other processes, in a transaction of their own
        that does not wait for the disk (``synchronous_commit`` off: an announcement is
        not data; the actions are on the disk already).  Kept out of the commit, the
        commits of many processes do not queue for PostgreSQL's NOTIFY lock one disk flush
        at a time.  Should it fail, or the process die first, the other processes still
        catch up: the table's next announcement shows them a gap, a reconnecting seat
        reads the log.  With a ``publisher`` (the Redis bus) the same payloads go there."""
        publisher = self.store.publisher
        if publisher is not None:  # the Redis bus: whatever fails there is its transport's
            try:
                await publisher.publish(self.store.payloads(landed))
            except Exception as exc:
                self._announce_failed(landed, exc)
            return
        import psycopg

        try:
            if self._notifier is None or self._notifier.closed:
                kwargs = connect_args(self.store)
                options = f"{kwargs.pop('options', '')} -c synchronous_commit=off".strip()
                self._notifier = await psycopg.AsyncConnection.connect(
                    autocommit=True, options=options, **kwargs)
            sql, params = self.store.announcement(landed)
            await self._notifier.execute(sql, params)
        except psycopg.Error as exc:  # committed all the same: the caller must not retry
            self._announce_failed(landed, exc)
            conn, self._notifier = self._notifier, None
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    def _announce_failed(self, landed: list[PendingAction], exc: BaseException) -> None:
        self.db_error("announce", exc)
        log.warning("announcing %d committed actions failed (%s): the other processes "
                    "catch up at the next one", len(landed), type(exc).__name__)

    async def close_writer(self) -> None:
        """Close the writer's connections (new ones are made at the next commit), once the
        writer has finished what it started (the announcement of its last batch)."""
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            with contextlib.suppress(Exception):
                await asyncio.shield(writer)
        for conn in (self._conn, self._notifier):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._conn = self._notifier = None

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


def _stale(item: PendingAction) -> StoreConflict:
    return StoreConflict(f"action {item.seq} of match {item.match_id} is saved already")


def _settle(future: asyncio.Future[None], exc: BaseException | None) -> None:
    """Resolve a caller's future, unless its caller has gone (cancelled)."""
    if future.done():
        return
    if exc is None:
        future.set_result(None)
    else:
        future.set_exception(exc)
