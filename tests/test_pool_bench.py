"""benchmarks/pool_bench.py pools runs of bench_bots.py: a run without a spread (one pair,
no interval; or a zero-width one) must not take the pooled margin's whole weight."""

from __future__ import annotations

from typing import Any

import pytest

from hg_benchmarks import load_benchmark


def _pool_bench() -> Any:
    return load_benchmark("pool_bench")


def _run(margin: float, ci: tuple[float, float] | None, games: int = 100) -> dict[str, Any]:
    return {"matchup": "expert vs greedy", "rules": "eaai", "engine": "ours", "games": games,
            "a_match_win_rate": 0.5, "margin_per_hand": margin, "margin_ci": ci,
            "a_decision_ms": [0.3, 30.0, 40.0], "seconds": 1.0}


def test_runs_are_weighed_by_their_intervals() -> None:
    pooled = _pool_bench().pool([_run(1.0, (0.0, 2.0)), _run(3.0, (2.0, 4.0))])
    assert pooled["margin_per_hand"] == pytest.approx(2.0)
    lo, hi = pooled["margin_ci"]
    assert hi - lo == pytest.approx(2.0 / 2**0.5)
    assert pooled["match_wins"] == 100 and pooled["margin_runs"] == 2


def test_a_run_without_a_spread_is_left_out_of_the_margin() -> None:
    pool = _pool_bench().pool
    pooled = pool([_run(1.0, (0.0, 2.0)), _run(50.0, None, 2), _run(40.0, (40.0, 40.0))])
    assert pooled["margin_per_hand"] == pytest.approx(1.0)  # not 50 or 40
    assert pooled["margin_runs"] == 1 and pooled["games"] == 202
    alone = pool([_run(50.0, None, 2)])
    assert alone["margin_ci"] is None and alone["margin_per_hand"] == 50.0
