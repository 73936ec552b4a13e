"""What the deployment tests share: the files of deploy/ read as the recipe runs them, the
server units started with their own command on a PostgreSQL schema of their own, nginx
and Caddy started with the shipped configs, and a seat's WebSocket through the proxy.

nginx, Caddy, openssl and systemd-analyze come from Debian (``.ci/deploy.sh``); missing,
the tests FAIL rather than skip.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

import hollywood_gin
from hg_sockets import open_socket
from hollywood_gin.web.limits import UNGREETED_SOCKETS

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SRC = str(Path(hollywood_gin.__file__).resolve().parents[1])
PORTS = (8001, 8002)  # the ports nginx.conf, the Caddyfile and compose.yaml name
UNIT_BINARY = "/opt/hollywood-gin/venv/bin/hollywood-gin"
PG_ENV = "HOLLYWOOD_GIN_TEST_PG"
WAIT = 60.0  # the longest any step waits for the servers (no timing is asserted)


def tool(name: str) -> str:
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    if path is None:
        pytest.fail(f"{name} is missing: install it with `bash .ci/deploy.sh` (Debian packages)")
    return path


# -- the files of deploy/ ---------------------------------------------------------------------


def unit(name: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit file: section -> key -> values (a key may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in (DEPLOY / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def env_file() -> dict[str, str]:
    out = {}
    for line in (DEPLOY / "hollywood-gin.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def serve_argv(port: int) -> list[str]:
    """The server unit's command for one port, as ``hollywood-gin ...`` argv."""
    (command,) = unit("hollywood-gin@.service")["Service"]["ExecStart"]
    argv = shlex.split(command.replace("%i", str(port)))
    assert argv[0] == UNIT_BINARY
    return ["hollywood-gin", *argv[1:]]


def migrate_argv() -> list[str]:
    (command,) = unit("hollywood-gin-migrate.service")["Service"]["ExecStart"]
    argv = shlex.split(command)
    assert argv[0] == UNIT_BINARY
    return ["hollywood-gin", *argv[1:]]


def certificate(tmp: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost (made once per folder)."""
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    if not cert.exists():
        subprocess.run([tool("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-days", "2", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True)
    return cert, key


def replaced(text: str, replacements: dict[str, str]) -> str:
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def spread(site: str) -> str:
    """nginx.conf with the spreading its comment offers instead of routing by table."""
    assert site.count("    hash $hg_table consistent;\n") == 1
    return site.replace("    hash $hg_table consistent;\n", "    least_conn;\n")


def nginx_site(tmp: Path, ports: tuple[int, int], https: int, http: int, *,
               edit: Callable[[str], str] | None = None) -> Path:
    """deploy/nginx.conf for this machine: its ports, a self-signed certificate, no root;
    ``edit`` changes the site first (a variant its comments offer)."""
    cert, key = certificate(tmp)
    site = (DEPLOY / "nginx.conf").read_text()
    if edit is not None:
        site = edit(site)
    site = replaced(site, {
        "/etc/letsencrypt/live/gin.example.com/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/gin.example.com/privkey.pem": str(key),
        "/var/www/letsencrypt": str(tmp),
        "server_name gin.example.com;": "server_name localhost;",
        "127.0.0.1:8001": f"127.0.0.1:{ports[0]}",
        "127.0.0.1:8002": f"127.0.0.1:{ports[1]}",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https} ssl http2;",
        "listen 80;": f"listen 127.0.0.1:{http};",
    })
    site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)
    (tmp / "site.conf").write_text(site)
    main = tmp / "nginx.conf"
    main.write_text(f"""
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format timed '$time_iso8601 "$request" $status rt=$request_time '
                     'connect=$upstream_connect_time header=$upstream_header_time '
                     'to=$upstream_addr';
    access_log {tmp}/access.log timed;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/site.conf;
}}
""")
    return main


def caddy_env(tmp: Path) -> dict[str, str]:
    """Caddy's folders (its data, its autosaved config) inside the test's."""
    return {**os.environ, "HOME": str(tmp), "XDG_DATA_HOME": str(tmp / "xdg-data"),
            "XDG_CONFIG_HOME": str(tmp / "xdg-config")}


def caddy_site(tmp: Path, ports: tuple[int, int], https: int, http: int) -> Path:
    """deploy/Caddyfile for this machine: its ports, a self-signed certificate instead of
    Let's Encrypt's, no admin endpoint, its storage in the test's folder."""
    cert, key = certificate(tmp)
    text = replaced((DEPLOY / "Caddyfile").read_text(), {
        "gin.example.com {": "{\n\tadmin off\n"
                             f"\thttp_port {http}\n\thttps_port {https}\n"
                             f"\tstorage file_system {tmp / 'caddy-data'}\n}}\n"
                             f"localhost:{https} {{\n\ttls {cert} {key}",
        "127.0.0.1:8001 127.0.0.1:8002": f"127.0.0.1:{ports[0]} 127.0.0.1:{ports[1]}",
    })
    path = tmp / "Caddyfile"
    path.write_text(text)
    return path


