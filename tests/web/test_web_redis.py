"""Redis pub/sub as the bus between server processes (issue 15: "or, as an option, Redis
pub/sub"): ``serve --bus redis://...`` on PostgreSQL.

Two real ``serve`` processes on one database hear each other through Redis (and not
through PostgreSQL's NOTIFY); a lost Redis makes ``/readyz`` say so, and once it is back
the process subscribes again and follows again; a bus the server cannot use is refused
at start in one line.  Redis comes from ``HOLLYWOOD_GIN_TEST_REDIS`` (``.ci/redis.sh``):
unset, these tests FAIL.  The outage test starts a Redis of its own, from the same
``redis-server``, so as not to stop the shared one.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2
import pytest
from hg_web_support import Seat, Server, free_port, pg_url, redis_url, step_friend, wait_seq

from hollywood_gin.cli import main
from hollywood_gin.store import CHANNEL, Store, parse_announcement


def _metric(server: Server, sample: str) -> float:
    """A sample of the server's /metrics (0 if it has none yet)."""
    body = httpx2.get(server.base + "/metrics", timeout=10, trust_env=False).text
    found = re.search(rf"^{re.escape(sample)} (\S+)$", body, re.M)
    return float(found.group(1)) if found else 0.0


def _followed(server: Server) -> float:
    """How many actions the server applied straight from another process's announcement."""
    return _metric(server, 'hollywood_gin_following_total{what="followed"}')


def _ready(server: Server) -> httpx2.Response:
    return httpx2.get(server.base + "/readyz", timeout=10, trust_env=False)


def _until(check: Callable[[], Any], what: str, timeout: float = 30) -> Any:
    """Poll ``check`` until it gives something true (not a timing assertion: a deadline)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    pytest.fail(f"{what}: not within {timeout:g} s")


def _sees(seat: Seat, connected: list[bool], timeout: float = 15) -> None:
    """Until the seat's state shows ``connected`` (the one it has, or one to come)."""
    if seat.state is None or seat.state["connected"] != connected:
        seat.wait(lambda f: f["type"] == "state" and f["connected"] == connected, timeout)


