"""Schema migrations: the migrated schema is exactly the tables, the first revision is exactly
what the previous release made, and a previous release's database (a fixture it wrote) is
stamped, not recreated, then loads and plays on, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hg_db_support import FIXTURES, pg_url, plain, with_schema
from sqlalchemy import Column, Integer, MetaData, create_engine, inspect, text

from hollywood_gin import migrate
from hollywood_gin.bots import make_bot
from hollywood_gin.cli import main
from hollywood_gin.schema import SCHEMA_REVISION, VERSION_TABLE, metadata
from hollywood_gin.store import PersistentMatch, Store, StoreError

EXPECTED: dict[str, Any] = json.loads((FIXTURES / "expected.json").read_text())


# Each PostgreSQL test gets a schema of its own in the test database, reached through
# ``search_path`` in its URL: no right to create databases needed, nothing left behind.


@pytest.fixture()
def pg_schema() -> Iterator[Callable[[], tuple[str, str]]]:
    """Make empty schemas: each call returns (schema, URL whose tables live in it)."""
    import psycopg

    made: list[str] = []

    def make() -> tuple[str, str]:
        name = f"hg_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(plain(pg_url()), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        made.append(name)
        return name, with_schema(pg_url(), name)

    yield make
    if made:
        with psycopg.connect(plain(pg_url()), autocommit=True) as conn:
            for name in made:
                conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db(request: pytest.FixtureRequest, tmp_path: Path,
             pg_schema: Callable[[], tuple[str, str]]) -> str:
    """The URL of an empty database: a new SQLite file, or an empty PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return pg_schema()[1]


def _state(url: str) -> migrate.SchemaState:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return migrate.read_state(conn)
    finally:
        engine.dispose()


def _differences(url: str, target: MetaData = metadata) -> list[Any]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return migrate.differences(conn, target)
    finally:
        engine.dispose()


def _shape(url: str) -> dict[str, Any]:
    """Every table's columns (type, nullability), keys, foreign keys, unique constraints and
    indexes, as the database reports them: what 'the same schema' means here."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            insp = inspect(conn)
            out: dict[str, Any] = {}
            for name in sorted(set(insp.get_table_names()) - {VERSION_TABLE}):
                out[name] = {
                    "columns": [(c["name"], str(c["type"]), c["nullable"])
                                for c in insp.get_columns(name)],
                    "pk": insp.get_pk_constraint(name)["constrained_columns"],
                    "fks": sorted((tuple(f["constrained_columns"]), f["referred_table"],
                                   tuple(f["referred_columns"]),
                                   (f.get("options") or {}).get("ondelete"))
                                  for f in insp.get_foreign_keys(name)),
                    "unique": sorted(tuple(u["column_names"])
                                     for u in insp.get_unique_constraints(name)),
                    "indexes": sorted((tuple(i["column_names"]), bool(i["unique"]))
                                      for i in insp.get_indexes(name)),
                }
            return out
    finally:
        engine.dispose()


def _restore(backend: str, tmp_path: Path, pg_schema: Callable[[], tuple[str, str]]) -> str:
    """A copy of the previous release's database, and its URL."""
    if backend == "sqlite":
        path = tmp_path / "games.db"
        shutil.copy(FIXTURES / "games.db", path)
        return f"sqlite:///{path}"
    import psycopg

    schema, url = pg_schema()
    dump = (FIXTURES / "postgresql.sql").read_text()
    # pg_dump's psql-only lines (\restrict) go; the dump's schema becomes this test's own.
    sql = "\n".join(line for line in dump.splitlines() if not line.startswith("\\"))
    sql = sql.replace("hg_previous_release", schema).replace(f"CREATE SCHEMA {schema};", "")
    with psycopg.connect(plain(pg_url()), autocommit=True) as conn:
        conn.execute(sql.encode())
    return url


# -- the migrations and the tables agree ------------------------------------------------


def test_the_newest_migration_is_the_schema_revision_the_store_expects() -> None:
    assert migrate.head() == SCHEMA_REVISION
    revisions = [rev for rev, _ in migrate.history()]
    assert revisions[0] == migrate.BASELINE
    assert revisions == [f"{i:04d}" for i in range(1, len(revisions) + 1)]  # one line, in order
    files = sorted(p.name for p in (migrate.SCRIPT_LOCATION / "versions").glob("r*.py"))
    assert [name[1:5] for name in files] == revisions


