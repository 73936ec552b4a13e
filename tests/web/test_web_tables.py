"""Issue 11 §6-§7 at the protocol level, on SQLite and on PostgreSQL: rematch, abandoning
from the lobby, the lobby's list of a browser's tables, custom rules and their checks,
Origin and rate limits on the HTTP API, and a computer player that fails once and goes
on (nothing that can hold a table up may live in one process's memory only)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx2
import pytest
from hg_web_support import (
    SHORT_MATCH,
    Seat,
    Server,
    choose,
    dumps,
    play_computer,
    play_match,
    wait_seq,
)
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from hg_sockets import open_socket
from hollywood_gin.actions import parse_action
from hollywood_gin.hand import Hand
from hollywood_gin.rules import OPTIONS, PRESETS, Rules
from hollywood_gin.web.options import API_ERRORS


def _friends(server: Server, **body: Any) -> tuple[dict[str, Any], Seat, Seat]:
    created = server.create(opponent="friend", name="Ann", **body)
    joined = server.join(created["table"], created["invite"], "Bob")
    a = Seat(server, created["table"], created["token"])
    b = Seat(server, created["table"], joined["token"])
    return created, a, b


# -- rematch -----------------------------------------------------------------------------------


def test_friends_rematch_at_the_same_seats_once_both_accept(server: Server) -> None:
    created, a, b = _friends(server, rules=SHORT_MATCH)
    early = a.request({"type": "rematch"})
    assert (early["type"], early["code"]) == ("error", "illegal")
    play_match(a, b)
    assert a.state is not None and a.state["finished"]
    assert a.state["rematch"] == {"accepted": [False, False], "table": None}

    a.rid += 1
    a.send({"type": "rematch", "rid": a.rid})
    state = b.wait(lambda f: f["type"] == "state" and f["rematch"]["accepted"][0])
    assert state["rematch"]["table"] is None
    assert not any(f["type"] == "seat" for _, f in a.frames)

    b.rid += 1
    b.send({"type": "rematch", "rid": b.rid})
    seat_b = b.wait(lambda f: f["type"] == "seat")
    assert (seat_b["seat"], seat_b["rid"]) == (1, b.rid)
    new = seat_b["table"]
    assert new != created["table"]
    a.wait(lambda f: f["type"] == "state" and f["rematch"]["table"] == new)
    assert not any(f["type"] == "seat" for _, f in a.frames)  # A's token goes to A only
    a.rid += 1
    a.send({"type": "rematch", "rid": a.rid})
    seat_a = a.wait(lambda f: f["type"] == "seat")
    assert (seat_a["table"], seat_a["seat"]) == (new, 0)

    a2, b2 = Seat(server, new, seat_a["token"]), Seat(server, new, seat_b["token"])
    for seat, me in ((a2, 0), (b2, 1)):
        s = seat.state
        assert s is not None
        assert (s["seat"], s["names"], s["joined"], s["hand_number"]) == (
            me, ["Ann", "Bob"], [True, True], 1)
        assert s["rules"] == a.state["rules"] and s["sheet"]["totals"] == [0, 0]
    # Asking again, from this page or from another tab or device of the same seat, gives
    # the same token: the seat's other pages are not locked out of the rematch (a fresh
    # token for each ask stopped the one before opening the seat).
    a.rid += 1
    a.send({"type": "rematch", "rid": a.rid})
    again = a.wait(lambda f: f["type"] == "seat" and f["rid"] == a.rid)
    other_tab = Seat(server, created["table"], created["token"])
    other = other_tab.request({"type": "rematch"})
    assert again["token"] == other["token"] == seat_a["token"]
    still = Seat(server, new, seat_a["token"])
    assert still.state is not None and still.state["seat"] == 0
    assert seat_b["token"] != seat_a["token"]  # each seat its own
    for seat in (other_tab, still):
        seat.close()
    # No invite opens the rematch: both seats are taken.
    taken = server.post(f"/api/tables/{new}/join", {"invite": created["invite"], "name": "Eve"})
    assert taken.status_code in (403, 409)
    for seat in (a, b, a2, b2):
        seat.close()


def test_the_computer_accepts_a_rematch_at_once(server: Server) -> None:
    created = server.create(opponent="computer", level=2, name="Ann", rules=SHORT_MATCH)
    me = Seat(server, created["table"], created["token"])
    play_computer(me)
    answer = me.request({"type": "rematch"})
    assert answer["type"] == "seat" and answer["seat"] == 0
    again = Seat(server, answer["table"], answer["token"])
    s = again.state
    assert s is not None
    assert (s["opponent"], s["level"], s["names"], s["hand_number"]) == (
        "computer", 2, ["Ann", "Computer"], 1)
    assert s["rules"] == Rules.preset("hollywood").replace(**SHORT_MATCH).to_dict()
    me.close()
    again.close()


# -- abandon and the lobby's list ---------------------------------------------------------------


def test_abandoning_ends_the_match_for_both_seats(server: Server) -> None:
    created, a, b = _friends(server)
    path = f"/api/tables/{created['table']}/abandon"
    assert server.post(path, {"token": "x" * 32}).json()["code"] == "token"
    assert server.post(path, {"token": b.token}, origin=None).status_code == 403
    assert a.state is not None and a.state["abandoned"] is None
    done = server.post(path, {"token": b.token})
    assert done.status_code == 200 and done.json()["status"] == "abandoned"
    assert done.json()["already"] is False
    state = a.wait(lambda f: f["type"] == "state" and f["abandoned"] == 1)
    assert state["abandoned"] == 1
    seat = {a.state["seat"]: a, 1 - a.state["seat"]: b}[state["hand"]["to_act"]]
    refused = seat.request({"type": "act", "action": "pass", "seq": state["seq"]})
    assert refused["code"] == "abandoned"
    again_said = server.post(path, {"token": a.token})  # said twice: still so, told once
    assert again_said.status_code == 200 and again_said.json()["already"] is True
    assert server.post(path, {"token": b.token}).json()["already"] is True
    listed = server.post("/api/tables/mine", {"seats": [
        {"table": created["table"], "token": a.token}]}).json()["tables"]
    assert listed[0]["status"] == "abandoned"
    a.close()
    b.close()
    # A reconnecting seat finds it abandoned (the store has it, not only this process).
    again = Seat(server, created["table"], a.token)
    assert again.state is not None and again.state["abandoned"] == 1
    again.close()


def test_a_finished_match_cannot_be_abandoned(server: Server) -> None:
    created = server.create(opponent="computer", level=1, name="Ann", rules=SHORT_MATCH)
    me = Seat(server, created["table"], created["token"])
    play_computer(me)
    answer = server.post(f"/api/tables/{created['table']}/abandon", {"token": me.token})
    assert (answer.status_code, answer.json()["code"]) == (409, "finished")
    me.close()


def test_the_lobby_lists_a_browsers_tables_by_their_tokens(server: Server) -> None:
    mine = server.create(opponent="computer", level=4, name="Ann", preset="classic")
    other, a, b = _friends(server, rules={"knock_limit": 7})
    seats = [{"table": mine["table"], "token": mine["token"]},
             {"table": other["table"], "token": b.token},
             {"table": other["table"], "token": mine["token"]},  # another table's token
             {"table": "0" * 32, "token": "x" * 32}]
    answer = server.post("/api/tables/mine", {"seats": seats})
    assert answer.status_code == 200
    got = answer.json()["tables"]
    assert [g.get("gone", False) for g in got] == [False, False, True, True]
    computer, friend = got[0], got[1]
    assert (computer["opponent"], computer["level"], computer["preset"], computer["seat"]) == (
        "computer", 4, "classic", 0)
    assert (friend["seat"], friend["names"], friend["preset"], friend["joined"]) == (
        1, ["Ann", "Bob"], None, True)
    assert friend["rules"]["knock_limit"] == 7
    assert computer["totals"] == [0, 0] and computer["hand_number"] == 1
    assert computer["status"] == "playing" and computer["updated_at"] > 0
    too_many = server.post("/api/tables/mine", {"seats": seats * 8})
    assert (too_many.status_code, too_many.json()["code"]) == (400, "bad_json")
    assert server.post("/api/tables/mine", {"seats": seats}, origin=None).status_code == 403
    a.close()
    b.close()


# -- custom rules ---------------------------------------------------------------------------------


def test_the_rules_api_describes_every_option_and_preset(server: Server) -> None:
    described = httpx2.get(server.base + "/api/rules", trust_env=False).json()
    assert [o["name"] for o in described["options"]] == [o.name for o in OPTIONS]
    for o, served in zip(OPTIONS, described["options"], strict=True):
        assert (served["kind"], served["rule"], served["choices"]) == (
            o.kind, o.rule, list(o.choices))
        assert served["default"] == getattr(Rules(), o.name)
        assert served["offered"] == o.offered
    assert described["presets"] == {n: r.to_dict() for n, r in PRESETS.items()}


@pytest.mark.parametrize(("rules", "code", "option"), [
    ({"knock_limit": 11}, "rule_value", "knock_limit"),
    ({"knock_limit": -1}, "rule_value", "knock_limit"),
    ({"knock_limit": 7.0}, "rule_value", "knock_limit"),
    ({"gin_bonus": 0}, "rule_value", "gin_bonus"),
    ({"big_gin_bonus": 0}, "rule_value", "big_gin_bonus"),
    ({"oklahoma": 1}, "rule_value", "oklahoma"),
    ({"columns": True}, "rule_value", "columns"),
    ({"next_dealer": "nobody"}, "rule_value", "next_dealer"),
    ({"game_target": 10**30}, "rule_value", "game_target"),
    ({"poker": 1}, "rule_unknown", "poker"),
    ([1, 2], "rules", None),
    # R9.2: combinations the rules refuse, named by the first option of the reason.
    ({"oklahoma": True, "knock_limit": 7}, "rules", "oklahoma"),
    ({"shutout_game_bonus": 50}, "rules", "shutout_game_bonus"),
    ({"big_gin_bonus": 5}, "rules", "big_gin_bonus"),
])
def test_rules_out_of_bounds_are_refused_by_option(server: Server, rules: Any, code: str,
                                                   option: str | None) -> None:
    answer = server.post("/api/tables", {"opponent": "friend", "rules": rules})
    assert answer.status_code == 400
    body = answer.json()
    assert (body["code"], body.get("option")) == (code, option)


@pytest.mark.parametrize("lang", ["lt", "ha"])
def test_a_contradiction_names_its_option_in_every_language(server: Server, lang: str) -> None:
    """The option was found by reading "rule oklahoma=" in the English words: in any other
    language the form could not mark the field (a QA pass of the lobby)."""
    import httpx2

    answer = httpx2.post(server.base + "/api/tables", json={
        "opponent": "friend", "rules": {"oklahoma": True, "knock_limit": 7}},
        headers={"origin": server.origin, "accept-language": lang}, timeout=10,
        trust_env=False)
    body = answer.json()
    assert answer.status_code == 400 and (body["code"], body.get("option")) == (
        "rules", "oklahoma")
    assert "R9.2" in body["error"] and "cannot go with" not in body["error"]


def test_the_api_refuses_in_its_own_shape_and_short(server: Server) -> None:
    """A REST check found: a value thousands of characters long said back whole, a friend's
    table taking any level, and Starlette's own 404 and 405 in plain text under /api/."""
    long = server.post("/api/tables", {"opponent": "friend", "rules": {"knock_limit": 10**400}})
    assert long.status_code == 400 and long.json()["code"] == "rule_value"
    assert len(long.json()["error"]) < 120 and "…" in long.json()["error"]
    level = server.post("/api/tables", {"opponent": "friend", "level": "garbage"})
    assert level.status_code == 400 and level.json()["code"] == "level"
    assert server.post("/api/tables", {"opponent": "friend", "level": None}).status_code == 201
    for method, path, status, code in (("GET", "/api/tables", 405, "method"),
                                       ("GET", "/api/nope", 404, "not_found"),
                                       ("POST", "/api/tables/x/y/z", 404, "not_found")):
        answer = httpx2.request(method, server.base + path, trust_env=False,
                                headers={"origin": server.base})
        assert answer.status_code == status, (path, answer.text)
        assert answer.json() == {"error": API_ERRORS[code], "code": code}
    assert httpx2.get(server.base + "/nope", trust_env=False).status_code == 404  # a page


