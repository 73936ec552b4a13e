"""The web tables' seats and bot leases."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import (
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect

from ..schema import (
    leases_table,
    seats_table,
)
from .connection import StoreBase
from .records import StoreError, _hash_token


class SeatsAndLeases(StoreBase):
    """A web table's seats (their tokens, hashed) and the lease of its computer player."""

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
        self.set_seat_token(match_id, seat, token)
        return token

    def set_seat_token(self, match_id: str, seat: int, token: str) -> None:
        """``token`` opens a seat that exists (instead of the one that did)."""
        with self._tx() as conn:
            result = conn.execute(update(seats_table).where(
                seats_table.c.match_id == match_id, seats_table.c.seat == seat,
            ).values(token_hash=_hash_token(token)))
            if result.rowcount != 1:
                raise StoreError(f"match {match_id!r} has no seat {seat}")

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

