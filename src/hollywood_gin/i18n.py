"""The player's language: every word a player reads goes through here (gettext).

Wrap player-facing text in ``_("...")`` with named placeholders filled by ``.format``
after translation (``_("Discard {card}?").format(card=...)``), plurals in
``ngettext``, short words that need a context in ``pgettext``, and text defined at
import time in ``N_`` (translated where shown). Record formats, JSON output, protocol
codes and operator logs are not translated.

The catalogues are the ``.po`` files in ``locale/<lang>/LC_MESSAGES/`` (one source of
truth); the install compiles them to ``.mo`` files, and a source checkout without
``.mo`` files reads the ``.po`` files directly. The language in force is the process
default (:func:`set_language`, English until a front end sets it) unless a
:func:`using` block overrides it for the current context: a web server serves each
seat in its own language with ``with i18n.using(seat.lang): ...``.

:data:`PSEUDO` (``qps``) is a test language, never offered to players: every message
of the English catalogue comes out accented and wrapped in ``⟦ ⟧``, so a test that
renders a screen under it can find any text that did not come through the
catalogue (:func:`pseudo_leaks`).
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import io
import os
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from .errors import HollywoodGinError
from .po import Entry, compile_mo, header, read_po

__all__ = [
    "DECIMAL_MARKS",
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "PSEUDO",
    "LanguageError",
    "LocalNumber",
    "N_plural",
    "_",
    "best_match",
    "catalogue_json",
    "choose_language",
    "is_you",
    "language",
    "local_number",
    "ngettext",
    "npgettext",
    "pgettext",
    "pseudo",
    "pseudo_leaks",
    "set_language",
    "set_translations",
    "translation",
    "using",
    "validate_language",
]

DOMAIN = "hollywood_gin"
LOCALE_DIR = Path(__file__).with_name("locale")
DEFAULT_LANGUAGE = "en"

#: The languages offered to players: code -> the language's name in itself (for a switcher).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "af": "Afrikaans",
    "lt": "Lietuvių",
    "nb": "Norsk bokmål",
    "lo": "ລາວ",
    "ha": "Hausa",
}

#: The pseudo-locale for tests (Microsoft's code for it); accepted, never offered.
PSEUDO = "qps"

# Codes that mean an offered language: Norwegian (no) and Nynorsk readers get Bokmål.
_ALIASES = {"no": "nb", "nn": "nb", "c": "en", "posix": "en"}

#: The CLDR plural category of each gettext plural form, in form order, so the browser
#: can pick a form with ``Intl.PluralRules`` (a strict CSP forbids evaluating the
#: catalogue's C expression). Checked against each catalogue's Plural-Forms by the tests.
PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "af": ("one", "other"),
    "lt": ("one", "few", "other"),
    "nb": ("one", "other"),
    "lo": ("other",),
    "ha": ("one", "other"),
    PSEUDO: ("one", "other"),
}

_ENGLISH_PLURALS = "nplurals=2; plural=(n != 1);"


class LanguageError(HollywoodGinError):
    """A language code names none of the languages offered."""


# -- the language in force ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Active:
    lang: str
    translations: gettext.NullTranslations


_default = _Active(DEFAULT_LANGUAGE, gettext.NullTranslations())
_context: contextvars.ContextVar[_Active | None] = contextvars.ContextVar(
    "hollywood_gin_language", default=None
)


def _active() -> _Active:
    active = _context.get()
    return _default if active is None else active


def _(message: str) -> str:
    return _active().translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` (Lithuanian has three, Lao one)."""
    return _active().translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in a named context, for a short word with two meanings."""
    return _active().translations.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _active().translations.npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it yet (module-level tables)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted message for extraction without translating it yet: the pair to give
    :func:`ngettext` with the count where the message is shown (``make i18n`` knows this
    keyword as a plural, like ``ngettext``)."""
    return singular, plural


def language() -> str:
    """The code of the language in force here (``en`` for a catalogue set by hand)."""
    return _active().lang


def is_you(name: str) -> bool:
    """The seat named "You" (as the terminal game saves its player, or in the language in
    force) is spoken to in the second person."""
    return name in ("You", _("You"))


