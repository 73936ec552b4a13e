"""The web app's message table, read for the translators (a Babel extraction method).

The page's words live in one table in ``static/js/i18n.js``, keyed by id::

    const EN = {
      "btn.draw": "Draw",
      "sheet.boxes": { one: "1 box", other: "{n} boxes" },
    };

and ``t("btn.draw")`` shows them. ``make i18n`` reads the table with
:func:`extract_message_table` (named in ``babel.cfg``): each key becomes a message whose
context is the key and whose id is the English (a plural object gives the singular and
the plural id), so the translators translate English and see the key. Then
:func:`hollywood_gin.i18n.catalogue_json` gives the page ``{key: translation}`` back,
a plural as ``{one: ..., few: ..., other: ...}`` in the language's CLDR categories.
Standard library only; Babel calls it, the app never imports it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

__all__ = ["TableError", "extract_message_table", "read_table"]


class TableError(ValueError):
    """The table is not the plain object literal the translators' tools can read."""


_START = r"\b(?:const|let|var)\s+{name}\s*=\s*\{{"
_TOKEN = re.compile(
    r"""(?P<space>\s+)
      | (?P<comment>//[^\n]*|/\*.*?\*/)
      | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
      | (?P<name>[A-Za-z_$][\w$]*)
      | (?P<punct>[{}:,])
      | (?P<other>.)""",
    re.S | re.X,
)
_ESCAPE = re.compile(r"\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}

#: One message: (line, key, English, English plural or None, translator comments).
Message = tuple[int, str, str, str | None, list[str]]


def _unquote(literal: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = m.group(1) or m.group(2) or m.group(3)
        if code:
            return chr(int(code, 16))
        return _SIMPLE.get(m.group(4), m.group(4))

    return _ESCAPE.sub(one, literal[1:-1])


def read_table(source: str, table: str = "EN",
               comment_tags: Collection[str] = ("Translators:",)) -> list[Message]:
    """The messages of ``const <table> = {...}`` in a JavaScript source; none if absent.

    Keys and texts must be string literals (a plural: an object of ``one`` and ``other``);
    anything else raises :class:`TableError` naming the line.
    """
    start = re.search(_START.format(name=re.escape(table)), source)
    if start is None:
        return []
    line = source.count("\n", 0, start.end()) + 1
    tokens: list[tuple[str, str, int]] = []
    depth = 1
    for m in _TOKEN.finditer(source, start.end()):
        kind, text = m.lastgroup or "other", m.group()
        if kind != "space":
            tokens.append((kind, text, line))
        line += text.count("\n")
        if kind == "punct" and text in "{}":
            depth += 1 if text == "{" else -1
            if depth == 0:
                break
    else:
        raise TableError(f"line {line}: the table {table} is never closed")

    out: list[Message] = []
    notes: list[str] = []
    pos = 0

    noted = -2  # the line of the last comment kept for the translators

    def take(what: str, *kinds: str, text: str | None = None) -> tuple[str, str, int]:
        nonlocal pos, noted
        while tokens[pos][0] == "comment":
            body = tokens[pos][1].lstrip("/*").rstrip("*/").strip()
            if any(body.startswith(tag) for tag in comment_tags):
                notes.append(body)
                noted = tokens[pos][2]
            elif notes and tokens[pos][2] == noted + 1 and tokens[pos][1].startswith("//"):
                notes[-1] += " " + body  # a // note goes on over the next lines
                noted += 1
            pos += 1
        tok = tokens[pos]
        if tok[0] not in kinds or (text is not None and tok[1] != text):
            raise TableError(f"line {tok[2]}: the table {table} has {tok[1]!r} where {what} "
                             "should be (keys and texts are plain string literals)")
        pos += 1
        return tok

    while True:
        kind, text, at = take("a quoted key", "string", "punct")
        if text == "}":
            return out
        if kind != "string":
            raise TableError(f"line {at}: the table {table} has {text!r} where a quoted key "
                             "should be (keys and texts are plain string literals)")
        key = _unquote(text)
        take("':'", "punct", text=":")
        kind, text, at = take("a quoted text", "string", "punct")
        if kind == "string":
            out.append((at, key, _unquote(text), None, notes[:]))
        elif text == "{":
            forms: dict[str, str] = {}
            while True:
                kind, text, _at = take("a plural form", "name", "string", "punct")
                if text == "}":
                    break
                if kind == "punct":
                    continue  # the commas between forms
                category = _unquote(text) if kind == "string" else text
                take("':'", "punct", text=":")
                forms[category] = _unquote(take("a quoted text", "string")[1])
            if set(forms) != {"one", "other"}:
                raise TableError(f"line {at}: {key!r} must give the English forms one and "
                                 f"other, not {', '.join(sorted(forms)) or 'none'}")
            out.append((at, key, forms["one"], forms["other"], notes[:]))
        else:
            raise TableError(f"line {at}: {key!r} must be a string or an object of plural "
                             "forms")
        notes.clear()
        if tokens[pos][1] == ",":
            pos += 1


def extract_message_table(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """Babel's extraction method for the table (``babel.cfg`` option ``table``, default EN)."""
    source = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    for line, key, text, plural, notes in read_table(
            source, str(options.get("table", "EN")), comment_tags):
        if plural is None:
            yield line, "pgettext", (key, text), notes
        else:
            yield line, "npgettext", (key, text, plural), notes