# -- the database and the servers ------------------------------------------------------------


def pg_url() -> str:
    url = os.environ.get(PG_ENV, "")
    if not url.startswith("postgresql"):
        pytest.fail(f"{PG_ENV} must be a postgresql URL (`eval \"$(bash .ci/postgres.sh)\"`)")
    return url


def plain(url: str) -> str:
    return url.split("?", 1)[0].replace("postgresql+psycopg://", "postgresql://")


@contextlib.contextmanager
def schema() -> Iterator[str]:
    """The URL of an empty schema of the test database (dropped afterwards)."""
    import psycopg

    base, name = pg_url(), f"hg_deploy_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(plain(base), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(plain(base), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def command(argv: list[str]) -> list[str]:
    """``hollywood-gin ...`` as this Python runs it (the source under test first)."""
    return [sys.executable, "-m", "hollywood_gin", *argv[1:]]


def wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, **kwargs: Any) -> None:
    deadline = time.monotonic() + 90  # a start on a busy shared machine can take long
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
        with contextlib.suppress(httpx2.HTTPError):
            if httpx2.get(url, timeout=1, trust_env=False, **kwargs).status_code < 500:
                return
        time.sleep(0.1)
    raise AssertionError(f"{url} did not answer in 90 s: {log.read_text()[-3000:]}")


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM, wait: float = 15) -> None:
    """Stop a process with ``sig`` (nginx stops gracefully on SIGQUIT), killing it if it
    has not ended after ``wait`` seconds."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class Units:
    """Two ``hollywood-gin@PORT`` units as the recipe runs them: the migration unit's
    command once on a fresh schema, then the server unit's command per port (each start
    of a port logs to a file of its own)."""

    def __init__(self, tmp: Path, db: str, origin: str) -> None:
        self.tmp = tmp
        self.ports = (free_port(), free_port())
        self.env = {**os.environ, **env_file(), "HOLLYWOOD_GIN_DB": db,
                    "HOLLYWOOD_GIN_ORIGINS": origin, "PYTHONUNBUFFERED": "1",
                    "PYTHONPATH": os.pathsep.join(
                        p for p in (SRC, os.environ.get("PYTHONPATH")) if p)}
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.logs: dict[int, Path] = {}
        self.starts = 0

    def migrate(self) -> str:
        run = subprocess.run(command(migrate_argv()), env=self.env, capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        return run.stdout

    def start(self, *ports: int) -> None:
        for port in ports or self.ports:
            self.starts += 1
            self.logs[port] = self.tmp / f"serve-{port}-{self.starts}.log"
            with self.logs[port].open("wb") as out:
                # One client makes all the tables: past the per-address burst a player gets.
                argv = [*serve_argv(port), "--table-burst", "64"]
                self.procs[port] = subprocess.Popen(command(argv), env=self.env, stdout=out,
                                                    stderr=subprocess.STDOUT)
        for port in ports or self.ports:
            wait_http(f"http://127.0.0.1:{port}/healthz", self.procs[port], self.logs[port])

    def kill(self, port: int) -> None:
        """The unit's process dies at once (SIGKILL: no goodbye to anyone)."""
        self.procs[port].send_signal(signal.SIGKILL)
        self.procs[port].wait(10)

    def other(self, port: int) -> int:
        (other,) = [p for p in self.ports if p != port]
        return other

    def events(self, port: int, event: str) -> list[str]:
        """The tables named by the given event in the port's current log."""
        lines = [json.loads(line) for line in self.logs[port].read_text().splitlines()
                 if line.startswith("{")]
        return [line["table"] for line in lines if line["event"] == event]

    def home(self, table: str, event: str) -> int:
        """The one port whose current log has the event for the table (waiting for it)."""
        deadline = time.monotonic() + WAIT
        while True:
            found = [p for p in self.ports if table in self.events(p, event)]
            if found or time.monotonic() > deadline:
                assert len(found) == 1, (table, event, found)
                return found[0]
            time.sleep(0.05)

    def seats_connected(self, port: int) -> int:
        return int(metric(port, "hollywood_gin_seats_connected"))

    def close(self) -> None:
        for proc in self.procs.values():
            stop(proc)