#: The decimal mark of each language that does not write a point (CLDR's).
DECIMAL_MARKS = {"af": ",", "lt": ",", "nb": ",", "lo": ","}


class LocalNumber(float):
    """A number that writes the decimal mark of the language in force when it is formatted
    ("9,8" in Lithuanian, "9.8" in English): the numbers given to a sentence are wrapped
    in it, so that a translated "{lost:.1f} points lost" reads as its language writes."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        text = float.__format__(self, spec)
        mark = DECIMAL_MARKS.get(language())
        return text.replace(".", mark) if mark else text


def local_number(x: float) -> LocalNumber:
    """``x`` to be formatted with the language's decimal mark (see :class:`LocalNumber`)."""
    return LocalNumber(x)


def set_translations(translations: gettext.NullTranslations) -> None:
    """Make ``translations`` the process default every later ``_`` call reads."""
    global _default
    code = _base(str(translations.info().get("language", "")))
    _default = _Active(code if code in LANGUAGES or code == PSEUDO else DEFAULT_LANGUAGE,
                       translations)


def set_language(lang: str) -> str:
    """Make ``lang`` the process default (front ends call this once); returns its code."""
    global _default
    code = validate_language(lang)
    _default = _Active(code, translation(code))
    return code


@contextlib.contextmanager
def using(lang: str) -> Iterator[str]:
    """Speak ``lang`` in this context only (a thread, an asyncio task): one seat's language."""
    code = validate_language(lang)
    token = _context.set(_Active(code, translation(code)))
    try:
        yield code
    finally:
        _context.reset(token)


# -- choosing a language ------------------------------------------------------------------


def _base(tag: str) -> str:
    """The bare language of a locale name or language tag: ``nb_NO.UTF-8`` -> ``nb``."""
    tag = tag.strip().split(".", 1)[0].split("@", 1)[0]
    lang = re.split(r"[-_]", tag, maxsplit=1)[0].lower()
    return _ALIASES.get(lang, lang)


def _offered() -> str:
    return ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())


def validate_language(lang: str) -> str:
    """The offered language ``lang`` names (``nb-NO`` -> ``nb``); raises :class:`LanguageError`."""
    code = _base(lang) if isinstance(lang, str) else ""
    if code in LANGUAGES or code == PSEUDO:
        return code
    raise LanguageError(
        # Translators: {offered} lists the codes with each language's own name.
        _("unknown language {lang!r}: the languages offered are {offered}").format(
            lang=lang, offered=_offered()
        )
    )


