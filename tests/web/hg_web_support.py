"""Helpers shared by the web tests: servers in subprocesses, a client policy, a bot fallback.

The client policy plays from state frames only (what a browser gets); the bot
factory prefers the project's bots and falls back to the simplest one while the
levels are still being written.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
from websockets.typing import Origin

import hollywood_gin
from hg_sockets import open_socket
from hollywood_gin.actions import Action
from hollywood_gin.hand import HandView
from hollywood_gin.sheet import ScoreSheet

SRC = str(Path(hollywood_gin.__file__).resolve().parents[1])
CHROMIUM = os.environ.get("HG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1366, "height": 860}
PHONE = {"width": 390, "height": 844}
HERE = str(Path(__file__).resolve().parent)


class FirstLegal:
    """A stand-in computer player: the first legal action (knocks come last, so it rarely does)."""

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        return view.legal_actions[0]


def bot_factory(level: str, seed: int) -> Any:
    """The project's bot for ``level``, else its basic bot, else :class:`FirstLegal`."""
    try:
        from hollywood_gin.bots import make_bot
    except ImportError:
        return FirstLegal()
    for spec in (level, "basic"):
        try:
            return make_bot(spec, seed=seed)
        except Exception:
            continue
    return FirstLegal()


def choose(frame: dict[str, Any]) -> str | None:
    """A greedy player that sees only its state frame: knock when it can, else the discard
    leaving the least deadwood; take the upcard only if that lowers the deadwood a lot."""
    hand = frame["hand"]
    legal = hand["legal"]
    if not legal:
        return None
    if hand["phase"] == "offer":
        return "pass"
    if hand["phase"] == "draw":
        return "draw"
    hints = hand["hints"]
    knocks = [h for h in hints if h["knock"]]
    if knocks:
        return "knock " + str(min(knocks, key=lambda h: h["deadwood"])["card"])
    if "big-gin" in legal:
        return "big-gin"
    best = min((h for h in hints if h["discard"]), key=lambda h: h["deadwood"])
    return "discard " + str(best["card"])


PG_ENV = "HOLLYWOOD_GIN_TEST_PG"


def pg_url() -> str:
    """The test PostgreSQL's URL; unset or not PostgreSQL, the test FAILS (``make test``
    sets it up), so no run passes without it."""
    import pytest

    url = os.environ.get(PG_ENV, "")
    if not url:
        pytest.fail(f"{PG_ENV} is not set: start PostgreSQL with `eval \"$(bash "
                    ".ci/postgres.sh)\"` to run the PostgreSQL half of the web tests")
    if not url.startswith("postgresql"):
        pytest.fail(f"{PG_ENV} must be a postgresql URL, not {url!r}")
    return url


REDIS_ENV = "HOLLYWOOD_GIN_TEST_REDIS"


def redis_url() -> str:
    """The test Redis's URL, for ``serve --bus``; unset, the test FAILS."""
    import pytest

    url = os.environ.get(REDIS_ENV, "")
    if not url.startswith("redis://"):
        pytest.fail(f"{REDIS_ENV} must be a redis:// URL: start Redis with `eval \"$(bash "
                    f".ci/redis.sh)\"` to test serve --bus (got {url!r})")
    return url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def env() -> dict[str, str]:
    out = dict(os.environ)
    # The server imports this module, so it needs the tests' folders as the tests have them.
    tests = str(Path(HERE).parent)
    out["PYTHONPATH"] = os.pathsep.join([SRC, HERE, tests, out.get("PYTHONPATH", "")]).rstrip(
        os.pathsep)
    out["PYTHONUNBUFFERED"] = "1"
    return out


