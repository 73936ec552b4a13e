"""Load on loopback: many friend tables played through the real WebSocket protocol.

Starts ``hollywood-gin serve`` (``--processes N``: ``serve --workers N``) without its
per-address limits, or uses ``--url`` (start that one with ``--table-rate 0
--pending-sockets 0``), creates ``--tables`` friend tables over HTTP, opens both seats of
each (the kernel hands each connection to one of the workers: with N processes about
1 - 1/N of the tables have their seats on two processes) and plays them all for
``--seconds``.  Each seat is a bot that plays the greedy policy from its own state
frames and thinks ``--think`` seconds a move on average (0.5x to 1.5x).

Measured, after a warm-up: actions a second; the latency from sending an action to the
*other* seat's state frame showing it (the server sends it only after the commit; with
the seats on two processes it crosses PostgreSQL's NOTIFY); errors (any error frame or
failed table); lost actions (each table's last acknowledged position against the
database's log, read at the end); the CPU seconds the load generator, the server
processes and PostgreSQL used in the measured window; and the generator's own event loop
lag (``generator_loop_lag_ms``: were it late, the latency would count its lateness as
the servers').

``--units`` starts N servers of one process each, in sessions of their own (as systemd
runs each ``hollywood-gin@PORT`` unit), instead of one ``serve --workers N``; each seat
then goes to one of them at random, or with ``--route table`` both seats of a table to
the one its id picks (as the proxies route by default).

``--capacity`` searches, for each process count of ``--processes 1,2,4``, the most
tables whose p99 stays under ``--p99`` ms with no error and no lost action (a ladder,
then halving), the configurations interleaved so that a change in the machine's load
hits them alike.  Not a test.

On a machine other work loads (the project's shared 2-core machine), ``--nice -10`` (as
root) gives the benchmark's session, its servers and their PostgreSQL backends the
priority, and a PostgreSQL cluster of the benchmark's own keeps other databases' work
out of its backends' queue for a core (its postmaster's session reniced the same way; the
disk its commits wait on is still shared)::

    su postgres -c "/usr/lib/postgresql/15/bin/initdb -D /tmp/pg/data -U hollywood --auth=trust"
    su postgres -c "/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/pg/data -l /tmp/pg/log \\
        -o '-p 5499 -k /tmp/pg -c listen_addresses=127.0.0.1' start"
    echo -10 > /proc/$(head -1 /tmp/pg/data/postmaster.pid)/autogroup
    psql -h 127.0.0.1 -p 5499 -U hollywood -d postgres -c "CREATE DATABASE hg_bench"
    hollywood-gin db upgrade --db postgresql+psycopg://hollywood@127.0.0.1:5499/hg_bench

    python benchmarks/bench_web.py --db postgresql+psycopg://USER:PASS@127.0.0.1/DB \\
        --processes 2 --tables 600 --think 1 --seconds 40
    python benchmarks/bench_web.py --db ... --capacity --processes 1,2,4 --think 1
    python benchmarks/bench_web.py --db ... --capacity --processes 1,2,4 --think 1 \\
        --units --route table --nice -10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

try:
    from orjson import loads
except ImportError:  # the web extra brings it
    from json import loads

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def choose(frame: dict[str, Any]) -> str:
    hand = frame["hand"]
    if hand["phase"] == "offer":
        return "pass"
    if hand["phase"] == "draw":
        return "draw"
    hints = hand["hints"]
    knocks = [h for h in hints if h["knock"]]
    if knocks:
        return "knock " + str(min(knocks, key=lambda h: h["deadwood"])["card"])
    return "discard " + str(min((h for h in hints if h["discard"]),
                                key=lambda h: h["deadwood"])["card"])


_SEQ = re.compile(r'"seq":(\d+),"hand_number":(\d+)')


class SeatConn:
    """One seat's socket: a reader task keeps the newest state frame and wakes waiters.

    A frame is parsed only when the seat decides a move: the step and the hand are read
    from the frame's head (the server writes ``seq`` then ``hand_number`` near the start),
    so that the load generator spends its CPU on sending load, not on reading it."""

    def __init__(self, ws: ClientConnection, run: Run) -> None:
        self.ws = ws
        self.run = run
        self.raw = ""
        self.seq = -1
        self.hand_number = -1
        self._parsed: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())
        self.expect: tuple[int, float] | None = None  # (seq, sent at): the other seat's move

    @property
    def state(self) -> dict[str, Any]:
        if self._parsed is None:
            self._parsed = loads(self.raw)
        return self._parsed

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                head = text[:400]
                if head.startswith('{"type":"state"'):
                    found = _SEQ.search(head)
                    if found is None:  # not the layout we expect: read it all
                        frame = loads(text)
                        seq, hand_number = frame["seq"], frame["hand_number"]
                    else:
                        seq, hand_number = int(found.group(1)), int(found.group(2))
                    self.raw, self.seq, self.hand_number = text, seq, hand_number
                    self._parsed = None
                    if self.expect is not None and seq >= self.expect[0]:
                        if self.run.measuring:
                            self.run.latencies.append(time.perf_counter() - self.expect[1])
                        self.expect = None
                    self.changed.set()
                elif head.startswith('{"type":"error"'):
                    self.run.errors.append(loads(text).get("code", "?"))
                    self.changed.set()
        except Exception as exc:
            self.run.errors.append(type(exc).__name__)
            self.changed.set()

    async def until(self, seq: int, hand_number: int = 0, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not (self.seq >= seq and self.hand_number >= hand_number):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no state at {seq} in {timeout} s")
            await asyncio.wait_for(self.changed.wait(), left)


class Run:
    """What one run measures."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.actions = 0
        self.measuring = False
        self.last_seq: dict[str, int] = {}
        self.lags: list[float] = []  # the generator's own loop lag, while measuring


