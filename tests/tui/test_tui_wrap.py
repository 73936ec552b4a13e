"""At 80x24, in each language: a meld wraps as a whole (never "[K♥" / "K♦ K♣]") and a count
stays with its "=" (never "… Q♣ =" / "38"), on the table and at the hand's end; the sheet's
names' column holds its words whole ("blokkies", "akwatuna", "Kompiuteris", "Datamaskinen",
once cut to "blokki…", "akwatu…", "Kompiut…", "Datamas…")."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static
from tui_helpers import play_out, screen_text, settle

from hollywood_gin import i18n
from hollywood_gin.cards import Card
from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HandEndScreen
from hollywood_gin.tui.session import GameSession

LANGUAGES = ("en", "af", "lt", "nb", "lo", "ha")
SIZE = (80, 24)


@pytest.fixture
def language() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _broken(text: str) -> list[str]:
    """The lines that cut a meld in its brackets or leave an "=" without its count."""
    return [line for line in text.splitlines()
            if line.count("[") != line.count("]") or re.search(r"=(?! \d)", line)]


def _cells(line: str, start: int, end: int) -> str:
    """The characters of a line drawn in cells ``start`` to ``end`` (Lao's vowel and tone
    marks take no cell of their own)."""
    out, x = [], 0
    for char in line:
        if start <= x < end:
            out.append(char)
        x += cell_len(char)
    return "".join(out)


def _screens(store: Store, lang: str, seed: int) -> tuple[str, str, str, str]:
    """The table at the deal and the hand's end (the screen's text, and the sheet's)."""
    i18n.set_language(lang)
    session = GameSession.new(store, level=1, rules=Rules(), seed=seed)
    shots: list[str] = []

    async def shoot() -> None:
        app = GinApp(store=store, level=1, rules=Rules(), resume=session.id, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            sheet = app.screen.query_one("#end-sheet" if isinstance(app.screen, HandEndScreen)
                                         else "#sheet", Static)
            text = screen_text(app)
            region = sheet.region  # the sheet's cells as the screen draws them
            assert region.right <= SIZE[0] and sheet.size.width == sheet.content_size.width
            shots.append(text)
            shots.append("\n".join(_cells(line, region.x, region.right)
                                   for line in text.splitlines()[region.y:region.bottom]))

    asyncio.run(shoot())
    play_out(session)  # to the hand's end, where the screen opens on its dialog
    asyncio.run(shoot())
    table, table_sheet, end, end_sheet = shots
    return table, table_sheet, end, end_sheet


def test_a_flow_breaks_between_melds_never_inside_one() -> None:
    from hollywood_gin.tui.look import Flow, glued, meld_ink

    melds = Text()
    for meld in ("5s 5h 5c", "9s 9h 9d", "Kh Kd Kc"):
        melds.append_text(glued(meld_ink([Card.parse(c) for c in meld.split()])))
        melds.append(" ")
    melds.append("=\u00a038")
    flow = Flow(melds)
    assert flow.plain == "[5♠ 5♥ 5♣] [9♠ 9♥ 9♦] [K♥ K♦ K♣] = 38"
    for width in range(10, 40):
        lines = [line.plain for line in flow.lines(width)]
        assert " ".join(lines) == flow.plain, width
        assert all(len(line) <= width for line in lines), (width, lines)
        assert _broken("\n".join(lines)) == [], (width, lines)
    # a meld wider than the line is folded, as a long word is: nothing lost
    assert "".join(line.plain for line in flow.lines(6)).replace(" ", "") == \
        flow.plain.replace(" ", "")


def test_melds_and_counts_wrap_whole_at_80x24(store: Store, language: None) -> None:
    """Hausa, seed 11: the deal's meld line ran "… 7♣ Q♣ =" / "38", and the hand's end split
    a meld in its brackets ("[2♥" / "3♥ 4♥]"); its lay-offs line wraps onto a meld now."""
    table, _sheet, end, _end_sheet = _screens(store, "ha", 11)
    assert _broken(table) == []
    assert "[A♥ 2♥ 3♥]" in table and "= 38" in table
    assert _broken(end) == []
    # a value's line went on to the next one, and a meld is on that next line, whole
    assert re.search(r"^\W {10,}\S[^\n]*\[", end, re.M), end


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sheets_words_whole_at_80x24(store: Store, language: None, lang: str) -> None:
    """The sheet beside the table and in the hand's end dialog: every row's word and name
    whole, and its Total column in sight (the sheet inside the 80 columns)."""
    _table, table_sheet, _end, end_sheet = _screens(store, lang, 11)
    i18n.set_language(lang)
    for sheet in (table_sheet, end_sheet):
        assert "…" not in sheet, sheet
        for word in (i18n._("You"), i18n._("Computer"), " " + i18n._("boxes")):
            assert word in sheet, (word, sheet)
        assert i18n._("Tot") in sheet or i18n._("Total") in sheet, sheet
