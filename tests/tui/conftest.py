"""Fixtures of the terminal tests: the language a screen is scanned in, and a store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pseudo_scan import LAYOUTS, layout_id

from hollywood_gin import i18n
from hollywood_gin.store import Store


@pytest.fixture
def qps() -> Iterator[None]:
    i18n.set_language(i18n.PSEUDO)
    yield
    i18n.set_language("en")


@pytest.fixture(params=LAYOUTS, ids=layout_id)
def layout(request: pytest.FixtureRequest) -> Iterator[tuple[int, int]]:
    """A language the screens must fit in (issue 12), and a size: the size."""
    lang, size = request.param
    i18n.set_language(lang)
    yield size
    i18n.set_language("en")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield store
    store.close()
