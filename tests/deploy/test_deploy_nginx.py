"""The recipe of docs/deploy.md run behind nginx, as shipped: a fresh PostgreSQL schema
upgraded by the migration unit's command, two processes started with the server unit's
command, nginx with deploy/nginx.conf and a self-signed certificate in front. Through it,
over TLS:

- the pages, /readyz, /metrics kept private, plain HTTP redirected;
- routing by table: both seats of every table (and a friend's join) on one process,
  the tables over both (read from each process's log and its seats_connected gauge);
- failover: the process serving a friend table and a computer table is killed with
  SIGKILL mid-hand; the seats' sockets close, they reconnect through nginx to the other
  process, which replays the tables from the database: both friends there, at the last
  accepted action, playing on, each move seen by the other; the computer moves again
  once the dead process's lease has run out; a table on the other process never noticed;
- the dead unit restarted (as systemd does): nginx sends the table's new connections to
  it again, and with its seats now on two processes the game goes on through PostgreSQL.
"""

from __future__ import annotations

import signal
import ssl
import subprocess
import time
from pathlib import Path

import httpx2
import pytest
from hg_deploy import (
    WAIT,
    Seat,
    Units,
    diagnosis,
    free_port,
    friends_on_both,
    nginx_site,
    open_seats,
    running_units,
    stop,
    take_turns,
    tool,
    wait_http,
)

# The WebSockets are kept across steps, as in the web tests.
pytestmark = pytest.mark.filterwarnings(
    "ignore:connect\\(\\) must be used as a context manager:DeprecationWarning")

COMPUTER_TABLES = 4


def test_the_recipe_runs_behind_nginx_routing_by_table(tmp_path: Path) -> None:
    https, http = free_port(), free_port()
    origin = f"https://localhost:{https}"
    with running_units(tmp_path, origin) as units:
        assert "created the tables at" in units.migrate()
        nginx: subprocess.Popen[bytes] | None = None
        seats: list[Seat] = []
        try:
            units.start()
            main = nginx_site(tmp_path, units.ports, https, http)
            nginx = subprocess.Popen([tool("nginx"), "-p", str(tmp_path), "-e",
                                      str(tmp_path / "error.log"), "-c", str(main)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            base = f"https://localhost:{https}"
            tls = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
            wait_http(base + "/healthz", nginx, tmp_path / "error.log", verify=tls)
            web = httpx2.Client(base_url=base, verify=tls, trust_env=False, timeout=10)
            seats = _play(units, web, origin, tls, f"wss://localhost:{https}", http)
        except BaseException as exc:
            exc.add_note(diagnosis(tmp_path, units.ports,
                                   [tmp_path / "access.log", tmp_path / "error.log"]))
            raise
        finally:
            for seat in seats:
                seat.close()
            if nginx is not None:
                stop(nginx, signal.SIGQUIT, wait=10)


def _play(units: Units, web: httpx2.Client, origin: str, tls: ssl.SSLContext,
          ws_base: str, http: int) -> list[Seat]:
    """The whole run through nginx; the seats still open at the end (to close)."""
    # The site, through the proxy and TLS.
    page = web.get("/")
    assert page.status_code == 200 and "content-security-policy" in page.headers
    assert page.headers["strict-transport-security"].startswith("max-age=")
    assert web.get("/readyz").json()["ready"] is True
    assert web.get("/metrics").status_code == 404  # scraped per process, not public
    plain = httpx2.get(f"http://127.0.0.1:{http}/t/x", trust_env=False)
    assert plain.status_code == 301 and plain.headers["location"].startswith("https://")

    computer = []
    for _ in range(COMPUTER_TABLES):
        made = web.post("/api/tables", json={"opponent": "computer", "level": 1},
                        headers={"origin": origin})
        assert made.status_code == 201, made.text
        computer.append(made.json())
    friends = friends_on_both(web, origin, units, least=8)

    # The handshakes before the hellos, the computers' tables last (hg_deploy.open_seats).
    seats = open_seats(ws_base, origin, tls, [(f.table, token) for f in friends
                                              for token in f.tokens]
                       + [(t["table"], t["token"]) for t in computer])
    by_table: dict[str, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table, []).append(seat)

    # Routing by table: every seat of a table on one process (the one its join went to),
    # and the tables over both processes.
    home = {table: units.home(table, "ws_open") for table in by_table}
    for table, port in home.items():
        other = units.other(port)
        # At least one open a seat: a stalled handshake opens its group again
        # (hg_deploy.open_quietly), on the same process.
        assert units.events(port, "ws_open").count(table) >= len(by_table[table])
        assert table not in units.events(other, "ws_open")
    for f in friends:
        assert home[f.table] == units.home(f.table, "seat_joined")
    assert set(home.values()) == set(units.ports)
    for port in units.ports:
        assert units.seats_connected(port) == sum(
            len(by_table[table]) for table, p in home.items() if p == port)

    # A friend table and a computer table on one process, mid-hand.
    victim = home[computer[0]["table"]]
    survivor = units.other(victim)
    (ann, bob) = by_table[next(f.table for f in friends if home[f.table] == victim)]
    (cat, dan) = by_table[next(f.table for f in friends if home[f.table] == survivor)]
    solo = by_table[computer[0]["table"]][0]
    seq = take_turns(ann, bob, 3, rid=1)
    for rid in range(1, 4):
        assert solo.play(rid)["type"] == "ack"
    solo_seq = solo.state["seq"]

    # It dies. Its seats' sockets close (a page reconnects on that); the others' stay.
    units.kill(victim)
    dead = [seat for seat in seats if home[seat.table] == victim]
    for seat in dead:
        seat.wait_closed()
    take_turns(cat, dan, 2, rid=1)  # a table on the other process never noticed

    # The friends reconnect through nginx: both land on the survivor, at the last
    # accepted action, and play on; the computer's table too.
    before = units.events(survivor, "ws_open").count(ann.table)
    ann = Seat(ws_base, origin, tls, ann.table, ann.token)
    bob = Seat(ws_base, origin, tls, bob.table, bob.token)
    solo = Seat(ws_base, origin, tls, solo.table, solo.token)
    assert units.events(survivor, "ws_open").count(ann.table) == before + 2
    assert ann.state["seq"] == bob.state["seq"] == seq  # nothing lost, nothing added
    seq = take_turns(ann, bob, 4, rid=10)
    assert solo.state["seq"] >= solo_seq
    assert solo.play(10)["type"] == "ack"  # the computer's move came first, if it was due
    assert solo.table in units.events(survivor, "ws_open")

    # The unit comes back (systemd restarts it). Once nginx tries it again (after
    # fail_timeout) a new connection of the table's goes there: Ann reconnects until she
    # lands on it, Bob stays on the survivor, and the game goes on across the two.
    units.start(victim)
    deadline = time.monotonic() + WAIT
    while ann.table not in units.events(victim, "ws_open"):
        assert time.monotonic() < deadline, "nginx never sent the table back to its unit"
        ann.close()
        time.sleep(0.5)
        ann = Seat(ws_base, origin, tls, ann.table, ann.token)
    assert ann.state["seq"] == seq
    take_turns(ann, bob, 2, rid=20)
    return [ann, bob, cat, dan, solo]
