"""The whole suite's settings: Hypothesis profiles, a home of its own, English.

The shared strategies and deck builders are in ``strategies.py`` (a module, so that
any subset of the suite imports the same one, whichever conftest is nearest).

The ``ci`` profile (the default) keeps the whole suite fast; set
``HG_HYPOTHESIS_PROFILE=thorough`` for a long run.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from hollywood_gin import i18n

settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HG_HYPOTHESIS_PROFILE", "ci"))

# The tests never read or write the player's own files: their saved games, settings
# and data folders live in a folder of this test process's (subprocesses inherit it),
# removed when the process ends.
_HOME = tempfile.mkdtemp(prefix="hg-tests-home-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
for _name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_name] = os.path.join(_HOME, _name.lower())
os.environ.pop("HOLLYWOOD_GIN_DB", None)

# The suite reads English whatever the locale it runs in (the command line and the
# servers it starts choose their language from the environment); tests of the other
# languages choose theirs explicitly.
os.environ["LANGUAGE"] = "en"
# ... and never reads or writes the player's own settings (a language chosen in the game
# would come before LANGUAGE): every test process gets an empty folder of its own.
os.environ["HOLLYWOOD_GIN_CONFIG"] = os.path.join(_HOME, "config")
os.mkdir(os.environ["HOLLYWOOD_GIN_CONFIG"])


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A test that set the process language (``cli.main`` does) leaves English behind."""
    yield
    i18n.set_language("en")


def pytest_sessionstart(session: object) -> None:
    """Bring the tests' PostgreSQL database to this schema as an operator would
    (``hollywood-gin db upgrade``): servers refuse a database below it."""
    if hasattr(getattr(session, "config", None), "workerinput"):
        return  # an xdist worker: the controller upgraded it before starting the workers
    url = os.environ.get("HOLLYWOOD_GIN_TEST_PG", "")
    if url.startswith("postgresql"):
        from hollywood_gin.migrate import upgrade

        upgrade(url)
