"""The score keeper against bad input and a second window: a number too long to read, a
negative count, big gin after a name of two words, names of digits alone, and an undo or
redo in a window that is behind the saved sheet.  Each is refused in words naming what was
wrong, and the saved sheet is left exactly as it was."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static
from tui_helpers import rendered

from hollywood_gin.cli import main
from hollywood_gin.rules import PRESETS, Rules
from hollywood_gin.store import Store, StoreConflict
from hollywood_gin.tui.commands import _names
from hollywood_gin.tui.keeper import KeeperApp
from hollywood_gin.tui.keeping import (
    EntryError,
    HandEntry,
    example_lines,
    hand_points,
    parse_entry,
)
from hollywood_gin.tui.kept_sheet import KeptSheet

NAMES = ("Alexandra", "Bob")
CLASSIC = PRESETS["classic"]
HUGE = "9" * 4301  # more digits than int() reads from a text (Python's 4,300 limit)


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'keeper.db'}"


def _saved(store: Store, kept: KeptSheet) -> list[str]:
    return [a.action for a in store.load(kept.id).actions]


def _keeper(tmp_path: Path, script: Callable[[KeeperApp, Store, Pilot[Any]], Awaitable[None]]
            ) -> int | None:
    """Run ``script`` on a keeper at 80x24 with a classic sheet open; its return code."""
    store = Store(_url(tmp_path))
    app = KeeperApp(store=store, names=NAMES, rules=CLASSIC)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(app, store, pilot)

    asyncio.run(run())
    store.close()
    return app.return_code


def _message(app: KeeperApp) -> str:
    return " ".join(rendered(app.query_one("#message", Static)).split())


@pytest.mark.parametrize("line, words", [
    (f"bob {HUGE}", "Bob 999999999999…: that number is far too large"),
    (f"bob knocks 3 {HUGE}", "the other deadwood 999999999999…: that number is far too large"),
    ("bob gin " + "1" * 31, "Alexandra's deadwood 111111111111…: that number is far too large"),
])
def test_r5_8_a_number_too_long_to_read_is_refused_not_a_crash(line: str, words: str) -> None:
    with pytest.raises(EntryError) as refused:
        parse_entry(line, NAMES, CLASSIC)
    assert str(refused.value) == words


def test_r2_4_a_negative_count_is_refused_as_a_count() -> None:
    """Regression: "bob undercuts -2 0" was refused as a gin that cannot be undercut."""
    for line, words in (("bob undercuts -2 0", "the knocker's deadwood must be 0 to 98, not -2"),
                        ("bob undercut -1 0", "the knocker's deadwood must be 0 to 98, not -1"),
                        ("bob knocks 3 -1", "the other player's deadwood must be 0 to 98, not -1"),
                        ("bob gin -3", "Alexandra's deadwood must be 0 to 98, not -3")):
        with pytest.raises(EntryError) as refused:
            parse_entry(line, NAMES, CLASSIC)
        assert str(refused.value).startswith(words), line
    # the form's path: an undercut of a knock of -2 was "no undercut ... won the knock (R5.5)"
    with pytest.raises(EntryError, match="Alexandra's deadwood must be 0 to 98, not -2"):
        hand_points(CLASSIC, winner=1, kind="undercut", knocker_deadwood=-2,
                    defender_deadwood=0, names=NAMES)


def test_r5_7_big_gin_in_two_words_after_a_name_of_two_words() -> None:
    rules = Rules(big_gin_bonus=31)
    names = ("Mary Ann", "Bob")
    assert parse_entry("mary ann big gin 12", names, rules) == HandEntry(0, 43, "big_gin", 0, 12)
    assert parse_entry("bob big gin 12", names, rules) == HandEntry(1, 43, "big_gin", 0, 12)
    # a player named Big is still a name, not the start of big gin
    assert parse_entry("big gin 12", ("Big", "Bob"), rules) == HandEntry(0, 37, "gin", 0, 12)


def test_names_of_digits_alone_are_refused_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Regression: ``--names al 1`` was taken, and then the line "1 25" the form builds for
    the first player credited the second, named "1"."""
    for given in (["al", "1"], ["2", "1"], ["12,bob"]):
        with pytest.raises(Exception, match="--names: A name needs a letter"):
            _names(given)
    assert main(["score", "--names", "al", "1", "--db", _url(tmp_path)]) == 2
    assert "A name needs a letter" in capsys.readouterr().err
    assert _names(["Al", "R2D2"]) == ("Al", "R2D2")