def test_custom_rules_are_saved_with_the_match(server: Server) -> None:
    rules = {"big_gin_bonus": 31, "entry_rule": "by_count", "columns": 2, "oklahoma": True,
             "next_dealer": "loser"}
    created = server.create(opponent="computer", level=1, preset="classic", rules=rules)
    me = Seat(server, created["table"], created["token"])
    assert me.state is not None
    assert me.state["rules"] == Rules.preset("classic").replace(**rules).to_dict()
    assert me.state["preset"] is None
    plain = server.create(opponent="computer", level=1, preset="eaai", rules={})
    state = Seat(server, plain["table"], plain["token"]).state
    assert state is not None and state["preset"] == "eaai"
    me.close()


def test_the_rules_page_shows_the_book_for_a_table_or_a_preset(server: Server) -> None:
    """§1 and §7: /rules renders the rule book for the rules in force (a table's custom
    rules, or a preset), from hollywood_gin.rulebook."""
    created = server.create(opponent="friend", name="Ann", rules={"knock_limit": 7})
    for path in (f"/rules/{created['table']}", f"/rules?table={created['table']}"):
        page = httpx2.get(server.base + path, trust_env=False)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "content-security-policy" in page.headers
        text = page.text
        assert "<h1>Hollywood Gin: the rule book</h1>" in text
        assert "R5.1" in text and "at 7 or less" in text
        assert f'href="/t/{created["table"]}"' in text
        # The page's one script is its own module (the language list's memory), no inline code.
        scripts = re.findall(r"<script[^>]*>", text)
        assert scripts == ['<script type="module" src="/static/js/rulespage.js">']
        assert "<!--" not in text
    eaai = httpx2.get(server.base + "/rules?preset=eaai", trust_env=False).text
    assert "one game to 100" in eaai and "R9.3" in eaai and "<table>" in eaai
    assert httpx2.get(server.base + "/rules", trust_env=False).status_code == 200
    for bad in ("/rules?preset=poker", f"/rules/{'0' * 32}", "/rules/nope"):
        assert httpx2.get(server.base + bad, trust_env=False).status_code == 404, bad
    described = httpx2.get(f"{server.base}/api/rules?table={created['table']}",
                          trust_env=False).json()
    assert described["rules"]["knock_limit"] == 7 and described["preset"] is None
    assert ["Knock", "at 7 or less"] in described["in_force"]


