"""Helpers of the database tests: the test PostgreSQL's URL (HOLLYWOOD_GIN_TEST_PG, as printed
by .ci/postgres.sh; unset, the PostgreSQL tests FAIL, as the web tests do), schemas in it,
the previous release's fixtures.

No conftest.py here: tests/conftest.py is imported as `conftest` by the core tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

PG_ENV = "HOLLYWOOD_GIN_TEST_PG"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "previous_release"


def pg_url() -> str:
    url = os.environ.get(PG_ENV, "")
    if not url.startswith("postgresql"):
        pytest.fail(f"{PG_ENV} must be a postgresql URL (start PostgreSQL with "
                    f"`eval \"$(bash .ci/postgres.sh)\"`), not {url!r}")
    return url


def plain(url: str) -> str:
    """The URL as psycopg takes it."""
    return url.split("?", 1)[0].replace("postgresql+psycopg://", "postgresql://")


def with_schema(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
