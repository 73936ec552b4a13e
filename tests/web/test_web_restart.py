"""Reliability: SIGKILL the real ``hollywood-gin serve`` mid-hand, start it again, lose nothing.

Run on SQLite and on PostgreSQL.  "Accepted" means acknowledged: every
acknowledged action must be there after the restart, both seats must find
the same cards and the same point, and the game must go on to the next deal.
"""

from __future__ import annotations

from typing import Any

from hg_web_support import Seat, Server, choose, step_friend, wait_seq


def _seats(server: Server, table: str, tokens: tuple[str, str]) -> tuple[Seat, Seat]:
    a = Seat(server, table, tokens[0])
    b = Seat(server, table, tokens[1])
    assert a.state is not None and b.state is not None
    wait_seq([a, b], max(a.state["seq"], b.state["seq"]))
    return a, b


def _view(seat: Seat) -> dict[str, Any]:
    assert seat.state is not None
    s = seat.state
    return {"seq": s["seq"], "hand_number": s["hand_number"], "hand": s["hand"],
            "sheet": s["sheet"]}


def _restart(server: Server) -> None:
    server.kill()
    server.start()


def test_sigkill_mid_hand_loses_no_accepted_action(store_url: str) -> None:
    server = Server(store_url, cli=True).start()
    try:
        created = server.create(opponent="friend", name="Ann")
        guest = server.join(created["table"], created["invite"], "Bob")
        tokens = (created["token"], guest["token"])
        a, b = _seats(server, created["table"], tokens)

        # The deal is random, so a hand may end after any action: "deal" is progress too.
        # 1. Six acknowledged steps, then SIGKILL.
        for _ in range(6):
            assert step_friend(a, b) in ("action", "deal")
        before = (_view(a), _view(b))
        _restart(server)
        a, b = _seats(server, created["table"], tokens)
        assert (_view(a), _view(b)) == before

        # 2. Play the hand out, deal the next one, SIGKILL: the deal is still there.
        assert a.state is not None
        hand_before = a.state["hand_number"]
        while step_friend(a, b) == "action":
            pass
        assert a.state is not None and a.state["hand_number"] == hand_before + 1
        before = (_view(a), _view(b))
        _restart(server)
        a, b = _seats(server, created["table"], tokens)
        assert (_view(a), _view(b)) == before

        # 3. An intent in flight when the server dies is either all there or not at all.
        for _ in range(3):
            assert step_friend(a, b) in ("action", "deal")
        assert a.state is not None
        if a.state["hand"]["phase"] == "over":
            assert step_friend(a, b) == "deal"
        assert a.state is not None and a.state["hand"]["phase"] != "over"
        hand_now = a.state["hand_number"]
        seq = a.state["seq"]
        actor = a if a.state["hand"]["to_act"] == a.state["seat"] else b
        assert actor.state is not None
        action = choose(actor.state)
        actor.send({"type": "act", "action": action, "seq": seq})
        _restart(server)
        a, b = _seats(server, created["table"], tokens)
        assert a.state is not None and b.state is not None
        assert a.state["seq"] in (seq, seq + 1)
        assert a.state["seq"] == b.state["seq"]
        if a.state["seq"] == seq + 1:
            assert a.state["hand"]["history"][-1][1] == action

        # 4. Both players go on to the end of that hand.
        while step_friend(a, b) == "action":
            pass
        assert a.state["hand_number"] == hand_now + 1 or a.state["finished"]
        a.close()
        b.close()
    finally:
        server.stop()


def test_a_reconnecting_seat_comes_back_to_the_same_point(store_url: str) -> None:
    """Reload or a lost connection: a new socket with the same token gets the same state."""
    with_server = Server(store_url, cli=True).start()
    try:
        created = with_server.create(opponent="friend", name="Ann")
        guest = with_server.join(created["table"], created["invite"])
        a, b = _seats(with_server, created["table"], (created["token"], guest["token"]))
        for _ in range(4):
            step_friend(a, b)
        before = _view(b)
        b.close()
        b = Seat(with_server, created["table"], guest["token"])
        assert _view(b) == before
        assert b.state is not None
        point = (b.state["hand_number"], b.state["seq"])
        # The deal is random: the next step may be a move or, if the hand just ended, the
        # next deal; either way both seats go on together.
        assert step_friend(a, b) in ("action", "deal")
        assert a.state is not None and b.state is not None
        assert a.state["seq"] == b.state["seq"]
        assert (b.state["hand_number"], b.state["seq"]) > point
        a.close()
        b.close()
    finally:
        with_server.stop()


def test_readiness_for_the_next_deal_survives_a_sigkill(store_url: str) -> None:
    """Issue 11 §6: A said "next hand", the server was killed; after the restart A's page
    waited for Bob while the server had forgotten A, and Bob waited for A forever."""
    server = Server(store_url, cli=True).start()
    try:
        created = server.create(opponent="friend", name="Ann")
        guest = server.join(created["table"], created["invite"], "Bob")
        tokens = (created["token"], guest["token"])
        a, b = _seats(server, created["table"], tokens)
        while step_friend(a, b) == "action":
            if a.state is not None and a.state["hand"]["phase"] == "over":
                break
        assert a.state is not None and a.state["hand"]["phase"] == "over"
        hand = a.state["hand_number"]
        a.send({"type": "next"})
        b.wait(lambda f: f["type"] == "state" and f["ready"] == [True, False])
        _restart(server)
        a, b = _seats(server, created["table"], tokens)
        assert a.state is not None and b.state is not None
        assert a.state["ready"] == b.state["ready"] == [True, False]
        assert a.state["hand_number"] == hand
        b.send({"type": "next"})
        wait_seq([a, b], a.state["seq"], hand + 1)
        assert a.state["hand_number"] == b.state["hand_number"] == hand + 1
        assert a.state["ready"] == [False, False]
        a.close()
        b.close()
    finally:
        server.stop()