# -- hardening ------------------------------------------------------------------------------------


def test_every_post_needs_this_sites_origin(server: Server) -> None:
    created = server.create(opponent="friend", name="Ann")
    for path, body in (("/api/tables", {"opponent": "friend"}),
                       (f"/api/tables/{created['table']}/join", {"invite": created["invite"]}),
                       ("/api/tables/mine", {"seats": []}),
                       (f"/api/tables/{created['table']}/abandon", {"token": created["token"]})):
        for origin in (None, "http://evil.example", "null"):
            answer = server.post(path, body, origin=origin)
            assert (answer.status_code, answer.json()["code"]) == (403, "origin"), (path, origin)


def test_table_creation_and_waiting_sockets_are_limited_per_address(store_url: str) -> None:
    server = Server(store_url, cli=True, args=("--table-rate", "6", "--table-burst", "3",
                                               "--pending-sockets", "2")).start()
    try:
        for _ in range(5):  # a form refused for what it asks spends no token
            wrong = server.post("/api/tables", {"opponent": "alien"})
            assert (wrong.status_code, wrong.json()["code"]) != (429, "rate")
            assert wrong.status_code == 400
        nested = httpx2.post(server.base + "/api/tables", content=b"[" * 4000, trust_env=False,
                             headers={"origin": server.origin, "content-type": "application/json"})
        assert (nested.status_code, nested.json()["code"]) == (400, "bad_json")
        for _ in range(3):
            assert server.post("/api/tables", {"opponent": "friend"}).status_code == 201
        refused = server.post("/api/tables", {"opponent": "friend"})
        assert (refused.status_code, refused.json()["code"]) == (429, "rate")
        assert 1 <= int(refused.headers["retry-after"]) <= 10
        table = httpx2.get(server.base + "/api/health", trust_env=False)  # the server is fine
        assert table.status_code == 200

        url = f"ws://127.0.0.1:{server.port}/ws/{'a' * 32}"
        quiet = [open_socket(url, origin=Origin(server.origin), proxy=None) for _ in range(2)]
        with pytest.raises(InvalidStatus) as third:
            open_socket(url, origin=Origin(server.origin), proxy=None)
        assert third.value.response.status_code == 403
        quiet[0].send(dumps({"type": "hello", "token": "x" * 32}))  # said hello: not counted
        quiet[0].recv(10)
        deadline = time.monotonic() + 10
        while True:  # the refused hello closes the socket; then there is room again
            try:
                again = open_socket(url, origin=Origin(server.origin), proxy=None)
                break
            except InvalidStatus:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        for ws in [*quiet, again]:
            ws.close()
    finally:
        server.stop()