@contextlib.contextmanager
def running_units(tmp: Path, origin: str) -> Iterator[Units]:
    with schema() as db:
        units = Units(tmp, db, origin)
        try:
            yield units
        finally:
            units.close()


def metric(port: int, name: str) -> float:
    body = httpx2.get(f"http://127.0.0.1:{port}/metrics", timeout=5, trust_env=False).text
    found = re.search(rf"^{name} (\S+)$", body, re.M)
    assert found is not None, name
    return float(found.group(1))


def loop_lag(port: int) -> str:
    """A process's event loop lag from its /metrics: how many looks, how many late."""
    try:
        body = httpx2.get(f"http://127.0.0.1:{port}/metrics", timeout=5, trust_env=False).text
    except httpx2.HTTPError as exc:
        return f"{port}: no metrics ({type(exc).__name__})"
    name = "hollywood_gin_event_loop_lag_seconds"
    found = dict(re.findall(rf'^{name}_bucket{{le="([^"]+)"}} (\S+)$', body, re.M))
    total = float(found.get("+Inf", 0))
    late = {le: total - float(n) for le, n in found.items() if le in ("0.1", "1.0", "5.0")}
    return f"{port}: {total:.0f} looks, later than 0.1/1/5 s: " + \
        "/".join(f"{late.get(le, 0):.0f}" for le in ("0.1", "1.0", "5.0"))


def diagnosis(tmp: Path, ports: tuple[int, int], proxy_logs: list[Path]) -> str:
    """What a failure needs said: the proxy's last requests and errors (nginx's with its
    timings: connect and header are the process's), each process's loop lag, the load."""
    def tail(path: Path, lines: int) -> str:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) \
            if path.exists() else "(none)"

    return "\n".join([
        "load average: " + Path("/proc/loadavg").read_text().strip(),
        "event loop lag: " + "; ".join(loop_lag(port) for port in ports),
        *(f"{path.name}:\n{tail(path, 25)}" for path in proxy_logs)])


# -- players through the proxy ---------------------------------------------------------------


