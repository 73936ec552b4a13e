"""Every language offered has its rule book (issue 12): ``src/hollywood_gin/rulebook/<lang>.md``,
the same book as the English with the same numbers and examples.

Until a translator adds a language's book, the game shows it the English one; this test
fails for that language, naming the file to write.  A book that exists must keep what the
program fills in or reads: every ``{placeholder}``, every rule number (R1.1 … R9.3), the
``<!-- if -->`` blocks in the same order, and every key of the phrases block.
"""

from __future__ import annotations

import re
from importlib import resources

import pytest

from hollywood_gin import i18n, rulebook
from hollywood_gin.rules import PRESETS, Rules

BOOKS = resources.files("hollywood_gin.rulebook")
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
RULE_NUMBER = re.compile(r"\bR\d+(?:\.\d+)+\b")
DIRECTIVE = re.compile(r"<!--\s*(if not|if|else|end)\s*([a-z0-9_]*)\s*-->")


def _book(lang: str) -> str:
    return BOOKS.joinpath(f"{lang}.md").read_text(encoding="utf-8")


def _phrase_keys(text: str) -> set[str]:
    block = text.partition("<!-- phrases")[2].partition("-->")[0]
    return {line.partition(":")[0].strip() for line in block.splitlines() if ":" in line}


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_every_language_has_a_rule_book(lang: str) -> None:
    assert BOOKS.joinpath(f"{lang}.md").is_file(), (
        f"no rule book in {i18n.LANGUAGES[lang]}: write src/hollywood_gin/rulebook/{lang}.md "
        "(a translation of en.md; docs/i18n/README.md)")
    assert lang in rulebook.LANGUAGES
    english, text = _book("en"), _book(lang)
    assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english))
    assert sorted(set(RULE_NUMBER.findall(text))) == sorted(set(RULE_NUMBER.findall(english)))
    assert DIRECTIVE.findall(text) == DIRECTIVE.findall(english)
    assert _phrase_keys(text) == _phrase_keys(english)
    # it renders, in its language, for the default rules and a preset
    for rules in (Rules(), PRESETS["eaai"]):
        assert "R9.3" in rulebook.rule_book(rules, lang=lang)


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_the_printed_rule_book_fits_80_columns_its_table_wrapping_a_cell(lang: str) -> None:
    """The options' table ran to 82-89 columns in Lao, Norwegian, Lithuanian and Hausa:
    its widest column now wraps its cells, and every value is still there."""
    from rich.cells import cell_len

    text = rulebook.markdown_to_text(rulebook.rule_book(Rules(), lang=lang), width=80)
    assert max(cell_len(line) for line in text.splitlines()) <= 80
    words = set(text.split())
    for name in ("knock_limit", "shutout_game_bonus", "R9.2"):
        assert name in words or any(name in w for w in words), name