def test_a_migrated_database_holds_exactly_the_tables(empty_db: str) -> None:
    """The guard: change schema.py without a migration and this fails."""
    result = migrate.upgrade(empty_db)
    assert result.before.empty and result.after == SCHEMA_REVISION
    assert _differences(empty_db) == []


def test_the_guard_sees_a_table_change_without_a_migration(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    migrate.upgrade(url)
    changed = MetaData()
    for table in metadata.sorted_tables:
        table.to_metadata(changed)
    changed.tables["hg_matches"].append_column(Column("ready", Integer, nullable=True))
    diffs = _differences(url, changed)
    assert [d[0] for d in diffs] == ["add_column"] and diffs[0][3].name == "ready"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_first_revision_is_the_previous_release_schema(
    backend: str, tmp_path: Path, pg_schema: Callable[[], tuple[str, str]]
) -> None:
    old = _restore(backend, tmp_path, pg_schema)
    new = f"sqlite:///{tmp_path / 'new.db'}" if backend == "sqlite" else pg_schema()[1]
    migrate.upgrade(new, migrate.BASELINE)
    assert _state(old).previous_release
    assert _shape(new) == _shape(old)
    assert set(_shape(new)) == migrate.BASELINE_TABLES


# -- a previous release's database --------------------------------------------------------


def _play_on(pm: PersistentMatch, hands: int) -> None:
    """The basic bot plays both seats until ``hands`` more hands have ended."""
    bots = [make_bot("basic", seed=7), make_bot("basic", seed=8)]
    ended = 0
    while not pm.match.finished:
        hand = pm.match.hand
        if hand.is_over:
            ended += 1
            if ended == hands:
                return
            continue  # act() deals the next hand first
        seat = hand.to_act
        pm.act(bots[seat].choose(hand.view(seat), pm.match.sheet.copy()), seat)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_previous_release_database_is_stamped_and_plays_on(
    backend: str, tmp_path: Path, pg_schema: Callable[[], tuple[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = _restore(backend, tmp_path, pg_schema)
    expected = EXPECTED[backend]
    comp = expected["computer"]
    engine = create_engine(url)
    with engine.connect() as conn:
        created = conn.execute(text("SELECT id, created_at FROM hg_matches ORDER BY id")).all()
    engine.dispose()
    assert _state(url).previous_release

    if backend == "postgresql":  # a shared server is upgraded by its operator, not by a store
        with pytest.raises(StoreError, match="hollywood-gin db upgrade") as refused:
            Store(url)
        assert "before migrations" in str(refused.value)
        assert _state(url).previous_release  # refused: nothing changed
        assert main(["db", "upgrade", "--db", url]) == 0
        assert "upgraded from the previous release's schema (stamped 0001)" in \
            capsys.readouterr().out
    store = Store(url)  # SQLite: upgraded here
    try:
        assert _state(url).revision == SCHEMA_REVISION
        assert _differences(url) == []
        engine = create_engine(url)
        with engine.connect() as conn:  # stamped, not recreated: the same rows
            assert conn.execute(
                text("SELECT id, created_at FROM hg_matches ORDER BY id")).all() == created
        engine.dispose()

        pm = store.open_match(comp["id"])
        assert pm.action_count == comp["actions"]
        assert len(pm.match.hands) == comp["hands"]
        assert pm.match.hand.to_act == comp["to_act"]
        assert list(pm.match.sheet.totals) == comp["totals"]
        assert [a.action for a in store.load(pm.id).actions] == comp["log"]
        assert len(store.hands(pm.id)) == comp["hand_rows"]
        friend = expected["friend"]
        assert [store.seat_of_token(friend["id"], t) for t in friend["tokens"]] == [0, 1]

        _play_on(pm, hands=2)
        again = Store(url).open_match(pm.id)
        assert again.action_count == pm.action_count > comp["actions"]
        assert again.match.hand == pm.match.hand and again.match.sheet == pm.match.sheet
        assert len(store.hands(pm.id)) >= comp["hand_rows"] + 1
        again.store.close()
    finally:
        store.close()
    assert main(["db", "current", "--db", url, "--check"]) == 0
    assert f"{SCHEMA_REVISION} (head)" in capsys.readouterr().out


def test_upgrading_twice_changes_nothing(empty_db: str, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    assert main(["db", "current", "--db", empty_db, "--check"]) == 1
    assert "empty" in capsys.readouterr().out
    assert main(["db", "upgrade", "--db", empty_db]) == 0
    assert f"created the tables at {SCHEMA_REVISION}" in capsys.readouterr().out
    assert main(["db", "upgrade", "--db", empty_db]) == 0
    assert f"already at {SCHEMA_REVISION} (head)" in capsys.readouterr().out


def test_a_store_creates_an_empty_database_on_any_backend(empty_db: str) -> None:
    store = Store(empty_db)
    store.close()
    assert _state(empty_db).current


def test_a_database_of_a_newer_release_is_refused(empty_db: str) -> None:
    migrate.upgrade(empty_db)
    engine = create_engine(empty_db)
    with engine.begin() as conn:
        conn.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(StoreError, match="made by a newer hollywood-gin"):
        Store(empty_db)
    with pytest.raises(StoreError, match="made by a newer hollywood-gin"):
        migrate.upgrade(empty_db)
    assert _state(empty_db).revision == "9999"


def test_some_of_our_tables_without_the_rest_are_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    engine = create_engine(url)
    metadata.tables["hg_matches"].create(engine)
    engine.dispose()
    with pytest.raises(StoreError, match="not a database this program made"):
        Store(url)


def test_an_emptied_version_table_is_named_as_the_damage(tmp_path: Path) -> None:
    """It said "has some hollywood-gin tables but not : " (nothing was missing)."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f"DELETE FROM {VERSION_TABLE}"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"no schema revision \(its version table is empty\)"
                                         r": it was damaged or edited"):
        Store(url)


def test_upgrading_to_where_it_is_says_nothing_was_done(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At 0002, "db upgrade --revision 0002" said "already at 0002 (head)"; head is later."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    assert main(["db", "upgrade", "--db", url, "--revision", "0002"]) == 0
    capsys.readouterr()
    assert main(["db", "upgrade", "--db", url, "--revision", "0002"]) == 0
    out = capsys.readouterr().out
    assert "already at 0002: nothing to do" in out and "(head)" not in out
    assert SCHEMA_REVISION != "0002"


def test_servers_starting_together_create_a_database_once(empty_db: str) -> None:
    """Four stores opening one empty database at once: the lock lets one create it."""
    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            Store(empty_db).close()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a store never opened"
    assert errors == []
    engine = create_engine(empty_db)
    with engine.connect() as conn:
        assert conn.execute(text(f"SELECT count(*) FROM {VERSION_TABLE}")).scalar() == 1
    engine.dispose()


def test_a_store_waits_for_the_write_lock_to_turn_a_new_file_to_wal(tmp_path: Path) -> None:
    """Another program holds a new games file's write lock as a store opens it: SQLite
    refuses the switch to WAL at once, without its busy timeout (seen as a rare "database
    is locked" when servers start together); the store waits for the lock instead."""
    import sqlite3

    path = tmp_path / "games.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        store = Store(f"sqlite:///{path}")
    finally:
        release.join()
        holder.close()
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.execute(text(f"SELECT count(*) FROM {VERSION_TABLE}")).scalar() == 1
    store.close()


# -- adding a migration (docs/deploy.md) ----------------------------------------------------


def test_a_new_revision_is_written_from_the_table_change(tmp_path: Path) -> None:
    """What `hollywood-gin db revision -m ...` does, on a copy of the migrations."""
    from alembic import command

    location = tmp_path / "migrations"
    shutil.copytree(migrate.SCRIPT_LOCATION, location,
                    ignore=shutil.ignore_patterns("__pycache__"))
    changed = MetaData()
    for table in metadata.sorted_tables:
        table.to_metadata(changed)
    changed.tables["hg_matches"].append_column(Column("ready", Integer, nullable=True))

    path = migrate.new_revision("add ready", script_location=location, target=changed)
    number = f"{int(SCHEMA_REVISION) + 1:04d}"
    assert path.name == f"r{number}_add_ready.py"
    source = path.read_text()
    assert "batch_alter_table('hg_matches'" in source and "add_column" in source

    url = f"sqlite:///{tmp_path / 'games.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        cfg = migrate.alembic_config(conn, script_location=location)
        cfg.attributes["metadata"] = changed
        command.upgrade(cfg, "head")
        assert migrate.read_state(conn).revision == number
        assert migrate.differences(conn, changed) == []
    engine.dispose()