def test_the_computer_plays_on_after_a_save_that_failed_but_happened(store_url: str) -> None:
    """The store answered an error after committing a person's discard: the table was
    reloaded at the computer's turn, but nothing started the computer, and the person
    (whose turn it was not) waited forever."""
    server = Server(store_url, cli=False, args=("--flaky-store",)).start()
    try:
        created = server.create(opponent="computer", level=1, name="Ann")
        me = Seat(server, created["table"], created["token"])
        for _ in range(200):
            state = me.state
            assert state is not None and state["hand"]["phase"] != "over"
            if state["hand"]["to_act"] != 0:
                me.wait(lambda f: f["type"] == "state")
                continue
            answer = me.act(choose(state) or "draw")
            if answer["type"] == "error":
                # the batch failed; retried alone, the action is found saved: stale
                assert answer["code"] in ("stale", "server"), answer
                break
            wait_seq([me], answer["seq"])
        else:
            raise AssertionError("the store never failed")
        # The action was saved after all (seq + 1); the computer takes its turn (seq + 2).
        wait_seq([me], state["seq"] + 2)
        me.close()
    finally:
        server.stop()


# -- the public log -------------------------------------------------------------------------------


def test_the_public_log_names_every_card_that_was_face_up() -> None:
    """R4.4: the card taken from the pile, the upcard passed, every discard; never a draw."""
    from hollywood_gin.web.protocol import public_log

    hand = Hand.deal(seed=3)
    upcard = hand.deck[20] if hand.deck else None
    assert upcard is not None
    for text in ("pass", "take"):
        if hand.is_legal(parse_action(text)):
            hand.apply(parse_action(text))
    log = public_log(hand.view(0), upcard)
    assert log[0][2] == upcard.text
    view = hand.view(1)
    while len(view.history) < 12 and not hand.is_over:
        legal = hand.legal_actions()
        pick = [a for a in legal if str(a) == "pick"]
        hand.apply(pick[0] if pick else legal[0])
        view = hand.view(1)
    log = public_log(view, upcard)
    pile = [upcard]
    for (player, action), entry in zip(view.history, log, strict=True):
        assert entry[:2] == [player, str(action)]
        if str(action) in ("take", "pick"):
            assert entry[2] == pile.pop().text
        elif str(action).startswith("discard"):
            assert entry[2] == str(action).split()[1]
            pile.append(parse_action(str(action)).card)  # type: ignore[union-attr]
        elif str(action) == "draw":
            assert entry[2] is None


