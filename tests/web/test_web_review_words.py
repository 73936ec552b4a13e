"""Every word the review pages show is in i18n.js's table (issue 13: the JS strings go through
t("key")), and the review's Python words go through hollywood_gin.i18n."""

from __future__ import annotations

import re
from pathlib import Path

import hollywood_gin

JS = Path(hollywood_gin.__file__).resolve().parent / "web" / "static" / "js"


def _table() -> set[str]:
    text = (JS / "i18n.js").read_text(encoding="utf-8")
    table = text.split("const EN = {", 1)[1].split("\n};", 1)[0]
    return set(re.findall(r'^\s*"([\w.\-]+)":', table, re.M)) | set(
        re.findall(r',\s*"([\w.\-]+)":', table))


def test_every_key_the_review_pages_use_is_in_the_table() -> None:
    keys = _table()
    for name in ("review.js", "accuracy.js", "panels.js", "table.js", "felt.js", "lobby.js",
                 "log.js"):
        source = (JS / name).read_text(encoding="utf-8")
        used = set(re.findall(r'\bt\(\s*"([\w.\-]+)"', source))
        assert used, name
        assert used <= keys, (name, sorted(used - keys))
    # the keys review.js builds from the review's own values
    for grade in ("best", "good", "inaccuracy", "mistake", "blunder"):
        assert f"rv.grade.{grade}" in keys
    for kind in ("upcard", "draw", "discard", "knock", "gin"):
        assert f"rv.kind.{kind}" in keys
    for code in ("not_over", "token", "no_table", "other"):
        assert f"rv.error.{code}" in keys


def test_the_review_screens_python_words_are_translatable() -> None:
    """No English sentence is shown by the terminal review without going through _()."""
    source = (Path(hollywood_gin.__file__).resolve().parent / "tui" / "review.py").read_text()
    shown = re.findall(r'(?:Text|Static|Button|notify)\(\s*"([A-Z][^"]+ [^"]+)"', source)
    assert shown == [], shown
