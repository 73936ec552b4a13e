"""Schema migrations of the saved-games database: Alembic, driven from code.

The migrations ship in the package (``hollywood_gin/migrations``), so an installed
``hollywood-gin`` upgrades a database with ``hollywood-gin db upgrade``; no
``alembic.ini`` is read.  A database made by a release before migrations existed (our
tables, made by ``create_all``, but no version table) is recognised and stamped as
the first revision, which is exactly that schema, then upgraded like any other.

Each upgrade runs in one transaction that holds the database against other upgrades:
on PostgreSQL an advisory lock (so N processes starting at once create a new
database once), on SQLite ``BEGIN IMMEDIATE`` (SQLite's DDL is transactional too).
When :class:`~hollywood_gin.store.Store` opens a database below this release's
schema it upgrades SQLite itself (one user's file) but refuses any other backend,
naming ``hollywood-gin db upgrade``: a shared server's schema changes when its
operator says so, after a backup.  An empty database of any backend is created.
Needs the optional extra ``store`` (SQLAlchemy, Alembic).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, create_engine, event, inspect, make_url, text
from sqlalchemy.engine import Connection, Engine

from .schema import SCHEMA_REVISION, VERSION_TABLE, metadata
from .store.records import StoreError, _safe_url

__all__ = [
    "BASELINE",
    "SCRIPT_LOCATION",
    "SchemaState",
    "UpgradeResult",
    "alembic_config",
    "differences",
    "ensure_schema",
    "head",
    "history",
    "new_revision",
    "read_state",
    "upgrade",
    "upgrade_sql",
]

SCRIPT_LOCATION = Path(__file__).with_name("migrations")
#: The first revision: the schema every release before migrations made with create_all.
BASELINE = "0001"
BASELINE_TABLES = frozenset({"hg_matches", "hg_actions", "hg_hands", "hg_seats"})
#: PostgreSQL advisory lock held while migrating ("hgschema" as a number).
_LOCK_KEY = int.from_bytes(b"hgschema", "big") & 0x7FFFFFFFFFFFFFFF


@dataclass(frozen=True, slots=True)
class SchemaState:
    """What a database holds: its revision (None: not versioned) and which of our tables."""

    revision: str | None
    tables: frozenset[str]

    @property
    def empty(self) -> bool:
        return self.revision is None and not self.tables

    @property
    def previous_release(self) -> bool:
        """Our tables without a version table: made by a release before migrations."""
        return self.revision is None and bool(self.tables)

    @property
    def current(self) -> bool:
        return self.revision == SCHEMA_REVISION

    def describe(self) -> str:
        if self.empty:
            return "empty (no hollywood-gin tables)"
        if self.previous_release:
            return "made by a release before migrations (not versioned yet)"
        known = _known(self.revision)
        if self.current:
            return f"{self.revision} (head)"
        if not known:
            return f"{self.revision} (unknown to this release: made by a newer hollywood-gin)"
        return f"{self.revision} (behind head {SCHEMA_REVISION})"


@dataclass(frozen=True, slots=True)
class UpgradeResult:
    before: SchemaState
    after: str

    def describe(self) -> str:
        if self.before.revision == self.after:
            head = " (head)" if self.after == SCHEMA_REVISION else ""
            return f"already at {self.after}{head}: nothing to do"
        if self.before.empty:
            return f"created the tables at {self.after}"
        start = (f"the previous release's schema (stamped {BASELINE})"
                 if self.before.previous_release else str(self.before.revision))
        return f"upgraded from {start} to {self.after}"


def alembic_config(connection: Connection | None = None, *, url: str | None = None,
                   script_location: Path | None = None) -> Config:
    """An Alembic configuration made in code: our script location and, for online
    commands, the connection to run on."""
    cfg = Config(stdout=io.StringIO())
    cfg.set_main_option("script_location", str(script_location or SCRIPT_LOCATION))
    cfg.set_main_option("file_template", "r%%(rev)s_%%(slug)s")
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _scripts(script_location: Path | None = None) -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config(script_location=script_location))


def head(script_location: Path | None = None) -> str:
    """The newest revision of the migrations."""
    current = _scripts(script_location).get_current_head()
    if current is None:
        raise StoreError("the package holds no migrations")
    return current


def _known(revision: str | None) -> bool:
    if revision is None:
        return True
    return revision in {script.revision for script in _scripts().walk_revisions()}


def history() -> list[tuple[str, str]]:
    """(revision, what it does) of every migration, oldest first."""
    return [(script.revision, (script.doc or "").strip().splitlines()[0])
            for script in reversed(list(_scripts().walk_revisions()))]


def read_state(conn: Connection) -> SchemaState:
    names = set(inspect(conn).get_table_names())
    tables = frozenset(names & {table.name for table in metadata.sorted_tables})
    revision: str | None = None
    if VERSION_TABLE in names:
        versions = [str(v) for v in conn.execute(
            text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars()]
        if len(versions) > 1:
            raise StoreError(f"the database has several schema revisions: {versions}")
        revision = versions[0] if versions else None
    return SchemaState(revision, tables)


def differences(conn: Connection, target: MetaData = metadata) -> list[Any]:
    """What would have to change for the database to hold exactly ``target`` (Alembic's
    comparison; empty when they agree)."""
    context = MigrationContext.configure(conn, opts={"compare_type": True})
    diffs = compare_metadata(context, target)
    return [d for d in diffs if not _ignorable(d)]


def _ignorable(diff: Any) -> bool:
    # The version table is Alembic's own, not in our metadata.
    return isinstance(diff, tuple) and diff[0] == "remove_table" and \
        getattr(diff[1], "name", None) == VERSION_TABLE


def _in_memory(url: str) -> bool:
    parsed = make_url(url)
    return parsed.drivername.startswith("sqlite") and parsed.database in (None, "", ":memory:")


@contextmanager
def _locked(url: str, engine: Engine | None = None) -> Iterator[Connection]:
    """A connection in a transaction that no other migration of the database can enter.

    An in-memory SQLite database exists only in its own engine's connection: it is
    migrated through ``engine`` (nothing else can reach it to race with).
    """
    if engine is not None and _in_memory(url):
        with engine.begin() as conn:
            yield conn
        return
    sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"timeout": 30} if sqlite else {})
    if sqlite:
        # The driver's own transaction handling leaves DDL outside transactions: take
        # over, and take the write lock at BEGIN.
        @event.listens_for(engine, "connect")
        def _manual(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None

        @event.listens_for(engine, "begin")
        def _immediate(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
            yield conn
    finally:
        engine.dispose()


def upgrade(url: str, revision: str = "head", *, engine: Engine | None = None
            ) -> UpgradeResult:
    """Bring the database at ``url`` to ``revision`` (stamping a previous release's
    schema first), in one transaction; the same call again does nothing.  ``engine``
    is the caller's, needed only for an in-memory SQLite database."""
    try:
        with _locked(url, engine) as conn:
            before = read_state(conn)
            _check_upgradable(before, url)
            cfg = alembic_config(conn)
            if before.previous_release:
                command.stamp(cfg, BASELINE)
            command.upgrade(cfg, revision)
            after = read_state(conn).revision
    except (StoreError, ModuleNotFoundError):
        raise  # a missing driver (postgres extra): the CLI names the extra
    except Exception as exc:  # the driver's and Alembic's errors vary; name the database
        raise StoreError(f"cannot upgrade the database {_safe_url(url)}: {exc}") from None
    assert after is not None
    return UpgradeResult(before, after)