def test_a_move_at_one_process_reaches_a_seat_at_the_other_through_redis() -> None:
    import psycopg
    import redis

    bus = redis_url()
    heard = redis.Redis.from_url(bus, decode_responses=True).pubsub()
    heard.subscribe(CHANNEL)
    notified = psycopg.connect(pg_url().replace("+psycopg", ""), autocommit=True)
    notified.execute(f"LISTEN {CHANNEL}")
    servers = [Server(pg_url(), args=("--bus", bus)) for _ in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:  # side by side: a start is most of the cost
            list(pool.map(Server.start, servers))
        for server in servers:
            assert _ready(server).json()["ready"] is True
        made = servers[0].create(opponent="friend", name="Ann")
        a = Seat(servers[0], made["table"], made["token"])
        joined = servers[1].join(made["table"], made["invite"], "Bob")
        # The join was saved by process 1: process 0 hears of it, and Ann's seat sees Bob.
        a.wait(lambda f: f["type"] == "state" and f["names"] == ["Ann", "Bob"])
        b = Seat(servers[1], made["table"], joined["token"])
        # Who is at the table is said through Redis too: Ann's page sees Bob there.
        _sees(a, [True, True])
        for _ in range(4):  # each move is made at one process and seen at the other
            assert step_friend(a, b) == "action"
        assert a.state is not None and b.state is not None
        assert a.state["seq"] == b.state["seq"] and a.state["hand"]["history"] == \
            b.state["hand"]["history"]
        assert _followed(servers[0]) + _followed(servers[1]) >= 1  # from announcements
        # The announcements went through Redis, in the payloads PostgreSQL's carry, from
        # both processes; none through PostgreSQL's NOTIFY.
        lines: list[tuple[str, int]] = []
        senders = set()
        deadline = time.monotonic() + 10
        while (len(lines) < 4 or len(senders) < 2) and time.monotonic() < deadline:
            message = heard.get_message(timeout=0.5)
            if message is None or message["type"] != "message":
                continue
            sender, items = parse_announcement(message["data"])
            mine = [(i.kind, i.seq) for i in items if i.match_id == made["table"]]
            if mine:
                senders.add(sender)
                lines += [(kind, seq) for kind, seq in mine if kind == "a"]
        assert sorted(seq for _, seq in lines) == [0, 1, 2, 3], lines
        assert len(senders) == 2
        assert not [note for note in notified.notifies(timeout=0.2)
                    if made["table"] in note.payload]
        a.close()
        b.close()
    finally:
        for server in servers:
            server.stop()
        heard.close()
        notified.close()


@pytest.fixture
def own_redis() -> Iterator[tuple[str, Callable[[], None], Callable[[], None]]]:
    """A Redis server of this test's own: its URL, and how to stop and start it again."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("no redis-server: run `bash .ci/redis.sh` (it installs it)")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="hg-redis-")
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        procs.append(subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
             "--appendonly", "no", "--dir", folder], stdout=subprocess.DEVNULL))
        import redis

        client = redis.Redis(port=port)
        _until(lambda: _pings(client), "the test's redis-server did not start")
        client.close()

    def stop() -> None:
        procs[-1].terminate()
        procs[-1].wait(10)

    start()
    try:
        yield f"redis://127.0.0.1:{port}/0", stop, start
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def _pings(client: Any) -> bool:
    import redis

    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


def test_a_lost_redis_is_not_ready_and_is_followed_again_once_back(
        own_redis: tuple[str, Callable[[], None], Callable[[], None]]) -> None:
    """Redis stops under a running server: /readyz names Redis; a move made there is
    saved and answered all the same (its announcement fails, counted), and one committed
    by another process, which cannot announce it either, still reaches the seats; once
    Redis is back the server subscribes again: ready, and announcements followed."""
    from hollywood_gin.web.redisbus import RedisBus

    url, stop, start = own_redis
    server = Server(pg_url(), args=("--bus", url)).start()
    other = Store(pg_url())  # another process, announcing through the same Redis
    other.announce = "another"
    other.publisher = RedisBus(url, lambda payload: None, lambda: None)
    try:
        made = server.create(opponent="friend", name="Ann")
        a = Seat(server, made["table"], made["token"])
        b = Seat(server, made["table"], server.join(made["table"], made["invite"])["token"])
        assert _ready(server).status_code == 200

        stop()
        ready = _until(lambda: (r := _ready(server)).status_code == 503 and r,
                       "/readyz did not notice Redis had gone")
        assert ready.json()["ready"] is False and "unreachable" in ready.json()["redis"]
        errors = _metric(server, "hollywood_gin_db_errors_total")
        assert step_friend(a, b) == "action"  # committed and shown; not announced
        _until(lambda: _metric(server, "hollywood_gin_db_errors_total") == errors + 1,
               "the failed announcement was not counted")  # it comes after the answer

        def move() -> int:
            """The next move (the first legal one), made by the other process; its seq."""
            pm = other.open_match(made["table"])
            hand = pm.match.hand
            seq = pm.action_count
            pm.act(hand.legal_actions()[0], hand.to_act)
            return seq

        seq = move()  # not announced (Redis is away): caught up from the log
        start()
        wait_seq([a, b], seq + 1)  # on subscribing again (or at the periodic sweep)
        assert _until(lambda: _ready(server).status_code == 200, "not ready again")
        followed = _followed(server)
        seq = move()
        wait_seq([a], seq + 1)
        assert _followed(server) == followed + 1  # heard through Redis again
        a.close()
        b.close()
    finally:
        other.publisher.close()
        other.close()
        server.stop()


# -- refused at start, in one line -------------------------------------------------------


def _one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


def test_a_redis_bus_on_sqlite_is_refused(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Any) -> None:
    line = _one_line(capsys, ["serve", "--db", f"sqlite:///{tmp_path / 'g.db'}", "--bus",
                              redis_url(), "--port", str(free_port())])
    assert "needs PostgreSQL: SQLite serves one process" in line
    assert not (tmp_path / "g.db").exists()  # refused before the database was opened


def test_an_unreachable_or_malformed_bus_is_refused(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    port, db = free_port(), pg_url()
    nowhere = f"redis://user:secret@127.0.0.1:{free_port()}/0"
    line = _one_line(capsys, ["serve", "--db", db, "--bus", nowhere, "--port", str(port)])
    assert "cannot reach Redis at redis://***@127.0.0.1:" in line and "(--bus)" in line
    assert "secret" not in line
    line = _one_line(capsys, ["serve", "--db", db, "--bus", "http://127.0.0.1:6379/0"])
    assert "--bus: it must be postgresql or a Redis URL" in line and "redis://" in line
    line = _one_line(capsys, ["serve", "--db", db, "--bus", "redis://127.0.0.1/zero"])
    assert "its database must be a number, not 'zero'" in line
    monkeypatch.setenv("HOLLYWOOD_GIN_BUS", "redis://:6379/0")
    line = _one_line(capsys, ["serve", "--db", db, "--port", str(port)])
    assert line.endswith("$HOLLYWOOD_GIN_BUS: it must be postgresql or a Redis URL like "
                         "redis://127.0.0.1:6379/0, not 'redis://:6379/0': it names no host")


def test_the_bus_refusals_speak_the_operators_language(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Any) -> None:
    """Like --workers's: the refusals come from the catalogue, in --lang's language."""
    db = pg_url()
    line = _one_line(capsys, ["serve", "--lang", "lt", "--db", db, "--bus",
                              "redis://127.0.0.1/zero"])
    assert "--bus: turi būti postgresql arba Redis URL" in line
    assert "duomenų bazė turi būti skaičius, ne 'zero'" in line
    line = _one_line(capsys, ["serve", "--lang", "nb", "--db", f"sqlite:///{tmp_path / 'g.db'}",
                              "--bus", redis_url(), "--port", str(free_port())])
    assert "krever PostgreSQL: SQLite betjener én prosess, som hører sine egne endringer" in line
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    line = _one_line(capsys, ["serve", "--lang", "af", "--db", db, "--bus", nowhere,
                              "--port", str(free_port())])
    assert f"kan Redis by {nowhere} nie bereik nie (--bus): " in line


def test_a_site_on_another_redis_database_has_a_channel_of_its_own() -> None:
    """Pub/sub channels are shared by every database of a Redis server: two sites on one
    Redis with /0 and /7 heard each other's announcements (a QA pass). The database's
    number is in the channel's name."""
    import redis

    from hollywood_gin.web.redisbus import RedisBus

    base = redis_url().rsplit("/", 1)[0]
    heard = redis.Redis.from_url(base + "/0", decode_responses=True).pubsub()
    heard.subscribe(CHANNEL, CHANNEL + ":7")
    bus = RedisBus(base + "/7", lambda payload: None, lambda: None)
    try:
        assert bus.channel == CHANNEL + ":7" and bus.where.endswith(f"channel {CHANNEL}:7")
        assert RedisBus(base + "/0", lambda payload: None, lambda: None).channel == CHANNEL
        bus.publish_blocking(["site7\nm sometable"])
        got = []
        deadline = time.monotonic() + 10
        while not got and time.monotonic() < deadline:
            message = heard.get_message(timeout=0.5)
            if message is not None and message["type"] == "message":
                got.append((message["channel"], message["data"]))
        assert got == [(CHANNEL + ":7", "site7\nm sometable")]
    finally:
        bus.close()
        heard.close()


def test_a_redis_away_longer_than_a_word_lasts_leaves_both_players_there(
        own_redis: tuple[str, Callable[[], None], Callable[[], None]]) -> None:
    """With Redis down for longer than another process's word lasts (three sweeps), each
    process forgot the other's seat and both players looked gone, sockets open (a QA
    pass). A process that can hear nobody forgets nobody; back, it asks again."""
    url, stop, start = own_redis
    args = ("--bus", url, "--sweep-seconds", "1")
    servers = [Server(pg_url(), cli=False, args=args) for _ in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, servers))
        made = servers[0].create(opponent="friend", name="Ann")
        a = Seat(servers[0], made["table"], made["token"])
        joined = servers[1].join(made["table"], made["invite"], "Bob")
        a.wait(lambda f: f["type"] == "state" and f["joined"] == [True, True])
        b = Seat(servers[1], made["table"], joined["token"])
        for seat in (a, b):
            _sees(seat, [True, True])
        stop()
        _until(lambda: _ready(servers[0]).status_code == 503, "Redis had not gone")
        time.sleep(6)  # twice the three sweeps a word lasts
        for seat in (a, b):
            state = seat.request({"type": "sync"})
            assert state["connected"] == [True, True], state
        start()
        assert _until(lambda: _ready(servers[0]).status_code == 200, "not ready again")
        b.close()  # and presence travels again
        a.wait(lambda f: f["type"] == "state" and f["connected"] == [True, False], 20)
        a.close()
    finally:
        for server in servers:
            server.stop()
