"""The arena: reproducible from its seed, the same whatever the number of processes, deals
really mirrored, the JSON report complete, and the command registered for the main CLI."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any

import pytest

from hollywood_gin import arena
from hollywood_gin.arena import ArenaError, ArenaReport, run_arena, wilson

JSON_BOT_KEYS = {
    "name", "match_win_rate", "match_win_ci", "hand_win_rate", "points_per_hand",
    "decision_ms_median", "decision_ms_p99",
}


def outcomes(report: ArenaReport) -> list[Any]:
    """Everything in the results except decision times (the one thing that varies)."""
    return [
        (r.pair, r.swapped, r.hands, r.match_winner, r.finished, r.first_deal)
        for r in report.results
    ]


def timeless(report: ArenaReport) -> dict[str, Any]:
    out = report.to_dict()
    for key in ("seconds", "jobs"):
        out.pop(key)
    for bot in out["bots"]:
        for key in list(bot):
            if key.startswith("decision_ms"):
                bot.pop(key)
    return out


def test_a_run_reproduces_from_its_seed() -> None:
    a = run_arena("greedy", "basic", rules="eaai", matches=6, seed=5)
    b = run_arena("greedy", "basic", rules="eaai", matches=6, seed=5)
    c = run_arena("greedy", "basic", rules="eaai", matches=6, seed=6)
    assert outcomes(a) == outcomes(b)
    assert timeless(a) == timeless(b)
    assert outcomes(a) != outcomes(c)


def test_jobs_do_not_change_results() -> None:
    one = run_arena("basic", "random", rules="hollywood", matches=8, seed=3, jobs=1)
    two = run_arena("basic", "random", rules="hollywood", matches=8, seed=3, jobs=2)
    assert outcomes(one) == outcomes(two)
    assert timeless(one) == timeless(two)
    h1 = run_arena("greedy", "basic", rules="eaai", hands=40, seed=1, jobs=1)
    h2 = run_arena("greedy", "basic", rules="eaai", hands=40, seed=1, jobs=2)
    assert outcomes(h1) == outcomes(h2)


def test_mirrored_deals_really_mirror() -> None:
    for mode in ({"matches": 6}, {"hands": 30}):
        report = run_arena("greedy", "basic", rules="eaai", seed=2, **mode)  # type: ignore[arg-type]
        by_pair: dict[int, list[Any]] = {}
        for r in report.results:
            by_pair.setdefault(r.pair, []).append(r)
        assert len(by_pair) == report.pairs
        deals = set()
        for pair in by_pair.values():
            straight, swapped = sorted(pair, key=lambda r: r.swapped)
            assert (straight.swapped, swapped.swapped) == (False, True)
            # Same cards in each seat, and each bot sat in each seat once.
            assert straight.first_deal == swapped.first_deal
            assert straight.bot_of_seat(0) == swapped.bot_of_seat(1) == 0
            deals.add(straight.first_deal)
        assert len(deals) == len(by_pair)  # different pairs, different deals


def test_counts_round_up_to_whole_pairs_and_bad_input_is_refused() -> None:
    report = run_arena("basic", "basic", rules="eaai", hands=5, seed=0)
    assert report.games == 6 and report.pairs == 3
    with pytest.raises(ArenaError):
        run_arena("basic", "basic", hands=0)
    with pytest.raises(ArenaError):
        run_arena("basic", "basic", matches=2, hands=2)
    with pytest.raises(ValueError, match="the bots are"):
        run_arena("basic", "nobody", hands=2)
    with pytest.raises(ArenaError, match="--engine openspiel"):
        run_arena("basic", "openspiel-simple", hands=2)
    # the Python call checks as the command line does (5 failed deep in the game loop,
    # seed True was reported as "seed True", and -1 dealt as 1)
    for bot in (5, None, object()):
        with pytest.raises(ArenaError, match="a bot is a bot name or an object with choose"):
            run_arena(bot, "basic", hands=2)
    for seed in (True, -1, 1.5, 2**63):
        with pytest.raises(ArenaError, match="--seed must be a whole number from 0"):
            run_arena("basic", "basic", hands=2, seed=seed)  # type: ignore[arg-type]


def test_python_m_arena_is_the_arena_command(capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m hollywood_gin.arena basic greedy` said "invalid choice: 'basic'"."""
    from hollywood_gin.arena.command import main

    assert main(["basic", "basic", "--hands", "3", "--quiet", "--rules", "eaai"]) == 0
    assert "4 hands (2 mirrored pairs)" in capsys.readouterr().out
    assert main(["basic", "nobody", "--hands", "2"]) == 2
    assert "hollywood-gin arena: error: no bot named 'nobody'" in capsys.readouterr().err


