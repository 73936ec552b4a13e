"""The arena on a real two-node Ray cluster: ``ray start --head`` and a second ``ray start
--address`` on this machine, each node its own raylet, temp dir and loopback address
(127.0.0.2 and 127.0.0.3, so nothing leaves the loopback), one CPU each. The arena run
through it equals the local run, and its chunks ran on both nodes.

The nodes are started with ``--block`` in their own sessions and stopped by their process
ids at the end, even when the test fails (SIGTERM, which stops every process the node
started; then SIGKILL of the session's group, if anything is left).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import hollywood_gin
from hollywood_gin import arena

HEAD_IP, WORKER_IP = "127.0.0.2", "127.0.0.3"
SRC = str(Path(hollywood_gin.__file__).resolve().parents[1])


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@dataclass
class Node:
    proc: subprocess.Popen[bytes]
    log: Path
    temp_dir: Path

    def wait_started(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            if "Ray runtime started" in self.log.read_text(errors="replace"):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.3)
        raise AssertionError(f"the Ray node did not start:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # `ray start --block` stops its processes
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(30)
        with contextlib.suppress(ProcessLookupError):  # anything of the node's session left
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.wait(10)


@dataclass
class Cluster:
    address: str
    env: dict[str, str]


def _start(args: list[str], env: dict[str, str], root: Path, name: str) -> Node:
    temp_dir = root / name
    temp_dir.mkdir()
    log = root / f"{name}.log"
    cmd = [sys.executable, "-m", "ray.scripts.scripts", "start", "--block", "--num-cpus", "1",
           "--temp-dir", str(temp_dir), "--disable-usage-stats",
           "--dashboard-agent-listen-port", "0", *args]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    return Node(proc, log, temp_dir)


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[Cluster]:
    # Short paths: Ray's socket paths live under the temp dir and have a length limit.
    root = Path(tempfile.mkdtemp(prefix="hg-ray-", dir="/tmp"))
    port = _free_port(HEAD_IP)
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token",
           "RAY_AUTH_TOKEN": secrets.token_hex(32),
           "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH")) if p)}
    env.pop("RAY_ADDRESS", None)
    nodes: list[Node] = []
    try:
        deadline = time.monotonic() + 120
        nodes.append(_start(["--head", "--port", str(port), "--node-ip-address", HEAD_IP,
                             "--include-dashboard", "false"],
                            env, root, "head"))
        nodes[0].wait_started(deadline)
        nodes.append(_start(["--address", f"{HEAD_IP}:{port}", "--node-ip-address", WORKER_IP],
                            env, root, "worker"))
        nodes[1].wait_started(deadline)
        yield Cluster(f"{HEAD_IP}:{port}", env)
    finally:
        for node in reversed(nodes):
            node.stop()
        shutil.rmtree(root, ignore_errors=True)


def _comparable(data: dict[str, object]) -> dict[str, object]:
    out = {k: v for k, v in data.items() if k not in ("seconds", "jobs", "ray_nodes")}
    for bot in out["bots"]:  # type: ignore[attr-defined]
        for key in [k for k in bot if k.startswith("decision_ms")]:
            del bot[key]
    return out


DRIVER = """
import json, sys, time
import ray
from hollywood_gin.cli import main

ray.init(address=sys.argv[1], log_to_driver=False)
alive = sorted((n["NodeManagerAddress"], n["NodeID"]) for n in ray.nodes() if n["Alive"])

@ray.remote
def where(_):
    time.sleep(0.2)
    return ray.get_runtime_context().get_node_id()

# A Ray worker process serves one job, and starting one takes seconds on a busy machine:
# short chunks would all be done by the first node's worker before the second node's has
# started. So first run tasks on both nodes in this job, then the arena command in it.
deadline = time.monotonic() + 60
seen = set()
while len(seen) < len(alive) and time.monotonic() < deadline:
    seen |= set(ray.get([where.options(scheduling_strategy="SPREAD").remote(i)
                         for i in range(4)]))
# The head schedules by its view of the other node's free CPUs, which comes in reports
# that a loaded machine delays: until it sees both CPUs free again, SPREAD would put every
# chunk on the head (a whole suite's run once did).
while ray.available_resources().get("CPU", 0) < len(alive) and time.monotonic() < deadline:
    time.sleep(0.1)
free = ray.available_resources().get("CPU", 0)
print(json.dumps({"alive": alive, "seen": sorted(seen), "free": free}))
sys.exit(main(sys.argv[2:]))
"""


def test_the_arena_on_two_ray_nodes_equals_the_local_run(two_nodes: Cluster) -> None:
    # 24 pairs in chunks of 8: three tasks, one CPU a node, so both nodes take some.
    args = ["arena", "random", "basic", "--hands", "48", "--seed", "11", "--ray",
            two_nodes.address, "--json", "--quiet"]
    run = subprocess.run([sys.executable, "-c", DRIVER, two_nodes.address, *args],
                         env=two_nodes.env, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    first, report = run.stdout.strip().splitlines()[-2:]
    cluster = json.loads(first)
    assert [ip for ip, _ in cluster["alive"]] == [HEAD_IP, WORKER_IP]
    node_ids = {node_id for _, node_id in cluster["alive"]}
    assert set(cluster["seen"]) == node_ids

    remote = json.loads(report)
    local = arena.run_arena("random", "basic", hands=48, seed=11, jobs=1).to_dict()
    assert _comparable(remote) == _comparable(local)
    assert sum(remote["ray_nodes"].values()) == 3
    assert set(remote["ray_nodes"]) == node_ids, (remote["ray_nodes"], cluster["free"])
