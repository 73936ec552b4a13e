"""The database a store opens (created or upgraded to this release's schema), its
transactions, and the announcements of what they commit."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from sqlalchemy import (
    Engine,
    Float,
    cast,
    create_engine,
    event,
    func,
    literal,
)
from sqlalchemy.engine import Connection, ExceptionContext
from sqlalchemy.exc import DatabaseError, IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from ..announce import (
    CHANNEL,
    Publisher,
    action_line,
    split_payloads,
)
from ..i18n import _
from ..schema import (
    SCHEMA_REVISION,
    schema_revision,
)
from .records import PendingAction, StoreError, _safe_url, default_url

#: Committed actions announced afterwards, in a transaction of their own.  PostgreSQL
#: serialises the commits of every transaction that NOTIFYs (a lock held until the commit
#: is on the disk, so that announcements are queued in commit order): announced inside the
#: commits, all the processes' commits would wait for each other's disk flushes in turn.
_ANNOUNCE_AFTER_SQL = """
SELECT pg_notify(CAST(%(channel)s AS text), p) FROM unnest(CAST(%(payloads)s AS text[])) AS p
"""
#: Where a transaction of ours gathers what it announces (``Connection.info``).
_ANNOUNCE_KEY = "hollywood_gin.announce"

log = logging.getLogger("hollywood_gin.store")


class StoreBase:
    """A connection to the saved-games database: its transactions and announcements.

    An empty database is created at this release's schema.  One below it is upgraded
    here if it is SQLite (one user's file) and refused otherwise, naming
    ``hollywood-gin db upgrade`` (the operator migrates a shared server once, after a
    backup; see :mod:`hollywood_gin.migrate`).
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        #: Set to a sender id to announce every change on :data:`CHANNEL` (PostgreSQL
        #: only): what a server process does so that the others serving a table follow it.
        self.announce: str | None = None
        #: Where announcements go if not to PostgreSQL's NOTIFY (``serve --bus redis://``).
        self.publisher: Publisher | None = None
        try:
            kwargs: dict[str, Any] = {"future": True}
            if self.url.startswith("sqlite"):
                kwargs["connect_args"] = {"timeout": 30}
            elif self.url.startswith("postgresql") and "connect_timeout" not in self.url:
                kwargs["connect_args"] = {"connect_timeout": 10}  # a dead server: fail, not hang
            self.engine: Engine = create_engine(self.url, **kwargs)
            if self.url.startswith("sqlite"):
                event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "handle_error", self._as_store_error)
            with self.engine.connect() as conn:
                current = schema_revision(conn) == SCHEMA_REVISION
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] in ("psycopg", "sqlalchemy"):
                raise  # an extra of ours is missing (postgres): the CLI names it
            raise StoreError(_("cannot open the database {url}: its driver {driver} is not "
                               "installed, and hollywood-gin is made for SQLite and "
                               "PostgreSQL").format(url=_safe_url(self.url),
                                                    driver=exc.name)) from None
        except DatabaseFailed as exc:  # through _as_store_error
            raise StoreError(_("cannot open the database {url}: {reason}").format(
                url=_safe_url(self.url), reason=exc.reason)) from None
        except Exception as exc:  # the driver's own errors vary; name the URL
            raise StoreError(_("cannot open the database {url}: {reason}").format(
                url=_safe_url(self.url), reason=exc)) from None
        if not current:  # Alembic is loaded only when there is something to do
            from ..migrate import ensure_schema

            try:
                ensure_schema(self.engine, self.url)
            except StoreError:
                self.engine.dispose()
                raise
        self.postgresql = self.engine.dialect.name == "postgresql"
        #: The same pool, each statement its own transaction (the one-statement commit).
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")

    def close(self) -> None:
        self.engine.dispose()

    def _as_store_error(self, context: ExceptionContext) -> DatabaseFailed | None:
        """A database failing under the store (a file damaged: "database disk image is
        malformed", a server gone) is a StoreError naming the database, which every layer
        tells its player in words; a race between two writers stays an IntegrityError,
        which the store turns into a conflict.  Listeners after this one (the web's
        metrics) still see the original."""
        error = context.sqlalchemy_exception
        if not isinstance(error, DatabaseError) or isinstance(error, IntegrityError):
            return None
        reason = " ".join(str(context.original_exception).split())[:300]
        return DatabaseFailed(_safe_url(self.url), reason)

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self._announcing(self.engine.begin()) as conn:
            yield conn

    @contextmanager
    def _write_tx(self) -> Iterator[Connection]:
        """A transaction that writes after it reads: on SQLite it takes the write lock first
        (pysqlite would begin only at the first write, after the read)."""
        with self._announcing(self.engine.begin()) as conn:
            if not self.postgresql and self.url.startswith("sqlite"):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            yield conn

    @contextmanager
    def _announcing(self, begin: AbstractContextManager[Connection]) -> Iterator[Connection]:
        """A transaction whose announcements (:meth:`_notify`) are sent once it has
        committed, in a transaction of their own: PostgreSQL holds the lock that orders
        NOTIFYs from a notifying transaction's commit until its flush is on the disk, so
        announced inside, every announcing commit of every process (and the writers'
        announcements of actions) would wait for this one's flush in turn."""
        if self.announce is None or not self.postgresql:  # nothing is ever announced
            with begin as conn:
                yield conn
            return
        lines: list[str] = []
        with begin as conn:
            conn.info[_ANNOUNCE_KEY] = lines
            try:
                yield conn
            finally:
                conn.info.pop(_ANNOUNCE_KEY, None)
        self._announce_now(lines)

    def _notify(self, conn: Connection, lines: Sequence[str]) -> None:
        """Announce ``lines`` on :data:`CHANNEL` once this transaction (one of
        :meth:`_tx`, :meth:`_write_tx`) has committed (see :meth:`_announcing`; never
        before: the others read the change when they hear)."""
        if self.announce is not None and self.postgresql:
            conn.info[_ANNOUNCE_KEY].extend(lines)

    def _announce_now(self, lines: Sequence[str]) -> None:
        """Announce what has committed, in a one-statement transaction that writes nothing
        (so it waits for no disk).  A failure is logged, not raised: the change is saved,
        and the others catch up (their sweep, a reconnecting seat's sync)."""
        try:
            self.say(lines)
        except Exception as exc:
            log.warning("announcing %d committed changes failed (%s): the other processes "
                        "catch up from the log", len(lines), type(exc).__name__)

    def say(self, lines: Sequence[str]) -> None:
        """Put ``lines`` on :data:`CHANNEL` now (the publisher's, else PostgreSQL's NOTIFY,
        in a one-statement transaction that writes nothing); raises if it cannot.  What
        :meth:`_announce_now` sends once a change has committed, and what a server says
        straight away of what no database holds (who is at a table: ``p`` and ``q``
        lines).  Nothing when this store does not announce (SQLite, or no ``announce``)."""
        if not lines or self.announce is None or not self.postgresql:
            return
        if self.publisher is not None:
            self.publisher.publish_blocking(self._payloads(lines))
            return
        with self._autocommit.connect() as conn:
            conn.exec_driver_sql(*self._announcement_of(lines))

    def payloads(self, landed: Sequence[PendingAction]) -> list[str]:
        """The announcement of actions committed already, as payloads (for a publisher)."""
        return self._payloads([action_line(i) for i in landed])

    def _payloads(self, lines: Sequence[str]) -> list[str]:
        """``lines`` in payloads under PostgreSQL's limit, each headed by the sender."""
        return split_payloads(self.announce or "", lines)

    def announcement(self, landed: Sequence[PendingAction]) -> tuple[str, dict[str, Any]]:
        """The statement (psycopg's style) that announces actions committed already, and its
        parameters: for a writer that commits a batch without announcing it
        (``commit_statement(..., announce=False)``) and announces it right after, in a
        transaction of its own that need not wait for the disk."""
        return self._announcement_of([action_line(i) for i in landed])

    def _announcement_of(self, lines: Sequence[str]) -> tuple[str, dict[str, Any]]:
        return _ANNOUNCE_AFTER_SQL, {"channel": CHANNEL, "payloads": self._payloads(lines)}

    def _db_now(self) -> ColumnElement[float]:
        """Now, by the database's clock on PostgreSQL (one clock for every machine)."""
        if self.postgresql:
            return cast(func.extract("epoch", func.clock_timestamp()), Float)
        return literal(time.time(), Float)



class DatabaseFailed(StoreError):
    """The database failed under the store; ``reason`` is the database's own words."""

    def __init__(self, url: str, reason: str) -> None:
        # Translators: {reason} is the database's own words, in English.
        super().__init__(_("the database {url} failed: {reason}").format(url=url,
                                                                          reason=reason))
        self.reason = reason


#: How long a new connection keeps asking for WAL mode while another holds the file's
#: write lock (the connection's own busy timeout).
_WAL_WAIT_S = 30.0


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    # Turning a new file to WAL needs the file to itself, and SQLite answers "database is
    # locked" at once, without its busy timeout, when another connection holds the write
    # lock (two programs opening one new games file together): ask again until it is free.
    deadline = time.monotonic() + _WAL_WAIT_S
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