def test_report_statistics_add_up() -> None:
    report = run_arena("greedy", "random", rules="eaai", matches=4, seed=1)
    a, b = report.bots
    assert a.matches == b.matches == 4
    assert a.match_wins + b.match_wins == 4
    assert a.hands == b.hands == sum(len(r.hands) for r in report.results)
    assert a.hand_wins + b.hand_wins + a.dead + a.ties == a.hands
    assert a.net_points_per_hand == pytest.approx(-b.net_points_per_hand)
    assert report.margin_per_hand == pytest.approx(a.net_points_per_hand)
    assert a.undercuts_given == b.undercuts_suffered
    assert a.decision_ms_median <= a.decision_ms_p99 <= a.decision_ms_max
    assert sum(report.pair_sweeps) == report.pairs
    lo, hi = a.match_win_ci  # type: ignore[misc]
    assert lo <= a.match_win_rate <= hi  # type: ignore[operator]


def test_one_pair_gives_a_margin_without_an_interval() -> None:
    """One pair shows no spread: its margin has no interval, not a zero-width one."""
    one = run_arena("basic", "random", rules="eaai", hands=2, seed=3)
    assert one.pairs == 1 and one.margin_ci is None
    assert "(1 mirrored pair)" in " ".join(one.text().split())  # not "1 ... pairs"
    assert json.loads(json.dumps(one.to_dict()))["margin_ci"] is None
    assert "points/hand (no interval from one pair)" in " ".join(one.text().split())
    two = run_arena("basic", "random", rules="eaai", hands=4, seed=3)
    assert two.margin_ci is not None
    lo, hi = two.margin_ci
    assert lo < two.margin_per_hand < hi
    assert f"[{lo:+.2f}, {hi:+.2f}]" in two.text()


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def command(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="hollywood-gin")
    sub = parser.add_subparsers(dest="command")
    arena.register(sub)
    return parser.parse_args(argv)


def test_command_json_has_the_listed_keys(capsys: pytest.CaptureFixture[str]) -> None:
    args = command(["arena", "greedy", "basic", "--rules", "eaai", "--matches", "4",
                    "--seed", "9", "--json", "--quiet"])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out["bots"], list) and len(out["bots"]) == 2
    for bot in out["bots"]:
        assert set(bot) >= JSON_BOT_KEYS
        assert isinstance(bot["match_win_ci"], list) and len(bot["match_win_ci"]) == 2
    assert [b["name"] for b in out["bots"]] == ["greedy", "basic"]
    assert out["seed"] == 9 and out["rules"] == "eaai"


def test_command_text_and_progress(capsys: pytest.CaptureFixture[str]) -> None:
    args = command(["arena", "basic", "random", "--hands", "6", "--jobs", "2"])
    assert args.func(args) == 0
    captured = capsys.readouterr()
    assert "hands won" in captured.out and "decision ms" in captured.out
    assert "pairs" in captured.err  # the progress bar


