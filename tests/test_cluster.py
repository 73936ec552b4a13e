"""``ray_map`` on a local Ray gives the local results in the local order, and an arena run
through Ray equals the local run game for game (order-independent aggregation)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest
import ray

from hollywood_gin import arena
from hollywood_gin.cluster import ray_map
from hollywood_gin.hand import Hand


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # Workers cannot import this test module: send its functions by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def _dealt_upcard(seed: int) -> str:
    return Hand.deal(seed=seed).discard_pile[-1].text


def test_ray_map_equals_map_in_order(local_ray: None) -> None:
    items = list(range(23))
    assert ray_map(_dealt_upcard, items, "auto") == [_dealt_upcard(i) for i in items]
    assert ray_map(lambda x: x * x, items, "auto", chunk_size=1) == [x * x for x in items]
    assert ray_map(_dealt_upcard, [], "auto") == []
    assert ray.is_initialized()  # a Ray it did not start is left running for its owner


def _games(report: arena.ArenaReport) -> list[tuple[object, ...]]:
    return sorted(
        (g.pair, g.swapped, tuple(g.hands), g.match_winner, g.finished) for g in report.results
    )


def _comparable(report: arena.ArenaReport) -> dict[str, object]:
    """A report without what depends on the machine: times, the job count, the nodes."""
    data = {k: v for k, v in report.to_dict().items()
            if k not in ("seconds", "jobs", "ray_nodes")}
    for bot in data["bots"]:  # type: ignore[attr-defined]
        for key in [k for k in bot if k.startswith("decision_ms")]:
            del bot[key]
    return data


def test_arena_through_ray_equals_local(local_ray: None) -> None:
    local = arena.run_arena("random", "basic", hands=6, seed=4, jobs=1)
    remote = arena.run_arena("random", "basic", hands=6, seed=4, ray="auto")
    assert _games(remote) == _games(local)
    assert _comparable(remote) == _comparable(local)


def test_arena_command_takes_ray(local_ray: None, capsys: pytest.CaptureFixture[str]) -> None:
    from hollywood_gin.cli import main

    assert main(["arena", "random", "greedy", "--matches", "2", "--rules", "eaai",
                 "--seed", "3", "--ray", "auto", "--json", "--quiet"]) == 0
    remote = json.loads(capsys.readouterr().out)
    local = arena.run_arena("random", "greedy", matches=2, rules="eaai", seed=3)
    assert [b["match_win_rate"] for b in remote["bots"]] == [
        b.match_win_rate for b in local.bots]
    assert [b["points_per_hand"] for b in remote["bots"]] == [
        b.points_per_hand for b in local.bots]


def test_ray_imap_yields_as_chunks_finish_in_order(local_ray: None) -> None:
    """The arena's progress under --ray: results came all at once at the end (one ray.get
    on every task), so a long run showed nothing and a stop kept nothing (a QA pass)."""
    from hollywood_gin.cluster import ray_imap

    items = list(range(12))
    seen = ray_imap(lambda x: x + 1, items, "auto", chunk_size=3)
    assert next(seen) == 1  # the first chunk's, before the rest is asked for
    assert list(seen) == [x + 1 for x in items[1:]]
