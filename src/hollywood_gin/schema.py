"""The saved-games tables: what the store reads and writes, and what migrations build.

These definitions are the truth the migrations in ``hollywood_gin/migrations`` must
reach: a test upgrades an empty database and compares it with :data:`metadata`, so a
change here without a migration fails the suite (docs/deploy.md, "Adding a migration").
Needs the optional extra ``store`` (SQLAlchemy).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    text,
)
from sqlalchemy.engine import Connection

__all__ = [
    "SCHEMA_REVISION",
    "VERSION_TABLE",
    "actions_table",
    "hands_table",
    "leases_table",
    "matches_table",
    "metadata",
    "reviews_table",
    "schema_revision",
    "seats_table",
]

#: The Alembic revision these tables are (the newest migration's id; a test checks it).
#: The store compares it with the database's without loading Alembic.
SCHEMA_REVISION = "0003"
#: Where Alembic keeps a database's revision: prefixed like our tables, so that another
#: Alembic-managed application may share the database.
VERSION_TABLE = "hg_alembic_version"

metadata = MetaData()

matches_table = Table(
    "hg_matches",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("kind", String(16), nullable=False),  # computer, friend, keeper
    Column("status", String(16), nullable=False),  # playing, finished, abandoned
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("rules", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("players", Text, nullable=False),
    Column("meta", Text, nullable=False),
    Column("action_count", Integer, nullable=False),
    Column("winner", Integer, nullable=True),
    Column("totals", Text, nullable=True),
)

actions_table = Table(
    "hg_actions",
    metadata,
    Column("match_id", String(32), ForeignKey("hg_matches.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("hand_number", Integer, nullable=False),
    Column("player", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

hands_table = Table(
    "hg_hands",
    metadata,
    Column("match_id", String(32), ForeignKey("hg_matches.id", ondelete="CASCADE"),
           primary_key=True),
    Column("hand_number", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("winner", Integer, nullable=True),
    Column("knocker", Integer, nullable=True),
    Column("points", Integer, nullable=False),
)

seats_table = Table(
    "hg_seats",
    metadata,
    Column("match_id", String(32), ForeignKey("hg_matches.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("name", String(64), nullable=False),
)

#: A seat's game review of one finished hand (``hollywood_gin.review``), kept so that it is
#: computed once: ``data`` is the hand's review as JSON, ``method`` the key of the settings
#: it was made with (a review made otherwise is another row), and the summary columns let
#: the statistics read accuracy without reading the reviews.
reviews_table = Table(
    "hg_reviews",
    metadata,
    Column("match_id", String(32), ForeignKey("hg_matches.id", ondelete="CASCADE"),
           primary_key=True),
    Column("hand_number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("method", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("accuracy", Float, nullable=True),
    Column("points_lost", Float, nullable=False),
    Column("data", Text, nullable=False),
)


#: Who plays the computer at a table: one server process at a time (``holder``, a random
#: id per process) until ``expires_at`` (seconds since the epoch by the database's clock;
#: the holder renews it while it keeps the table).  Optimistic concurrency on
#: ``hg_actions`` keeps the log whole regardless; the lease only keeps a second process
#: from playing the same turn.  Added in 0003.
leases_table = Table(
    "hg_leases",
    metadata,
    Column("match_id", String(32), ForeignKey("hg_matches.id", ondelete="CASCADE"),
           primary_key=True),
    Column("holder", String(32), nullable=False),
    Column("expires_at", Float, nullable=False),
)


def schema_revision(conn: Connection) -> str | None:
    """The database's revision, or None if it has none (empty, or made before migrations).

    Plain SQLAlchemy, so that opening an up-to-date database never loads Alembic.
    """
    if not inspect(conn).has_table(VERSION_TABLE):
        return None
    found = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return None if found is None else str(found)
