"""The security items of issue 5, each a test, on SQLite and on PostgreSQL.

- No frame to a seat carries the opponent's hidden cards, the stock or the seed
  (every frame of whole recorded matches is scanned against the replayed truth).
- Tokens: none, another seat's, another table's, garbage: refused.
- Out of turn, illegal, malformed, oversized: one clear error frame, nothing changed;
  a fuzz of thousands of random and mutated frames leaves the table exactly as it was.
- A foreign (or missing) Origin cannot open a WebSocket.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from typing import Any

import httpx2
import pytest
from hg_web_support import (
    Seat,
    Server,
    choose,
    dumps,
    play_computer,
    step_friend,
    wait_seq,
)
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from hg_sockets import open_socket
from hollywood_gin.actions import parse_action
from hollywood_gin.errors import HollywoodGinError
from hollywood_gin.match import Match
from hollywood_gin.store import Store

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][shdc])(?![A-Za-z0-9])")


# -- the leak scanner -----------------------------------------------------------------------


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (_strings(k) + _strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def cards_in(frame: dict[str, Any]) -> set[str]:
    return {m for s in _strings(frame) for m in CARD_TOKEN.findall(s)}


class Truth:
    """The stored match replayed step by step: what was hidden from each seat, when."""

    def __init__(self, store_url: str, table: str) -> None:
        store = Store(store_url)
        try:
            self.stored = store.load(table)
        finally:
            store.close()
        s = self.stored
        self.match = Match(rules=s.rules, seed=s.seed, first_dealer=s.first_dealer)
        self.done = 0

    def at(self, seq: int, hand_number: int) -> Match:
        match = self.match
        while self.done < seq:
            act = self.stored.actions[self.done]
            if match.hand.is_over:
                match.next_hand()
            match.apply(parse_action(act.action), act.player)
            self.done += 1
        while len(match.hands) < hand_number:
            match.next_hand()
        assert len(match.hands) == hand_number
        return match

    def hidden_from(self, match: Match, seat: int) -> set[str]:
        """The opponent's cards not known to ``seat``, and the stock (always)."""
        hand = match.hand
        hidden = {c.text for c in hand.stock_cards}
        if not hand.is_over:
            opp = 1 - seat
            known = hand.known[opp]
            hidden |= {c.text for c in hand.cards_of(opp) if not known >> c.index & 1}
        return hidden


def scan(store_url: str, table: str, seats: dict[int, list[tuple[str, dict[str, Any]]]]) -> int:
    """Check every frame each seat received; returns how many frames were checked."""
    checked = 0
    for seat, frames in seats.items():
        truth = Truth(store_url, table)
        seed = str(truth.stored.seed)
        for raw, frame in frames:
            assert seed not in raw, "a frame carries the seed"
            assert '"seed"' not in raw and '"deck"' not in raw
            if frame["type"] != "state":
                continue
            assert frame["seat"] == seat
            match = truth.at(frame["seq"], frame["hand_number"])
            deck = " ".join(c.text for c in match.hand.deck or ())
            assert deck not in raw
            leaked = cards_in(frame) & truth.hidden_from(match, seat)
            assert not leaked, f"seat {seat} was sent hidden cards {leaked} at {frame['seq']}"
            assert sorted(frame["hand"]["cards"]) == sorted(c.text for c in
                                                            match.hand.cards_of(seat))
            checked += 1
    return checked


def test_the_scanner_catches_a_leak(server: Server, module_store_url: str) -> None:
    """The scanner is not blind: a frame carrying the opponent's cards fails it."""
    table = server.create(opponent="friend", name="Ann")
    seat = Seat(server, table["table"], table["token"])
    raw, _ = seat.frames[-1]
    truth = Truth(module_store_url, table["table"])
    match = truth.at(0, 1)
    bad = json.loads(raw)
    bad["hand"]["opponent_known"] = [c.text for c in match.hand.cards_of(1)]
    with pytest.raises(AssertionError, match="hidden cards"):
        scan(module_store_url, table["table"], {0: [(dumps(bad), bad)]})
    bad = json.loads(raw)
    bad["hand"]["history"] = [[1, f"stock {match.hand.stock_cards[0].text}"]]
    with pytest.raises(AssertionError, match="hidden cards"):
        scan(module_store_url, table["table"], {0: [(dumps(bad), bad)]})
    seat.close()


