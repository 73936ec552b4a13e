"""Fixtures of the database tests: fresh SQLite files, and fresh PostgreSQL schemas in the
test database (``HOLLYWOOD_GIN_TEST_PG``, as printed by ``.ci/postgres.sh``; unset, the
PostgreSQL tests FAIL, as the web tests do).

Each PostgreSQL test gets a schema of its own, reached through ``search_path`` in its
URL, so the tests need no right to create databases and leave nothing behind.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hg_db_support import pg_url, plain, with_schema


@pytest.fixture()
def pg_schema() -> Iterator[Callable[[], tuple[str, str]]]:
    """Make empty schemas: each call returns (schema, URL whose tables live in it)."""
    import psycopg

    base = pg_url()
    made: list[str] = []

    def make() -> tuple[str, str]:
        name = f"hg_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(plain(base), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        made.append(name)
        return name, with_schema(base, name)

    yield make
    with psycopg.connect(plain(base), autocommit=True) as conn:
        for name in made:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db(request: pytest.FixtureRequest, tmp_path: Path,
             pg_schema: Callable[[], tuple[str, str]]) -> str:
    """The URL of an empty database: a new SQLite file, or an empty PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return pg_schema()[1]