class Server:
    """A web server in its own process (so that it can be SIGKILLed)."""

    def __init__(self, db_url: str, *, cli: bool = True, bot_delay: float = 0.0,
                 port: int | None = None, rate: tuple[float, int] | None = None,
                 args: tuple[str, ...] = (), own_group: bool = False) -> None:
        self.db_url = db_url
        self.own_group = own_group  # a process group of its own, as a terminal's job
        self.rate = rate  # (messages a second, burst); None: the command's default
        self.args = args  # more options for the server
        self.cli = cli
        self.bot_delay = bot_delay
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return self.base

    def start(self) -> Server:
        if self.cli:  # the real command
            cmd = [sys.executable, "-m", "hollywood_gin", "serve", "--port", str(self.port),
                   "--db", self.db_url, "--bot-delay", str(self.bot_delay), "--no-access-log",
                   "--log-level", "warning"]
        else:  # the same app with the test bot factory
            cmd = [sys.executable, str(Path(HERE) / "hg_web_server.py"), "--port", str(self.port),
                   "--db", self.db_url, "--bot-delay", str(self.bot_delay)]
        if self.rate is not None:
            cmd += ["--message-rate", str(self.rate[0]), "--message-burst", str(self.rate[1])]
        cmd += list(self.args)
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  # not a pipe: a full pipe would block the server
        self.proc = subprocess.Popen(cmd, env=env(), stdout=subprocess.DEVNULL, stderr=self.log,
                                     start_new_session=self.own_group)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"the server exited: {self.log.read().decode()}")
            try:
                health = httpx2.get(self.base + "/api/health", timeout=1, trust_env=False)
                if health.status_code == 200:
                    return self
            except httpx2.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start in 30 s")

    def ctrl_c(self) -> str:
        """SIGINT to the server's whole process group, as Ctrl+C in its terminal sends it;
        waits for the exit and answers the server's stderr."""
        assert self.own_group and self.proc is not None
        os.killpg(self.proc.pid, signal.SIGINT)
        self.proc.wait(30)
        self.log.seek(0)
        return self.log.read().decode()

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def post(self, path: str, body: Any, *, origin: str | None = "") -> httpx2.Response:
        """POST JSON as this site's page would (its Origin), or from ``origin`` (None: none)."""
        headers = {} if origin is None else {"origin": origin or self.origin}
        return httpx2.post(self.base + path, json=body, headers=headers, timeout=10,
                          trust_env=False)

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.post("/api/tables", body)
        r.raise_for_status()
        out: dict[str, Any] = r.json()
        return out

    def join(self, table: str, invite: str, name: str = "Bob") -> dict[str, Any]:
        r = self.post(f"/api/tables/{table}/join", {"invite": invite, "name": name})
        r.raise_for_status()
        out: dict[str, Any] = r.json()
        return out


@contextlib.contextmanager
def running(db_url: str, **kwargs: Any) -> Iterator[Server]:
    server = Server(db_url, **kwargs).start()
    try:
        yield server
    finally:
        server.stop()


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


