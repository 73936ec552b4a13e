"""A server process's garbage collector (web.pauses): frozen start-up, rare full
collections, so that the event loop is not stopped for 100 ms and more under load."""

from __future__ import annotations

import gc
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hollywood_gin.cli import main
from hollywood_gin.web.pauses import SERVER_GC_THRESHOLDS, tune_collector
from hollywood_gin.web.worker import SERVE_ENV, create_worker_app


@pytest.fixture()
def collector() -> Iterator[None]:
    """Whatever a test does to the collector is undone after it."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_tune_collector_freezes_the_start_up_and_collects_less_often(collector: None) -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    tune_collector()
    assert gc.get_freeze_count() > 10_000  # the modules, classes and functions loaded
    assert gc.get_threshold() == SERVER_GC_THRESHOLDS
    assert SERVER_GC_THRESHOLDS[0] > 700 and SERVER_GC_THRESHOLDS[2] > 10  # past the defaults


def test_serve_tunes_the_collector_before_it_serves(collector: None, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    seen: dict[str, Any] = {}

    def run(app: Any, **kwargs: Any) -> None:
        seen["thresholds"] = gc.get_threshold()
        seen["frozen"] = gc.get_freeze_count()

    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    monkeypatch.setattr(uvicorn, "run", run)
    db = f"sqlite:///{tmp_path / 'games.db'}"
    assert main(["serve", "--db", db, "--port", str(_free_port())]) == 0
    assert seen == {"thresholds": SERVER_GC_THRESHOLDS, "frozen": seen["frozen"]}
    assert seen["frozen"] > 10_000


def test_each_worker_of_serve_workers_tunes_its_collector(collector: None, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    monkeypatch.setenv(SERVE_ENV, json.dumps({"db_url": f"sqlite:///{tmp_path / 'g.db'}"}))
    app = create_worker_app()
    assert app is not None
    assert gc.get_threshold() == SERVER_GC_THRESHOLDS and gc.get_freeze_count() > 10_000
