"""Saved games: every action committed as it happens, shared by the terminal and web games.

The log is the truth: a stored match is its rules, seed and first dealer plus
the ordered list of action texts, and loading it replays them through the
engine.  SQLite by default (in the user's data directory), PostgreSQL or any
SQLAlchemy URL by ``url=`` or the ``HOLLYWOOD_GIN_DB`` environment variable.
Needs the optional extra ``store`` (SQLAlchemy, platformdirs).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    Float,
    bindparam,
    cast,
    create_engine,
    delete,
    event,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from .actions import Action, parse_action
from .announce import (
    CHANNEL,
    Announcement,
    Publisher,
    action_line,
    parse_announcement,
    split_payloads,
)
from .errors import HollywoodGinError, IllegalActionError
from .hand import HandResult
from .match import Match
from .rules import Rules
from .schema import (
    SCHEMA_REVISION,
    actions_table,
    hands_table,
    leases_table,
    matches_table,
    reviews_table,
    schema_revision,
    seats_table,
)

__all__ = [
    "CHANNEL",
    "DB_ENV",
    "Announcement",
    "PendingAction",
    "PersistentMatch",
    "Publisher",
    "ReviewRow",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoredAction",
    "StoredMatch",
    "default_url",
    "parse_announcement",
]

DB_ENV = "HOLLYWOOD_GIN_DB"


#: A batch of actions committed in one statement (PostgreSQL): the batch's rows, unnested
#: from arrays; its matches' rows locked in id order (FOR UPDATE: two servers committing
#: to one match wait for each other, and the second then reads the first's count); the
#: actions whose step is still free inserted, their matches' counts moved on (and their
#: ends saved), their hands' results upserted; the ids of those that landed returned.
_COMMIT_SQL = """
WITH batch AS (
  SELECT * FROM unnest(
    CAST(%(ids)s AS varchar[]), CAST(%(seqs)s AS int[]), CAST(%(hands)s AS int[]),
    CAST(%(players)s AS int[]), CAST(%(actions)s AS text[]), CAST(%(fin)s AS boolean[]),
    CAST(%(winners)s AS int[]), CAST(%(totals)s AS text[]), CAST(%(kinds)s AS varchar[]),
    CAST(%(hwinners)s AS int[]), CAST(%(knockers)s AS int[]), CAST(%(points)s AS int[]))
    AS b(match_id, seq, hand_number, player, action, fin, winner, totals, kind, hwinner,
         knocker, points)
), locked AS (
  SELECT id, action_count FROM hg_matches WHERE id = ANY(CAST(%(ids)s AS varchar[]))
  ORDER BY id FOR UPDATE
), ok AS (
  SELECT b.* FROM batch b JOIN locked l ON l.id = b.match_id AND l.action_count = b.seq
), ins AS (
  INSERT INTO hg_actions (match_id, seq, hand_number, player, action, created_at)
  SELECT match_id, seq, hand_number, player, action, CAST(%(now)s AS float8) FROM ok
), upd AS (
  UPDATE hg_matches m SET action_count = ok.seq + 1, updated_at = CAST(%(now)s AS float8),
    status = CASE WHEN ok.fin THEN 'finished' ELSE m.status END,
    winner = CASE WHEN ok.fin THEN ok.winner ELSE m.winner END,
    totals = CASE WHEN ok.fin THEN ok.totals ELSE m.totals END
  FROM ok WHERE m.id = ok.match_id
), hands AS (
  INSERT INTO hg_hands (match_id, hand_number, kind, winner, knocker, points)
  SELECT match_id, hand_number, kind, hwinner, knocker, points FROM ok WHERE kind IS NOT NULL
  ON CONFLICT (match_id, hand_number) DO UPDATE SET kind = excluded.kind,
    winner = excluded.winner, knocker = excluded.knocker, points = excluded.points
)"""
#: ... and announced on the channel (payloads of 60 lines at most: under 8000 bytes).
_ANNOUNCE_SQL = """, lines AS (
  SELECT 'a ' || match_id || ' ' || seq || ' ' || hand_number || ' ' || player || ' '
         || action AS line, row_number() OVER () - 1 AS n FROM ok
), notes AS (
  SELECT pg_notify(CAST(%(channel)s AS text),
                   CAST(%(sender)s AS text) || chr(10) || string_agg(line, chr(10)))
  FROM lines GROUP BY n / 60
)
SELECT array_agg(match_id) FROM ok, (SELECT count(*) FROM notes) AS announced
"""
_QUIET_SQL = """
SELECT array_agg(match_id) FROM ok
"""
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


class StoreError(HollywoodGinError):
    """The database cannot be used, or a stored match is missing or does not replay."""


class StoreConflict(StoreError):
    """Another writer appended to the match first; reload and try again."""


def default_url() -> str:
    """``HOLLYWOOD_GIN_DB`` if set, else a SQLite file in the user's data directory."""
    env = os.environ.get(DB_ENV)
    if env:
        return env
    import platformdirs

    folder = Path(platformdirs.user_data_dir("hollywood-gin", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.db'}"


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredAction:
    seq: int
    hand_number: int
    player: int
    action: str


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match row and its log, as stored."""

    id: str
    kind: str
    status: str
    created_at: float
    updated_at: float
    rules: Rules
    seed: int
    first_dealer: int
    players: tuple[str, str]
    meta: dict[str, Any]
    actions: tuple[StoredAction, ...] = field(default=())
    winner: int | None = None
    totals: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """The summary of a stored hand review (its JSON is read with :meth:`Store.reviews`)."""

    match_id: str
    hand_number: int
    seat: int
    method: str
    created_at: float
    decisions: int
    accuracy: float | None
    points_lost: float


@dataclass(frozen=True, slots=True)
class PendingAction:
    """One checked action, ready to commit: what :meth:`Store.append_action` takes."""

    match_id: str
    seq: int
    hand_number: int
    player: int
    action: str
    hand_result: HandResult | None = None
    finished: tuple[int | None, tuple[int, int]] | None = None


class Store:
    """A connection to the saved-games database.

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
            with self.engine.connect() as conn:
                current = schema_revision(conn) == SCHEMA_REVISION
        except ModuleNotFoundError:
            raise  # a driver's extra is missing (postgres): the CLI names it
        except Exception as exc:  # the driver's own errors vary; name the URL
            raise StoreError(f"cannot open the database {_safe_url(self.url)}: {exc}") from None
        if not current:  # Alembic is loaded only when there is something to do
            from .migrate import ensure_schema

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
        if not lines or self.announce is None or not self.postgresql:
            return
        try:
            if self.publisher is not None:
                self.publisher.publish_blocking(self._payloads(lines))
                return
            with self._autocommit.connect() as conn:
                conn.exec_driver_sql(*self._announcement_of(lines))
        except Exception as exc:
            log.warning("announcing %d committed changes failed (%s): the other processes "
                        "catch up from the log", len(lines), type(exc).__name__)

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

    # -- matches -------------------------------------------------------------------

    def create_match(
        self,
        *,
        rules: Rules,
        seed: int,
        first_dealer: int,
        players: tuple[str, str],
        kind: str = "computer",
        meta: dict[str, Any] | None = None,
    ) -> str:
        """Store a new match and return its id."""
        match_id = uuid.uuid4().hex
        now = time.time()
        with self._tx() as conn:
            conn.execute(insert(matches_table).values(
                id=match_id, kind=kind, status="playing", created_at=now, updated_at=now,
                rules=json.dumps(rules.to_dict()), seed=seed, first_dealer=first_dealer,
                players=json.dumps(list(players)), meta=json.dumps(meta or {}),
                action_count=0, winner=None, totals=None,
            ))
        return match_id

    def append_action(
        self,
        match_id: str,
        seq: int,
        *,
        hand_number: int,
        player: int,
        action: str,
        hand_result: HandResult | None = None,
        finished: tuple[int | None, tuple[int, int]] | None = None,
    ) -> None:
        """Commit one action (and the hand's result and the match end, if it brought them).

        ``seq`` is the action's place in the log, from 0; if it is taken already
        another writer was first and :class:`StoreConflict` is raised.
        """
        try:
            with self._tx() as conn:
                self._append_in(conn, PendingAction(match_id, seq, hand_number, player, action,
                                                    hand_result, finished), time.time())
        except IntegrityError:
            raise StoreConflict(f"action {seq} of match {match_id} is saved already") from None

    def append_actions(self, pending: Sequence[PendingAction]) -> None:
        """Commit actions of several matches in one transaction, all or none (group commit:
        a server pays one disk flush for many tables).  Raises like :meth:`append_action`
        for the first that cannot be saved; then nothing of the batch is saved."""
        self._check_batch(pending)
        try:
            with self._write_tx() as conn:
                self._append_batch(conn, pending, time.time(), partial=False)
        except IntegrityError:
            raise StoreConflict("an action of the batch is saved already") from None

    def commit_actions(self, pending: Sequence[PendingAction]) -> set[str]:
        """Commit actions of several matches in one transaction, except those another writer
        beat to their step: returns the ids of those matches (stale: nothing of theirs is
        saved), the others are committed.  Optimistic concurrency across processes: the
        matches' rows are locked (in id order) while their counts are checked, so two
        servers racing on one table serialise there and exactly one lands.

        On PostgreSQL the whole batch (its hands' results and its matches' ends, and the
        announcement) is one statement, so one round trip (:data:`_COMMIT_SQL`)."""
        self._check_batch(pending)
        if not pending:
            return set()
        try:
            if self.postgresql:
                return self._commit_pg(pending, time.time())
            with self._write_tx() as conn:
                return self._append_batch(conn, pending, time.time(), partial=True)
        except IntegrityError:  # a writer that skipped the row lock (append_action)
            raise StoreConflict("an action of the batch is saved already") from None

    def _commit_pg(self, pending: Sequence[PendingAction], now: float) -> set[str]:
        sql, params = self.commit_statement(pending, now, announce=False)
        with self._autocommit.connect() as conn:
            landed = set(conn.exec_driver_sql(sql, params).scalar() or ())
        self._announce_now([action_line(i) for i in pending if i.match_id in landed])
        return {item.match_id for item in pending} - landed

    def commit_statement(self, pending: Sequence[PendingAction], now: float | None = None,
                         *, announce: bool = True) -> tuple[str, dict[str, Any]]:
        """The one statement (PostgreSQL, psycopg's parameter style) that commits a batch as
        :meth:`commit_actions` does, and its parameters; it returns one row holding the
        array of the ids whose action landed.  For a server that runs it on a connection
        of its own (``web.commit``: asynchronously, on its event loop).  ``announce=False``
        leaves the announcement out (:meth:`announcement` makes it after the commit)."""
        def column(get: Callable[[PendingAction], Any]) -> list[Any]:
            return [get(item) for item in pending]

        def result(item: PendingAction) -> HandResult | None:
            return item.hand_result

        params: dict[str, Any] = {
            "ids": column(lambda i: i.match_id), "seqs": column(lambda i: i.seq),
            "hands": column(lambda i: i.hand_number), "players": column(lambda i: i.player),
            "actions": column(lambda i: i.action),
            "fin": column(lambda i: i.finished is not None),
            "winners": column(lambda i: None if i.finished is None else i.finished[0]),
            "totals": column(lambda i: None if i.finished is None
                             else json.dumps(list(i.finished[1]))),
            "kinds": column(lambda i: None if (r := result(i)) is None else r.kind),
            "hwinners": column(lambda i: None if (r := result(i)) is None else r.winner),
            "knockers": column(lambda i: None if (r := result(i)) is None else r.knocker),
            "points": column(lambda i: None if (r := result(i)) is None else r.points),
            "now": time.time() if now is None else now,
        }
        if self.announce is not None and announce:
            params.update(channel=CHANNEL, sender=self.announce)
            return _COMMIT_SQL + _ANNOUNCE_SQL, params
        return _COMMIT_SQL + _QUIET_SQL, params

    @staticmethod
    def _check_batch(pending: Sequence[PendingAction]) -> None:
        if len({item.match_id for item in pending}) != len(pending):
            raise StoreError("a batch may hold one action per match")

    def _append_batch(self, conn: Connection, pending: Sequence[PendingAction], now: float,
                      *, partial: bool) -> set[str]:
        """:meth:`_append_in` for many matches in a few statements (one round trip each);
        with ``partial``, the stale ones are left out (and returned) instead of raising."""
        ids = sorted({item.match_id for item in pending})
        query = (select(matches_table.c.id, matches_table.c.action_count)
                 .where(matches_table.c.id.in_(ids)).order_by(matches_table.c.id))
        if self.postgresql:
            query = query.with_for_update()  # in id order: two batches never deadlock
        counts = dict(conn.execute(query).all())
        stale: set[str] = set()
        for item in pending:
            if item.match_id not in counts:
                raise StoreError(f"no saved match {item.match_id!r}")
            if counts[item.match_id] != item.seq:
                if not partial:
                    raise StoreConflict(f"match {item.match_id} has {counts[item.match_id]} "
                                        f"actions saved; cannot save action {item.seq}")
                stale.add(item.match_id)
        todo = [item for item in pending if item.match_id not in stale]
        if not todo:
            return stale
        conn.execute(insert(actions_table), [
            {"match_id": i.match_id, "seq": i.seq, "hand_number": i.hand_number,
             "player": i.player, "action": i.action, "created_at": now} for i in todo])
        plain = [i for i in todo if i.finished is None]
        if plain:
            result = conn.execute(
                update(matches_table)
                .where(matches_table.c.id == bindparam("b_id"),
                       matches_table.c.action_count == bindparam("b_seq"))
                .values(action_count=bindparam("b_next"), updated_at=now),
                [{"b_id": i.match_id, "b_seq": i.seq, "b_next": i.seq + 1} for i in plain],
            )
            if result.rowcount not in (-1, len(plain)):
                raise StoreConflict("a match changed while saving the batch")
        for item in todo:
            if item.finished is not None or item.hand_result is not None:
                self._finish_in(conn, item, now)
        self._notify(conn, [action_line(item) for item in todo])
        return stale

    def _finish_in(self, conn: Connection, item: PendingAction, now: float) -> None:
        """The rarer rows of an action already inserted: its hand's result, the match's end."""
        if item.finished is not None:
            result = conn.execute(
                update(matches_table)
                .where(matches_table.c.id == item.match_id,
                       matches_table.c.action_count == item.seq)
                .values(action_count=item.seq + 1, updated_at=now, status="finished",
                        winner=item.finished[0], totals=json.dumps(list(item.finished[1])))
            )
            if result.rowcount != 1:
                raise StoreConflict(f"match {item.match_id} changed while saving action "
                                    f"{item.seq}")
        if item.hand_result is not None:
            conn.execute(delete(hands_table).where(
                hands_table.c.match_id == item.match_id,
                hands_table.c.hand_number == item.hand_number))
            conn.execute(insert(hands_table).values(
                match_id=item.match_id, hand_number=item.hand_number,
                kind=item.hand_result.kind, winner=item.hand_result.winner,
                knocker=item.hand_result.knocker, points=item.hand_result.points,
            ))

    def _append_in(self, conn: Connection, item: PendingAction, now: float) -> None:
        match_id, seq, hand_number = item.match_id, item.seq, item.hand_number
        hand_result, finished = item.hand_result, item.finished
        row = conn.execute(
            select(matches_table.c.action_count).where(matches_table.c.id == match_id)
        ).first()
        if row is None:
            raise StoreError(f"no saved match {match_id!r}")
        if row[0] != seq:
            raise StoreConflict(
                f"match {match_id} has {row[0]} actions saved; cannot save action {seq}"
            )
        conn.execute(insert(actions_table).values(
            match_id=match_id, seq=seq, hand_number=hand_number, player=item.player,
            action=item.action, created_at=now,
        ))
        values: dict[str, Any] = {"action_count": seq + 1, "updated_at": now}
        if finished is not None:
            values.update(status="finished", winner=finished[0],
                          totals=json.dumps(list(finished[1])))
        result = conn.execute(
            update(matches_table)
            .where(matches_table.c.id == match_id, matches_table.c.action_count == seq)
            .values(**values)
        )
        if result.rowcount != 1:
            raise StoreConflict(f"match {match_id} changed while saving action {seq}")
        if hand_result is not None:
            conn.execute(delete(hands_table).where(
                hands_table.c.match_id == match_id,
                hands_table.c.hand_number == hand_number))
            conn.execute(insert(hands_table).values(
                match_id=match_id, hand_number=hand_number, kind=hand_result.kind,
                winner=hand_result.winner, knocker=hand_result.knocker,
                points=hand_result.points,
            ))
        self._notify(conn, [action_line(item)])

    def truncate(self, match_id: str, keep: int) -> None:
        """Forget every action from ``keep`` on (undo), and the results of the hands they ended."""
        with self._tx() as conn:
            first_removed = conn.execute(
                select(actions_table.c.hand_number).where(
                    actions_table.c.match_id == match_id, actions_table.c.seq == keep)
            ).scalar()
            if first_removed is None:  # nothing from ``keep`` on: nothing to forget
                return
            conn.execute(delete(actions_table).where(
                actions_table.c.match_id == match_id, actions_table.c.seq >= keep))
            # A hand's result was stored with the action that ended it; only hands from the
            # first removed action's hand on can have lost that action.
            conn.execute(delete(hands_table).where(
                hands_table.c.match_id == match_id,
                hands_table.c.hand_number >= first_removed))
            # A reopened hand's review no longer describes it: it goes with the result.
            conn.execute(delete(reviews_table).where(
                reviews_table.c.match_id == match_id,
                reviews_table.c.hand_number >= first_removed))
            conn.execute(update(matches_table).where(matches_table.c.id == match_id).values(
                action_count=keep, status="playing", winner=None, totals=None,
                updated_at=time.time()))

    def set_meta(self, match_id: str, **changes: Any) -> None:
        """Set some fields of a match's meta, keeping what another seat or server set
        meanwhile (the row locked as :meth:`update_meta` locks it)."""
        self.update_meta(match_id, lambda meta: meta.update(changes))

    def update_meta(
        self,
        match_id: str,
        change: Callable[[dict[str, Any]], None],
        *,
        status: str | None = None,
    ) -> dict[str, Any]:
        """Change a match's meta in place with ``change`` (and its status, if given), in one
        transaction with the row locked, so that two seats (or two servers) changing it at
        once never lose each other's change.  Returns the meta as saved."""
        # On SQLite the write lock is taken first, so the read and the write are one step
        # for other connections; on PostgreSQL the row is locked (FOR UPDATE).
        with self._write_tx() as conn:
            raw = conn.execute(
                select(matches_table.c.meta).where(matches_table.c.id == match_id)
                .with_for_update()
            ).scalar()
            if raw is None:
                raise StoreError(f"no saved match {match_id!r}")
            meta: dict[str, Any] = json.loads(raw)
            change(meta)
            values: dict[str, Any] = {"meta": json.dumps(meta)}
            if status is not None:
                values.update(status=status, updated_at=time.time())
            conn.execute(update(matches_table).where(matches_table.c.id == match_id)
                         .values(**values))
            self._notify(conn, [f"m {match_id}"])
        return meta

    def set_status(self, match_id: str, status: str) -> None:
        with self._tx() as conn:
            conn.execute(update(matches_table).where(matches_table.c.id == match_id)
                         .values(status=status, updated_at=time.time()))
            self._notify(conn, [f"m {match_id}"])

    def load(self, match_id: str) -> StoredMatch:
        with self.engine.connect() as conn:
            row = conn.execute(select(matches_table).where(matches_table.c.id == match_id)).first()
            if row is None:
                raise StoreError(f"no saved match {match_id!r}")
            acts = conn.execute(
                select(actions_table).where(actions_table.c.match_id == match_id)
                .order_by(actions_table.c.seq)
            ).all()
        return _stored(row, tuple(StoredAction(a.seq, a.hand_number, a.player, a.action)
                                  for a in acts))

    def load_since(self, match_id: str, seq: int) -> StoredMatch:
        """The match row and only the actions from ``seq`` on: what a server that has the
        first ``seq`` in memory needs to catch up (:meth:`PersistentMatch.catch_up`)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches_table).where(matches_table.c.id == match_id)).first()
            if row is None:
                raise StoreError(f"no saved match {match_id!r}")
            acts: Sequence[Any] = ()
            if row.action_count > seq:
                acts = conn.execute(
                    select(actions_table).where(actions_table.c.match_id == match_id,
                                                actions_table.c.seq >= seq)
                    .order_by(actions_table.c.seq)
                ).all()
        return _stored(row, tuple(StoredAction(a.seq, a.hand_number, a.player, a.action)
                                  for a in acts))

    def action_counts(self, match_ids: Sequence[str]) -> dict[str, int]:
        """How many actions each match has saved (one query): what a server compares its
        live tables with, to notice an announcement that never came."""
        if not match_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(matches_table.c.id, matches_table.c.action_count)
                                .where(matches_table.c.id.in_(list(match_ids)))).all()
        return {row.id: row.action_count for row in rows}

    def matches(self, *, kind: str | None = None, status: str | None = None) -> list[StoredMatch]:
        """Match rows (without their logs), newest first."""
        query = select(matches_table).order_by(matches_table.c.updated_at.desc())
        if kind is not None:
            query = query.where(matches_table.c.kind == kind)
        if status is not None:
            query = query.where(matches_table.c.status == status)
        with self.engine.connect() as conn:
            return [_stored(row, ()) for row in conn.execute(query).all()]

    def hands(self, match_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(hands_table).where(hands_table.c.match_id == match_id)
                .order_by(hands_table.c.hand_number)
            ).all()
        return [dict(row._mapping) for row in rows]

    def all_hands(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(hands_table)).all()
        return [dict(row._mapping) for row in rows]

    # -- game reviews ------------------------------------------------------------------

    def save_review(self, row: ReviewRow, data: str) -> None:
        """Keep a seat's review of a finished hand (``data``: its JSON), replacing one made
        the same way (``row.method``) before."""
        key = (reviews_table.c.match_id == row.match_id,
               reviews_table.c.hand_number == row.hand_number,
               reviews_table.c.seat == row.seat, reviews_table.c.method == row.method)
        try:
            with self._tx() as conn:
                conn.execute(delete(reviews_table).where(*key))
                conn.execute(insert(reviews_table).values(
                    match_id=row.match_id, hand_number=row.hand_number, seat=row.seat,
                    method=row.method, created_at=row.created_at, decisions=row.decisions,
                    accuracy=row.accuracy, points_lost=row.points_lost, data=data))
        except IntegrityError:
            # Another process saved the same review first (or the match is gone): the
            # review is a cache, so either way there is nothing more to do.
            return

    def reviews(self, match_id: str, seat: int, method: str,
                hands: Sequence[int] | None = None) -> dict[int, str]:
        """The stored reviews' JSON of a seat's hands in a match, made by ``method``, by hand
        number (only ``hands`` if given)."""
        query = select(reviews_table.c.hand_number, reviews_table.c.data).where(
            reviews_table.c.match_id == match_id, reviews_table.c.seat == seat,
            reviews_table.c.method == method)
        if hands is not None:
            query = query.where(reviews_table.c.hand_number.in_(list(hands)))
        with self.engine.connect() as conn:
            return {int(n): str(data) for n, data in conn.execute(query).all()}

    def review_rows(self, match_ids: Sequence[str] | None = None) -> list[ReviewRow]:
        """The summaries of the stored reviews (of these matches only, if given)."""
        c = reviews_table.c
        query = select(c.match_id, c.hand_number, c.seat, c.method, c.created_at, c.decisions,
                       c.accuracy, c.points_lost)
        if match_ids is not None:
            query = query.where(c.match_id.in_(list(match_ids)))
        with self.engine.connect() as conn:
            return [ReviewRow(str(r.match_id), int(r.hand_number), int(r.seat), str(r.method),
                              float(r.created_at), int(r.decisions),
                              None if r.accuracy is None else float(r.accuracy),
                              float(r.points_lost))
                    for r in conn.execute(query).all()]

    # -- seats (web tables) ----------------------------------------------------------

    def add_seat(self, match_id: str, seat: int, name: str) -> str:
        """Give a seat an unguessable token; only its hash is stored."""
        token = secrets.token_urlsafe(24)
        with self._tx() as conn:
            conn.execute(insert(seats_table).values(
                match_id=match_id, seat=seat, token_hash=_hash_token(token), name=name))
            self._notify(conn, [f"m {match_id}"])
        return token

    def reset_seat_token(self, match_id: str, seat: int) -> str:
        """A fresh token for a seat that exists (the old one stops opening it)."""
        token = secrets.token_urlsafe(24)
        with self._tx() as conn:
            result = conn.execute(update(seats_table).where(
                seats_table.c.match_id == match_id, seats_table.c.seat == seat,
            ).values(token_hash=_hash_token(token)))
            if result.rowcount != 1:
                raise StoreError(f"match {match_id!r} has no seat {seat}")
        return token

    def seat_of_token(self, match_id: str, token: str) -> int | None:
        """The seat a token opens at a match, or None (wrong token, or another match's)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(seats_table.c.seat).where(
                seats_table.c.match_id == match_id,
                seats_table.c.token_hash == _hash_token(token))).first()
        return None if row is None else int(row[0])

    def seats(self, match_id: str) -> dict[int, str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats_table.c.seat, seats_table.c.name).where(
                seats_table.c.match_id == match_id)).all()
        return {int(seat): str(name) for seat, name in rows}

    # -- bot leases (hg_leases) -------------------------------------------------------

    def acquire_lease(self, match_id: str, holder: str, seconds: float) -> bool:
        """Take (or renew) the lease on playing the computer at a match for ``seconds``:
        True if ``holder`` has it now, False while another holder's has not expired."""
        now = self._db_now()
        make = pg_dialect.insert if self.postgresql else sqlite_dialect.insert
        new = make(leases_table).values(match_id=match_id, holder=holder,
                                        expires_at=now + seconds)
        stmt = new.on_conflict_do_update(
            index_elements=[leases_table.c.match_id],
            set_={"holder": new.excluded.holder, "expires_at": new.excluded.expires_at},
            where=(leases_table.c.holder == holder) | (leases_table.c.expires_at < now),
        ).returning(leases_table.c.holder)
        with self._tx() as conn:
            return conn.execute(stmt).first() is not None

    def renew_leases(self, holder: str, match_ids: Sequence[str], seconds: float) -> set[str]:
        """Extend ``holder``'s leases on ``match_ids``; returns those it still holds (one
        it let expire and another took is not among them)."""
        if not match_ids:
            return set()
        with self._tx() as conn:
            rows = conn.execute(
                update(leases_table)
                .where(leases_table.c.holder == holder, leases_table.c.match_id.in_(match_ids))
                .values(expires_at=self._db_now() + seconds)
                .returning(leases_table.c.match_id)
            ).all()
        return {str(row[0]) for row in rows}

    def release_lease(self, match_id: str, holder: str) -> None:
        """Give up ``holder``'s lease on a match (and say so, for a process waiting on it)."""
        with self._tx() as conn:
            gone = conn.execute(delete(leases_table).where(
                leases_table.c.match_id == match_id, leases_table.c.holder == holder))
            if gone.rowcount:
                self._notify(conn, [f"l {match_id}"])

    def release_leases(self, holder: str) -> None:
        """Give up every lease of ``holder`` (a server shutting down)."""
        with self._tx() as conn:
            rows = conn.execute(delete(leases_table).where(leases_table.c.holder == holder)
                                .returning(leases_table.c.match_id)).all()
            self._notify(conn, [f"l {row[0]}" for row in rows])

    def lease_of(self, match_id: str) -> tuple[str, float] | None:
        """Who holds the match's lease and for how many more seconds (negative: expired)."""
        with self._tx() as conn:
            row = conn.execute(select(leases_table.c.holder,
                                      leases_table.c.expires_at - self._db_now())
                               .where(leases_table.c.match_id == match_id)).first()
        return None if row is None else (str(row[0]), float(row[1]))

    # -- engine ------------------------------------------------------------------------

    def open_match(self, match_id: str) -> PersistentMatch:
        """Replay a stored match through the engine, ready to go on."""
        return PersistentMatch(self, self.load(match_id))

    def new_match(
        self,
        *,
        rules: Rules,
        seed: int | None = None,
        first_dealer: int | None = None,
        players: tuple[str, str],
        kind: str = "computer",
        meta: dict[str, Any] | None = None,
    ) -> PersistentMatch:
        match = Match(rules=rules, seed=seed, first_dealer=first_dealer)
        match_id = self.create_match(rules=rules, seed=match.seed,
                                     first_dealer=match.first_dealer, players=players,
                                     kind=kind, meta=meta)
        return self.open_match(match_id)


