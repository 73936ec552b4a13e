"""The ``/rules`` page: the project's rule book for the rules of a table or of a preset,
rendered from :mod:`hollywood_gin.rulebook` (Markdown) with markdown-it-py.

The page is plain HTML from the server: the book's Markdown is rendered with raw HTML
switched off, so nothing in it can become markup it does not mean, and every value put
around it is escaped.  It speaks the request's language (``?lang=``, else the browser's,
see :mod:`.language`); its language list is links, and a small script of its own
(``static/js/rulespage.js``) remembers a choice in the browser as the game's pages do.
"""

from __future__ import annotations

from functools import cache
from html import escape
from urllib.parse import urlencode

from markdown_it import MarkdownIt

from .. import i18n
from ..i18n import _
from ..rulebook import rule_book, rules_in_force
from ..rules import Rules, preset_label

__all__ = ["rules_page"]


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _switcher(lang: str, table: str | None, preset: str | None) -> str:
    """The languages as links to this page in each (the one shown marked current)."""
    path = f"/rules/{table}" if table is not None else "/rules"
    links = []
    for code, name in i18n.LANGUAGES.items():
        query = urlencode({"preset": preset, "lang": code} if preset and table is None
                          else {"lang": code})
        current = ' aria-current="true"' if code == lang else ""
        links.append(f'<a href="{escape(path)}?{escape(query)}" hreflang="{code}" '
                     f'lang="{code}" data-lang="{code}"{current}>{escape(name)}</a>')
    label = escape(_("Language"))
    return f'<nav class="lang-switch" aria-label="{label}">{"".join(links)}</nav>\n'


def rules_page(rules: Rules, *, table: str | None = None, lang: str = "en",
               preset: str | None = None) -> str:
    """The whole page: where it belongs (a table or a preset), the rules in force, the book,
    in ``lang`` (the chrome from the catalogue, the book from its template in that language).
    ``preset`` is the one asked for, kept in the language links."""
    if table is not None:
        heading = _("The rules of this table")
        back = (f"/t/{table}", _("Back to the table"))
    else:
        name = rules.preset_name
        heading = (_("The rules of the {preset} preset").format(preset=preset_label(name))
                   if name else _("Custom rules"))
        back = ("/", _("Back to the lobby"))
    lines = "".join(f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>"
                    for label, value in rules_in_force(rules))
    book = _markdown().render(rule_book(rules, lang=lang))
    title = escape(_("Rules · Hollywood Gin"))
    return (
        "<!doctype html>\n"
        f'<html lang="{escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="dark">\n'
        f"<title>{title}</title>\n"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/css/style.css">\n'
        '<script type="module" src="/static/js/rulespage.js"></script>\n</head>\n<body>\n'
        '<main class="rulebook">\n'
        + _switcher(lang, table, preset) +
        f'<nav><a class="btn" href="{escape(back[0])}">{escape(back[1])}</a></nav>\n'
        f'<section class="in-force-page" aria-labelledby="in-force-title">'
        f'<h2 id="in-force-title">{escape(heading)}</h2><dl>{lines}</dl></section>\n'
        f'<article class="book">\n{book}</article>\n</main>\n</body>\n</html>\n'
    )