async def watch_loop(run: Run, stop: asyncio.Event, every: float = 0.02) -> None:
    """The generator's own event loop lag: a late loop delays reading the other seat's
    frame, which the latency would count as the servers'."""
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(every)
        if run.measuring:
            run.lags.append(time.perf_counter() - asked - every)


async def play_table(bases: list[str], table: dict[str, Any], stop: asyncio.Event,
                     think: float, run: Run, route: str = "seat") -> None:
    """Both seats of a table (each on one of ``bases``, chosen at random: the servers of
    ``--units``; with ``route="table"`` both on the one its id picks, as the proxies'
    routing by table does), played until ``stop``."""
    rng = random.Random(table["table"])
    await asyncio.sleep(rng.uniform(0, max(think, 0.1) * 2))  # no thundering start
    seats = []
    by_table = bases[int(table["table"], 16) % len(bases)]
    for token in table["tokens"]:
        base = by_table if route == "table" else rng.choice(bases)
        ws_url = base.replace("http://", "ws://") + f"/ws/{table['table']}"
        ws = await connect(ws_url, origin=Origin(base), proxy=None, max_size=None,
                           open_timeout=60, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seats.append(SeatConn(ws, run))
    try:
        for s in seats:
            await s.until(0)
        to_act = seats[0].state["hand"]["to_act"]
        while not stop.is_set():
            actor, other = seats[to_act], seats[1 - to_act]
            await actor.until(other.seq)
            state = actor.state  # both seats are at this step: the actor's view says it all
            if state["finished"]:
                break
            if state["hand"]["phase"] == "over":
                number = state["hand_number"]
                for s in seats:
                    await s.ws.send('{"type":"next"}')
                for s in seats:
                    await s.until(state["seq"], number + 1)
                to_act = seats[0].state["hand"]["to_act"]
                continue
            if state["hand"]["to_act"] != to_act:
                to_act = state["hand"]["to_act"]
                continue
            if think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            action = choose(state)
            seq = state["seq"]
            other.expect = (seq + 1, time.perf_counter())
            await actor.ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
            await actor.until(seq + 1)
            await other.until(seq + 1)
            to_act = actor.state["hand"]["to_act"]
            if run.measuring:
                run.actions += 1
        run.last_seq[table["table"]] = seats[0].seq
    finally:
        for s in seats:
            s.reader.cancel()
            with contextlib.suppress(Exception):
                await s.ws.close()


async def setup(base: str, origin: str, count: int) -> list[dict[str, Any]]:
    async with httpx2.AsyncClient(base_url=base, trust_env=False, timeout=60,
                                 headers={"origin": origin}) as client:
        async def one(i: int) -> dict[str, Any]:
            made = (await client.post("/api/tables", json={"opponent": "friend",
                                                           "name": f"A{i}"})).json()
            joined = (await client.post(f"/api/tables/{made['table']}/join",
                                        json={"invite": made["invite"], "name": f"B{i}"})).json()
            return {"table": made["table"], "tokens": [made["token"], joined["token"]]}
        out = []
        for start in range(0, count, 25):
            out += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 25))))
        return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- CPU accounting ----------------------------------------------------------------------------


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(entry.name))
    return out


def _postgres_pids() -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    out.append(int(entry.name))
            except OSError:
                continue
    return out