class PersistentMatch:
    """A match whose every accepted action is committed before it changes the game."""

    def __init__(self, store: Store, stored: StoredMatch) -> None:
        self.store = store
        self.id = stored.id
        self.players = stored.players
        self.meta = dict(stored.meta)
        self.kind = stored.kind
        self.match = Match(rules=stored.rules, seed=stored.seed, first_dealer=stored.first_dealer)
        self.action_count = 0
        self._replay(stored.actions)

    def _replay(self, actions: Sequence[StoredAction]) -> None:
        for act in actions:
            try:
                if act.seq != self.action_count:
                    raise StoreError(f"action {act.seq} follows action {self.action_count - 1}")
                if self.match.hand.is_over:
                    self.match.next_hand()
                if len(self.match.hands) != act.hand_number:
                    raise StoreError(f"action {act.seq} belongs to hand {act.hand_number}, "
                                     f"but the replay is at hand {len(self.match.hands)}")
                self.match.apply(parse_action(act.action), act.player)
            except HollywoodGinError as exc:
                raise StoreError(
                    f"saved match {self.id} does not replay at action {act.seq} "
                    f"({act.action!r}): {exc}") from None
            self.action_count += 1

    def catch_up_one(self, action: StoredAction) -> None:
        """Apply one action another writer committed, as announced: it must be the next
        one (:class:`StoreError` otherwise, and when it does not replay)."""
        self._replay((action,))

    def catch_up(self, stored: StoredMatch) -> int:
        """Apply the actions of ``stored`` (from :meth:`Store.load_since`) that this match
        has not got yet, and take its meta: another process committed them.  Returns how
        many were applied.  A log that does not follow on raises :class:`StoreError` (the
        caller opens the match again)."""
        new = [act for act in stored.actions if act.seq >= self.action_count]
        self._replay(new)
        self.meta = dict(stored.meta)
        return len(new)

    def act(self, action: Action, player: int | None = None) -> HandResult | None:
        """Check, commit, then apply an action (dealing the next hand first if one ended).

        An illegal action raises :class:`IllegalActionError` and nothing is saved or changed.
        """
        match = self.match
        if match.hand.is_over and not match.finished:
            match.next_hand()
        hand = match.hand
        hand.check(action, player)
        trial = hand.clone()
        trial.apply(action, player)
        result = trial.result
        finished: tuple[int | None, tuple[int, int]] | None = None
        if result is not None and result.winner is not None:
            sheet = match.sheet.copy()
            sheet.record(result.winner, result.points)
            if sheet.finished:
                finished = (sheet.winner, sheet.totals)
        self.store.append_action(
            self.id, self.action_count, hand_number=len(match.hands), player=hand.to_act,
            action=str(action), hand_result=result, finished=finished,
        )
        self.action_count += 1
        return match.apply(action, player)

    def prepare(self, action: Action, player: int | None = None) -> PendingAction:
        """Check an action and say what committing it stores, changing nothing (the first
        half of :meth:`act`, for servers that commit many tables' actions together).

        The current hand must not be over.  Commit the result with
        :meth:`Store.append_actions`, then call :meth:`applied`.
        """
        match = self.match
        if match.hand.is_over:
            raise IllegalActionError("the hand is over: deal the next one first")
        hand = match.hand
        hand.check(action, player)
        trial = hand.clone()
        trial.apply(action, player)
        result = trial.result
        finished: tuple[int | None, tuple[int, int]] | None = None
        if result is not None and result.winner is not None:
            sheet = match.sheet.copy()
            sheet.record(result.winner, result.points)
            if sheet.finished:
                finished = (sheet.winner, sheet.totals)
        return PendingAction(self.id, self.action_count, len(match.hands), hand.to_act,
                             str(action), result, finished)

    def applied(self, pending: PendingAction, action: Action) -> HandResult | None:
        """Apply an action whose :meth:`prepare` result has been committed."""
        if pending.seq != self.action_count or pending.match_id != self.id:
            raise StoreError(f"action {pending.seq} is not the next action of match {self.id}")
        self.action_count += 1
        return self.match.apply(action, pending.player)

    def undo_to(self, keep: int) -> None:
        """Go back to the state after the first ``keep`` actions (undo against the computer)."""
        if not 0 <= keep <= self.action_count:
            raise StoreError(f"cannot undo to action {keep}: the match has {self.action_count}")
        self.store.truncate(self.id, keep)
        fresh = self.store.open_match(self.id)
        self.match = fresh.match
        self.action_count = fresh.action_count


def _stored(row: Any, actions: tuple[StoredAction, ...]) -> StoredMatch:
    try:
        players = json.loads(row.players)
        return StoredMatch(
            id=row.id, kind=row.kind, status=row.status, created_at=row.created_at,
            updated_at=row.updated_at, rules=Rules.from_dict(json.loads(row.rules)),
            seed=int(row.seed), first_dealer=int(row.first_dealer),
            players=(str(players[0]), str(players[1])), meta=json.loads(row.meta),
            actions=actions, winner=row.winner,
            totals=None if row.totals is None else tuple(json.loads(row.totals)),
        )
    except (ValueError, TypeError, IndexError, HollywoodGinError) as exc:
        raise StoreError(f"saved match {row.id} is damaged: {exc}") from None


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


def _safe_url(url: str) -> str:
    """A URL without its password, for error messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url