def test_no_frame_of_a_whole_friend_match_leaks(server: Server, module_store_url: str) -> None:
    """R3.4: over a whole match, neither seat is ever sent a hidden card, the stock or the
    seed."""
    created = server.create(opponent="friend", name="Ann", preset="hollywood")
    joined = server.join(created["table"], created["invite"], "Bob")
    a = Seat(server, created["table"], created["token"])
    b = Seat(server, created["table"], joined["token"])
    for _ in range(5000):
        if step_friend(a, b) == "finished":
            break
    assert a.state is not None and a.state["finished"], "the match did not finish"
    assert a.state["sheet"]["finished"]
    checked = scan(module_store_url, created["table"], {0: a.frames, 1: b.frames})
    assert checked > 200
    # R7.5: after the match, a move or a next deal is refused, pointing to a rematch (not
    # to a next deal that would be refused too), and the table stays where it was.
    seq = a.state["seq"]
    for refused in (a.act("draw"), a.request({"type": "next"})):
        assert refused["type"] == "error" and refused["code"] == "illegal", refused
        assert "match is over (R7.5): send 'rematch'" in refused["message"], refused
    assert a.request({"type": "sync"})["seq"] == seq
    a.close()
    b.close()


def test_no_frame_of_a_whole_computer_match_leaks(server: Server, module_store_url: str) -> None:
    """The same against the computer: the person's seat never learns the computer's cards."""
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
    states = sum(1 for _raw, frame in me.frames if frame["type"] == "state")
    # Every state frame of the match was checked (a short match, a few gins, sends fewer
    # than 50: the match's seed is not fixed).
    assert scan(module_store_url, created["table"], {0: me.frames}) == states > 20
    me.close()


# -- tokens ---------------------------------------------------------------------------------


def _refused(server: Server, table: str, first: Any) -> dict[str, Any]:
    ws = open_socket(f"ws://127.0.0.1:{server.port}/ws/{table}", origin=Origin(server.origin),
                 proxy=None)
    ws.send(first if isinstance(first, str) else dumps(first))
    frame: dict[str, Any] = json.loads(ws.recv(10))
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    return frame


def test_a_seat_needs_its_own_token(server: Server) -> None:
    one = server.create(opponent="friend", name="Ann")
    two = server.create(opponent="friend", name="Cy")
    guest = server.join(one["table"], one["invite"])
    refusals = [
        _refused(server, one["table"], {"type": "sync"}),  # no hello, no token
        _refused(server, one["table"], {"type": "hello"}),  # hello without a token
        _refused(server, one["table"], {"type": "hello", "token": "A" * 32}),  # a guess
        _refused(server, one["table"], {"type": "hello", "token": two["token"]}),  # other table
        _refused(server, one["table"], {"type": "hello", "token": "short"}),
        _refused(server, "not-a-table", {"type": "hello", "token": one["token"]}),
        _refused(server, "0" * 32, {"type": "hello", "token": one["token"]}),
    ]
    for frame in refusals:
        assert frame["type"] == "error" and frame["code"] in ("auth", "schema"), frame
    # A token opens its own seat only: seat 1's token sees seat 1 and cannot act for seat 0.
    b = Seat(server, one["table"], guest["token"])
    assert b.state is not None and b.state["seat"] == 1
    a = Seat(server, one["table"], one["token"])
    assert a.state is not None and a.state["seat"] == 0
    assert sorted(a.state["hand"]["cards"]) != sorted(b.state["hand"]["cards"])
    offer = a.state["hand"]
    wrong = a if offer["to_act"] == 1 else b
    wait_seq([wrong], a.state["seq"])
    answer = wrong.act("pass")
    assert answer["type"] == "error" and answer["code"] == "not_your_turn"
    a.close()
    b.close()


def test_invites_open_the_seat_once(server: Server) -> None:
    t = server.create(opponent="friend", name="Ann")
    path = f"/api/tables/{t['table']}/join"
    bad = server.post(path, {"invite": "nope", "name": "Eve"})
    assert (bad.status_code, bad.json()["code"]) == (403, "invite")
    good = server.post(path, {"invite": t["invite"], "name": "Bob"})
    assert good.status_code == 200
    again = server.post(path, {"invite": t["invite"], "name": "Eve"})
    assert (again.status_code, again.json()["code"]) == (409, "seat_taken")
    gone = server.post(f"/api/tables/{'f' * 32}/join", {"invite": "x"})
    assert (gone.status_code, gone.json()["code"]) == (404, "no_table")


