"""The deployment recipe of docs/deploy.md, kept true.

- The systemd units pass ``systemd-analyze verify``; nginx.conf passes ``nginx -t``; the
  Caddyfile passes ``caddy validate``.
- The Dockerfile and compose.yaml (parsed, Docker cannot run here) start exactly the
  commands the units start: the same ``db upgrade``, the same ``serve`` with the same
  options, on the ports nginx.conf proxies to, with the same environment variables.
- The recipe runs: a fresh PostgreSQL schema upgraded by the migration unit's command, two
  processes started with the server unit's command, nginx with deploy/nginx.conf and a
  self-signed certificate in front; through it, over TLS: the pages, /readyz, a
  WebSocket playing a table, tables spread over both processes, a friend table whose two
  seats the proxy put on different processes playing, and a process killed with SIGKILL
  whose table goes on in the other.
- The optional routing by table (commented out in nginx.conf and the Caddyfile) is valid
  too, once uncommented.
- A backup made by deploy/backup.sh restores with deploy/restore-check.sh, and every match
  in it replays.

nginx, Caddy, openssl and systemd-analyze come from Debian (``.ci/deploy.sh``); missing,
these tests FAIL rather than skip.
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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from websockets.sync.client import connect
from websockets.typing import Origin

import hollywood_gin
from hollywood_gin.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SRC = str(Path(hollywood_gin.__file__).resolve().parents[1])
PORTS = (8001, 8002)  # the ports nginx.conf and compose.yaml name
UNIT_BINARY = "/opt/hollywood-gin/venv/bin/hollywood-gin"
PG_ENV = "HOLLYWOOD_GIN_TEST_PG"
# The WebSockets are kept across steps, as in the web tests.
pytestmark = pytest.mark.filterwarnings(
    "ignore:connect\\(\\) must be used as a context manager:DeprecationWarning")


def _tool(name: str) -> str:
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    if path is None:
        pytest.fail(f"{name} is missing: install it with `bash .ci/deploy.sh` (Debian packages)")
    return path


def _unit(name: str) -> dict[str, dict[str, list[str]]]:
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


def _env_file() -> dict[str, str]:
    out = {}
    for line in (DEPLOY / "hollywood-gin.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def _serve_argv(port: int) -> list[str]:
    """The server unit's command for one port, as ``hollywood-gin ...`` argv."""
    (command,) = _unit("hollywood-gin@.service")["Service"]["ExecStart"]
    argv = shlex.split(command.replace("%i", str(port)))
    assert argv[0] == UNIT_BINARY
    return ["hollywood-gin", *argv[1:]]


def _migrate_argv() -> list[str]:
    (command,) = _unit("hollywood-gin-migrate.service")["Service"]["ExecStart"]
    argv = shlex.split(command)
    assert argv[0] == UNIT_BINARY
    return ["hollywood-gin", *argv[1:]]


