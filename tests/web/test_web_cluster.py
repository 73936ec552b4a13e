"""Many servers, one game (issue 15): three server processes on one PostgreSQL database.

Any process serves any table: the seats of a table on different processes see each
other's moves (LISTEN/NOTIFY), readiness, rematch and abandon; the same action sent
through two processes at once lands exactly once (the other is ``stale``); the computer
is played by the holder of the table's bot lease, once per turn, and when that process
is SIGKILLed another takes over.  Who is at a table is told across them too (each seat
sees the other connected, wherever its socket is), and a change of the match's row whose
announcement was lost is caught up by the sweep.  The three servers are shared by the
module's tests (they run the tests' bot factory, a one-second computer delay,
three-second leases and a sweep every 1.5 s, so another process's word that it holds a
seat lasts 4.5 s); only the kill tests restart one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from hg_web_support import (
    SHORT_MATCH,
    Seat,
    Server,
    choose,
    pg_url,
    step_friend,
    wait_seq,
)

from hollywood_gin.actions import parse_action
from hollywood_gin.store import Store

LEASE = 3.0  # seconds: a dead holder's lease expires soon
SWEEP = 1.5  # seconds between sweeps: a lost announcement, a dead process's seats


@pytest.fixture(scope="module")
def cluster() -> Iterator[list[Server]]:
    servers = [Server(pg_url(), cli=False, bot_delay=1.0,
                      args=("--lease-seconds", str(LEASE), "--sweep-seconds", str(SWEEP)))
               for _ in range(3)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture(scope="module")
def store() -> Iterator[Store]:
    s = Store(pg_url())
    yield s
    s.close()


def _friends(cluster: list[Server], host: int, guest: int, *, joined_on: int | None = None,
             **rules: Any) -> tuple[Seat, Seat, dict[str, Any]]:
    """A friend table made on process ``host``, joined through ``joined_on`` (default the
    guest's), with the host's seat on ``host`` and the guest's on ``guest``."""
    made = cluster[host].create(opponent="friend", name="Ann", **rules)
    a = Seat(cluster[host], made["table"], made["token"])
    joined = cluster[guest if joined_on is None else joined_on].join(
        made["table"], made["invite"], "Bob")
    # The join was saved by another process: the host's process hears of it.
    a.wait(lambda f: f["type"] == "state" and f["joined"] == [True, True]
           and f["names"] == ["Ann", "Bob"])
    b = Seat(cluster[guest], made["table"], joined["token"])
    return a, b, {**made, "guest": joined["token"]}


def _log(store: Store, table: str) -> list[tuple[int, int, str]]:
    """The saved log (seq, player, action), checked to replay through the engine."""
    stored = store.load(table)
    store.open_match(table)  # replays, or raises
    seqs = [a.seq for a in stored.actions]
    assert seqs == list(range(len(seqs))), seqs  # no gap, no duplicate
    return [(a.seq, a.player, a.action) for a in stored.actions]


def test_friends_on_two_processes_play_a_hand_and_deal_the_next(cluster: list[Server]) -> None:
    a, b, _ = _friends(cluster, 0, 1, joined_on=2)
    assert a.state is not None
    hand = a.state["hand_number"]
    moves = 0
    while (outcome := step_friend(a, b)) == "action":  # each waits for both seats' frames
        moves += 1
    assert outcome == "deal" and moves > 0
    assert a.state is not None and b.state is not None
    assert a.state["hand_number"] == b.state["hand_number"] == hand + 1
    assert a.state["seq"] == b.state["seq"]
    assert a.state["sheet"] == b.state["sheet"]
    a.close()
    b.close()


def test_readiness_rematch_and_abandon_cross_processes(cluster: list[Server]) -> None:
    a, b, made = _friends(cluster, 0, 1, rules=SHORT_MATCH)
    while step_friend(a, b) == "action":  # a one-point match: the first won hand ends it
        pass
    assert a.state is not None and b.state is not None
    if not a.state["finished"]:  # a dead hand: the next deal, until someone wins one
        while step_friend(a, b) != "finished":
            pass
    assert a.state["finished"] and b.state["finished"]

    # Each asks for the rematch on its own process: both land at the same new table.
    a.send({"type": "rematch"})
    b.wait(lambda f: f["type"] == "state" and f["rematch"]["accepted"] == [True, False])
    b.send({"type": "rematch"})
    to_b = b.wait(lambda f: f["type"] == "seat")
    a.wait(lambda f: f["type"] == "state" and f["rematch"]["table"] == to_b["table"])
    a.send({"type": "rematch"})
    to_a = a.wait(lambda f: f["type"] == "seat")
    assert to_a["table"] == to_b["table"] and (to_a["seat"], to_b["seat"]) == (0, 1)

    # At the rematch, seats on processes 0 and 1; Bob abandons through process 2.
    a2 = Seat(cluster[0], to_a["table"], to_a["token"])
    b2 = Seat(cluster[1], to_b["table"], to_b["token"])
    answer = cluster[2].post(f"/api/tables/{to_b['table']}/abandon", {"token": to_b["token"]})
    assert answer.status_code == 200, answer.text
    for seat in (a2, b2):
        seat.wait(lambda f: f["type"] == "state" and f["abandoned"] == 1)
    refused = a2.act(choose(a2.state) or "pass")  # type: ignore[arg-type]
    assert refused["type"] == "error" and refused["code"] == "abandoned"
    for seat in (a, b, a2, b2):
        seat.close()
    assert made["table"] != to_a["table"]


def test_the_same_action_through_two_processes_lands_once(cluster: list[Server],
                                                          store: Store) -> None:
    """Ann's seat is open on processes 0 and 1 at once (two tabs behind a proxy); each
    round she sends the same action through both at the same moment."""
    a, b, made = _friends(cluster, 0, 2)
    a_again = Seat(cluster[1], made["table"], made["token"])
    rounds = 0
    while rounds < 24:
        assert a.state is not None
        if a.state["finished"] or a.state["hand"]["phase"] == "over":
            step_friend(a, b)
            wait_seq([a_again], a.state["seq"], a.state["hand_number"])
            continue
        if a.state["hand"]["to_act"] != 0:
            step_friend(a, b)
            wait_seq([a_again], a.state["seq"])
            continue
        seq = a.state["seq"]
        wait_seq([a_again], seq)
        action = choose(a.state)
        assert action is not None
        replies = _at_once([a, a_again], {"type": "act", "action": action, "seq": seq,
                                           "rid": 1000 + rounds})
        kinds = sorted(r["type"] if r["type"] == "ack" else r["code"] for r in replies)
        assert kinds == ["ack", "stale"], replies
        wait_seq([a, a_again, b], seq + 1)
        for seat in (a, a_again, b):  # every copy of the table caught up to the same point
            assert seat.state is not None and seat.state["seq"] == seq + 1
            assert seat.state["hand"]["history"][-1][1] == action
        rounds += 1
    log = _log(store, made["table"])
    assert len(log) == a.state["seq"]  # type: ignore[index]
    for seat in (a, a_again, b):
        seat.close()


def test_a_lost_announcement_is_caught_up_from_the_log(cluster: list[Server],
                                                      store: Store) -> None:
    """A process that commits and dies before it announces (the group commit announces
    after the commit): the seats on the other processes still see the move, from the
    periodic read of the live tables' saved action counts (follow.SWEEP_SECONDS)."""
    a, b, made = _friends(cluster, 0, 1)
    assert a.state is not None
    if a.state["hand"]["phase"] == "over":
        step_friend(a, b)
    state = a.state
    assert state is not None
    seq, to_act = state["seq"], state["hand"]["to_act"]
    mover = a if to_act == 0 else b
    wait_seq([mover], seq)
    action = choose(mover.state)  # type: ignore[arg-type]
    assert action is not None
    quiet = Store(pg_url())  # no ``announce``: it commits without a word
    try:
        assert quiet.announce is None
        quiet.open_match(made["table"]).act(parse_action(action), to_act)
    finally:
        quiet.close()
    for seat in (a, b):  # neither process was told; both catch up within a sweep or two
        seat.wait(lambda f: f["type"] == "state" and f["seq"] == seq + 1, timeout=30)
        assert seat.state is not None and seat.state["hand"]["history"][-1][1] == action
    assert len(_log(store, made["table"])) == seq + 1
    a.close()
    b.close()


def _sees(seat: Seat, connected: list[bool], timeout: float = 15) -> dict[str, Any]:
    """The seat's state once it shows ``connected`` (the one it has, or one to come)."""
    if seat.state is not None and seat.state["connected"] == connected:
        return seat.state
    return seat.wait(lambda f: f["type"] == "state" and f["connected"] == connected, timeout)


def _swept(server: Server) -> float:
    """How many times the server found a live table behind its saved log or row."""
    body = httpx2.get(server.base + "/metrics", timeout=10, trust_env=False).text
    found = re.search(r'^hollywood_gin_following_total\{what="swept"\} (\S+)$', body, re.M)
    return float(found.group(1)) if found else 0.0


def test_friends_on_two_processes_see_each_other_at_the_table(cluster: list[Server]) -> None:
    """Ann's socket is on process 0, Bob's on process 1: each page shows the other at the
    table (not "has left the table"), for as long as he is (each process says it again at
    every sweep); once Bob closes his, Ann's page shows him gone within seconds."""
    a, b, _ = _friends(cluster, 0, 1)
    _sees(a, [True, True])
    _sees(b, [True, True])
    swept = [_swept(server) for server in cluster[:2]]
    time.sleep(2 * 3 * SWEEP)  # twice what one word lasts: it was said again meanwhile
    for seat in (a, b):
        state = seat.request({"type": "sync"})
        assert state["type"] == "state" and state["connected"] == [True, True], state
    # and a table whose row is as it was read is not read again at each sweep
    assert [_swept(server) for server in cluster[:2]] == swept
    b.close()
    _sees(a, [True, False])
    # Back on a third process: seen at once (its process says so when his socket attaches).
    b = Seat(cluster[2], a.table, b.token)
    _sees(a, [True, True])
    _sees(b, [True, True])  # and his process asked the others who is at the table it loaded
    a.close()
    b.close()


def test_a_killed_processs_seat_shows_gone_once_its_word_expires(cluster: list[Server]) -> None:
    """Bob's process is SIGKILLed (it says nothing more): Ann's page, on another process,
    shows Bob gone once what his process last said has expired (three sweeps)."""
    a, b, _ = _friends(cluster, 1, 2)
    _sees(a, [True, True])
    cluster[2].kill()
    try:
        _sees(a, [True, False], timeout=30)
    finally:
        with contextlib.suppress(Exception):
            b.close()
        cluster[2].start()  # the module's other tests keep three servers
    a.close()


def test_a_lost_announcement_of_a_join_or_an_abandon_is_caught_up(cluster: list[Server],
                                                                  store: Store) -> None:
    """Changes of the match's row add no action: the sweep compares the saved row itself
    (meta, seats taken), so one whose announcement was lost (a publish that failed, a
    process that died after its commit) still reaches the other processes."""
    made = cluster[0].create(opponent="friend", name="Ann")
    a = Seat(cluster[0], made["table"], made["token"])
    assert a.state is not None and a.state["joined"] == [True, False]
    quiet = Store(pg_url())  # no ``announce``: it commits without a word
    try:
        token = quiet.add_seat(made["table"], 1, "Bob")  # Bob joins; nobody is told
    finally:
        quiet.close()
    a.wait(lambda f: f["type"] == "state" and f["joined"] == [True, True]
           and f["names"] == ["Ann", "Bob"], timeout=30)
    b = Seat(cluster[1], made["table"], token)
    assert step_friend(a, b) == "action"  # Ann's process no longer answers `waiting`
    quiet = Store(pg_url())
    try:  # Bob abandons, saved by a process whose announcement is lost
        quiet.update_meta(made["table"], lambda meta: meta.setdefault("abandoned_by", 1),
                          status="abandoned")
    finally:
        quiet.close()
    for seat in (a, b):
        seat.wait(lambda f: f["type"] == "state" and f["abandoned"] == 1, timeout=30)
    assert store.load(made["table"]).status == "abandoned"
    a.close()
    b.close()


def _at_once(seats: list[Seat], message: dict[str, Any]) -> list[dict[str, Any]]:
    """Send ``message`` through every seat at the same moment (a thread each); the replies."""
    start = threading.Barrier(len(seats))
    replies: list[dict[str, Any]] = []

    def send(seat: Seat) -> None:
        start.wait()
        seat.send(message)
        replies.append(seat.wait(lambda f: f.get("rid") == message["rid"]))

    threads = [threading.Thread(target=send, args=(seat,)) for seat in seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return replies


def _play_until_computer_turn(me: Seat) -> None:
    """Play our moves until the computer is to act (its turn starts with our discard)."""
    for _ in range(400):
        state = me.state
        assert state is not None
        if state["hand"]["phase"] == "over":
            me.send({"type": "next"})
            wait_seq([me], state["seq"], state["hand_number"] + 1)
        elif state["hand"]["to_act"] == 0:
            ack = me.act(choose(state) or "pass")
            assert ack["type"] == "ack", ack
            wait_seq([me], ack["seq"])
            assert me.state is not None
            if me.state["hand"]["to_act"] == 1 and me.state["hand"]["phase"] != "over":
                return
        else:
            me.wait(lambda f: f["type"] == "state")
    raise AssertionError("the computer never got a turn")


def _computer_moved(me: Seat, after: int) -> dict[str, Any]:
    """Wait until the computer has taken its turn after ``after`` (our turn again or the
    hand over)."""
    return me.wait(lambda f: f["type"] == "state" and f["seq"] > after and (
        f["hand"]["to_act"] == 0 or f["hand"]["phase"] == "over"), timeout=60)


def test_the_computer_seen_from_two_processes_moves_once_a_turn(cluster: list[Server],
                                                                store: Store) -> None:
    made = cluster[1].create(opponent="computer", level=1, name="Ann")
    here = Seat(cluster[1], made["table"], made["token"])
    there = Seat(cluster[2], made["table"], made["token"])  # a second tab, another process
    for _ in range(3):
        _play_until_computer_turn(here)
        assert here.state is not None
        seq = here.state["seq"]
        moved = _computer_moved(here, seq)
        wait_seq([there], moved["seq"])
        assert there.state is not None and there.state["hand"] == moved["hand"]
    holder = store.lease_of(made["table"])
    assert holder is not None and holder[1] > 0  # one process holds it, and renews it
    log = _log(store, made["table"])
    assert len(log) == here.state["seq"]  # type: ignore[index]
    here.close()
    there.close()


def test_the_computer_plays_on_when_its_lease_holder_is_killed(cluster: list[Server],
                                                               store: Store) -> None:
    made = cluster[0].create(opponent="computer", level=1, name="Ann")
    me = Seat(cluster[0], made["table"], made["token"])
    _play_until_computer_turn(me)  # the computer's first turn: process 0 takes the lease
    assert me.state is not None
    _computer_moved(me, me.state["seq"])
    lease = store.lease_of(made["table"])
    assert lease is not None
    _play_until_computer_turn(me)
    assert me.state is not None
    seq = me.state["seq"]  # the computer is to act, after its one-second pause
    cluster[0].kill()  # SIGKILL, holding the lease, mid-hand
    try:
        assert store.lease_of(made["table"])[0] == lease[0]  # type: ignore[index]
        # The page reconnects (through the proxy) to another process, which replays the
        # table from the log and, once the dead holder's lease has expired, plays on.
        me = Seat(cluster[1], made["table"], made["token"])
        moved = _computer_moved(me, seq)
        assert moved["seq"] > seq
        log = _log(store, made["table"])
        mine = [entry for entry in log if entry[0] >= seq]
        assert mine and all(player == 1 for _, player, _ in mine)  # its turn, taken once
        assert store.lease_of(made["table"])[0] != lease[0]  # type: ignore[index]
        # And it goes on: our move, its answer.
        _play_until_computer_turn(me)
        assert me.state is not None
        _computer_moved(me, me.state["seq"])
        _log(store, made["table"])
    finally:
        cluster[0].start()  # the module's other tests keep three servers
    me.close()


def _play_moves(host: Any, guest: Any, moves: int) -> None:
    """Both pages play their seats' moves, each showing on the other page, until ``moves``
    moves are made or the hand is over."""
    from test_web_browser import _move

    seen = []
    turn = 0
    for _ in range(600):
        if host.locator(".felt").get_attribute("data-phase") == "over" or turn == moves:
            break
        for page, other in ((host, guest), (guest, host)):
            if turn == moves or page.locator(".felt").get_attribute("data-phase") == "over":
                continue
            if _move(page, turn):
                turn += 1
                seq = page.locator(".felt").get_attribute("data-seq")
                # The move shows on the other page, served by another process.
                other.wait_for_function(
                    "s => Number(document.querySelector('.felt').dataset.seq) >= Number(s)",
                    arg=seq, timeout=15_000)
                seen.append(seq)
    else:
        pytest.fail(f"only {turn} of {moves} moves were made")
    assert turn > 0 and len(seen) == turn


def _invite_and_join(host: Any, guest: Any, host_base: str, guest_base: str) -> str:
    """Ann opens a friend table at ``host_base``, Bob follows the invite at ``guest_base``;
    the table's id."""
    host.goto(host_base + "/")
    host.fill("input[name=name]", "Ann")
    host.locator("button", has_text="Invite a friend").click()
    link = host.locator("input.invite-link")
    link.wait_for()
    invite = link.input_value()
    assert invite.startswith(host_base)
    guest.goto(guest_base + invite[len(host_base):])
    guest.fill("input", "Bob")
    guest.locator("button", has_text="Join the table").click()
    guest.wait_for_selector(".hand .card")
    host.wait_for_selector(".overlay.hidden", state="attached")
    assert host.locator(".opp .who").inner_text() == "Bob"
    found = re.search(r"/join/([0-9a-f]{32})", invite)
    assert found is not None, invite
    return found.group(1)


def test_two_browsers_on_two_processes_see_each_others_moves(browser: Any,
                                                          cluster: list[Server]) -> None:
    """Ann's page is served by process 0, Bob's by process 1: every move of one appears on
    the other's page (a dozen moves: a whole hand and the next deal are played through two
    browsers in test_web_browser, and across processes by the protocol above)."""
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda e: errors.append(str(e)))
    _invite_and_join(host, guest, cluster[0].base, cluster[1].base)  # Bob's goes to 1
    _play_moves(host, guest, 12)
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def _live_sockets(log: Any, table: str) -> dict[int, int]:
    """The WebSockets open to ``table`` per worker pid, from a server's JSON log (read
    with pread: the server writes through the same file offset)."""
    size = os.fstat(log.fileno()).st_size
    out: dict[int, int] = {}
    for line in os.pread(log.fileno(), size, 0).decode(errors="replace").splitlines():
        if not line.startswith("{"):
            continue
        entry = json.loads(line)
        if entry.get("table") == table and entry["event"] in ("ws_open", "ws_closed"):
            out[entry["pid"]] = out.get(entry["pid"], 0) + (
                1 if entry["event"] == "ws_open" else -1)
    return {pid: n for pid, n in out.items() if n > 0}


def test_two_browsers_behind_one_address_play_on_different_workers(browser: Any) -> None:
    """``serve --workers 3``: three processes behind one address, as players meet them.
    Both pages go to the same address; the kernel hands each WebSocket to a worker (Bob's
    page is reloaded until his lands on another worker than Ann's), and the hand is played
    across the two, each move on the other page (a dozen moves: the whole hand and the next
    deal across processes are played in the test above)."""
    server = Server(pg_url(), args=("--workers", "3", "--log-format", "json",
                                     "--log-level", "info"))
    server.start()
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        errors: list[str] = []
        for page in (host, guest):
            page.on("pageerror", lambda e: errors.append(str(e)))
        table = _invite_and_join(host, guest, server.base, server.base)
        for _ in range(20):
            live = _live_sockets(server.log, table)
            if len(live) == 2:
                break
            guest.reload()
            guest.wait_for_selector(".hand .card")
            host.wait_for_selector(".overlay.hidden", state="attached")
        assert len(live) == 2, live  # the two seats on two of the three workers
        _play_moves(host, guest, 12)
        assert _live_sockets(server.log, table) == live  # nobody moved meanwhile
        assert not errors, errors
    finally:
        host_ctx.close()
        guest_ctx.close()
        server.stop()
