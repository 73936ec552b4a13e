"""The operator's endpoints and logs: /healthz, /readyz (a real query with a short timeout,
503 otherwise), /metrics in Prometheus text, and JSON log lines that never hold a card.

The log test plays a whole match against the computer through the real `serve --log-format
json --log-level debug` and scans every line it wrote."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx2
import pytest
from hg_web_support import Seat, Server, bot_factory, choose, env, free_port, wait_seq
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text
from starlette.applications import Starlette

from hollywood_gin.schema import SCHEMA_REVISION, VERSION_TABLE
from hollywood_gin.store import Store
from hollywood_gin.web.app import create_app
from hollywood_gin.web.ops import (
    JsonFormatter,
    Ops,
    QuietClientErrors,
    RedactCards,
    log_config,
    redact,
)

if TYPE_CHECKING:
    from starlette.testclient import TestClient

#: A card in the letter form (Th, 10h, As) or with a suit symbol: what no log may hold.
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[cdhs](?![A-Za-z0-9])|[♣♦♥♠]")


def _samples(body: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


# -- the card redactor and the JSON lines ----------------------------------------------------


@pytest.mark.parametrize(("raw", "clean"), [
    ("the computer chose illegal discard Th at table 1f",
     "the computer chose illegal discard ** at table 1f"),
    ("knock 10h, then As Kd 2c", "knock **, then ** ** **"),
    ("discard 10♥ and ♠", "discard ** and **"),
    ("table 0a1b2c3d4e5f60718293a4b5c6d7e8f9 seat 1",
     "table 0a1b2c3d4e5f60718293a4b5c6d7e8f9 seat 1"),
    ("GET /ws/2d3c HTTP/1.1 200", "GET /ws/2d3c HTTP/1.1 200"),
])
def test_the_redactor_takes_every_card_and_nothing_else(raw: str, clean: str) -> None:
    assert redact(raw) == clean


def test_a_json_line_carries_the_event_and_no_card() -> None:
    record = logging.LogRecord("hollywood_gin.web", logging.ERROR, __file__, 1,
                               "the computer chose illegal %s at table %s",
                               ("discard Qs", "ab12"), None)
    try:
        raise ValueError("Qs is not in your hand")
    except ValueError:
        record.exc_info = sys.exc_info()
    assert RedactCards().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["msg"] == "the computer chose illegal discard ** at table ab12"
    assert line["level"] == "error" and line["error"] == "ValueError"
    assert "** is not in your hand" in line["traceback"] and "Qs" not in line["traceback"]

    event = logging.LogRecord("hollywood_gin.web.events", logging.INFO, __file__, 1, "%s", ("x",),
                              None)
    event.event, event.fields = "hand_ended", {"table": "ab12", "how": "gin", "points": 31}
    assert json.loads(JsonFormatter().format(event)) == {
        "ts": json.loads(JsonFormatter().format(event))["ts"], "level": "info",
        "logger": "hollywood_gin.web.events", "pid": os.getpid(), "event": "hand_ended",
        "table": "ab12", "how": "gin", "points": 31}
    # a field named as one of the line's own keys never takes its place
    event.fields = {"level": 3, "event": "x", "table": "ab12"}
    line = json.loads(JsonFormatter().format(event))
    assert (line["level"], line["event"], line["level_field"], line["event_field"]) == (
        "info", "hand_ended", 3, "x")


def test_a_client_frame_that_is_not_utf8_is_one_warning_line_not_an_error() -> None:
    """uvicorn logs it as an ERROR with a traceback, once a socket: anyone who may open
    one could fill the log."""
    try:
        b"\xff".decode()
    except UnicodeDecodeError:
        record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1,
                                   "Invalid UTF-8 sequence received from client.", None,
                                   sys.exc_info())
    assert QuietClientErrors().filter(record)
    line = JsonFormatter().format(record)
    assert json.loads(line)["level"] == "warning" and "traceback" not in json.loads(line)
    assert "not UTF-8" in record.getMessage()
    other = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "boom", None, None)
    assert QuietClientErrors().filter(other) and other.levelno == logging.ERROR
    for handler in log_config()["handlers"].values():
        assert handler["filters"] == ["client", "redact"]


def test_the_log_config_is_refused_for_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="text, json"):
        log_config("yaml")
    assert log_config("json", "debug")["loggers"]["hollywood_gin"]["level"] == "DEBUG"


# -- the endpoints, in process ----------------------------------------------------------------


@contextlib.contextmanager
def _client(store: Store) -> Iterator[TestClient]:
    from starlette.testclient import TestClient  # imported under the web tests' filters

    app = create_app(store=store, allowed_origins=["http://testserver"], bot_factory=bot_factory,
                     bot_delay=0.0)
    with TestClient(app) as client:
        yield client


def test_health_ready_and_metrics_answer(store_url: str) -> None:
    store = Store(store_url)
    try:
        with _client(store) as client:
            assert client.get("/healthz").json() == {"ok": True}
            ready = client.get("/readyz")
            assert ready.status_code == 200
            assert ready.json() == {"ready": True, "schema": SCHEMA_REVISION}

            table = client.post("/api/tables", json={"opponent": "computer", "level": 1},
                                headers={"origin": "http://testserver"}).json()
            with client.websocket_connect(f"/ws/{table['table']}",
                                          headers={"origin": "http://testserver"}) as ws:
                ws.send_text(json.dumps({"type": "hello", "token": table["token"]}))
                state = json.loads(ws.receive_text())

                def settled(frame: dict[str, Any]) -> bool:  # our turn, or the hand is over
                    return frame["type"] == "state" and (
                        bool(frame["hand"]["legal"]) or frame["hand"]["phase"] == "over")

                moves = 0
                while moves < 3:  # a few of our moves (a quick knock may end the hand first)
                    while not settled(state):
                        state = json.loads(ws.receive_text())
                    if state["hand"]["phase"] == "over":
                        break
                    ws.send_text(json.dumps({"type": "act", "action": choose(state),
                                             "seq": state["seq"], "rid": moves + 1}))
                    reply = json.loads(ws.receive_text())
                    assert reply["type"] == "ack", reply
                    moves += 1
                    state = json.loads(ws.receive_text())
                while not settled(state):  # the computer has answered
                    state = json.loads(ws.receive_text())
                body = client.get("/metrics")
                assert body.headers["content-type"].startswith("text/plain")
                live = _samples(body.text)
    finally:
        store.close()
    assert moves >= 1
    assert live[("hollywood_gin_tables_open", ())] == 1
    assert live[("hollywood_gin_seats_connected", ())] == 1
    assert live[("hollywood_gin_actions_total", (("by", "player"),))] == moves
    assert live[("hollywood_gin_actions_total", (("by", "computer"),))] == state["seq"] - moves
    assert live[("hollywood_gin_action_seconds_count", (("by", "player"),))] == moves
    assert live[("hollywood_gin_tables_created_total", (("opponent", "computer"),))] == 1
    assert live[("hollywood_gin_websockets_total", ())] == 1
    assert live[("hollywood_gin_db_errors_total", ())] == 0


def test_a_blocked_event_loop_shows_in_the_lag_histogram(tmp_path: Path) -> None:
    """A synchronous call that holds the loop (what a store call on the loop would do) is
    seen as lag: the loop can only wake later than asked, never earlier."""
    import asyncio

    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    ops = Ops(store)

    async def run() -> None:
        await ops.start()
        await asyncio.sleep(0)  # the watcher's first sleep has begun
        time.sleep(0.6)  # holds the loop past the watcher's wake-up
        await asyncio.sleep(0.1)
        await ops.stop()

    try:
        asyncio.run(run())
        live = _samples(ops.metrics.render().decode())
    finally:
        store.close()
    count = live[("hollywood_gin_event_loop_lag_seconds_count", ())]
    under = live[("hollywood_gin_event_loop_lag_seconds_bucket", (("le", "0.25"),))]
    assert count >= 1 and under < count  # one look came back over 0.35 s late


def test_readyz_is_503_when_the_schema_is_not_this_release(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        with _client(store) as client:
            with store.engine.begin() as conn:
                conn.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = '0000'"))
            ready = client.get("/readyz")
            assert ready.status_code == 503
            assert ready.json()["database"] == f"schema 0000, this release needs {SCHEMA_REVISION}"
    finally:
        store.close()


@contextlib.contextmanager
def _ops_on(tmp_path: Path, url: str, **engine_args: Any) -> Iterator[TestClient]:
    """The operator's endpoints over a store whose database is at ``url``."""
    from starlette.testclient import TestClient

    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.engine.dispose()
    store.engine = create_engine(url, **engine_args)
    app = Starlette(routes=Ops(store).routes())
    try:
        with TestClient(app) as client:
            yield client
    finally:
        store.close()