def choose_language(argv_lang: str | None = None,
                    environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` if given, else the environment as gettext reads it, else English.

    As Python's ``gettext.find``: the first non-empty of ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` decides; its colon-separated entries are tried in order
    and the first offered one wins (``C``/``POSIX`` mean English). A bad ``--lang``
    raises :class:`LanguageError`; an unknown environment language is English.
    """
    if argv_lang is not None:
        return validate_language(argv_lang)
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            for item in value.split(":"):
                code = _base(item)
                if code in LANGUAGES:
                    return code
            break
    return DEFAULT_LANGUAGE


def best_match(accept_language: str | None) -> str:
    """The offered language a browser's ``Accept-Language`` header prefers, else English."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "")[:2000].split(",")[:64]):
        tag, __, params = part.partition(";")
        q = 1.0
        for param in params.split(";"):
            key, __, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if 0.0 < q <= 1.0 and tag.strip():
            ranked.append((-q, i, tag.strip()))
    for _q, _i, tag in sorted(ranked):
        code = DEFAULT_LANGUAGE if tag == "*" else _base(tag)
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


# -- catalogues ---------------------------------------------------------------------------

_cache: dict[tuple[str, Path], gettext.NullTranslations] = {}
_lock = threading.Lock()


def _po_path(code: str, localedir: Path) -> Path:
    return localedir / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def _pot_path(localedir: Path) -> Path:
    return localedir / f"{DOMAIN}.pot"


def translation(lang: str, localedir: Path | None = None) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (cached): the installed ``.mo``, else the ``.po`` itself.

    English is the source language and needs none; a missing catalogue also means
    English, as gettext's fallback does.
    """
    code = validate_language(lang)
    where = LOCALE_DIR if localedir is None else Path(localedir)
    key = (code, where)
    with _lock:
        found = _cache.get(key)
        if found is None:
            found = _cache[key] = _load(code, where)
    return found


def _in_checkout(localedir: Path) -> bool:
    """Whether the catalogues are a source tree's (``src/hollywood_gin/locale`` beside a
    ``pyproject.toml``), where a translator may have edited a .po since its .mo was made."""
    return (localedir.resolve().parents[2] / "pyproject.toml").exists()


def _load(code: str, localedir: Path) -> gettext.NullTranslations:
    if code == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    if code == PSEUDO:
        pot = _pot_path(localedir)
        if not pot.exists():
            return gettext.NullTranslations()
        return gettext.GNUTranslations(io.BytesIO(compile_mo(_pseudo_entries(pot))))
    po_file = _po_path(code, localedir)
    mo_file = po_file.with_suffix(".mo")
    # In a checkout, a .mo older than its .po (a translator's edit not yet compiled) is
    # not used; an installed package's .mo is its .po compiled, whatever the times pip
    # unpacked them with (the .mo first, by name: it was never used, and every process
    # parsed the five .po files at start).
    if mo_file.exists() and (not po_file.exists() or not _in_checkout(localedir)
                             or mo_file.stat().st_mtime >= po_file.stat().st_mtime):
        with mo_file.open("rb") as fp:
            return gettext.GNUTranslations(fp)
    if po_file.exists():
        entries = _entries(po_file)
        return gettext.GNUTranslations(io.BytesIO(compile_mo(entries)))
    return gettext.NullTranslations()


_parsed: dict[Path, tuple[int, list[Entry]]] = {}
_parsed_lock = threading.Lock()


def _entries(path: Path) -> list[Entry]:
    """A catalogue file's entries, parsed again only when the file changes."""
    stamp = path.stat().st_mtime_ns
    with _parsed_lock:
        found = _parsed.get(path)
    if found is None or found[0] != stamp:
        found = (stamp, read_po(path.read_text(encoding="utf-8")))
        with _parsed_lock:
            _parsed[path] = found
    return found[1]


def _pseudo_entries(pot: Path) -> list[Entry]:
    entries = _entries(pot)
    out = [Entry(msgid="", msgstr=(
        f"Content-Type: text/plain; charset=UTF-8\nLanguage: {PSEUDO}\n"
        f"Plural-Forms: {_ENGLISH_PLURALS}\n",))]
    for e in entries:
        if not e.msgid:
            continue
        forms = (e.msgid,) if e.msgid_plural is None else (e.msgid, e.msgid_plural)
        out.append(Entry(msgid=e.msgid, msgid_plural=e.msgid_plural, context=e.context,
                            msgstr=tuple(pseudo(f) for f in forms), locations=e.locations))
    return out


def _is_browser_message(entry: Entry) -> bool:
    return any(loc.rsplit(":", 1)[0].endswith(".js") for loc in entry.locations)


def catalogue_json(lang: str, localedir: Path | None = None) -> dict[str, object]:
    """The web app's messages in ``lang`` for the browser, from the same ``.po`` files.

    ``messages`` maps each key of the page's message table (``static/js/i18n.js``, whose
    keys are the messages' contexts in the catalogue, see ``web/messages_table.py``) to
    its translation, a plural to ``{category: form}`` in the language's CLDR categories
    (what ``Intl.PluralRules(lang).select(n)`` returns); an untranslated or fuzzy message
    is left out, so the page shows its English. English itself needs none.
    ``plural_categories`` lists the categories in the catalogue's form order and
    ``plural_forms`` is its header.
    """
    code = validate_language(lang)
    where = LOCALE_DIR if localedir is None else Path(localedir)
    plural_forms = _ENGLISH_PLURALS
    categories = PLURAL_CATEGORIES[code]
    messages: dict[str, str | dict[str, str]] = {}
    entries: list[Entry] = []
    if code == PSEUDO and _pot_path(where).exists():
        entries = _pseudo_entries(_pot_path(where))
    elif code not in (DEFAULT_LANGUAGE, PSEUDO) and _po_path(code, where).exists():
        entries = _entries(_po_path(code, where))
    for e in entries:
        if not e.msgid:
            plural_forms = header(e.msgstr[0]).get("Plural-Forms", plural_forms)
        elif _is_browser_message(e) and e.translated:
            key = e.msgid if e.context is None else e.context
            if e.msgid_plural is None:
                messages[key] = e.msgstr[0]
            else:
                messages[key] = dict(zip(categories, e.msgstr, strict=False))
    return {
        "lang": code,
        "name": LANGUAGES.get(code, "pseudo"),
        "plural_forms": plural_forms,
        "plural_categories": list(categories),
        "decimal_mark": DECIMAL_MARKS.get(code, "."),  # the page writes numbers as Python
        "messages": messages,
    }