def upgrade_sql(url: str, revision: str = "head") -> str:
    """The SQL an upgrade of an empty database of ``url``'s kind would run (offline:
    nothing is read or changed), for a database administrator to review."""
    cfg = alembic_config(url=url)
    out = io.StringIO()
    cfg.output_buffer = out
    command.upgrade(cfg, revision, sql=True)
    return out.getvalue()


def _check_upgradable(state: SchemaState, url: str) -> None:
    if not _known(state.revision):
        raise StoreError(f"the database {_safe_url(url)} is at schema revision "
                         f"{state.revision}, which this release does not know: it was made by "
                         "a newer hollywood-gin; upgrade hollywood-gin instead")
    if state.previous_release and state.tables != BASELINE_TABLES:
        missing = ", ".join(sorted(BASELINE_TABLES - state.tables))
        if missing:
            raise StoreError(f"the database {_safe_url(url)} has some hollywood-gin tables but "
                             f"not {missing}: it is not a database this program made")
        raise StoreError(f"the database {_safe_url(url)} has tables of a later schema but no "
                         "schema revision (its version table is empty): it was damaged or "
                         "edited; restore it from a backup")


def ensure_schema(engine: Engine, url: str) -> None:
    """The store's check on opening (see the module's docstring for the policy)."""
    with engine.connect() as conn:
        state = read_state(conn)
    if state.current:
        return
    _check_upgradable(state, url)
    if url.startswith("sqlite") or state.empty:
        upgrade(url, engine=engine)
        return
    raise StoreError(
        f"the database {_safe_url(url)} is {state.describe()}; this release needs schema "
        f"{SCHEMA_REVISION}. Back it up, then run `hollywood-gin db upgrade --db URL` once "
        "(before starting the servers)")


def new_revision(message: str, *, autogenerate: bool = True,
                 script_location: Path | None = None, target: MetaData = metadata) -> Path:
    """Write the next migration file (``r<NNNN>_<slug>.py``), by default autogenerated as
    the difference between the migrations so far and ``target``; returns its path.

    The comparison runs on a scratch SQLite database brought to the current head;
    review the file (types, server defaults, data moves) before committing it.
    """
    import tempfile

    location = script_location or SCRIPT_LOCATION
    number = int(head(location)) + 1
    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite:///{Path(scratch) / 'scratch.db'}"
        engine = create_engine(url)
        try:
            with engine.begin() as conn:
                cfg = alembic_config(conn, script_location=location)
                cfg.attributes["metadata"] = target
                command.upgrade(cfg, "head")
                script = command.revision(cfg, message=message, autogenerate=autogenerate,
                                          rev_id=f"{number:04d}")
        finally:
            engine.dispose()
    assert script is not None and not isinstance(script, list)
    return Path(script.path)
