"""Matches and their logs: created, committed an action (or a batch of them) at a
time under optimistic concurrency, loaded and replayed."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import (
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..announce import (
    CHANNEL,
    action_line,
)
from ..hand import HandResult
from ..match import Match
from ..rules import Rules
from ..schema import (
    actions_table,
    hands_table,
    matches_table,
    reviews_table,
    seats_table,
)
from .persistent import PersistentMatch
from .records import (
    PendingAction,
    StoreConflict,
    StoredAction,
    StoredMatch,
    StoreError,
    _stored,
    abandoned,
)
from .reviews import Reviews
from .seats import SeatsAndLeases

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
  SELECT id, action_count, status FROM hg_matches
  WHERE id = ANY(CAST(%(ids)s AS varchar[])) ORDER BY id FOR UPDATE
), ok AS (
  SELECT b.* FROM batch b JOIN locked l ON l.id = b.match_id AND l.action_count = b.seq
    AND l.status <> 'abandoned'
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


class Store(SeatsAndLeases, Reviews):
    """A connection to the saved-games database.

    An empty database is created at this release's schema.  One below it is upgraded
    here if it is SQLite (one user's file) and refused otherwise, naming
    ``hollywood-gin db upgrade`` (the operator migrates a shared server once, after a
    backup; see :mod:`hollywood_gin.migrate`).
    """

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
        query = (select(matches_table.c.id, matches_table.c.action_count,
                        matches_table.c.status)
                 .where(matches_table.c.id.in_(ids)).order_by(matches_table.c.id))
        if self.postgresql:
            query = query.with_for_update()  # in id order: two batches never deadlock
        rows = conn.execute(query).all()
        counts = {row.id: row.action_count for row in rows}
        given_up = {row.id for row in rows if row.status == "abandoned"}
        stale: set[str] = set()
        for item in pending:
            if item.match_id not in counts:
                raise StoreError(f"no saved match {item.match_id!r}")
            if item.match_id in given_up:
                if not partial:
                    raise abandoned(item.match_id)
                stale.add(item.match_id)
            elif counts[item.match_id] != item.seq:
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
            select(matches_table.c.action_count, matches_table.c.status)
            .where(matches_table.c.id == match_id)
        ).first()
        if row is None:
            raise StoreError(f"no saved match {match_id!r}")
        if row[1] == "abandoned":
            raise abandoned(match_id)
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

    def truncate(self, match_id: str, keep: int, *, saved: int | None = None) -> None:
        """Forget every action from ``keep`` on (undo), and the results of the hands they ended.

        ``saved`` is how many actions the caller believes are saved: if another writer has
        saved more (or fewer) since, nothing is forgotten and :class:`StoreConflict` is
        raised, so an undo in a stale window never deletes another window's moves."""
        with self._write_tx() as conn:
            row = conn.execute(select(matches_table.c.action_count, matches_table.c.status)
                               .where(matches_table.c.id == match_id)
                               .with_for_update()).first()
            if row is not None and row.status == "abandoned":
                raise abandoned(match_id)
            if saved is not None:
                count = None if row is None else row.action_count
                if count != saved:
                    raise StoreConflict(f"match {match_id} has {count} actions saved, not "
                                        f"{saved}: another window played on")
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
        """The match and its whole log.  Its count of actions must be the log's length:
        every append is checked against the count, so a wrong one refused each move for
        good as "played on in another window".  The count is read before and after the
        log (each commit moves it), so a move committed meanwhile is read again, not
        taken for damage."""
        row, acts = self._read_whole(match_id)
        if row.action_count != len(acts):
            raise StoreError(f"saved match {match_id} is damaged: it counts "
                             f"{row.action_count} actions but holds {len(acts)}")
        return _stored(row, tuple(StoredAction(a.seq, a.hand_number, a.player, a.action)
                                  for a in acts))

    def _read_whole(self, match_id: str) -> tuple[Any, Sequence[Any]]:
        """The match's row and log; if a move was committed between the two reads (the
        count moved), read again."""
        for _attempt in range(5):
            with self.engine.connect() as conn:
                query = select(matches_table).where(matches_table.c.id == match_id)
                row = conn.execute(query).first()
                if row is None:
                    raise StoreError(f"no saved match {match_id!r}")
                acts = conn.execute(
                    select(actions_table).where(actions_table.c.match_id == match_id)
                    .order_by(actions_table.c.seq)
                ).all()
                after = conn.execute(select(matches_table.c.action_count)
                                     .where(matches_table.c.id == match_id)).scalar()
            if after == row.action_count:
                break
        return row, acts

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

    def row_states(self, match_ids: Sequence[str]) -> dict[str, tuple[int, dict[str, Any], int]]:
        """Each match's saved action count, meta and number of seats taken (one query):
        what a server compares its live tables with, to notice an announcement that never
        came, of an action or of a change of the row (a friend joining, a readiness, a
        rematch, an abandon, which add no action)."""
        if not match_ids:
            return {}
        seats = (select(func.count()).select_from(seats_table)
                 .where(seats_table.c.match_id == matches_table.c.id)
                 .correlate(matches_table).scalar_subquery())
        with self.engine.connect() as conn:
            rows = conn.execute(select(matches_table.c.id, matches_table.c.action_count,
                                       matches_table.c.meta, seats.label("seats"))
                                .where(matches_table.c.id.in_(list(match_ids)))).all()
        out = {}
        for row in rows:
            try:
                meta = json.loads(row.meta)
            except ValueError:
                meta = None
            out[row.id] = (row.action_count, meta if isinstance(meta, dict) else {},
                           int(row.seats))
        return out

    def matches(self, *, kind: str | None = None, status: str | None = None,
                damaged: list[str] | None = None) -> list[StoredMatch]:
        """Match rows (without their logs), newest first.  A row that cannot be read raises
        :class:`StoreError`, or, with ``damaged`` given, is left out and its error appended
        there: one damaged match must not hide the others (a list, a restore check)."""
        query = select(matches_table).order_by(matches_table.c.updated_at.desc())
        if kind is not None:
            query = query.where(matches_table.c.kind == kind)
        if status is not None:
            query = query.where(matches_table.c.status == status)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        out: list[StoredMatch] = []
        for row in rows:
            try:
                out.append(_stored(row, ()))
            except StoreError as exc:
                if damaged is None:
                    raise
                damaged.append(str(exc))
        return out

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


