"""The ``/rules`` page: the project's rule book for the rules of a table or of a preset,
rendered from :mod:`hollywood_gin.rulebook` (Markdown) with markdown-it-py.

The page is plain HTML from the server (no script): the book's Markdown is rendered with
raw HTML switched off, so nothing in it can become markup it does not mean, and every
value put around it is escaped.
"""

from __future__ import annotations

from functools import cache
from html import escape

from markdown_it import MarkdownIt

from ..i18n import _
from ..rulebook import LANGUAGES, rule_book, rules_in_force
from ..rules import Rules

__all__ = ["language", "rules_page"]


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def language(accept: str | None) -> str:
    """The first language of an Accept-Language header that has a rule book (else English)."""
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        for lang in (tag, tag.split("-")[0]):
            if lang in LANGUAGES:
                return lang
    return "en"


def rules_page(rules: Rules, *, table: str | None = None, lang: str = "en") -> str:
    """The whole page: where it belongs (a table or a preset), the rules in force, the book."""
    if table is not None:
        heading = _("The rules of this table")
        back = (f"/t/{table}", _("Back to the table"))
    else:
        name = rules.preset_name
        heading = (_("The rules of the {preset} preset").format(preset=name) if name
                   else _("Custom rules"))
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
        '<link rel="stylesheet" href="/static/css/style.css">\n</head>\n<body>\n'
        '<main class="rulebook">\n'
        f'<nav><a class="btn" href="{escape(back[0])}">{escape(back[1])}</a></nav>\n'
        f'<section class="in-force-page" aria-labelledby="in-force-title">'
        f'<h2 id="in-force-title">{escape(heading)}</h2><dl>{lines}</dl></section>\n'
        f'<article class="book">\n{book}</article>\n</main>\n</body>\n</html>\n'
    )