@pytest.mark.parametrize(("option", "value"), [("--table-rate", "-1"), ("--table-burst", "0"),
                                               ("--pending-sockets", "-2")])
def test_serve_refuses_negative_limits(option: str, value: str) -> None:
    import subprocess
    import sys

    from hg_web_support import env

    done = subprocess.run(
        [sys.executable, "-m", "hollywood_gin", "serve", option, value, "--db", "sqlite://"],
        env=env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and option in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_address_rates_refill_and_forget_full_buckets() -> None:
    from hollywood_gin.web.limits import AddressRate, Ungreeted

    now = [0.0]
    rate = AddressRate(6, 2, max_addresses=3, clock=lambda: now[0])  # one every 10 s
    assert rate.allow("a") == (True, 0.0) and rate.allow("a")[0]
    allowed, wait = rate.allow("a")
    assert not allowed and 9.9 < wait <= 10.0
    assert rate.allow("b")[0]  # another address has its own bucket
    now[0] += 10.0
    assert rate.allow("a")[0] and not rate.allow("a")[0]
    for name in "cdefg":  # memory stays bounded
        rate.allow(name)
    assert len(rate._buckets) <= 3
    assert AddressRate(0, 1).allow("x") == (True, 0.0)  # 0: no limit

    waiting = Ungreeted(2)
    assert waiting.enter("a") and waiting.enter("a") and not waiting.enter("a")
    assert waiting.enter("b")
    waiting.leave("a")
    assert waiting.count("a") == 1 and waiting.enter("a")
    waiting.leave("a")
    waiting.leave("a")
    assert waiting.count("a") == 0


def test_the_store_changes_meta_without_losing_a_concurrent_change(store_url: str) -> None:
    """Two seats (or servers) saving their readiness at once: both are kept (the row is
    locked while it is read and written)."""
    import threading

    from hollywood_gin.store import Store, StoreError

    stores = [Store(store_url) for _ in range(4)]
    try:
        pm = stores[0].new_match(rules=Rules(), players=("a", "b"), kind="web-friend",
                                 meta={"web": 1})

        def add(store: Store, n: int) -> None:
            for i in range(10):
                store.update_meta(pm.id, lambda m, k=f"{n}-{i}": m.setdefault("seen", [])
                                  .append(k))

        threads = [threading.Thread(target=add, args=(s, n)) for n, s in enumerate(stores)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        meta = stores[0].load(pm.id).meta
        assert sorted(meta["seen"]) == sorted(f"{n}-{i}" for n in range(4) for i in range(10))
        assert meta["web"] == 1
        done = stores[0].update_meta(pm.id, lambda m: m.update(x=1), status="abandoned")
        assert done["x"] == 1 and stores[0].load(pm.id).status == "abandoned"
        token = stores[0].add_seat(pm.id, 0, "a")
        fresh = stores[0].reset_seat_token(pm.id, 0)
        assert stores[0].seat_of_token(pm.id, token) is None
        assert stores[0].seat_of_token(pm.id, fresh) == 0
        with pytest.raises(StoreError):
            stores[0].reset_seat_token(pm.id, 1)
        with pytest.raises(StoreError):
            stores[0].update_meta("0" * 32, lambda m: None)
    finally:
        for s in stores:
            s.close()
