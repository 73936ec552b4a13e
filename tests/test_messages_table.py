"""The web app's message table is read for the translators exactly as the page reads it."""

from __future__ import annotations

import io

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract

from hollywood_gin.web.messages_table import TableError, extract_message_table, read_table

TABLE = r'''// Every word the page shows.
import { x } from "./y.js";
const OTHER = { "not.this": "No" };
const EN = {
  "app.title": "Hollywood Gin",

  // -- lobby --------------------------------------------------------------
  "lobby.name": "Your name", "rank.A": 'ace', "rank.2": "2",
  // Translators: {name} is the friend's name.
  "abandon.friend": "Abandon your match against {name}? It ends for both of you.",
  "quote": "Say \"gin\"\t\u00e9 \u{1F0A1} \x41 it's",
  "sheet.boxes": {
    one: "1 box",
    other: "{n} boxes",
  },
  'opp.hand': { "one": "{name} holds 1 card", other: "{name} holds {n} cards" },
  /* a block comment */ "last": "Last {move}"
};

export function t(key, params = {}) { return `${key}`.replace(/\{(\w+)\}/g, "}"); }
'''


def test_read_table_reads_every_key_as_the_page_does() -> None:
    rows = read_table(TABLE)
    got = {key: (text, plural) for _line, key, text, plural, _notes in rows}
    assert got == {
        "app.title": ("Hollywood Gin", None),
        "lobby.name": ("Your name", None),
        "rank.A": ("ace", None),
        "rank.2": ("2", None),
        "abandon.friend": ("Abandon your match against {name}? It ends for both of you.", None),
        "quote": ('Say "gin"\té \U0001F0A1 A it\'s', None),
        "sheet.boxes": ("1 box", "{n} boxes"),
        "opp.hand": ("{name} holds 1 card", "{name} holds {n} cards"),
        "last": ("Last {move}", None),
    }
    lines = {key: line for line, key, *_rest in rows}
    assert lines["app.title"] == 5 and lines["rank.2"] == 8 and lines["sheet.boxes"] == 12
    notes = {key: n for _line, key, _t, _p, n in rows if n}
    assert notes == {"abandon.friend": ["Translators: {name} is the friend's name."]}


def test_no_table_no_messages() -> None:
    assert read_table("const X = 1;") == []
    assert read_table(TABLE, table="MISSING") == []
    assert [k for _l, k, *_r in read_table(TABLE, table="OTHER")] == ["not.this"]


@pytest.mark.parametrize(
    "body,message",
    [
        ('"a": `Hi ${n}`', "'`' where a quoted text should be"),
        ('"a": "x" + "y"', "'\\+' where a quoted key should be"),
        ("a: 'x'", "'a' where a quoted key should be"),
        ('"a": {one: "x"}', "one and other, not one"),
        ('"a": {one: "x", few: "y", other: "z"}', "not few, one, other"),
        ('"a": 5', "'5' where a quoted text should be"),
    ],
)
def test_anything_but_plain_strings_is_refused_naming_the_line(body: str, message: str) -> None:
    with pytest.raises(TableError, match=message) as info:
        read_table("// one\nconst EN = {\n  " + body + ",\n};\n")
    assert "line 3" in str(info.value)


def test_an_unclosed_table_is_refused() -> None:
    with pytest.raises(TableError, match="never closed"):
        read_table('const EN = {\n "a": "b",\n')


def test_babel_reads_the_keys_as_contexts() -> None:
    """Through Babel's own extract(), as `make i18n` runs it: context = key, id = English."""
    found = list(extract(extract_message_table, io.BytesIO(TABLE.encode()),
                         keywords=DEFAULT_KEYWORDS, comment_tags=("Translators:",),
                         options={"table": "EN"}))
    by_key = {context: (message, comments) for _line, message, comments, context in found}
    assert by_key["lobby.name"] == ("Your name", [])
    assert by_key["sheet.boxes"] == (("1 box", "{n} boxes"), [])
    assert by_key["abandon.friend"][1] == ["Translators: {name} is the friend's name."]
    assert len(found) == 9


def test_a_translators_note_goes_on_over_its_lines() -> None:
    """A // note of several lines reaches the translators whole (only its first line did);
    a comment after a blank line or a message is no part of it."""
    source = '''const EN = {
  // Translators: joining a list: "{a} and {b}" ends it,
  // "{a}, {b}" goes before.
  "list.and": "{a} and {b}",
  // Translators: a short one.

  // -- not a note -------------------------------------------------------------
  "x": "X",
};'''
    notes = {key: n for _line, key, _t, _p, n in read_table(source)}
    assert notes["list.and"] == ['Translators: joining a list: "{a} and {b}" ends it, '
                                 '"{a}, {b}" goes before.']
    assert notes["x"] == ["Translators: a short one."]