def _dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in (DEPLOY / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return data


def _nginx_ports() -> list[int]:
    upstream = re.search(r"upstream hollywood_gin \{(.*?)\}", (DEPLOY / "nginx.conf").read_text(),
                         re.S)
    assert upstream is not None
    return [int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+)", upstream.group(1))]


# -- the files agree -------------------------------------------------------------------------


def test_compose_and_the_image_start_the_commands_the_units_start() -> None:
    instructions = _dockerfile()
    entrypoint = json.loads(next(a for i, a in instructions if i == "ENTRYPOINT"))
    cmd = json.loads(next(a for i, a in instructions if i == "CMD"))
    assert entrypoint == ["hollywood-gin"]
    assert [a for i, a in instructions if i == "FROM"][-1].startswith("python:3.11")
    assert any('"hollywood-gin[web,postgres]"' in a for i, a in instructions if i == "RUN")
    assert ["hollywood-gin", *cmd] == _serve_argv(PORTS[0])  # `docker run` alone: app1

    services = _compose()["services"]
    assert set(services) == {"db", "migrate", "proxy", "app1", "app2"}
    assert ["hollywood-gin", *services["migrate"]["command"]] == _migrate_argv()
    for name, port in zip(("app1", "app2"), PORTS, strict=True):
        app = services[name]
        assert ["hollywood-gin", *app["command"]] == _serve_argv(port)
        assert app["network_mode"] == "service:proxy"  # 127.0.0.1:PORT as on a machine
        assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert f"127.0.0.1:{port}/readyz" in " ".join(app["healthcheck"]["test"])
        assert app["image"] == services["migrate"]["image"]
        assert app["build"]["dockerfile"] == "deploy/Dockerfile"
        # the variables of the units' environment file, besides the backup's own
        wanted = {k for k in _env_file() if not k.startswith("HG_")}
        assert set(app["environment"]) == wanted
    assert _nginx_ports() == list(PORTS)
    assert "./nginx.conf:/etc/nginx/conf.d/default.conf:ro" in services["proxy"]["volumes"]
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["db"]["image"].startswith("postgres:")

    # Every command parses with the real command line, and the docs show the same ones.
    parser = build_parser()
    for argv in (_migrate_argv(), *(_serve_argv(p) for p in PORTS)):
        parser.parse_args(argv[1:])
    docs = (ROOT / "docs" / "deploy.md").read_text()
    assert "systemctl enable --now hollywood-gin@8001 hollywood-gin@8002" in docs
    assert " ".join(_serve_argv(8001)) in docs
    assert " ".join(_migrate_argv()) in docs


def test_the_systemd_units_verify(tmp_path: Path) -> None:
    binary = Path(sys.executable).with_name("hollywood-gin")
    assert binary.exists(), "the hollywood-gin command is not installed beside this Python"
    names = ["hollywood-gin@.service", "hollywood-gin-migrate.service", "hollywood-gin.target",
             "hollywood-gin-backup.service", "hollywood-gin-backup.timer"]
    for name in names:
        text = (DEPLOY / name).read_text().replace(UNIT_BINARY, str(binary))
        text = text.replace("/opt/hollywood-gin/deploy/", f"{DEPLOY}/")
        text = text.replace("/etc/hollywood-gin/hollywood-gin.env",
                            str(DEPLOY / "hollywood-gin.env"))
        (tmp_path / name).write_text(text)
    shutil.copy(tmp_path / "hollywood-gin@.service", tmp_path / "hollywood-gin@8001.service")
    checked = [str(tmp_path / n) for n in names if n != "hollywood-gin@.service"]
    run = subprocess.run([_tool("systemd-analyze"), "verify", "--man=no", "--generators=no",
                          str(tmp_path / "hollywood-gin@8001.service"), *checked],
                         capture_output=True, text=True, env={**os.environ,
                                                              "SYSTEMD_LOG_LEVEL": "warning"})
    assert run.returncode == 0, run.stderr
    ours = [line for line in run.stderr.splitlines() if str(tmp_path) in line]
    assert ours == [], "\n".join(ours)  # an unknown key or a bad value is only a warning


def _routed(site: str) -> str:
    """nginx.conf with its optional routing by table uncommented (and least_conn dropped)."""
    out, in_map = [], False
    for line in site.splitlines():
        if line.startswith("# map $uri $hg_table {"):
            in_map = True
        if in_map:
            in_map = line != "# }"
            line = line[2:]
        elif line.strip() == "# hash $hg_table consistent;":
            line = "    hash $hg_table consistent;"
        elif line.strip() == "least_conn;":
            continue
        out.append(line)
    assert any(line.startswith("map $uri $hg_table") for line in out)
    assert "    hash $hg_table consistent;" in out
    return "\n".join(out) + "\n"


def _site(tmp: Path, ports: tuple[int, int], https: int, http: int, *,
          routed: bool = False) -> Path:
    """deploy/nginx.conf for this machine: its ports, a self-signed certificate, no root
    (``routed``: with the optional routing by table)."""
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    if not cert.exists():
        subprocess.run([_tool("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-days", "2", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True)
    site = (DEPLOY / "nginx.conf").read_text()
    if routed:
        site = _routed(site)
    replacements = {
        "/etc/letsencrypt/live/gin.example.com/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/gin.example.com/privkey.pem": str(key),
        "/var/www/letsencrypt": str(tmp),
        "server_name gin.example.com;": "server_name localhost;",
        "127.0.0.1:8001": f"127.0.0.1:{ports[0]}",
        "127.0.0.1:8002": f"127.0.0.1:{ports[1]}",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https} ssl http2;",
        "listen 80;": f"listen 127.0.0.1:{http};",
    }
    for old, new in replacements.items():
        assert old in site, old
        site = site.replace(old, new)
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


@pytest.mark.parametrize("routed", [False, True], ids=["spread", "routed-by-table"])
def test_the_nginx_config_is_valid(tmp_path: Path, routed: bool) -> None:
    main = _site(tmp_path, PORTS, 8443, 8080, routed=routed)
    run = subprocess.run([_tool("nginx"), "-t", "-q", "-p", str(tmp_path), "-e",
                          str(tmp_path / "error.log"), "-c", str(main)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr + (tmp_path / "error.log").read_text()


def test_the_caddyfile_is_valid(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path)}
    text = (DEPLOY / "Caddyfile").read_text()
    routed = text.replace("\t# @table ", "\t@table ").replace(
        "\t# request_header @table", "\trequest_header @table").replace(
        "lb_policy least_conn", "lb_policy header X-Hg-Table")
    assert routed.count("@table") == text.count("@table") and routed != text
    (tmp_path / "Caddyfile.routed").write_text(routed)
    for config in (DEPLOY / "Caddyfile", tmp_path / "Caddyfile.routed"):
        run = subprocess.run([_tool("caddy"), "validate", "--adapter", "caddyfile", "--config",
                              str(config)], capture_output=True, text=True, env=env)
        assert run.returncode == 0 and "Valid configuration" in run.stdout + run.stderr, \
            run.stderr
    assert "127.0.0.1:8001 127.0.0.1:8002" in text


# -- the recipe, run -------------------------------------------------------------------------


def _pg_url() -> str:
    url = os.environ.get(PG_ENV, "")
    if not url.startswith("postgresql"):
        pytest.fail(f"{PG_ENV} must be a postgresql URL (`eval \"$(bash .ci/postgres.sh)\"`)")
    return url


def _plain(url: str) -> str:
    return url.split("?", 1)[0].replace("postgresql+psycopg://", "postgresql://")


@pytest.fixture()
def pg_schema() -> Iterator[str]:
    """The URL of an empty schema of the test database (dropped afterwards)."""
    import psycopg

    base, name = _pg_url(), f"hg_deploy_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(_plain(base), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(_plain(base), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _command(argv: list[str]) -> list[str]:
    """``hollywood-gin ...`` as this Python runs it (the source under test first)."""
    return [sys.executable, "-m", "hollywood_gin", *argv[1:]]


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, **kwargs: Any) -> None:
    deadline = time.monotonic() + 90  # a start on a busy shared machine can take long
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1, trust_env=False, **kwargs).status_code < 500:
                return
        time.sleep(0.1)
    raise AssertionError(f"{url} did not answer in 90 s: {log.read_text()[-3000:]}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def _tables_open(port: int) -> int:
    body = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5, trust_env=False).text
    found = re.search(r"^hollywood_gin_tables_open (\S+)$", body, re.M)
    assert found is not None
    return int(float(found.group(1)))


def _loop_lag(port: int) -> str:
    """A process's event loop lag from its /metrics: how many looks, how many late."""
    try:
        body = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5, trust_env=False).text
    except httpx.HTTPError as exc:
        return f"{port}: no metrics ({type(exc).__name__})"
    name = "hollywood_gin_event_loop_lag_seconds"
    found = dict(re.findall(rf'^{name}_bucket{{le="([^"]+)"}} (\S+)$', body, re.M))
    total = float(found.get("+Inf", 0))
    late = {le: total - float(n) for le, n in found.items() if le in ("0.1", "1.0", "5.0")}
    return f"{port}: {total:.0f} looks, later than 0.1/1/5 s: " + \
        "/".join(f"{late.get(le, 0):.0f}" for le in ("0.1", "1.0", "5.0"))