def _our_backends(db: str) -> list[int]:
    """PostgreSQL backends connected to the benchmark's database (pg_stat_activity)."""
    import psycopg

    plain = db.split("?", 1)[0].replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = "
                            "current_database() AND pid <> pg_backend_pid()").fetchall()
    return [int(r[0]) for r in rows]


def _postmaster(db: str) -> int | None:
    """The pid of the database's postmaster, if we may read its data directory (a cluster
    of the benchmark's own: its every process, WAL writer and checkpointer too, is ours)."""
    import psycopg

    plain = db.split("?", 1)[0].replace("postgresql+psycopg://", "postgresql://")
    try:
        with psycopg.connect(plain, autocommit=True) as conn:
            row = conn.execute("SHOW data_directory").fetchone()
        return int((Path(str(row[0])) / "postmaster.pid").read_text().split()[0]) if row else None
    except (psycopg.Error, OSError, ValueError, IndexError):
        return None


class CpuMeter:
    """CPU seconds of the generator, the servers and PostgreSQL between start and stop."""

    def __init__(self, server_pids: list[int], db: str | None) -> None:
        self.server_pids = server_pids
        self.db = db
        self.postmaster = _postmaster(db) if db and db.startswith("postgresql") else None

    def _sample(self) -> dict[str, float]:
        me = resource.getrusage(resource.RUSAGE_SELF)
        out = {"generator": me.ru_utime + me.ru_stime}
        if self.server_pids:
            out["servers"] = sum(_proc_cpu(p) for p in self.servers())
        pg = _postgres_pids()
        out["postgres_all"] = sum(_proc_cpu(p) for p in pg)
        if self.postmaster is not None:
            cluster = [self.postmaster, *_children(self.postmaster)]
            out["postgres_cluster"] = sum(_proc_cpu(p) for p in cluster)
        if self.db and self.db.startswith("postgresql"):
            self.backends = _our_backends(self.db)
            out["postgres_ours"] = sum(_proc_cpu(p) for p in self.backends)
        return out

    def start(self, nice: int = 0) -> None:
        self.t0 = time.monotonic()
        self.first = self._sample()
        if nice:  # the backends the servers opened since they started
            renice([*self.servers(), *getattr(self, "backends", [])], nice)

    def servers(self) -> list[int]:
        return [p for pid in self.server_pids for p in (pid, *_children(pid))]

    def stop(self) -> dict[str, float]:
        elapsed = time.monotonic() - self.t0
        if self.db and self.db.startswith("postgresql"):
            backends = self.backends
            last = self._sample()
            last["postgres_ours"] = sum(_proc_cpu(p) for p in backends)  # same processes
        else:
            last = self._sample()
        return {k: round((last[k] - self.first.get(k, 0.0)) / elapsed, 3) for k in last}


def renice(pids: list[int], nice: int) -> None:
    """Give the benchmark's own processes (the servers, their PostgreSQL backends) the
    priority ``nice``: on a machine other work oversubscribes, latency then measures our
    processes' work and waits on each other, not the queue for a core (the cores are
    still shared by the generator, the servers and PostgreSQL)."""
    for pid in pids:
        try:  # every thread: a nice value is a thread's on Linux
            tids = [int(t.name) for t in Path(f"/proc/{pid}/task").iterdir()]
        except OSError:
            continue
        for tid in tids:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, tid, nice)


def loadavg() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


# -- one run ------------------------------------------------------------------------------------


