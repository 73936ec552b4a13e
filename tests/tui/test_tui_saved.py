"""The saved-games list (issue 11 §2): every unfinished match and sheet, chosen by keyboard or
mouse at 80x24; closing it or saying no abandons nothing."""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import DataTable
from tui_helpers import screen_text

from hollywood_gin.rules import PRESETS, Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.keeping import parse_entry
from hollywood_gin.tui.kept_sheet import KeptSheet
from hollywood_gin.tui.saved import (
    NEW,
    ConfirmScreen,
    SavedGamesScreen,
    print_saved,
    saved_rows,
    when_words,
)

SMALL = (80, 24)


def _store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'saved.db'}")


def _computer_match(store: Store, level: int, rules: Rules = PRESETS["hollywood"]) -> str:
    return store.create_match(rules=rules, seed=1, first_dealer=0,
                              players=("You", f"Computer (level {level})"), kind="computer",
                              meta={"level": level})


def _sheet(store: Store, names: tuple[str, str], hands: list[str],
           rules: Rules = PRESETS["hollywood"]) -> KeptSheet:
    kept = KeptSheet.new(store, names=names, rules=rules)
    for line in hands:
        kept.add(parse_entry(line, names, rules))
    return kept


def test_saved_rows_lists_unfinished_only_newest_first(tmp_path: Path) -> None:
    store = _store(tmp_path)
    old = _computer_match(store, 2)
    time.sleep(0.01)
    sheet = _sheet(store, ("Alice", "Bob"), ["alice 25", "bob 10"])
    time.sleep(0.01)
    custom = _sheet(store, ("Carol", "Dan"), ["carol 40"], Rules(knock_limit=7))
    gone = _computer_match(store, 4)
    store.set_status(gone, "abandoned")
    done = _sheet(store, ("Eve", "Fay"), ["eve 5"])
    assert not KeptSheet.new(store, names=("Gil", "Hal"), rules=Rules()).saved  # not yet
    store.set_status(done.id, "finished")
    web = store.create_match(rules=Rules(), seed=1, first_dealer=0, players=("A", "B"),
                             kind="web-friend")

    rows = saved_rows(store)
    assert [r.id for r in rows] == [custom.id, sheet.id, old]
    assert web not in {r.id for r in rows}
    by_id = {r.id: r for r in rows}
    assert by_id[old].kind == "match" and by_id[old].title == "Computer, level 2"
    assert by_id[old].score == "hand 1 · you 0–0"
    assert by_id[sheet.id].title == "Alice vs Bob"
    assert by_id[sheet.id].score == "2 hands · 25–10"
    assert by_id[sheet.id].rules == "Hollywood"  # the preset's name as the screens say it
    assert by_id[custom.id].score == "1 hand · 40–0"  # one hand, not "1 hands"
    assert by_id[custom.id].rules == "custom"
    assert [r.id for r in saved_rows(store, "match")] == [old]
    assert [r.id for r in saved_rows(store, "sheet")] == [custom.id, sheet.id]
    store.close()


def test_saved_rows_show_games_won_once_a_game_closes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    kept = _sheet(store, ("Alice", "Bob"), ["alice 60", "alice 45", "bob 12"])
    (row,) = saved_rows(store, "sheet")
    assert row.id == kept.id
    # R7.7 second example: game 1 closes as a shutout at 105, 345 with bonuses
    assert row.score == f"3 hands · {kept.sheet.totals[0]}–{kept.sheet.totals[1]} · games 1–0"
    store.close()


def test_when_words() -> None:
    now = time.mktime((2025, 3, 1, 15, 0, 0, 0, 0, -1))
    assert when_words(now - 5, now) == "just now"
    assert when_words(now - 60, now) == "1 minute ago"
    assert when_words(now - 600, now) == "10 minutes ago"
    assert when_words(now - 3 * 3600, now) == "today 12:00"
    assert when_words(now - 20 * 3600, now) == "yesterday 19:00"  # across a month end
    assert when_words(now - 3 * 86400, now) == "3 days ago"
    assert when_words(now - 30 * 86400, now) == "2025-01-30"