def test_plot_needs_matplotlib_or_makes_a_picture(tmp_path: Any) -> None:
    report = run_arena("basic", "random", hands=4, seed=0)
    path = tmp_path / "arena.png"
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        with pytest.raises(ArenaError, match="matplotlib"):
            arena.plot_report(report, str(path))
    else:
        arena.plot_report(report, str(path))
        assert path.stat().st_size > 1000


def test_report_dict_round_trips_through_json() -> None:
    report = run_arena("basic", "basic", hands=4, seed=0)
    assert json.loads(json.dumps(report.to_dict()))["pairs"] == 2
    assert asdict(report.bots[0])["name"] == "basic"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_stopped_run_reports_the_pairs_it_played(jobs: int) -> None:
    """Ctrl+C lost every game played (and with --jobs 2 each worker printed a traceback;
    a QA pass).  The whole pairs played are reported, marked interrupted, out of those
    asked; the workers leave Ctrl+C to the parent, which stops them."""
    def stop_after_three(done: int, total: int) -> None:
        if done >= 3:
            raise KeyboardInterrupt

    report = run_arena("basic", "random", rules="eaai", hands=40, seed=5, jobs=jobs,
                       progress=stop_after_three)
    assert report.interrupted and report.planned == 20
    assert 3 <= report.pairs < 20 and report.games == 2 * report.pairs
    assert "interrupted: " in report.text() and "of the 20 asked" in report.text()
    assert report.to_dict()["interrupted"] == {"pairs_played": report.pairs,
                                               "pairs_asked": 20}

    class Stopped:  # Ctrl+C before any pair was over: nothing to report, as before
        name = "stopped"

        def reset(self, seed: int | None = None) -> None:
            pass

        def choose(self, view: Any, sheet: Any = None) -> Any:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_arena(Stopped(), "random", hands=4)


def test_the_report_fits_80_columns_and_names_a_bot_as_it_plays() -> None:
    """Its lines ran to 88-130 columns (each column padded to the name + 40); "expert:"
    plays as expert and was reported as "expert:" (a QA pass)."""
    report = run_arena("random:", "basic", rules="eaai", matches=4, seed=2)
    assert report.bots[0].name == "random"
    for text in (report.text(), run_arena("expert:samples=8,min_samples=8,time_cap_ms=0",
                                          "greedy", hands=2, seed=1).text()):
        assert max(len(line) for line in text.splitlines()) <= 80, text
    long = run_arena("expert:samples=8,min_samples=8,time_cap_ms=0", "greedy", hands=2,
                     seed=1).text()
    assert "A = expert:samples=8,min_samples=8,time_cap_ms=0" in long


def test_an_unreachable_ray_cluster_is_said_at_once(capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    """A well-formed address where no cluster listens: Ray retried without end, printing a
    warning every five seconds (killed after 580 s in a QA pass).  (Here, not beside the
    other Ray tests: a Ray running in this process would be used without connecting.)"""
    import socket
    import time

    from hollywood_gin.cli import main

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]  # closed again: nothing listens there
    began = time.monotonic()
    assert main(["arena", "random", "basic", "--hands", "2", "--ray", f"127.0.0.1:{port}",
                 "--quiet"]) == 2
    assert time.monotonic() - began < 60
    assert f"cannot reach a Ray cluster at 127.0.0.1:{port}" in capsys.readouterr().err


def test_an_address_where_something_else_listens_is_not_taken_for_ray(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A web server's port: the TCP check passed and Ray waited on it for ever (a QA pass).
    A Ray head answers HTTP/2 (gRPC); a server that does not is refused at once."""
    import socket
    import threading

    from hollywood_gin.cli import main

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def web() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(64)
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=web, daemon=True).start()
    try:
        assert main(["arena", "random", "basic", "--hands", "2", "--ray",
                     f"127.0.0.1:{port}", "--quiet"]) == 2
    finally:
        server.close()
    assert (f"no Ray cluster answers at 127.0.0.1:{port}: something else listens there"
            in capsys.readouterr().err)