# -- refused messages change nothing ----------------------------------------------------------


def _snapshot(server: Server, store_url: str, table: str, seats: list[Seat]) -> Any:
    """The table as every seat and the store see it."""
    store = Store(store_url)
    try:
        log = [(a.seq, a.player, a.action) for a in store.load(table).actions]
    finally:
        store.close()
    views = []
    for seat in seats:
        state = seat.request({"type": "sync"})
        views.append({k: v for k, v in state.items() if k != "rid"})
    return log, views


def _mid_hand(server: Server) -> tuple[dict[str, Any], Seat, Seat]:
    t = server.create(opponent="friend", name="Ann")
    g = server.join(t["table"], t["invite"])
    a = Seat(server, t["table"], t["token"])
    b = Seat(server, t["table"], g["token"])
    wait_seq([a, b], 0)
    for _ in range(5):
        step_friend(a, b)
    assert a.state is not None
    while a.state["hand"]["phase"] == "over":  # the random deal ended a hand: deal on
        step_friend(a, b)
    return t, a, b


def test_bad_messages_get_one_error_frame_and_change_nothing(
    server: Server, module_store_url: str
) -> None:
    t, a, b = _mid_hand(server)
    before = _snapshot(server, module_store_url, t["table"], [a, b])
    state = a.state
    assert state is not None
    actor, other = (a, b) if state["hand"]["to_act"] == 0 else (b, a)
    seq = state["seq"]
    hand = actor.state["hand"] if actor.state else {}
    spades = ["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts"]
    not_mine = next(c for c in spades if c not in hand["cards"])
    cases: list[tuple[Seat, Any, str]] = [
        (other, {"type": "act", "action": "draw", "seq": seq}, "not_your_turn"),
        (actor, {"type": "act", "action": f"discard {not_mine}", "seq": seq}, "illegal"),
        (actor, {"type": "act", "action": "take", "seq": seq}, "illegal"),
        (actor, {"type": "act", "action": "fold", "seq": seq}, "illegal"),
        (actor, {"type": "act", "action": "draw", "seq": seq + 7}, "stale"),
        (actor, {"type": "act", "action": "draw", "seq": seq - 1}, "stale"),
        (actor, {"type": "act", "action": "draw"}, "schema"),
        (actor, {"type": "act", "action": "draw", "seq": True}, "schema"),
        (actor, {"type": "act", "action": "draw", "seq": 1.5}, "schema"),
        (actor, {"type": "act", "action": 7, "seq": seq}, "schema"),
        (actor, {"type": "act", "action": "draw", "seq": seq, "extra": 1}, "schema"),
        (actor, {"type": "shuffle"}, "schema"),
        (actor, {"type": "hello", "token": t["token"]}, "schema"),
        (actor, {"type": "next"}, "illegal"),
        (actor, "not json", "bad_json"),
        (actor, "[1, 2, 3]", "bad_json"),
        (actor, '{"type": "act", "action": "draw", "seq": NaN}', "bad_json"),
        (actor, "[" * 100_000 + "]" * 100_000, "too_large"),
        (actor, dumps({"type": "act", "action": "draw", "seq": seq, "pad": "x" * 5000}),
         "too_large"),
        (actor, b"\x00\x01binary", "bad_json"),
    ]
    for seat, message, code in cases:
        seat.send(message)
        frame = seat.wait(lambda f: f["type"] in ("error", "ack"))
        assert frame["type"] == "error", (message, frame)
        assert frame["code"] == code, (str(message)[:80], frame)
        assert frame["message"]
    assert _snapshot(server, module_store_url, t["table"], [a, b]) == before
    a.close()
    b.close()


_WORDS = ["type", "act", "hello", "next", "sync", "action", "seq", "rid", "token", "v",
          "draw", "pick", "pass", "take", "discard 7h", "knock 2c", "big-gin", "gin Ks"]


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 1, 2**31, 2**63, 10**30, rng.randrange(-1000, 1000)])
    if kind == 2:
        return rng.random() * rng.choice([1, 1e300, -1e-300])
    if kind == 3:
        return rng.choice(_WORDS)
    if kind == 4:
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(12)))
    if kind == 5:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(_WORDS): _random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def _mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(4)
        i = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice('{}[]",:0123456789 aeiostx\\\u00e9\u2665'))
        elif op == 2 and chars:
            chars[min(i, len(chars) - 1)] = rng.choice('"{}:,0-9')
        else:
            chars[i:i] = list(text[rng.randrange(len(text)):][:8])
    return "".join(chars)