def _diagnosis(tmp: Path, ports: tuple[int, int]) -> str:
    """What a failure needs said: nginx's timings of the last requests (connect and
    header: how long the process took to take the connection and to answer the
    handshake), its errors, each process's loop lag and the machine's load."""
    def tail(path: Path, lines: int) -> str:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) \
            if path.exists() else "(none)"

    return "\n".join([
        "load average: " + Path("/proc/loadavg").read_text().strip(),
        "event loop lag: " + "; ".join(_loop_lag(port) for port in ports),
        "nginx access log (rt: whole request; connect, header: the process):",
        tail(tmp / "access.log", 25), "nginx error log:", tail(tmp / "error.log", 15)])


def _sockets(log: Path) -> set[str]:
    """The tables whose WebSockets a server's JSON log says it opened."""
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    return {line["table"] for line in lines if line["event"] == "ws_open"}


def _open_quietly(base: str, origin: str, tls: ssl.SSLContext,
                  tables: list[dict[str, Any]]) -> list[Seat]:
    """Every table's seat opened, none greeted yet.  A handshake of this threaded client
    still stalled now and then (CI, and a fresh clone: the request in no log, the event
    loops never late), and the seats opened before it are closed by their servers after
    HELLO_TIMEOUT without a hello: so a stalled handshake starts the whole set again,
    each handshake given 5 s, three tries."""
    for attempt in range(3):
        seats: list[Seat] = []
        try:
            for t in tables:
                seats.append(Seat(base, origin, tls, t["table"], t["token"], hello=False,
                                  open_timeout=5))
            return seats
        except TimeoutError:
            for seat in seats:
                seat.ws.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


