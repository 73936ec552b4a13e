"""Read gettext ``.po`` files and compile them to ``.mo`` bytes, with the standard library.

The install compiles the catalogues with Babel; this is what a source checkout (no
``.mo`` files) and the pseudo-locale use at run time, and what gives the browser its
messages from the same ``.po`` files (:func:`hollywood_gin.i18n.catalogue_json`).
It reads what Babel and GNU gettext write: comments, ``msgctxt``, plurals,
continued strings; obsolete (``#~``) entries are skipped.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

__all__ = ["Entry", "PoError", "compile_mo", "header", "read_po"]


class PoError(ValueError):
    """A ``.po`` file that cannot be read; names the line."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One message: its id (and plural id, context), translations, flags and where it is used."""

    msgid: str
    msgstr: tuple[str, ...] = ("",)
    msgid_plural: str | None = None
    context: str | None = None
    flags: frozenset[str] = frozenset()
    locations: tuple[str, ...] = ()

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        """Every form has a translation and none is only a guess (fuzzy)."""
        return not self.fuzzy and all(self.msgstr)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}
_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|(.))")
_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")


def _unquote(text: str, lineno: int) -> str:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"line {lineno}: expected a quoted string, not {text!r}")

    def one(m: re.Match[str]) -> str:
        if m.group(1):
            return chr(int(m.group(1), 8))
        return _ESCAPES.get(m.group(2), m.group(2))

    return _ESCAPE.sub(one, text[1:-1])


def read_po(text: str) -> list[Entry]:
    """The entries of a ``.po`` (or ``.pot``) file's text, the header (msgid ``""``) first."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    plurals: dict[int, str] = {}
    flags: set[str] = set()
    locations: list[str] = []
    last: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal last
        if "msgid" in fields:
            if plurals:
                msgstr = tuple(plurals[i] for i in sorted(plurals))
            else:
                msgstr = (fields.get("msgstr", ""),)
            entries.append(Entry(msgid=fields["msgid"], msgstr=msgstr,
                                 msgid_plural=fields.get("msgid_plural"),
                                 context=fields.get("msgctxt"), flags=frozenset(flags),
                                 locations=tuple(locations)))
        fields.clear()
        plurals.clear()
        flags.clear()
        locations.clear()
        last = None

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if last is not None and last[0] != "msgctxt":
                finish()
            if line.startswith("#,"):
                flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            elif line.startswith("#:"):
                locations.extend(line[2:].split())
            continue
        if line.startswith('"'):
            if last is None:
                raise PoError(f"line {lineno}: a string continues nothing")
            name, form = last
            if name == "msgstr[]":
                plurals[form] += _unquote(line, lineno)
            else:
                fields[name] += _unquote(line, lineno)
            continue
        m = _KEYWORD.match(line)
        if m is None:
            raise PoError(f"line {lineno}: cannot read {raw!r}")
        keyword, index, value = m.group(1), m.group(2), _unquote(m.group(3), lineno)
        if keyword in ("msgctxt", "msgid") and "msgid" in fields:
            finish()
        if index is not None:
            plurals[int(index)] = value
            last = ("msgstr[]", int(index))
        else:
            fields[keyword] = value
            last = (keyword, 0)
    finish()
    return entries


def header(text: str) -> dict[str, str]:
    """The fields of a catalogue's header entry (``Plural-Forms``, ``Language``...)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep:
            out[name.strip()] = value.strip()
    return out


def compile_mo(entries: list[Entry]) -> bytes:
    """GNU ``.mo`` bytes of the translated entries (fuzzy and empty ones left out, as
    msgfmt does; the header is always kept), for :class:`gettext.GNUTranslations`."""
    pairs: dict[bytes, bytes] = {}
    for e in entries:
        if e.msgid and not e.translated:
            continue
        key = e.msgid if e.msgid_plural is None else f"{e.msgid}\0{e.msgid_plural}"
        if e.context is not None:
            key = f"{e.context}\x04{key}"
        pairs[key.encode()] = "\0".join(e.msgstr).encode()
    keys = sorted(pairs)
    n = len(keys)
    ids = strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(pairs[k])))
        ids += k + b"\0"
        strs += pairs[k] + b"\0"
    key_start = 7 * 4 + 16 * n
    value_start = key_start + len(ids)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_off, id_len, str_off, str_len in offsets:
        key_table += [id_len, key_start + id_off]
        value_table += [str_len, value_start + str_off]
    return (struct.pack("<Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
            + struct.pack(f"<{2 * n}i", *key_table) + struct.pack(f"<{2 * n}i", *value_table)
            + ids + strs)