def _would_change(frame_text: str, seat_state: dict[str, Any]) -> bool:
    """True for a frame that is a legal move now (the fuzz must only send refusals)."""
    try:
        data = json.loads(frame_text)
    except (ValueError, RecursionError):
        return False
    if not isinstance(data, dict) or data.get("type") not in ("act", "next"):
        return False
    if data.get("type") == "next":
        return bool(seat_state["hand"]["phase"] == "over")
    action = data.get("action")
    if not isinstance(action, str) or data.get("seq") != seat_state["seq"]:
        return False
    try:
        return str(parse_action(action)) in seat_state["hand"]["legal"]
    except HollywoodGinError:
        return False


def test_fuzz_thousands_of_frames_leave_the_table_exactly_as_it_was(
    server: Server, module_store_url: str
) -> None:
    t, a, b = _mid_hand(server)
    before = _snapshot(server, module_store_url, t["table"], [a, b])
    rng = random.Random(5)
    assert a.state is not None and b.state is not None
    valid = [
        {"type": "act", "action": "draw", "seq": a.state["seq"]},
        {"type": "act", "action": "discard " + a.state["hand"]["cards"][0],
         "seq": a.state["seq"], "rid": 3},
        {"type": "act", "action": "knock " + b.state["hand"]["cards"][-1], "seq": 0},
        {"type": "next", "rid": 9},
        {"type": "hello", "token": t["token"]},
        {"type": "sync"},
    ]
    sent = refused = 0
    for i in range(3000):
        seat = a if i % 2 else b
        roll = rng.random()
        if roll < 0.35:
            text = _mutate(rng, dumps(rng.choice(valid)))
        elif roll < 0.7:
            text = dumps(_random_json(rng))
        elif roll < 0.8:
            text = "".join(chr(rng.randrange(1, 0xD000)) for _ in range(rng.randrange(1, 60)))
        elif roll < 0.85:
            text = dumps({"type": "act", "action": rng.choice(_WORDS), "seq": rng.randrange(40)})
        elif roll < 0.9:
            text = dumps({"type": "act", "action": "x" * rng.randrange(4000, 70_000), "seq": 1})
        elif roll < 0.95:
            text = "[" * rng.randrange(1000, 20_000)
        else:
            text = dumps(rng.choice(valid))
        assert seat.state is not None
        if _would_change(text, seat.state):
            continue
        binary = rng.random() < 0.03
        seat.send(text.encode() if binary else text)
        sent += 1
        frame = seat.recv()
        if frame["type"] == "error":
            refused += 1
            assert frame["code"] in ("bad_json", "too_large", "schema", "illegal",
                                     "not_your_turn", "stale", "auth"), frame
        else:  # only a well-formed sync is answered with the state itself
            assert frame["type"] == "state" and json.loads(text).get("type") == "sync"
    assert sent >= 2500 and refused >= 2000
    assert _snapshot(server, module_store_url, t["table"], [a, b]) == before
    # ... and the table still plays.
    assert step_friend(a, b) == "action"
    a.close()
    b.close()


# -- origins --------------------------------------------------------------------------------


@pytest.mark.parametrize("origin", [
    "http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1",
    "http://127.0.0.1.evil.example", None,
])
def test_a_foreign_origin_cannot_open_a_table(server: Server, origin: str | None) -> None:
    t = server.create(opponent="friend", name="Ann")
    with pytest.raises(InvalidStatus) as refused:
        open_socket(f"ws://127.0.0.1:{server.port}/ws/{t['table']}",
                origin=Origin(origin) if origin else None, proxy=None)
    assert refused.value.response.status_code == 403


def test_own_origins_open_a_table_and_foreign_posts_are_refused(server: Server) -> None:
    t = server.create(opponent="friend", name="Ann")
    for origin in (f"http://127.0.0.1:{server.port}", f"http://localhost:{server.port}"):
        ws = open_socket(f"ws://127.0.0.1:{server.port}/ws/{t['table']}", origin=Origin(origin),
                     proxy=None)
        ws.send(dumps({"type": "hello", "token": t["token"]}))
        assert json.loads(ws.recv(10))["type"] == "state"
        ws.close()
    r = server.post("/api/tables", {"opponent": "computer"}, origin="http://evil.example")
    assert (r.status_code, r.json()["code"]) == (403, "origin")
    r = httpx2.post(server.base + "/api/tables", content=b"x" * 10_000, trust_env=False,
                   headers={"origin": server.origin})
    assert (r.status_code, r.json()["code"]) == (413, "too_large")