class Seat:
    """A seat's WebSocket through the proxy, over TLS."""

    def __init__(self, base: str, origin: str, tls: ssl.SSLContext, table: str, token: str,
                 *, hello: bool = True, open_timeout: float = 30) -> None:
        # The handshake waits on nothing but the process's event loop (the app accepts
        # before any database call), but the loop, the proxy, TLS and this client share
        # two cores with whatever else runs: a generous bound, the failure says why.
        self.ws = open_socket(f"{base}/ws/{table}", origin=Origin(origin), ssl=tls, proxy=None,
                          open_timeout=open_timeout)
        self.table = table
        self.token = token
        if hello:
            self.hello()

    def hello(self) -> None:
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        self.state = self.wait(lambda f: f["type"] == "state")

    def wait(self, pred: Any) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                raw = self.ws.recv(max(0.01, deadline - time.monotonic()))
            except TimeoutError as exc:
                hand = getattr(self, "state", {}).get("hand", {})
                exc.add_note(f"seat at table {self.table}: last state seq "
                             f"{getattr(self, 'state', {}).get('seq')}, phase "
                             f"{hand.get('phase')}, to act {hand.get('to_act')}")
                raise
            frame: dict[str, Any] = json.loads(raw)
            if frame["type"] == "state":
                self.state = frame
            if pred(frame):
                return frame

    def wait_closed(self) -> None:
        """Until the socket is closed from the other end (what a page reconnects on)."""
        deadline = time.monotonic() + WAIT
        with contextlib.suppress(ConnectionClosed):
            while True:
                self.ws.recv(max(0.01, deadline - time.monotonic()))

    def play(self, rid: int) -> dict[str, Any]:
        """One of our moves when it is our turn: first waiting for the computer's, and
        dealing the next hand if the computer's move ended this one (a random deal can let
        it knock within a few turns; no state comes then until we ask for the next deal)."""
        while True:
            state = self.state
            if state["hand"]["phase"] == "over":
                assert not state["finished"], "the match ended"
                self.ws.send(json.dumps({"type": "next"}))
                self.wait(lambda f, n=state["hand_number"]: f["type"] == "state"
                          and f["hand_number"] > n)
            elif state["hand"]["to_act"] != 0:
                self.wait(lambda f: f["type"] == "state")
            else:
                return self.move(rid)

    def move(self, rid: int) -> dict[str, Any]:
        """This seat's move now (it must be its turn): the ack or the error."""
        hand = self.state["hand"]
        action = "pass" if hand["phase"] == "offer" else "draw" if hand["phase"] == "draw" \
            else "discard " + min((h for h in hand["hints"] if h["discard"]),
                                  key=lambda h: h["deadwood"])["card"]
        self.ws.send(json.dumps({"type": "act", "action": action, "seq": self.state["seq"],
                                 "rid": rid}))
        reply = self.wait(lambda f: f.get("rid") == rid and f["type"] in ("ack", "error"))
        if reply["type"] == "ack" and self.state["seq"] < reply["seq"]:
            self.wait(lambda f: f["type"] == "state" and f["seq"] >= reply["seq"])
        return reply

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def open_quietly(base: str, origin: str, tls: ssl.SSLContext,
                 seats: list[tuple[str, str]]) -> list[Seat]:
    """Every (table, token) seat opened, none greeted yet.  A handshake that stalls or
    breaks (``ssl.SSLError``) would leave the seats opened before it to be closed by their
    servers after HELLO_TIMEOUT without a hello: so it starts the whole set again, each
    handshake given 5 s, three tries.  Both happened now and then while the tests' client
    read and wrote one TLS session from two threads (tests/hg_sockets.py); none in twelve
    runs of the proxy tests under load since, but a retry costs nothing when none is due."""
    for attempt in range(3):
        opened: list[Seat] = []
        try:
            for table, token in seats:
                opened.append(Seat(base, origin, tls, table, token, hello=False,
                                   open_timeout=5))
            return opened
        except (TimeoutError, ssl.SSLError, ConnectionClosed):
            for seat in opened:
                seat.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def open_seats(base: str, origin: str, tls: ssl.SSLContext,
               seats: list[tuple[str, str]]) -> list[Seat]:
    """Every (table, token) seat opened and greeted, in groups a process takes from one
    address before their hellos (UNGREETED_SOCKETS: routing by table may put them all on
    one); each group's handshakes first, then its hellos (put the computers' tables last,
    so that no move is played while a handshake is under way)."""
    out: list[Seat] = []
    for at in range(0, len(seats), UNGREETED_SOCKETS):
        group = open_quietly(base, origin, tls, seats[at:at + UNGREETED_SOCKETS])
        for seat in group:
            seat.hello()
        out += group
    return out


def take_turns(first: Seat, second: Seat, moves: int, rid: int) -> int:
    """Friends' moves, each by the seat to act and seen by the other; the last seq."""
    for n in range(moves):
        mover, watcher = (first, second) if first.state["hand"]["to_act"] == 0 \
            else (second, first)
        reply = mover.move(rid + n)
        assert reply["type"] == "ack", reply
        watcher.wait(lambda f, seq=reply["seq"]: f["type"] == "state" and f["seq"] >= seq)
    assert first.state["seq"] == second.state["seq"]
    return int(first.state["seq"])


class Friends:
    """A friend table made and joined through the proxy: its id and the two seats' tokens."""

    def __init__(self, web: httpx2.Client, origin: str) -> None:
        made = web.post("/api/tables", json={"opponent": "friend"}, headers={"origin": origin})
        assert made.status_code == 201, made.text
        self.table: str = made.json()["table"]
        joined = web.post(f"/api/tables/{self.table}/join",
                          json={"invite": made.json()["invite"]}, headers={"origin": origin})
        assert joined.status_code == 200, joined.text
        self.tokens: tuple[str, str] = (made.json()["token"], joined.json()["token"])


def friends_on_both(web: httpx2.Client, origin: str, units: Units, least: int) -> list[Friends]:
    """At least ``least`` friend tables, and more until each unit has joined a seat at one
    (the join is routed by the table too): the tables' ids are random, so spreading over
    both units is likely, not certain, with a few."""
    tables: list[Friends] = []
    while len(tables) < least or {units.home(t.table, "seat_joined")
                                  for t in tables} != set(units.ports):
        assert len(tables) < 40, "40 tables, all routed to one unit"
        tables.append(Friends(web, origin))
    return tables