class Seat:
    """One player's WebSocket, keeping every frame it received (raw text and parsed)."""

    def __init__(self, server: Server, table: str, token: str, *, hello: bool = True) -> None:
        self.server = server
        self.table = table
        self.token = token
        self.ws = open_socket(f"ws://127.0.0.1:{server.port}/ws/{table}",
                              origin=Origin(server.origin), proxy=None, open_timeout=10,
                              max_size=None)
        self.frames: list[tuple[str, dict[str, Any]]] = []
        self.state: dict[str, Any] | None = None
        self.rid = 0
        self.last_sent: str | bytes | None = None
        self.slowed = 0  # messages sent again after the server's rate limit dropped them
        if hello:
            self.send({"type": "hello", "token": token})
            self.wait(lambda f: f["type"] == "state")

    def send(self, message: Any) -> None:
        self.last_sent = message if isinstance(message, (str, bytes)) else dumps(message)
        self.ws.send(self.last_sent)

    def recv(self, timeout: float = 15) -> dict[str, Any]:
        raw = self.ws.recv(timeout)
        assert isinstance(raw, str)
        frame: dict[str, Any] = json.loads(raw)
        self.frames.append((raw, frame))
        if frame["type"] == "state":
            self.state = frame
        return frame

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 15) -> dict[str, Any]:
        """Read until a frame satisfies ``pred``.  As a polite client does, a message the
        server's rate limit dropped (unread, so its error has no rid) is sent again after
        a second: a scripted player answers at machine speed, faster than the default
        20 messages a second, and a match once stalled here waiting for a dropped move."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(max(0.01, deadline - time.monotonic()))
            if pred(frame):
                return frame
            if frame["type"] == "error" and frame["code"] == "rate" and self.last_sent:
                time.sleep(1.0)  # the bucket refills 20 a second
                self.slowed += 1
                self.send(self.last_sent)

    def request(self, message: dict[str, Any], timeout: float = 15) -> dict[str, Any]:
        """Send with a fresh rid and return the ack or error answering it."""
        self.rid += 1
        self.send({**message, "rid": self.rid})
        rid = self.rid
        return self.wait(lambda f: (f["type"] in ("ack", "error", "seat") and f.get("rid") == rid)
                         or (message["type"] == "sync" and f["type"] == "state"
                             and f.get("rid") == rid), timeout)

    def act(self, action: str, timeout: float = 15) -> dict[str, Any]:
        assert self.state is not None
        return self.request({"type": "act", "action": action, "seq": self.state["seq"]},
                            timeout)

    def close(self) -> None:
        self.ws.close()


def wait_seq(seats: list[Seat], seq: int, hand_number: int | None = None,
             timeout: float = 15) -> None:
    """Read until every seat has seen the state at ``seq`` (and ``hand_number``)."""
    def there(f: dict[str, Any] | None) -> bool:
        return f is not None and f["type"] == "state" and f["seq"] >= seq and (
            hand_number is None or f["hand_number"] >= hand_number)

    for seat in seats:
        if not there(seat.state):
            seat.wait(there, timeout)


def step_friend(a: Seat, b: Seat) -> str:
    """One move of a friend game played by :func:`choose`: an action, or both seats' 'next'.

    Returns what happened: 'action', 'deal' or 'finished'."""
    assert a.state is not None
    state = a.state
    if state["finished"]:
        return "finished"
    if state["hand"]["phase"] == "over":
        number = state["hand_number"]
        a.send({"type": "next"})
        b.send({"type": "next"})
        wait_seq([a, b], state["seq"], number + 1)
        return "deal"
    seats = {a.state["seat"]: a, 1 - a.state["seat"]: b}
    actor = seats[state["hand"]["to_act"]]
    if actor.state is None or actor.state["seq"] != state["seq"]:
        wait_seq([actor], state["seq"])
    action = choose(actor.state)  # type: ignore[arg-type]
    assert action is not None, actor.state
    ack = actor.act(action)
    assert ack["type"] == "ack", ack
    wait_seq([a, b], ack["seq"])
    return "action"


#: Rules under which the first won hand ends the match (one game to 1 point).
SHORT_MATCH = {"columns": 1, "game_target": 1}


def play_match(a: Seat, b: Seat, limit: int = 5000) -> None:
    """Play a friend match to its end with :func:`choose` at both seats."""
    for _ in range(limit):
        if step_friend(a, b) == "finished":
            return
    raise AssertionError("the match did not finish")


def play_computer(me: Seat, *, until: Callable[[dict[str, Any]], bool] | None = None,
                  limit: int = 5000, timeout: float = 15) -> None:
    """Play seat 0 of a computer table with :func:`choose` until ``until`` (default: the
    match's end); the server plays the computer."""
    done = until or (lambda s: bool(s["finished"]))
    for _ in range(limit):
        state = me.state
        assert state is not None
        if done(state):
            return
        step = "waiting for the computer's move"
        try:
            if state["hand"]["phase"] == "over":
                step = "waiting for the next hand"
                me.send({"type": "next"})
                wait_seq([me], state["seq"], state["hand_number"] + 1, timeout)
            elif state["hand"]["to_act"] == 0:
                action = choose(state)
                assert action is not None
                step = f"waiting for the ack of {action}"
                ack = me.act(action, timeout)
                assert ack["type"] == "ack", ack
                step = f"waiting for the state after {action} (seq {ack['seq']})"
                wait_seq([me], ack["seq"], timeout=timeout)
            else:
                me.wait(lambda f: f["type"] == "state", timeout)
        except TimeoutError as exc:  # say where it stalled: a stall is a bug to find
            last = [raw[:160] for raw, _ in me.frames[-3:]]
            raise TimeoutError(f"{step}: nothing in {timeout} s at hand {state['hand_number']}"
                               f", seq {state['seq']}, phase {state['hand']['phase']}, to act "
                               f"{state['hand']['to_act']}; the last frames: {last}") from exc
    raise AssertionError("the computer match did not get there")


def hold_seat(page: Any, server: Server, created: dict[str, Any],
              opponent: str = "computer") -> None:
    """Have ``page``'s browser hold the seat of a table made over HTTP (its token in
    localStorage, as the lobby keeps it); then ``/t/TABLE`` opens at that seat."""
    page.goto(server.base + "/rules")  # any page of the site: localStorage is per origin
    page.evaluate("([t, k, o]) => { localStorage.setItem('hg.seat.' + t, k); localStorage"
                  ".setItem('hg.tables', JSON.stringify([{table: t, opponent: o, at: Date.now()"
                  "}])); }", [created["table"], created["token"], opponent])
