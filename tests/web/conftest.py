"""Fixtures of the web tests: every store-backed test runs on SQLite and on PostgreSQL.

PostgreSQL comes from ``HOLLYWOOD_GIN_TEST_PG`` (a ``postgresql+psycopg://`` URL, as
printed by ``.ci/postgres.sh``).  Unset, its tests FAIL (``make test`` sets it up),
so no run can pass without it.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hg_web_support import CHROMIUM, CHROMIUM_ARGS, Server, pg_url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: a fresh SQLite file, or the test PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return pg_url()


@pytest.fixture(params=["sqlite", "postgresql"], scope="module")
def module_store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                     ) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'games.db'}"
    return pg_url()


@pytest.fixture(scope="module")
def server(module_store_url: str) -> Iterator[Server]:
    """A web server process (with the tests' bot factory and no bot delay) for a module."""
    srv = Server(module_store_url, cli=False, bot_delay=0.0).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright (``.ci/browser.sh``); the tests fail without it."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed (pip install playwright)")
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: run .ci/browser.sh")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server for a module's page tests (SQLite, the tests' bot factory, a short delay)."""
    db = tmp_path_factory.mktemp("browser") / "games.db"
    srv = Server(f"sqlite:///{db}", cli=False, bot_delay=0.05).start()
    try:
        yield srv
    finally:
        srv.stop()