class Seat:
    """A seat's WebSocket through the proxy, over TLS."""

    def __init__(self, base: str, origin: str, tls: ssl.SSLContext, table: str, token: str,
                 *, hello: bool = True, open_timeout: float = 30) -> None:
        # The handshake waits on nothing but the process's event loop (the app accepts
        # before any database call), but the loop, nginx, TLS and this client share
        # two cores with whatever else runs: a generous bound, the failure says why.
        self.ws = connect(f"{base}/ws/{table}", origin=Origin(origin), ssl=tls, proxy=None,
                          open_timeout=open_timeout)
        self.token = token
        if hello:
            self.hello()

    def hello(self) -> None:
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        self.state = self.wait(lambda f: f["type"] == "state")

    def wait(self, pred: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 60
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(max(0.01, deadline - time.monotonic())))
            if frame["type"] == "state":
                self.state = frame
            if pred(frame):
                return frame

    def play(self, rid: int) -> dict[str, Any]:
        """One of our moves when it is our turn (first waiting for the computer's)."""
        while self.state["hand"]["to_act"] != 0:
            self.wait(lambda f: f["type"] == "state")
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


def test_the_recipe_runs_behind_nginx_with_tls(tmp_path: Path, pg_schema: str) -> None:
    https, http = _free_port(), _free_port()
    ports = (_free_port(), _free_port())
    origin = f"https://localhost:{https}"
    env = {**os.environ, **_env_file(), "HOLLYWOOD_GIN_DB": pg_schema,
           "HOLLYWOOD_GIN_ORIGINS": origin, "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH")) if p)}

    migrate = subprocess.run(_command(_migrate_argv()), env=env, capture_output=True, text=True,
                             timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    assert "created the tables at" in migrate.stdout

    procs: dict[int, subprocess.Popen[bytes]] = {}
    logs = {port: tmp_path / f"serve-{port}.log" for port in ports}
    nginx: subprocess.Popen[bytes] | None = None
    seats: list[Seat] = []
    try:
        for port in ports:
            with logs[port].open("wb") as out:
                # One client makes all 16 tables: past the per-address burst a player gets.
                argv = [*_serve_argv(port), "--table-burst", "32"]
                procs[port] = subprocess.Popen(_command(argv), env=env,
                                               stdout=out, stderr=subprocess.STDOUT)
        for port in ports:
            _wait_http(f"http://127.0.0.1:{port}/healthz", procs[port], logs[port])
        main = _site(tmp_path, ports, https, http)
        nginx_log = tmp_path / "error.log"
        nginx = subprocess.Popen([_tool("nginx"), "-p", str(tmp_path), "-e", str(nginx_log),
                                  "-c", str(main)], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        base = f"https://localhost:{https}"
        tls = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        _wait_http(base + "/healthz", nginx, nginx_log, verify=tls)
        web = httpx.Client(base_url=base, verify=tls, trust_env=False, timeout=10)

        # The site, through the proxy and TLS.
        page = web.get("/")
        assert page.status_code == 200 and "content-security-policy" in page.headers
        assert page.headers["strict-transport-security"].startswith("max-age=")
        assert web.get("/readyz").json()["ready"] is True
        assert web.get("/metrics").status_code == 404  # scraped per process, not public
        plain = httpx.get(f"http://127.0.0.1:{http}/t/x", trust_env=False)
        assert plain.status_code == 301 and plain.headers["location"].startswith("https://")

        # Tables through the proxy, spread: both processes get some.
        tables = []
        for _ in range(16):
            made = web.post("/api/tables", json={"opponent": "computer", "level": 1},
                            headers={"origin": origin})
            assert made.status_code == 201, made.text
            tables.append(made.json())
        ws_base = f"wss://localhost:{https}"
        # Every handshake first, then the hellos. A handshake of this client's (threaded
        # websockets, a reader thread a connection) stalled now and then while the other
        # connections' threads were reading the computers' moves: in a reproduction 3
        # fresh starts in 14, the request in neither nginx's log nor either process's,
        # their event loops never late; none in 14 when each connection was closed before
        # the next opened, none with the asyncio client. So no frame flows during these.
        seats = _open_quietly(ws_base, origin, tls, tables)
        for seat in seats:
            seat.hello()
        held = {port: _tables_open(port) for port in ports}
        assert sum(held.values()) == 16 and all(held.values()), held

        # A friend table whose seats the proxy put on different processes: a move on one
        # shows on the other (through PostgreSQL's NOTIFY).
        made = web.post("/api/tables", json={"opponent": "friend"},
                        headers={"origin": origin}).json()
        joined = web.post(f"/api/tables/{made['table']}/join", json={"invite": made["invite"]},
                          headers={"origin": origin}).json()
        ann = Seat(ws_base, origin, tls, made["table"], made["token"])
        bob = Seat(ws_base, origin, tls, made["table"], joined["token"])
        for _ in range(10):  # least_conn alternates; a tie may put both on one process
            if all(made["table"] in _sockets(logs[port]) for port in ports):
                break
            bob.ws.close()
            bob = Seat(ws_base, origin, tls, made["table"], joined["token"])
        assert all(made["table"] in _sockets(logs[port]) for port in ports)
        for rid in range(1, 5):
            mover, watcher = (ann, bob) if ann.state["hand"]["to_act"] == 0 else (bob, ann)
            reply = mover.move(rid)
            assert reply["type"] == "ack", reply
            watcher.wait(lambda f, seq=reply["seq"]: f["type"] == "state" and f["seq"] >= seq)
        for seat in (ann, bob):
            seat.ws.close()

        first = seats[0]
        for rid in range(1, 4):
            reply = first.play(rid)
            assert reply["type"] == "ack", reply
        seq = first.state["seq"]
        (home,) = [port for port in ports if tables[0]["table"] in _sockets(logs[port])]

        # The process holding the table dies; the proxy sends its players to the other one,
        # which replays the table from the database and goes on.
        procs[home].send_signal(signal.SIGKILL)
        procs[home].wait(10)
        for seat in seats:
            seat.ws.close()
        seats = []
        again = Seat(ws_base, origin, tls, tables[0]["table"], tables[0]["token"])
        seats.append(again)
        assert again.state["seq"] >= seq
        assert again.play(10)["type"] == "ack"
        (other,) = [port for port in ports if port != home]
        assert tables[0]["table"] in _sockets(logs[other])  # it went on in the other process
    except BaseException as exc:
        exc.add_note(_diagnosis(tmp_path, ports))
        raise
    finally:
        for seat in seats:
            with contextlib.suppress(Exception):
                seat.ws.close()
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                nginx.wait(10)
            if nginx.poll() is None:
                nginx.kill()
                nginx.wait(5)
        for proc in procs.values():
            _stop(proc)


# -- backups ------------------------------------------------------------------------------


def _database(name: str) -> str:
    """A database of its own (made by .ci/postgres.sh, as the test database is)."""
    run = subprocess.run(["bash", str(ROOT / ".ci" / "postgres.sh")], capture_output=True,
                         text=True, env={**os.environ, "HG_PG_DB": name}, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip().split("=", 1)[1]


def test_a_backup_restores_and_every_match_replays(tmp_path: Path) -> None:
    import psycopg

    from hollywood_gin import Rules
    from hollywood_gin.store import Store

    test_db = _plain(_pg_url()).rsplit("/", 1)[1]
    source, scratch = _database(f"{test_db}_bk"), _database(f"{test_db}_bk_restore")
    for url in (source, scratch):
        with psycopg.connect(_plain(url), autocommit=True) as conn:
            conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
            conn.execute("CREATE SCHEMA public")
    store = Store(source)
    try:
        pm = store.new_match(rules=Rules(), seed=5, players=("a", "b"))
        for _ in range(30):
            if pm.match.hand.is_over:
                break
            pm.act(pm.match.hand.legal_actions()[0])
        actions = pm.action_count
    finally:
        store.close()

    env = {**os.environ, "HOLLYWOOD_GIN_DB": source, "HG_RESTORE_CHECK_DB": scratch,
           "HG_BACKUP_DIR": str(tmp_path / "backups"), "HG_BACKUP_DAYS": "14",
           "HOLLYWOOD_GIN": str(Path(sys.executable).with_name("hollywood-gin")),
           "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH")) if p)}
    backup = subprocess.run([str(DEPLOY / "backup.sh")], env=env, capture_output=True,
                            text=True, timeout=120)
    assert backup.returncode == 0, backup.stderr
    dump = Path(backup.stdout.strip())
    assert dump.parent == tmp_path / "backups" and dump.stat().st_size > 0

    check = subprocess.run([str(DEPLOY / "restore-check.sh")], env=env, capture_output=True,
                           text=True, timeout=120)
    assert check.returncode == 0, check.stderr + check.stdout
    assert f"1 of 1 saved matches replay ({actions} actions)" in check.stdout
    assert "restores and replays" in check.stdout

    # A damaged dump is caught.
    bad = tmp_path / "backups" / "hollywood-gin-bad.dump"
    bad.write_bytes(dump.read_bytes()[: dump.stat().st_size // 2])
    damaged = subprocess.run([str(DEPLOY / "restore-check.sh"), str(bad)], env=env,
                             capture_output=True, text=True, timeout=120)
    assert damaged.returncode != 0