def test_pages_carry_a_strict_content_security_policy(server: Server) -> None:
    r = httpx2.get(server.base + "/", trust_env=False)
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"


# -- message rate ---------------------------------------------------------------------------


def test_the_message_rate_passes_a_burst_then_refills_at_its_rate() -> None:
    from hollywood_gin.web.app import MessageRate

    now = [100.0]
    limit = MessageRate(5.0, 10, clock=lambda: now[0])
    assert all(limit.allow() for _ in range(10))
    assert not limit.allow()
    assert limit.should_warn() and not limit.should_warn()  # once a second at most
    now[0] += 0.2  # one token back at 5 a second
    assert limit.allow() and not limit.allow()
    now[0] += 60  # the bucket holds no more than the burst
    assert sum(limit.allow() for _ in range(20)) == 10
    assert limit.should_warn()
    unlimited = MessageRate(0.0, 1, clock=lambda: now[0])
    assert all(unlimited.allow() for _ in range(10_000))


def test_a_flood_is_dropped_unread_and_changes_nothing(module_store_url: str) -> None:
    """The real command with a tight rate: past the burst, messages (a legal move among
    them) are dropped, the client is told once, and after a pause the same move plays.
    The bucket refills one message a second: sending the thirteen messages on a loaded
    machine must not earn a message back (at five a second it once did, in 0.2 s)."""
    server = Server(module_store_url, cli=True, rate=(1.0, 10)).start()
    try:
        t = server.create(opponent="friend", name="Ann")
        g = server.join(t["table"], t["invite"])
        a = Seat(server, t["table"], t["token"])
        b = Seat(server, t["table"], g["token"])
        wait_seq([a, b], 0)
        assert a.state is not None
        actor = a if a.state["hand"]["to_act"] == 0 else b
        assert actor.state is not None
        move = {"type": "act", "action": "pass", "seq": actor.state["seq"], "rid": 77}
        for rid in range(1, 13):
            actor.send({"type": "sync", "rid": rid})
        actor.send(move)  # no token left for it
        frames = []
        with contextlib.suppress(TimeoutError):
            while True:  # everything the server answers, until it falls silent
                frames.append(actor.recv(timeout=1.0))
        answers = [f["rid"] for f in frames if f["type"] == "state" and f.get("rid")]
        errors = [f for f in frames if f["type"] == "error"]
        assert answers == list(range(1, 11)) and len(errors) == 1, frames
        assert errors[0]["code"] == "rate" and "messages a second" in errors[0]["message"]
        store = Store(module_store_url)
        try:
            assert len(store.load(t["table"]).actions) == 0  # the dropped pass never played
        finally:
            store.close()
        time.sleep(1.2)  # a message back
        reply = actor.request({"type": "act", "action": "pass", "seq": actor.state["seq"]})
        assert reply["type"] == "ack", reply
        wait_seq([a, b], 1)
        a.close()
        b.close()
    finally:
        server.stop()


def test_a_client_faster_than_the_rate_that_sends_again_after_a_pause_finishes(
        module_store_url: str) -> None:
    """A scripted player answers at machine speed, past the rate: its dropped moves are
    sent again after a pause (the test client's politeness, ``Seat.wait``) and play, and
    the match ends. Before, one dropped move (told without its rid) stalled the match.
    The rate is one message in half a second, no burst: a discard sent on the draw's ack
    is always too soon, on a loaded machine too (10 a second, bursts of 5, was not: a
    fresh clone's suite once played a whole match under it)."""
    server = Server(module_store_url, cli=True, rate=(2.0, 1)).start()
    try:
        created = server.create(opponent="computer", level=1, name="Ann",
                                rules={"columns": 1, "game_target": 1})
        me = Seat(server, created["table"], created["token"])
        play_computer(me, timeout=20)
        assert me.state is not None and me.state["finished"]
        assert me.slowed > 0, "the rate never dropped a message: nothing was tested"
        me.close()
    finally:
        server.stop()


def test_serve_refuses_a_negative_message_rate() -> None:
    import subprocess
    import sys

    from hg_web_support import env

    done = subprocess.run(
        [sys.executable, "-m", "hollywood_gin", "serve", "--message-rate", "-1", "--db",
         "sqlite://"], env=env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--message-rate" in done.stderr
