"""The recipe of docs/deploy.md run behind Caddy, as shipped (deploy/Caddyfile with a
self-signed certificate instead of Let's Encrypt's, and no admin endpoint): two processes
started with the server unit's command on a fresh schema; through Caddy, over TLS:

- /readyz, /metrics kept private;
- routing by table: both seats of every friend table (and its join) on one process, the
  tables over both (each process's log and its seats_connected gauge);
- failover: the process serving a table is killed with SIGKILL mid-hand; the seats'
  sockets close, they reconnect through Caddy to the other process, both there, at the
  last accepted action, and play on, each move seen by the other.

(The return of a restarted unit, and the computer's lease passing on, are run behind
nginx: test_deploy_nginx.py.)
"""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path

import httpx2
import pytest
from hg_deploy import (
    Seat,
    caddy_env,
    caddy_site,
    diagnosis,
    free_port,
    friends_on_both,
    open_seats,
    running_units,
    stop,
    take_turns,
    tool,
    wait_http,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore:connect\\(\\) must be used as a context manager:DeprecationWarning")


def test_the_recipe_runs_behind_caddy_routing_by_table(tmp_path: Path) -> None:
    https, http = free_port(), free_port()
    origin = f"https://localhost:{https}"
    log = tmp_path / "caddy.log"
    with running_units(tmp_path, origin) as units:
        units.migrate()
        caddy: subprocess.Popen[bytes] | None = None
        seats: list[Seat] = []
        try:
            units.start()
            config = caddy_site(tmp_path, units.ports, https, http)
            with log.open("wb") as out:
                caddy = subprocess.Popen([tool("caddy"), "run", "--adapter", "caddyfile",
                                          "--config", str(config)], env=caddy_env(tmp_path),
                                         stdout=out, stderr=subprocess.STDOUT)
            base = f"https://localhost:{https}"
            ws_base = f"wss://localhost:{https}"
            tls = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
            wait_http(base + "/healthz", caddy, log, verify=tls)
            web = httpx2.Client(base_url=base, verify=tls, trust_env=False, timeout=10)
            assert web.get("/readyz").json()["ready"] is True
            assert web.get("/metrics").status_code == 404

            friends = friends_on_both(web, origin, units, least=4)
            seats = open_seats(ws_base, origin, tls,
                               [(f.table, token) for f in friends for token in f.tokens])
            home = {f.table: units.home(f.table, "ws_open") for f in friends}
            for f in friends:
                port = home[f.table]
                # two seats, opened again if a handshake stalled (open_quietly)
                assert units.events(port, "ws_open").count(f.table) >= 2
                assert f.table not in units.events(units.other(port), "ws_open")
                assert port == units.home(f.table, "seat_joined")
            assert set(home.values()) == set(units.ports)
            for port in units.ports:
                assert units.seats_connected(port) == 2 * list(home.values()).count(port)

            (ann, bob) = seats[:2]
            victim = home[ann.table]
            survivor = units.other(victim)
            seq = take_turns(ann, bob, 3, rid=1)
            units.kill(victim)
            for seat in seats:
                if home[seat.table] == victim:
                    seat.wait_closed()
            ann = Seat(ws_base, origin, tls, ann.table, ann.token)
            bob = Seat(ws_base, origin, tls, bob.table, bob.token)
            seats += [ann, bob]
            assert units.events(survivor, "ws_open").count(ann.table) == 2
            assert ann.state["seq"] == bob.state["seq"] == seq  # nothing lost, nothing added
            take_turns(ann, bob, 4, rid=10)
        except BaseException as exc:
            exc.add_note(diagnosis(tmp_path, units.ports, [log]))
            raise
        finally:
            for seat in seats:
                seat.close()
            if caddy is not None:
                stop(caddy, wait=10)