def test_print_saved_is_a_plain_table(tmp_path: Path) -> None:
    store = _store(tmp_path)
    out = io.StringIO()
    print_saved(store, out)
    assert out.getvalue() == "No unfinished match or sheet.\n"
    match = _computer_match(store, 3)
    sheet = _sheet(store, ("Alice", "Bob"), ["bob 10"])
    out = io.StringIO()
    print_saved(store, out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["id", "kind", "title", "rules", "score", "last", "played"]
    assert lines[1].startswith(sheet.id[:8]) and "Alice vs Bob" in lines[1]
    assert "1 hand · 0–10" in lines[1] and "just now" in lines[1]
    assert lines[2].startswith(match[:8]) and "Computer, level 3" in lines[2]
    out = io.StringIO()
    print_saved(store, out, "sheet")
    assert len(out.getvalue().splitlines()) == 2
    store.close()


@pytest.mark.parametrize("lang", ["en", "af", "lt", "nb", "lo", "ha"])
def test_the_saved_list_fits_an_80_column_terminal(tmp_path: Path, lang: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """81 to 105 columns in English, Afrikaans, Lithuanian, Norwegian and Hausa: past 80,
    a row's last three columns go on an indented line under its first three."""
    from rich.cells import cell_len

    from hollywood_gin import i18n

    monkeypatch.setenv("COLUMNS", "80")
    store = _store(tmp_path)
    _computer_match(store, 3)
    _sheet(store, ("Alexandra Konstantina", "Bartholomew"), ["bartholomew 10"])
    out = io.StringIO()
    with i18n.using(lang):
        print_saved(store, out)
    lines = out.getvalue().splitlines()
    assert all(cell_len(line) <= 80 for line in lines), lines
    assert any("Alexandra Konstantina" in line for line in lines)
    store.close()


class Host(App[None]):
    """Shows the list and keeps what it returned."""

    def __init__(self, screen: SavedGamesScreen) -> None:
        super().__init__()
        self.list_screen = screen
        self.results: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.list_screen, self.results.append)


def _many(tmp_path: Path, count: int) -> tuple[Store, list[str]]:
    store = _store(tmp_path)
    ids = []
    for i in range(count):
        kept = _sheet(store, (f"Player{i:02d}", "Bob"), [f"bob {i + 1}"])
        ids.append(kept.id)
    return store, ids[::-1]  # newest first


def _run(coro: Any) -> None:
    asyncio.run(coro)


def test_saved_screen_at_80x24_scrolls_and_chooses_by_keyboard(tmp_path: Path) -> None:
    store, ids = _many(tmp_path, 30)

    async def run() -> None:
        screen = SavedGamesScreen(saved_rows(store), "Unfinished sheets", store=store,
                                  new="New sheet")
        app = Host(screen)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            text = screen_text(app)
            for words in ("Unfinished sheets", "Player29 vs Bob", "1 hand · 0–30",
                          "Open (Enter)", "New sheet (n)", "Abandon… (Del)", "Close (Esc)"):
                assert words in text, words
            # the 30th row is below the fold, then scrolled into view
            assert "Player00 vs Bob" not in text
            await pilot.press("end")
            await pilot.pause()
            text = screen_text(app)
            assert "Player00 vs Bob" in text and "Close (Esc)" in text
            await pilot.press("enter")
            await pilot.pause()
            assert app.results == [ids[-1]]
        store.close()

    _run(run())


def test_saved_screen_click_esc_and_new(tmp_path: Path) -> None:
    store, ids = _many(tmp_path, 3)

    async def run() -> None:
        for action, expected in (("esc", None), ("new", NEW), ("open", ids[0])):
            app = Host(SavedGamesScreen(saved_rows(store), store=store, new="New sheet"))
            async with app.run_test(size=SMALL) as pilot:
                await pilot.pause()
                if action == "esc":
                    await pilot.press("escape")
                elif action == "new":
                    await pilot.click("#new")
                else:
                    await pilot.click("#open")
                await pilot.pause()
                assert app.results == [expected], action
        # nothing was abandoned by any of it
        assert [r.id for r in saved_rows(store)] == ids
        store.close()

    _run(run())


def _row_offset(index: int) -> tuple[int, int]:
    """Where a click lands on a row of the list's table: the header is its first line."""
    return (2, 1 + index)


def test_one_click_on_a_row_opens_it(tmp_path: Path) -> None:
    """Regression: a row opened only on a second click (DataTable selects only the cell
    already under its cursor); one click on any row opens that row, once."""
    store, ids = _many(tmp_path, 3)

    async def run() -> None:
        for index in (1, 2, 0):  # rows away from the cursor, and the highlighted row itself
            app = Host(SavedGamesScreen(saved_rows(store), store=store, new="New sheet"))
            async with app.run_test(size=SMALL) as pilot:
                await pilot.pause()
                table = app.screen.query_one(DataTable)
                assert table.cursor_row == 0
                await pilot.click(table, offset=_row_offset(index))
                await pilot.pause()
                assert app.results == [ids[index]], index
                assert not isinstance(app.screen, SavedGamesScreen)
        assert [r.id for r in saved_rows(store)] == ids  # nothing abandoned
        store.close()

    _run(run())


def test_arrows_only_move_and_a_header_click_opens_nothing(tmp_path: Path) -> None:
    store, ids = _many(tmp_path, 3)

    async def run() -> None:
        app = Host(SavedGamesScreen(saved_rows(store), store=store))
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            screen = app.screen
            table = screen.query_one(DataTable)
            await pilot.click(table, offset=(2, 0))  # the header
            await pilot.pause()
            await pilot.press("down", "down", "up")
            await pilot.pause()
            assert app.results == [] and app.screen is screen
            assert table.cursor_row == 1
            assert "Player01 vs Bob · rules" in screen_text(app)  # the detail follows
            await pilot.press("enter")
            await pilot.pause()
            assert app.results == [ids[1]]
        store.close()

    _run(run())


def test_abandon_asks_and_only_yes_abandons(tmp_path: Path) -> None:
    store, ids = _many(tmp_path, 2)
    match = _computer_match(store, 5)

    async def run() -> None:
        app = Host(SavedGamesScreen(saved_rows(store), store=store))
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            # the newest row is the match: its question says it counts as a loss
            await pilot.press("delete")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert "Abandon this match? It will count as a loss." in screen_text(app)
            for key in ("enter",):  # Enter presses the focused No
                await pilot.press(key)
                await pilot.pause()
            assert isinstance(app.screen, SavedGamesScreen)
            await pilot.click("#abandon")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert store.load(match).status == "playing"
            await pilot.press("down", "delete")
            await pilot.pause()
            assert "Abandon this sheet?" in screen_text(app)
            await pilot.click("#yes")
            await pilot.pause()
            assert isinstance(app.screen, SavedGamesScreen)
            assert store.load(ids[0]).status == "abandoned"
            assert "Player01 vs Bob" not in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert app.results == [None]
        assert [r.id for r in saved_rows(store)] == [match, ids[1]]
        store.close()

    _run(run())


def test_when_a_match_was_last_played_is_in_sight_at_80x24(tmp_path: Path) -> None:
    """A score with closed games ("hand 11 · you 676–193 · games 2–0") pushed the "last
    played" column off the 80-column list: "2026-", "2 day", or nothing when the title
    said "(open now)" (a QA pass with a year of matches).  It comes before the score."""
    store = _store(tmp_path)
    match = _computer_match(store, 3)
    rows = saved_rows(store)
    assert [r.id for r in rows] == [match]
    long = rows[0].__class__(rows[0].id, rows[0].kind, rows[0].title + " (open now)",
                             rows[0].rules, "hand 11 · you 676–193 · games 2–0", "2 days ago")

    async def run() -> None:
        app = Host(SavedGamesScreen([long], store=store))
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            table = app.screen.query_one(DataTable)
            shown = screen_text(app).splitlines()
            line = next(s for s in shown if "Computer, level 3" in s and "rules" not in s)
            assert "2 days ago" in line, line
            assert table.columns and [str(c.label) for c in table.columns.values()][2] == \
                "last played"
        store.close()

    _run(run())
