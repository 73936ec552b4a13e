"""The table protocol: strict parsing, the documented schemas, frames built from views only."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hollywood_gin.cli import build_parser
from hollywood_gin.match import Match
from hollywood_gin.web.app import create_app
from hollywood_gin.web.commands import serve_origins
from hollywood_gin.web.options import API_ERRORS
from hollywood_gin.web.protocol import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    Act,
    Hello,
    NextHand,
    ProtocolError,
    Sync,
    TableInfo,
    parse_client_message,
    state_frame,
)
from hollywood_gin.web.schema import CLIENT_SCHEMA, REVIEW_SCHEMA, SERVER_SCHEMA

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
TOKEN = "abcdefghijklmnopqrstuvwx"


def test_good_messages_parse() -> None:
    assert parse_client_message(json.dumps({"type": "hello", "token": TOKEN})) == Hello(TOKEN)
    assert parse_client_message('{"type":"act","action":"discard 7h","seq":4,"rid":2}') == Act(
        "discard 7h", 4, 2)
    assert parse_client_message('{"type":"next"}') == NextHand(None)
    assert parse_client_message('{"type":"sync","rid":0}') == Sync(0)


def test_a_frame_nested_too_deep_is_said_in_words_not_pythons() -> None:
    with pytest.raises(ProtocolError, match="it nests too deeply") as refused:
        parse_client_message("[" * 3000)
    assert refused.value.code == "bad_json" and "recursion" not in refused.value.message


@pytest.mark.parametrize(("raw", "code"), [
    ("", "bad_json"),
    ("{", "bad_json"),
    ("null", "bad_json"),
    ('"act"', "bad_json"),
    ('{"type":"act","action":"draw","seq":Infinity}', "bad_json"),
    ("[" * 3000, "bad_json"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
    ("é" * (MAX_MESSAGE_BYTES // 2 + 1), "too_large"),
    ('{"type":"fold"}', "schema"),
    ('{"type":["act"]}', "schema"),
    ('{"action":"draw","seq":1}', "schema"),
    ('{"type":"act","seq":1}', "schema"),
    ('{"type":"act","action":"draw","seq":-1}', "schema"),
    ('{"type":"act","action":"draw","seq":false}', "schema"),
    ('{"type":"act","action":"draw","seq":2.0}', "schema"),
    ('{"type":"act","action":"draw\\u0000","seq":2}', "schema"),
    ('{"type":"act","action":"draw\\n","seq":2}', "schema"),  # as the schema's ECMA pattern
    ('{"type":"act","action":"' + "a" * 65 + '","seq":2}', "schema"),
    ('{"type":"act","action":"draw","seq":2,"rid":-5}', "schema"),
    ('{"type":"act","action":"draw","seq":2,"who":1}', "schema"),
    ('{"type":"hello","token":"short"}', "auth"),
    ('{"type":"hello","token":"' + "a" * 24 + '","v":2}', "schema"),
    ('{"type":"hello"}', "schema"),
])
def test_bad_messages_are_refused_with_a_code(raw: str, code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(raw)
    assert refused.value.code == code
    assert refused.value.code in ERROR_CODES and refused.value.message


@pytest.mark.parametrize(("raw", "words"), [
    ('{"type":"act","action":"draw","seq":2,"who":1}', "an 'act' message has unknown field"),
    ('{"type":"act","seq":1}', "an 'act' message needs action"),
    ('{"type":"hello"}', "a 'hello' message needs token"),
])
def test_a_refusal_reads_as_english(raw: str, words: str) -> None:
    """It said "a 'act' message" (a QA pass)."""
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(raw)
    assert words in refused.value.message


def test_an_empty_action_lists_the_actions_as_an_unreadable_one_does() -> None:
    """Two near-identical mistakes got two lists of the actions (big-gin missing from one)."""
    from hollywood_gin.actions import parse_action
    from hollywood_gin.errors import IllegalActionError

    said = []
    for text in ("  ", "fold"):
        with pytest.raises(IllegalActionError) as refused:
            parse_action(text)
        said.append(str(refused.value).split(": expected ")[1])
    assert said[0] == said[1] == "pass, take, draw, pick, discard C, knock C [melds], or big-gin"


def test_binary_frames_are_refused() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(b'{"type":"sync"}')
    assert refused.value.code == "bad_json"


def _doc_schema(name: str) -> Any:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(rf"<!-- {name} -->\s*```json\n(.*?)```", text, re.S)
    assert block, f"docs/protocol.md has no {name} block"
    return json.loads(block.group(1))


def test_the_documented_schemas_are_the_ones_the_server_uses() -> None:
    assert _doc_schema("client-schema") == CLIENT_SCHEMA
    assert _doc_schema("server-schema") == SERVER_SCHEMA
    assert _doc_schema("review-schema") == REVIEW_SCHEMA
    text = DOC.read_text(encoding="utf-8")
    for code in ERROR_CODES:
        assert f"`{code}`" in text
    api = text.split("<!-- api-errors -->", 1)[1].split("\n\n", 1)[0]
    documented = dict(re.findall(r"^\| `(\w+)` \| (.*) \|$", api, re.M))
    assert documented == API_ERRORS


def test_the_parser_agrees_with_the_client_schema() -> None:
    """Random messages near the valid ones: the hand-written check and the schema agree."""
    import jsonschema
    validator = jsonschema.Draft202012Validator(CLIENT_SCHEMA)
    rng = random.Random(7)
    values: list[Any] = [None, True, 0, 1, -1, 2**40, "draw", "discard 7h", "", TOKEN, "x" * 70,
                         [], {}, "knock Qs 5s/6s/7s"]
    keys = ["type", "action", "seq", "rid", "token", "v", "other"]
    types = ["hello", "act", "next", "sync", "nope"]
    for _ in range(3000):
        msg: dict[str, Any] = {"type": rng.choice(types)}
        for key in rng.sample(keys, rng.randrange(len(keys))):
            msg[key] = rng.choice(values)
        ok_schema = validator.is_valid(msg)
        try:
            parse_client_message(json.dumps(msg))
            ok_parser = True
        except ProtocolError:
            ok_parser = False
        assert ok_schema == ok_parser, msg


def test_state_frames_follow_the_server_schema_and_hold_only_the_seat_view() -> None:
    import jsonschema
    validator = jsonschema.Draft202012Validator(SERVER_SCHEMA)
    match = Match(seed=11)
    info = TableInfo("t" * 32, ("Ann", "Bob"), "friend", None, "hollywood")
    steps = 0
    while not match.finished and steps < 400:
        hand = match.hand
        if hand.is_over:
            match.next_hand()
            continue
        for seat in (0, 1):
            frame = state_frame(match.view(seat), info, seq=steps, joined=(True, True),
                                connected=(True, True), ready=(False, False))
            validator.validate(frame)
            assert frame["hand"]["cards"] == [c.text for c in match.view(seat).hand.hand]
        legal = hand.legal_actions()
        match.apply(legal[-1] if steps % 3 else legal[0])
        steps += 1
    over = state_frame(match.view(0), info, seq=steps, joined=(True, True),
                       connected=(True, False), ready=(True, False))
    validator.validate(over)


def test_serve_is_a_subcommand_with_host_port_and_db() -> None:
    args = build_parser().parse_args(["serve", "--port", "9001", "--db", "sqlite://"])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 9001, "sqlite://")
    assert serve_origins("127.0.0.1", 8000, []) == [
        "http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"]
    assert serve_origins("0.0.0.0", 80, []) is None
    assert serve_origins("0.0.0.0", 80, ["https://gin.example/"]) == ["https://gin.example"]


def test_table_creation_checks_its_fields(tmp_path: Path) -> None:
    app = create_app(db_url=f"sqlite:///{tmp_path / 'x.db'}", bot_delay=0)
    with TestClient(app, headers={"origin": "http://testserver"}) as client:
        assert client.post("/api/tables", json={"opponent": "robot"}).status_code == 400
        assert client.post("/api/tables", json={"opponent": "friend", "preset": "poker"}
                           ).status_code == 400
        for level in (9, 3.0, 5.0, True, "3"):
            refused = client.post("/api/tables", json={"opponent": "computer", "level": level})
            assert (refused.status_code, refused.json()["code"]) == (400, "level"), level
        assert client.post("/api/tables", json={"opponent": "friend", "x": 1}).status_code == 400
        assert client.post("/api/tables", content=b"[]").status_code == 400
        made = client.post("/api/tables", json={"opponent": "friend", "name": "  A\u0000nn  "})
        assert made.status_code == 201
        assert set(made.json()) == {"table", "seat", "token", "invite"}
        assert client.get("/t/" + made.json()["table"]).status_code == 200
        assert client.get("/static/js/main.js").status_code == 200