def test_a_rule_given_with_a_number_too_long_to_read_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["score", "--names", "al", "bo", "--rule", f"game_target={HUGE}",
                 "--db", _url(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "rule game_target='999999999999999999999999…' is invalid" in err
    assert "Traceback" not in err and len(err) < 400


def test_undo_in_a_window_behind_the_saved_sheet_takes_nothing_back(tmp_path: Path) -> None:
    """Regression: an undo in a stale window deleted the hand another window had added."""
    store = Store(_url(tmp_path))
    mine = KeptSheet.new(store, names=NAMES, rules=CLASSIC)
    for line in ("bob 10", "alexandra 18", "bob 7"):
        mine.add(parse_entry(line, NAMES, CLASSIC))
    other = KeptSheet.open(store, mine.id)
    other.add(parse_entry("bob 4", NAMES, CLASSIC))
    before = _saved(store, mine)
    with pytest.raises(StoreConflict):
        mine.undo()
    assert _saved(store, mine) == before == ["1 10", "0 18", "1 7", "1 4"]
    assert len(mine.sheet.entries) == 3  # this window's sheet is untouched too
    other.undo()  # the window that is up to date takes its own hand back
    assert _saved(store, mine) == ["1 10", "0 18", "1 7"]
    store.close()


def test_undo_and_redo_in_a_stale_window_reload_the_sheet(tmp_path: Path) -> None:
    async def script(app: KeeperApp, store: Store, pilot: Pilot[Any]) -> None:
        kept = app.kept
        assert kept is not None
        for line in ("bob 10", "alexandra 18"):
            kept.add(parse_entry(line, NAMES, CLASSIC))
        app.refresh_sheet()
        await pilot.press("ctrl+z")  # takes back "alexandra 18": ctrl+y could put it back
        await pilot.pause()
        assert app.undone and _saved(store, kept) == ["1 10"]
        other = KeptSheet.open(store, kept.id)
        other.add(parse_entry("bob 4", NAMES, CLASSIC))
        await pilot.press("ctrl+y")  # behind: nothing is put back over the other hand
        await pilot.pause()
        assert "changed in another window" in _message(app)
        assert _saved(store, kept) == ["1 10", "1 4"] and app.undone == []
        assert app.kept is not None and app.kept.sheet.totals == (0, 14)
        other.add(parse_entry("alexandra 5", NAMES, CLASSIC))
        await pilot.press("ctrl+z")  # behind again: the other window's hand stays
        await pilot.pause()
        assert _saved(store, kept) == ["1 10", "1 4", "0 5"]
        assert app.kept.sheet.totals == (5, 14)
        await pilot.press("ctrl+z")  # now up to date: its last hand is taken back
        await pilot.pause()
        assert _saved(store, kept) == ["1 10", "1 4"]

    _keeper(tmp_path, script)


def test_a_huge_number_in_a_sheet_is_a_sheet_error() -> None:
    from hollywood_gin.sheet import ScoreSheet, SheetError

    sheet = ScoreSheet(CLASSIC)
    for player, points in ((0, -10**5000), (10**5000, 3)):
        with pytest.raises(SheetError, match=r"10\*\*15 or more"):
            sheet.record(player, points)
    assert sheet.entries == ()


def test_an_entry_line_of_a_huge_number_keeps_the_keeper_running(tmp_path: Path) -> None:
    """Regression: the entry line's preview read the number as it was typed and crashed."""
    async def script(app: KeeperApp, store: Store, pilot: Pilot[Any]) -> None:
        app.query_one("#quick", Input).value = "bob " + HUGE
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert "that number is far too large" in _message(app)
        assert app.kept is not None and app.kept.sheet.entries == ()

    assert _keeper(tmp_path, script) in (None, 0)


def test_r5_1_the_examples_a_bad_line_gets_are_lines_these_rules_take() -> None:
    """Regression: with a knock limit under 3 (or 0) the errors still offered 'knocks 3 10'
    and 'undercuts 8 5', lines the keeper then refuses."""
    # gin alone with a bonus of 30: no hand scores 25, and "bob 25" was offered (a QA pass)
    for rules, knock, undercut, points in (
            (CLASSIC, "knocks 3 10", "undercuts 8 5", 25),
            (Rules(knock_limit=2), "knocks 2 10", "undercuts 2 0", 25),
            (Rules(knock_limit=0), None, None, 25),
            (Rules(knock_limit=0, gin_bonus=30), None, None, 30)):
        for line in ("", "bob zero 3"):
            with pytest.raises(EntryError) as refused:
                parse_entry(line, NAMES, rules)
            offered = re.findall(r"'(bob [^']+)'", str(refused.value))
            assert f"bob {points}" in offered and "bob gin 12" in offered
            assert (f"bob {knock}" in offered) == (knock is not None)
            for example in offered:  # every line offered is taken under these rules
                if example != "bob zero 3":
                    parse_entry(example, NAMES, rules)
        if undercut:
            assert f"bob {undercut}" in str(refused.value)
        for example, _meaning in example_lines(("Bob", "Ann"), rules):  # the help's too
            parse_entry(example, ("Bob", "Ann"), rules)


@pytest.mark.parametrize("note", [
    {"player": 0, "points": 100, "kind": "undercut", "knocker": None, "defender": 5},
    {"player": 0, "points": 30, "kind": "knock", "knocker": 3},
    {"player": 0, "points": 40, "kind": "gin"},
    {"player": 5, "points": 10, "kind": "points"},
    {"player": True, "points": 10, "kind": "points"},
    {"player": 0, "points": -4, "kind": "points"},
    {"player": 0, "points": 30, "kind": "knock", "knocker": 3, "defender": 999},
])
def test_a_damaged_hand_note_is_no_note_not_a_crash(tmp_path: Path,
                                                    note: dict[str, Any]) -> None:
    """A QA pass saved a knock without its counts in a sheet's meta: opening it failed an
    assert with a traceback.  Such a note is read as none: the hand is said by its points."""
    assert HandEntry.from_dict(note) is None
    store = Store(_url(tmp_path))
    kept = KeptSheet.new(store, names=NAMES, rules=CLASSIC)
    kept.add(parse_entry("alexandra 40", NAMES, CLASSIC))
    store.set_meta(kept.id, hands={"0": note})
    again = KeptSheet.open(store, kept.id)
    assert again.how(0) == "Alexandra won 40"
    store.close()


def test_taking_back_every_hand_leaves_no_empty_sheet_to_resume(tmp_path: Path) -> None:
    """KeptSheet.new saves a sheet with its first hand so that no empty one is offered; an
    undo of that hand left one (a QA pass found it in --list).  Put back, it is saved anew."""
    store = Store(_url(tmp_path))
    kept = KeptSheet.new(store, names=NAMES, rules=CLASSIC)
    kept.add(parse_entry("bob 20", NAMES, CLASSIC))
    first = kept.id
    assert [m.id for m in KeptSheet.unfinished(store)] == [first]
    kept.undo()
    assert KeptSheet.unfinished(store) == [] and not kept.saved
    kept.add(parse_entry("bob 20", NAMES, CLASSIC))  # ctrl+y
    assert kept.saved and kept.id != first
    assert [m.id for m in KeptSheet.unfinished(store)] == [kept.id]
    assert _saved(store, kept) == ["1 20"]
    store.close()


def test_a_sheet_that_cannot_be_opened_is_said_over_the_dialog(tmp_path: Path) -> None:
    """The reason went to the message line, hidden behind the new-sheet dialog that opens
    next: it is a notice over it too."""
    store = Store(_url(tmp_path))
    kept = KeptSheet.new(store, names=NAMES, rules=CLASSIC)
    kept.add(parse_entry("bob 20", NAMES, CLASSIC))
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE hg_actions SET action = '0 abc'")
    app = KeeperApp(store=store, new=True)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.open_sheet(kept.id)
            await pilot.pause()
            notices = [n.message for n in app._notifications]
            assert any(f"The saved sheet {kept.id[:8]} cannot be opened" in n
                       for n in notices), notices

    asyncio.run(run())
    store.close()


@pytest.mark.parametrize(("names", "line", "player", "points"), [
    (("Andrew", "Bob"), "and 25", 0, 25),
    (("Gordon", "Bob"), "go 25", 0, 25),
    (("Byron", "Bob"), "by knocks 3 10", 0, 7),
    (("Won", "Bob"), "won 25", 0, 25),
    (("Alexandra", "Bob"), "bob won with 25", 1, 25),  # after the name, still dropped
])
def test_a_name_that_starts_like_a_filler_word_is_read_as_the_name(
        names: tuple[str, str], line: str, player: int, points: int) -> None:
    entry = parse_entry(line, names, CLASSIC)
    assert (entry.player, entry.points) == (player, points)


def test_digits_of_other_scripts_are_no_points_on_the_entry_line() -> None:
    """int() reads "٣" as 3; the entry line takes ASCII digits only, as every command."""
    with pytest.raises(EntryError):
        parse_entry("bob \u0663", NAMES, CLASSIC)
    with pytest.raises(EntryError, match="must be a whole number, not '\u0663'"):
        parse_entry("bob knocks 3 \u0663", NAMES, CLASSIC)


def test_a_refused_line_is_said_once(tmp_path: Path) -> None:
    """The preview (grey, as the line was typed) and the message (red, on Enter) said the
    same refusal twice, one under the other (a QA pass at 80x24)."""
    async def script(app: KeeperApp, store: Store, pilot: Pilot[Any]) -> None:
        app.query_one("#quick", Input).value = "bob knocks 30 10"
        await pilot.pause()
        assert "knock" in rendered(app.query_one("#preview", Static))
        await pilot.press("enter")
        await pilot.pause()
        assert "30" in _message(app)
        assert rendered(app.query_one("#preview", Static)).strip() == ""
        assert app.kept is not None and app.kept.sheet.entries == ()

    _keeper(tmp_path, script)


def test_a_refused_line_is_said_once_even_typed_fast(tmp_path: Path) -> None:
    """Typed or pasted fast with its Enter, a refused line's change was read after the
    refusal: its preview said the error again under the message, in grey, and the same
    words stood twice at 80x24 (a QA pass, twice)."""
    async def script(app: KeeperApp, store: Store, pilot: Pilot[Any]) -> None:
        line = app.query_one("#quick", Input)
        line.value = "bob zero 3"  # its change is read later, as a fast typist's is
        app.submit_line(line)
        await pilot.pause()
        await pilot.pause()
        said = _message(app)
        assert "bob zero 3" in said
        assert rendered(app.query_one("#preview", Static)).strip() == ""
        await pilot.press("backspace")  # a change: the preview speaks again
        await pilot.pause()
        assert rendered(app.query_one("#preview", Static)).strip() != ""

    assert _keeper(tmp_path, script) in (None, 0)