def test_readyz_is_503_when_the_database_is_gone(tmp_path: Path) -> None:
    """A refused connection: 503 at once, and the database error is counted."""
    with _ops_on(tmp_path, f"postgresql+psycopg://x:y@127.0.0.1:{free_port()}/none") as client:
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json() == {"ready": False, "database": "unreachable",
                                "error": "OperationalError"}
        assert _samples(client.get("/metrics").text)[("hollywood_gin_db_errors_total", ())] == 1
        assert client.get("/healthz").status_code == 200  # alive, not ready


def test_readyz_answers_503_after_its_own_timeout_when_the_database_hangs(
    tmp_path: Path,
) -> None:
    """A server that accepts and never answers: /readyz gives up after its short timeout
    ('timeout'), long before the driver's connect timeout would ('unreachable')."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    silent.settimeout(0.2)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                accepted.append(silent.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    url = f"postgresql+psycopg://x:y@127.0.0.1:{silent.getsockname()[1]}/none"
    try:
        with _ops_on(tmp_path, url, connect_args={"connect_timeout": 30}) as client:
            try:
                ready = client.get("/readyz")
                assert ready.status_code == 503
                assert ready.json() == {"ready": False, "database": "timeout"}
            finally:  # let the probe's connection fail now
                stop.set()
                thread.join(5)
                for conn in accepted:
                    conn.close()
                silent.close()
    finally:
        silent.close()


# -- a whole match through the real command, its log scanned ---------------------------------


class JsonServer(Server):
    """`hollywood-gin serve --log-format json --log-level debug`, its stderr kept."""

    def start(self) -> JsonServer:
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  # closed by read_log
        cmd = [sys.executable, "-m", "hollywood_gin", "serve", "--port", str(self.port),
               "--db", self.db_url, "--bot-delay", "0", "--log-format", "json",
               "--log-level", "debug", "--message-rate", "0"]  # the test plays flat out
        self.proc = subprocess.Popen(cmd, env=env(), stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.read_log()
            with contextlib.suppress(httpx2.HTTPError):
                if httpx2.get(self.base + "/healthz", timeout=1, trust_env=False).is_success:
                    return self
            time.sleep(0.1)
        raise RuntimeError("the server did not start in 30 s")

    def read_log(self) -> str:
        self.log.seek(0)
        return self.log.read().decode()


def test_the_log_of_a_whole_match_holds_every_event_and_no_card(store_url: str) -> None:
    server = JsonServer(store_url).start()
    try:
        created = server.create(opponent="computer", level=1, name="Ann", preset="classic")
        me = Seat(server, created["table"], created["token"])
        for _ in range(5000):
            state = me.state
            assert state is not None
            if state["finished"]:
                break
            if state["hand"]["phase"] == "over":
                me.send({"type": "next"})
                wait_seq([me], state["seq"], state["hand_number"] + 1)
            elif state["hand"]["to_act"] == 0:
                action = choose(state)
                assert action is not None
                ack = me.act(action)
                assert ack["type"] == "ack", ack
                wait_seq([me], ack["seq"])
            else:
                me.wait(lambda f: f["type"] == "state")
        assert me.state is not None and me.state["finished"]
        actions = me.state["seq"]
        me.close()
        for _ in range(500):  # the seat detaches once the server has read the close
            metrics = _samples(httpx2.get(server.base + "/metrics", trust_env=False).text)
            if metrics[("hollywood_gin_seats_connected", ())] == 0:
                break
            time.sleep(0.02)
        assert metrics[("hollywood_gin_seats_connected", ())] == 0
        assert metrics[("hollywood_gin_tables_open", ())] == 0
        # a table created without a level or a preset is logged with the ones it got
        left_out = server.create(opponent="computer", name="Bo")
        friend = server.create(opponent="friend", name="Cy")
    finally:
        server.stop()
    raw = server.read_log()
    lines = [json.loads(line) for line in raw.splitlines()]  # every line is one JSON object

    leaks = CARD.findall(raw)
    assert not leaks, f"cards in the log: {leaks[:10]}"
    assert created["token"] not in raw
    events: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        events.setdefault(line["event"], []).append(line)
    table = created["table"]
    # "level" is the log level on every line, a table's level is the computer's
    assert {line["level"] for line in lines} <= {"debug", "info", "warning", "error"}
    assert [(e["table"], e["opponent"], e["computer_level"], e["preset"])
            for e in events["table_created"]] == [
        (table, "computer", 1, "classic"), (left_out["table"], "computer", 3, "hollywood"),
        (friend["table"], "friend", None, "hollywood")]
    assert len(events["action"]) == actions
    assert {e["action"] for e in events["action"]} <= {
        "pass", "take", "draw", "pick", "discard", "knock", "big-gin"}
    assert {e["by"] for e in events["action"]} == {"player", "computer"}
    assert [e["seq"] for e in events["action"]] == list(range(actions))
    assert len(events["hand_ended"]) >= 1 and len(events["match_ended"]) == 1
    assert events["ws_open"][0]["table"] == table and events["ws_closed"][0]["table"] == table
    assert any(e["path"] == "/api/tables" and e["status"] == 201 for e in events["http"])
    assert metrics[("hollywood_gin_action_seconds_count", (("by", "player"),))] + metrics[
        ("hollywood_gin_action_seconds_count", (("by", "computer"),))] == actions
    assert sum(v for (name, labels), v in metrics.items()
               if name == "hollywood_gin_hands_ended_total") == len(events["hand_ended"])
