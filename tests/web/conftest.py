"""Fixtures of the web tests: every store-backed test runs on SQLite and on PostgreSQL.

PostgreSQL comes from ``HOLLYWOOD_GIN_TEST_PG`` (a ``postgresql+psycopg://`` URL, as
printed by ``.ci/postgres.sh``).  Unset, its tests FAIL (``make test`` sets it up),
so no run can pass without it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hg_web_support import Server

PG_ENV = "HOLLYWOOD_GIN_TEST_PG"


def _pg_url() -> str:
    url = os.environ.get(PG_ENV, "")
    if not url:
        message = (f"{PG_ENV} is not set: start PostgreSQL with `eval \"$(bash .ci/postgres.sh)\"` "
                   "to run the PostgreSQL half of the web tests")
        pytest.fail(message)
    if not url.startswith("postgresql"):
        pytest.fail(f"{PG_ENV} must be a postgresql URL, not {url!r}")
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: a fresh SQLite file, or the test PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return _pg_url()


@pytest.fixture(params=["sqlite", "postgresql"], scope="module")
def module_store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                     ) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'games.db'}"
    return _pg_url()


@pytest.fixture(scope="module")
def server(module_store_url: str) -> Iterator[Server]:
    """A web server process (with the tests' bot factory and no bot delay) for a module."""
    srv = Server(module_store_url, cli=False, bot_delay=0.0).start()
    try:
        yield srv
    finally:
        srv.stop()


def pytest_configure(config: pytest.Config) -> None:
    # websockets 17 prefers `with connect(...)`; the tests keep connections across steps.
    config.addinivalue_line(
        "filterwarnings",
        "ignore:connect\\(\\) must be used as a context manager:DeprecationWarning",
    )
    # Starlette's TestClient still runs on httpx; that is fine for these tests.
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")
