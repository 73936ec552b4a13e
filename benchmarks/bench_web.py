"""Load on loopback: many bot-against-bot tables through the real WebSocket protocol.

Starts ``hollywood-gin serve`` without its per-address limits (or uses ``--url``: start
that one with ``--table-rate 0 --pending-sockets 0``), creates ``--tables`` friend tables
over HTTP, opens two seats on each, and plays them all at once for ``--seconds``: each
seat plays the greedy policy from its own state frames (knock when it may, else the
discard leaving the least deadwood), with an optional think time.  Reports actions per
second and the latency from sending an intent to receiving the state frame showing it
(which the server sends only after the action is committed).  Not a test.

    python benchmarks/bench_web.py --tables 200 --seconds 30
    python benchmarks/bench_web.py --db postgresql+psycopg://USER:PASS@127.0.0.1/DB
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parents[1]


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


class SeatConn:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}

    async def until(self, seq: int, hand_number: int = 0) -> None:
        while not (self.state and self.state["seq"] >= seq
                   and self.state["hand_number"] >= hand_number):
            frame = json.loads(await self.ws.recv())
            if frame["type"] == "state":
                self.state = frame
            elif frame["type"] == "error":
                raise RuntimeError(frame)


async def play_table(base: str, origin: str, table: dict[str, Any], deadline: float,
                     think: float, latencies: list[float], stats: dict[str, int]) -> None:
    ws_url = base.replace("http://", "ws://") + f"/ws/{table['table']}"
    seats = []
    for token in table["tokens"]:
        ws = await connect(ws_url, origin=Origin(origin), proxy=None, max_size=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seats.append(SeatConn(ws))
    try:
        for s in seats:
            await s.until(0)
        rng = random.Random(table["table"])
        while time.monotonic() < deadline:
            state = seats[0].state
            if state["finished"]:
                stats["matches"] += 1
                break
            if state["hand"]["phase"] == "over":
                number = state["hand_number"]
                for s in seats:
                    await s.ws.send('{"type":"next"}')
                for s in seats:
                    await s.until(state["seq"], number + 1)
                stats["hands"] += 1
                continue
            actor = seats[state["hand"]["to_act"]]
            await actor.until(state["seq"])
            if think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            action = choose(actor.state)
            sent = time.perf_counter()
            await actor.ws.send(json.dumps({"type": "act", "action": action,
                                            "seq": state["seq"]}))
            await actor.until(state["seq"] + 1)
            latencies.append(time.perf_counter() - sent)
            stats["actions"] += 1
            other = seats[1 - state["hand"]["to_act"]]
            await other.until(state["seq"] + 1)
    finally:
        for s in seats:
            await s.ws.close()


async def setup(base: str, origin: str, count: int) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=30,
                                 headers={"origin": origin}) as client:
        async def one(i: int) -> dict[str, Any]:
            made = (await client.post("/api/tables", json={"opponent": "friend",
                                                           "name": f"A{i}"})).json()
            joined = (await client.post(f"/api/tables/{made['table']}/join",
                                        json={"invite": made["invite"], "name": f"B{i}"})).json()
            return {"table": made["table"], "tokens": [made["token"], joined["token"]]}
        out = []
        for start in range(0, count, 20):
            out += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 20))))
        return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def main_async(args: argparse.Namespace) -> None:
    base = args.url.rstrip("/")
    origin = base
    t0 = time.monotonic()
    tables = await setup(base, origin, args.tables)
    print(f"created {len(tables)} tables in {time.monotonic() - t0:.1f} s", flush=True)
    latencies: list[float] = []
    stats = {"actions": 0, "hands": 0, "matches": 0}
    start = time.monotonic()
    deadline = start + args.seconds
    results = await asyncio.gather(*(play_table(base, origin, t, deadline, args.think,
                                                latencies, stats) for t in tables),
                                   return_exceptions=True)
    elapsed = time.monotonic() - start
    failures = [r for r in results if isinstance(r, BaseException)]
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    report = {
        "tables": len(tables), "seconds": round(elapsed, 1), "think_s": args.think,
        "actions": stats["actions"], "hands_finished": stats["hands"],
        "actions_per_s": round(stats["actions"] / elapsed, 1),
        "latency_ms": {"p50": round(pct(0.50), 1), "p90": round(pct(0.90), 1),
                       "p99": round(pct(0.99), 1), "max": round(pct(1.0), 1),
                       "mean": round(statistics.fmean(lat) * 1000, 1) if lat else None},
        "failed_tables": len(failures),
    }
    print(json.dumps(report, indent=1))
    for f in failures[:3]:
        print("failure:", repr(f), file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean think time before each action, in seconds (0: flat out)")
    parser.add_argument("--db", default=None, help="store URL for the server (temp SQLite)")
    parser.add_argument("--url", default=None, help="use a running server instead")
    args = parser.parse_args()
    proc = None
    tmp = tempfile.TemporaryDirectory()
    if args.url is None:
        port = free_port()
        db = args.db or f"sqlite:///{tmp.name}/bench.db"
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        proc = subprocess.Popen([sys.executable, "-m", "hollywood_gin", "serve", "--port",
                                 str(port), "--db", db, "--bot-delay", "0", "--no-access-log",
                                 "--log-level", "warning", "--table-rate", "0",
                                 "--pending-sockets", "0"], env=env)
        args.url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(args.url + "/api/health", trust_env=False, timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
    try:
        asyncio.run(main_async(args))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        tmp.cleanup()


if __name__ == "__main__":
    main()
