"""Which language is longest on screen, and is the pseudo-locale longer still (issue 12)?

The layout tests (the terminal's screens at 80x24 in ``tests/tui/test_tui_pseudo.py``, the
web app at 390x844 in ``tests/web/test_web_i18n.py``) render the pseudo-locale, which
grows every message about 1.4 times and wraps it in ``⟦ ⟧``: a screen that holds it holds
every real language, as long as it stays longer than each of them, which this test checks
on the entries each catalogue has translated.

``python tests/test_layout_languages.py`` prints the measure of each language (terminal
cells of the translations over those of the English, on the same entries; how complete
each catalogue is).  To check the layouts with the longest real language instead, once
every catalogue is complete: set ``LONGEST`` in ``tests/web/test_web_i18n.py`` to its code
(and the ``qps`` fixture of ``tests/tui/test_tui_pseudo.py`` likewise; the scans for
untranslated words there need the pseudo-locale, the fit checks do not).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po
from rich.cells import cell_len

from hollywood_gin import i18n

LOCALE = Path(i18n.__file__).parent / "locale"


def _texts(lang: str) -> dict[tuple[str | None, str], str]:
    """Each translated, not fuzzy entry's text (plural: its last form, the usual one)."""
    with (LOCALE / lang / "LC_MESSAGES" / "hollywood_gin.po").open("rb") as fp:
        catalog = read_po(fp)
    out = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        text = m.string[-1] if isinstance(m.string, (list, tuple)) else m.string
        if text:
            ident = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
            out[(m.context, ident)] = text
    return out


def measure() -> dict[str, tuple[float, float, float]]:
    """Per language: (its cells / the English's, the pseudo-locale's / the English's on the
    same entries, the share of the template translated)."""
    with (LOCALE / "hollywood_gin.pot").open("rb") as fp:
        template = [m for m in read_po(fp) if m.id]
    english = {(m.context, m.id[0] if isinstance(m.id, (list, tuple)) else m.id):
               (m.id[-1] if isinstance(m.id, (list, tuple)) else m.id) for m in template}
    out = {}
    for lang in i18n.LANGUAGES:
        if lang == "en":
            continue
        texts = _texts(lang)
        common = [k for k in texts if k in english]
        if not common:
            out[lang] = (0.0, 0.0, 0.0)
            continue
        base = sum(cell_len(english[k]) for k in common)
        out[lang] = (sum(cell_len(texts[k]) for k in common) / base,
                     sum(cell_len(i18n.pseudo(english[k])) for k in common) / base,
                     len(common) / len(english))
    return out


def longest() -> str:
    """The real language that runs longest on screen (on what is translated so far)."""
    return max(measure().items(), key=lambda item: item[1][0])[0]


def test_the_pseudo_locale_is_longer_than_every_language() -> None:
    measured = measure()
    assert set(measured) == set(i18n.LANGUAGES) - {"en"}
    for lang, (ratio, pseudo, share) in measured.items():
        if share:
            assert pseudo > ratio, (lang, ratio, pseudo)
            assert ratio < 1.35, f"{lang} runs {ratio:.2f} times the English: check the layouts"
    assert longest() in i18n.LANGUAGES


if __name__ == "__main__":
    for lang, (ratio, pseudo, share) in sorted(measure().items(), key=lambda i: -i[1][0]):
        print(f"{lang}  {ratio:.2f} x English  (pseudo-locale {pseudo:.2f} x on the same "
              f"entries; {share:.0%} translated)")
    print("longest:", longest())
