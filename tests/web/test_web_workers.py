"""``serve`` as one or many processes (issue 15): SQLite serves one process (a second
server on the same file is refused in one line, and a killed server's lock never blocks
the next one); ``serve --workers N`` on PostgreSQL runs N processes on one port whose
``/metrics`` is summed over the workers, and a worker killed with SIGKILL is replaced."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from hg_web_support import Seat, Server, env, free_port, pg_url, redis_url, step_friend

from hollywood_gin.store import CHANNEL, parse_announcement


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hollywood_gin", "serve", *args], env=env(),
                          capture_output=True, text=True, timeout=120)


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    first = Server(db).start()  # the real command
    try:
        second = _serve("--port", str(free_port()), "--db", db)
        assert second.returncode == 2
        assert second.stderr.count("\n") == 1, second.stderr  # one line
        assert f"another hollywood-gin server (process {first.proc.pid}) is serving " \
            f"{tmp_path / 'games.db'}: SQLite serves one process" in second.stderr  # type: ignore[union-attr]
        several = _serve("--port", str(free_port()), "--db", db, "--workers", "2")
        assert several.returncode == 2
        assert "--workers 2 needs PostgreSQL: SQLite serves one process" in several.stderr
        # A server killed outright leaves no lock behind: the next one starts.
        first.kill()
        first.start()
        made = first.create(opponent="friend", name="Ann")
        assert Seat(first, made["table"], made["token"]).state is not None
    finally:
        first.stop()


def _metric(base: str, name: str) -> float:
    body = httpx2.get(base + "/metrics", timeout=10, trust_env=False).text
    found = re.findall(rf"^{name}(?:{{[^}}]*}})? (\S+)$", body, re.M)
    return sum(float(v) for v in found)


def _workers(pid: int) -> set[int]:
    """The worker processes of a ``serve --workers`` parent (its spawned children)."""
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    workers = set()
    for child in map(int, out.split()):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                workers.add(child)
        except OSError:  # gone meanwhile
            continue
    return workers


def test_serve_workers_share_the_port_and_sum_their_metrics() -> None:
    """Here the workers hear each other through Redis (``--bus``, tests/web/test_web_redis.py);
    through PostgreSQL's NOTIFY in test_web_cluster's ``--workers 3``."""
    server = Server(pg_url(), args=("--workers", "2", "--table-rate", "0",
                                    "--bus", redis_url()))
    server.start()
    try:
        assert server.proc is not None
        ready = httpx2.get(server.base + "/readyz", timeout=10, trust_env=False)
        assert ready.status_code == 200, ready.text
        import redis

        heard = redis.Redis.from_url(redis_url(), decode_responses=True).pubsub()
        heard.subscribe(CHANNEL)
        deadline = time.monotonic() + 60
        while len(_workers(server.proc.pid)) != 2 or \
                _metric(server.base, "hollywood_gin_processes") != 2:
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        created = 6
        tables = [server.create(opponent="friend", name="Ann") for _ in range(created)]
        # Whichever worker answers the scrape, it counts every worker's tables.
        for _ in range(4):
            assert _metric(server.base, "hollywood_gin_tables_created_total") == created

        # Friends play on it, each seat wherever the kernel put its connection.
        made = tables[0]
        guest = server.join(made["table"], made["invite"], "Bob")
        a = Seat(server, made["table"], made["token"])
        b = Seat(server, made["table"], guest["token"])
        # Six actions: ``choose`` knocks when it can, so a deal can end within them, and
        # dealing the next hand announces no action.
        actions = 0
        while actions < 6:
            step = step_friend(a, b)
            assert step in ("action", "deal"), step
            actions += step == "action"
        a.close()
        b.close()
        # The workers announced those moves on Redis.
        announced: set[int] = set()
        deadline = time.monotonic() + 10
        while len(announced) < 6 and time.monotonic() < deadline:
            message = heard.get_message(timeout=0.5)
            if message is not None and message["type"] == "message":
                announced |= {i.seq for i in parse_announcement(message["data"])[1]
                              if i.match_id == made["table"] and i.kind == "a"}
        heard.close()
        assert len(announced) >= 6, announced

        # A worker killed outright is replaced; the sums keep its counts.
        victim = min(_workers(server.proc.pid))
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while victim in _workers(server.proc.pid) or len(_workers(server.proc.pid)) != 2:
            assert time.monotonic() < deadline, "the worker was not replaced"
            time.sleep(0.2)
        deadline = time.monotonic() + 60
        while _metric(server.base, "hollywood_gin_processes") != 2:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert _metric(server.base, "hollywood_gin_tables_created_total") == created
    finally:
        server.stop()


def test_the_workers_come_from_the_environment_checked_like_the_option(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from hollywood_gin.cli import main

    db = f"sqlite:///{tmp_path / 'games.db'}"
    monkeypatch.setenv("HOLLYWOOD_GIN_WORKERS", "3")
    assert main(["serve", "--port", str(free_port()), "--db", db]) == 2
    assert "--workers 3 needs PostgreSQL" in capsys.readouterr().err
    monkeypatch.setenv("HOLLYWOOD_GIN_WORKERS", "many")
    assert main(["serve", "--port", str(free_port()), "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "$HOLLYWOOD_GIN_WORKERS: it must be a whole number" in err