def start_server(db: str, processes: int, extra: list[str], *, nice: int = 0,
                 session: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    """``serve --workers processes``; with ``session``, in a session of its own (a unit of
    its own, as systemd runs each ``hollywood-gin@PORT``: its own share of the cores),
    given the priority ``nice``."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    cmd = [sys.executable, "-m", "hollywood_gin", "serve", "--port", str(port), "--db", db,
           "--bot-delay", "0", "--no-access-log", "--log-level", "warning", "--table-rate", "0",
           "--pending-sockets", "0", "--message-rate", "0", "--workers", str(processes), *extra]
    proc = subprocess.Popen(cmd, env=env, start_new_session=session)
    if session and nice:
        with contextlib.suppress(OSError):
            Path(f"/proc/{proc.pid}/autogroup").write_text(str(nice))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if (processes == 1 or _processes(url) == processes) and httpx2.get(
                    url + "/readyz", trust_env=False, timeout=2).status_code == 200:
                return proc, url
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("the server did not start")


def _processes(url: str) -> int:
    body = httpx2.get(url + "/metrics", trust_env=False, timeout=5).text
    for line in body.splitlines():
        if line.startswith("hollywood_gin_processes "):
            return int(float(line.split()[1]))
    return 0


def _saved_counts(db: str, ids: list[str]) -> dict[str, int]:
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT id, action_count FROM hg_matches WHERE id IN "
                                     "(" + ",".join(f"'{i}'" for i in ids) + ")")).all()
        return {str(r[0]): int(r[1]) for r in rows}
    finally:
        engine.dispose()


_BUCKET = re.compile(r'^(hollywood_gin_action_seconds|hollywood_gin_event_loop_lag_seconds)'
                     r'_bucket\{(?:by="[a-z]+",)?le="([^"]+)"\} (\S+)$', re.M)


async def scrape(urls: list[str]) -> dict[tuple[str, float], float]:
    """The servers' histograms (commit time, event loop lag), summed over labels and
    servers."""
    out: dict[tuple[str, float], float] = {}
    for url in urls:
        with contextlib.suppress(httpx2.HTTPError):
            async with httpx2.AsyncClient(trust_env=False, timeout=10) as client:
                body = (await client.get(url + "/metrics")).text
            for name, le, value in _BUCKET.findall(body):
                key = (name, float(le))
                out[key] = out.get(key, 0.0) + float(value)
    return out


def quantiles(before: dict[tuple[str, float], float], after: dict[tuple[str, float], float]
              ) -> dict[str, str]:
    """Between two scrapes: the bucket bound under which 50% and 99% of each histogram's
    observations fell (ms), as "<=bound"."""
    out = {}
    for name, short in (("hollywood_gin_action_seconds", "commit"),
                        ("hollywood_gin_event_loop_lag_seconds", "loop_lag")):
        bounds = sorted(le for n, le in after if n == name)
        counts = [after[(name, le)] - before.get((name, le), 0.0) for le in bounds]
        if not counts or counts[-1] <= 0:
            continue
        for q in (0.5, 0.99):
            bound = next(le for le, c in zip(bounds, counts, strict=True)
                         if c >= q * counts[-1])
            out[f"{short}_p{int(q * 100)}_ms"] = "<=" + (
                "inf" if bound == float("inf") else f"{bound * 1000:g}")
    return out


async def measure(urls: list[str], tables: list[dict[str, Any]], seconds: float, warmup: float,
                  think: float, meter: CpuMeter, nice: int = 0, route: str = "seat"
                  ) -> tuple[Run, dict[str, float], float, dict[str, str]]:
    run = Run()
    stop = asyncio.Event()
    tasks = [asyncio.get_running_loop().create_task(
        play_table(urls, t, stop, think, run, route)) for t in tables]
    watcher = asyncio.get_running_loop().create_task(watch_loop(run, stop))
    await asyncio.sleep(warmup)
    run.measuring = True
    meter.start(nice)
    before = await scrape(urls)
    started = time.monotonic()
    await asyncio.sleep(seconds)
    run.measuring = False
    cpu = meter.stop()
    server = quantiles(before, await scrape(urls))
    elapsed = time.monotonic() - started
    stop.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    await watcher
    for r in results:
        if isinstance(r, BaseException):
            run.errors.append(type(r).__name__ + ": " + str(r)[:80])
    return run, cpu, elapsed, server


def one_run(args: argparse.Namespace, processes: int, count: int) -> dict[str, Any]:
    """Start the servers, create ``count`` tables, play them, stop; the report."""
    procs: list[subprocess.Popen[bytes]] = []
    urls = [args.url] if args.url else []
    try:
        if not args.url and args.units:  # N servers of one process each, own sessions
            for _ in range(processes):
                proc, url = start_server(args.db, 1, args.serve, nice=args.nice, session=True)
                procs.append(proc)
                urls.append(url)
        elif not args.url:
            proc, url = start_server(args.db, processes, args.serve)
            procs.append(proc)
            urls.append(url)
        tables = asyncio.run(setup(urls[0], urls[0], count))
        meter = CpuMeter([p.pid for p in procs], args.db)
        load_before = loadavg()
        runner = _runner()
        if args.nice:
            renice(meter.servers(), args.nice)
        run, cpu, elapsed, server = runner(measure(
            urls, tables, args.seconds, args.warmup, args.think, meter, args.nice, args.route))
        lost = 0
        if args.db:
            saved = _saved_counts(args.db, list(run.last_seq))
            lost = sum(1 for t, seq in run.last_seq.items() if saved.get(t, -1) < seq)
        lat = sorted(run.latencies)
        lags = sorted(run.lags)

        def pct(p: float, lat: list[float] = lat) -> float:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else -1.0

        return {
            "processes": processes, "units": args.units, "route": args.route, "tables": count,
            "think_s": args.think,
            "seconds": round(elapsed, 1), "actions_per_s": round(run.actions / elapsed, 1),
            "latency_ms": {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0)},
            "server": server,
            "generator_loop_lag_ms": {"p50": pct(0.5, lags), "p99": pct(0.99, lags),
                                      "max": pct(1.0, lags)},
            "errors": len(run.errors), "error_kinds": sorted(set(run.errors))[:5],
            "lost_actions": lost, "cpu_cores": cpu, "nice": args.nice,
            "db_connections": len(getattr(meter, "backends", [])),
            "load_before": load_before,
            "load_after": loadavg(),
        }
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def _runner() -> Any:
    try:
        import uvloop

        return uvloop.run
    except ImportError:
        return asyncio.run


def passes(report: dict[str, Any], p99: float) -> bool:
    return (report["latency_ms"]["p99"] < p99 and report["errors"] == 0
            and report["lost_actions"] == 0 and report["actions_per_s"] > 0)


def capacity(args: argparse.Namespace, counts: list[int]) -> None:
    """For each process count, the most tables that pass: up a ladder of ``--step`` while
    passing, then halve the step between the last pass and the first failure; the process
    counts take turns run by run."""
    state = {n: {"low": 0, "high": None, "next": args.start} for n in counts}
    while True:
        active = [n for n in counts if state[n]["high"] is None
                  or state[n]["high"] - state[n]["low"] > args.resolution]
        if not active:
            break
        for n in active:
            s = state[n]
            report = one_run(args, n, s["next"])
            ok = passes(report, args.p99)
            report["pass"] = ok
            print(json.dumps(report), flush=True)
            if ok:
                s["low"] = s["next"]
            else:
                s["high"] = s["next"]
            if s["high"] is None:
                s["next"] = s["low"] + args.step
            else:
                s["next"] = (s["low"] + s["high"]) // 2
    print(json.dumps({"capacity": {n: state[n]["low"] for n in counts},
                      "p99_ms": args.p99, "think_s": args.think}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=8)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time before each action, in seconds (0: flat out)")
    parser.add_argument("--db", default=None, help="store URL for the server (temp SQLite)")
    parser.add_argument("--url", default=None, help="use a running server instead")
    parser.add_argument("--processes", default="1",
                        help="server processes (serve --workers), or a list for --capacity")
    parser.add_argument("--capacity", action="store_true",
                        help="search the most tables under --p99 for each process count")
    parser.add_argument("--p99", type=float, default=100.0, help="ms (100)")
    parser.add_argument("--start", type=int, default=200)
    parser.add_argument("--step", type=int, default=200)
    parser.add_argument("--resolution", type=int, default=50)
    parser.add_argument("--units", action="store_true",
                        help="N servers of one process each, in sessions of their own (as "
                             "systemd units), instead of one serve --workers N")
    parser.add_argument("--route", choices=("seat", "table"), default="seat",
                        help="with --units, each seat to a server at random (seat), or both "
                             "seats of a table to the one its id picks (table: as the "
                             "proxies route by default)")
    parser.add_argument("--nice", type=int, default=0,
                        help="priority of the generator, the servers and their PostgreSQL "
                             "backends (negative needs root): for a machine others load")
    parser.add_argument("--serve", nargs=argparse.REMAINDER, default=[],
                        help="more options for serve (last)")
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    if args.nice:
        renice([os.getpid()], args.nice)
        # With the kernel's autogroups a nice value counts only inside a session: the
        # session's own (the generator's and the servers' it starts) weighs against the
        # other sessions.
        with contextlib.suppress(OSError):
            Path("/proc/self/autogroup").write_text(str(args.nice))
    # A stopped benchmark stops its servers (with --units they are in sessions of their
    # own, out of reach of a signal to this one's group): SIGTERM unwinds like Ctrl-C.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    # The generator holds every table's two seats: with the collector's default thresholds
    # its own full collections (100 to 200 ms) were counted as the servers' latency.  It
    # collects as rarely as the servers do.
    sys.path.insert(0, str(ROOT / "src"))
    from hollywood_gin.web.pauses import tune_collector

    tune_collector()
    with tempfile.TemporaryDirectory() as tmp:
        if args.db is None and args.url is None:
            args.db = f"sqlite:///{tmp}/bench.db"
        if args.capacity:
            capacity(args, counts)
        else:
            for n in counts:
                print(json.dumps(one_run(args, n, args.tables), indent=1), flush=True)


if __name__ == "__main__":
    main()