# -- the pseudo-locale --------------------------------------------------------------------

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçďéƒğĥíĵķĺḿñóṕʠŕšťúṽŵẋýžÁƁÇĎÉƑĞĤÍĴĶĹḾÑÓṔɊŔŠŤÚṼŴẊÝŽ",
)
# Kept as they are: format fields ({card}, {n:>3}, {{), %-placeholders, Rich/Textual
# markup ([b], [/], [@click=...]), HTML tags and entities, rule numbers (R4.1), command-line
# options (--help) and the command's name (hollywood-gin): a translator keeps them too.
_KEEP = re.compile(
    r"\{\{|\}\}|\{[^{}]*\}|\bR\d+(?:\.\d+)+|(?<![\w-])--[a-z][a-z-]*|\bhollywood-gin\b"
    r"|%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa%]"
    r"|\[/?[^\[\]\s][^\[\]]*\]|<[^<>]*>|&#?\w+;"
)
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"
#: Added to every word of the pseudo-locale, 2 for each 5 letters, so that it runs about
#: 1.4 times as long as the English: longer than any real catalogue measured, so a screen
#: that holds it holds them (a stress test for the layout tests; see docs/i18n/README.md).
PSEUDO_PAD = "·"
PSEUDO_GROWTH = 0.4
_LETTERS = re.compile(r"[A-Za-z]+")


def _accent(text: str) -> str:
    """Letters accented, each word lengthened by :data:`PSEUDO_GROWTH` of its length."""
    return _LETTERS.sub(
        lambda m: m.group().translate(_ACCENTS)
        + PSEUDO_PAD * int(len(m.group()) * PSEUDO_GROWTH + 0.5), text)


def pseudo(message: str) -> str:
    """``message`` accented, lengthened and wrapped in ``⟦ ⟧``, placeholders and markup
    intact: ``Discard {card}`` -> ``⟦Ďíšçáŕď·· {card}⟧``."""
    out: list[str] = []
    pos = 0
    for m in _KEEP.finditer(message):
        out.append(_accent(message[pos:m.start()]))
        out.append(m.group())
        pos = m.end()
    out.append(_accent(message[pos:]))
    return PSEUDO_OPEN + "".join(out) + PSEUDO_CLOSE


_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*[A-Za-z]")
_CARD_TEXT = re.compile(r"\b(?:10|[2-9TJQKA])[shdc]\b")
_HEX_ID = re.compile(r"\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b")
# What the player types as it is: a command (hollywood-gin rules), an option (--rule).
_COMMAND_TEXT = re.compile(r"\bhollywood-gin(?: [a-z]+)?\b|(?<![\w-])--[a-z][a-z-]*")


def pseudo_leaks(text: str, allow: Iterable[str] = ("Hollywood Gin",)) -> list[str]:
    """The words of a screen rendered under :data:`PSEUDO` that skipped the catalogue.

    Every letter the catalogue gives is accented, so a plain ASCII word of two letters
    or more came from somewhere else: an unwrapped string, a message missing from the
    template, or a name. ``allow`` lists the texts allowed through (proper names);
    cards in their letter form (``Th``, ``As``: data, not words), ids (hexadecimal with a
    digit, like ``3fe1a2b4``), commands and options to type (``hollywood-gin rules``,
    ``--rule``: the pseudo-locale keeps them, as a translator must) are allowed too.
    """
    text = _COMMAND_TEXT.sub(" ", _HEX_ID.sub(" ", text))
    for name in sorted(allow, key=len, reverse=True):
        text = text.replace(name, " ")
    return _WORD.findall(_CARD_TEXT.sub(" ", text))
