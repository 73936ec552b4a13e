"""Every catalogue is complete, checked and in step with the code (issue 12).

For each language: every message translated and none fuzzy, the placeholders of each
translation exactly those of the English (``{card}``, ``{n:>3}``, ``%(n)s``), the right
number of plural forms under a Plural-Forms header that matches CLDR's plural rules,
and Babel's own checks clean. The template holds exactly what the code marks, so a
message wrapped but not extracted (``make i18n`` forgotten) fails here too.
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Callable
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from hollywood_gin import i18n

#: The keywords `make i18n` extracts (the Makefile adds N_plural, a plural marker).
KEYWORDS = {**DEFAULT_KEYWORDS, "N_plural": (1, 2)}
ROOT = Path(__file__).resolve().parent.parent
LOCALE = i18n.LOCALE_DIR
TEMPLATE = LOCALE / "hollywood_gin.pot"
TRANSLATED = [code for code in i18n.LANGUAGES if code != "en"]

# Plural forms per gettext's and CLDR's conventions: Lithuanian three (one, few, other),
# Lao none (one form), Afrikaans, Norwegian Bokmål and Hausa two (one, other).
NPLURALS = {"af": 2, "lt": 3, "nb": 2, "lo": 1, "ha": 2}


def load(path: Path) -> Catalog:
    with path.open("rb") as fp:
        return read_po(fp)


def messages(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def key(m: Message) -> tuple[str, str]:
    return (m.context or "", m.id if isinstance(m.id, str) else m.id[0])


_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa%]")


def placeholders(text: str) -> list[tuple[str, str, str]]:
    """The format fields and %-placeholders of ``text``, sorted (raises on bad braces)."""
    found = [(name, spec or "", conv or "") for _lit, name, spec, conv
             in string.Formatter().parse(text) if name is not None]
    found += [(p, "", "%") for p in _PERCENT.findall(text) if p != "%%"]
    return sorted(found)


@pytest.fixture(scope="module")
def template() -> Catalog:
    return load(TEMPLATE)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_entry_translated_none_fuzzy_and_in_step_with_the_template(
        lang: str, template: Catalog) -> None:
    catalog = load(LOCALE / lang / "LC_MESSAGES" / "hollywood_gin.po")
    assert str(catalog.locale) == lang
    assert not catalog.obsolete, "run `make i18n` (it drops obsolete entries)"
    assert sorted(map(key, messages(catalog))) == sorted(map(key, messages(template))), (
        "the catalogue is not in step with the template: run `make i18n`")
    for m in messages(catalog):
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        assert not m.fuzzy, f"{lang}: fuzzy: {m.id!r}"
        assert all(forms), f"{lang}: untranslated: {m.id!r}"


_GLUED = re.compile(r"[.!?][^\W\d_]")  # a sentence's end with the next one glued on


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_translation_has_another_glued_onto_it(lang: str) -> None:
    """Regression: a msgstr edited by hand ran on into the next message's translation
    ("...lagret.Denne kampen ble spilt videre..."), and the screen showed both."""
    catalog = load(LOCALE / lang / "LC_MESSAGES" / "hollywood_gin.po")
    for m in messages(catalog):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        if not _GLUED.search(ids[0]):
            assert not any(_GLUED.search(form) for form in forms), f"{lang}: {forms!r}"


def plural_function(catalog: Catalog) -> Callable[[int], int]:
    return gettext.c2py(dict(catalog.mime_headers)["Plural-Forms"].split("plural=", 1)[1]
                        .rstrip(";"))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_identical_to_the_english(lang: str) -> None:
    """Every form keeps the English placeholders; only a form used for 1 alone ("1 box",
    "1 boks") may leave the count out, as msgfmt allows. Lithuanian's first form serves 1,
    21, 31..., Lao's only form every count: those keep ``{n}``."""
    catalog = load(LOCALE / lang / "LC_MESSAGES" / "hollywood_gin.po")
    plural = plural_function(catalog)
    only_one = {f for f in range(catalog.num_plurals)
                if [n for n in range(1001) if plural(n) == f] == [1]}
    for m in messages(catalog):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy:
            continue  # a guess, never shown: the completeness test names it
        want = placeholders(ids[-1])
        if len(ids) == 2:
            assert set(placeholders(ids[0])) <= set(want), f"English forms differ: {ids}"
        for i, form in enumerate(forms):
            if not form:
                continue  # untranslated: the completeness test names it
            got = placeholders(form)
            if len(ids) == 2 and i in only_one:
                assert set(got) <= set(want), f"{lang}: {form!r} for {ids[0]!r}"
            else:
                assert got == want, f"{lang}: {form!r} for {ids[0]!r}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_header_and_forms(lang: str) -> None:
    catalog = load(LOCALE / lang / "LC_MESSAGES" / "hollywood_gin.po")
    header = dict(catalog.mime_headers)
    assert catalog.num_plurals == NPLURALS[lang]
    assert header["Plural-Forms"].startswith(f"nplurals={NPLURALS[lang]};")
    # The expression picks, for every count, the form CLDR's category gives in the
    # order the browser uses (i18n.PLURAL_CATEGORIES, with Intl.PluralRules).
    plural = plural_function(catalog)
    rule = Locale.parse(lang).plural_form
    order = i18n.PLURAL_CATEGORIES[lang]
    assert len(order) == NPLURALS[lang]
    for n in range(0, 1001):
        assert plural(n) == order.index(rule(n)), (lang, n)
    for m in messages(catalog):
        if m.pluralizable:
            assert len(m.string) == NPLURALS[lang], f"{lang}: {m.id!r}"
    errors = [(m.id, e) for m, e in catalog.check()]
    assert errors == [], errors


def test_the_template_holds_exactly_what_the_code_marks(template: Catalog) -> None:
    """Extract as `make i18n` does (babel.cfg, Babel's default keywords) and compare."""
    with (ROOT / "babel.cfg").open() as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    found: set[tuple[str, str]] = set()
    for _file, _line, msg, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS,
            comment_tags=("Translators:",)):
        found.add((context or "", msg if isinstance(msg, str) else msg[0]))
    assert found, "no marked message found"
    assert found == set(map(key, messages(template))), (
        "src/hollywood_gin/locale/hollywood_gin.pot is out of date: run `make i18n`")


def test_no_message_is_marked_with_an_f_string() -> None:
    """``_(f"...")`` cannot be extracted (translators would never see it): format after ``_``."""
    bad = re.compile(r"(?<![\w.])(?:_|N_|ngettext|pgettext|npgettext)\(\s*f[\"']")
    hits = []
    for path in sorted((ROOT / "src" / "hollywood_gin").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if bad.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert hits == []
