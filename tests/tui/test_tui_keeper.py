"""The score keeper: the R7.6 example, points from deadwood (R5.5–R5.7) checked against what a
hand can score, who knocked and who undercut, undo, every unfinished sheet kept until the
player abandons it in words, custom rules, and every screen at 80x24 (issue 11 §2, §4, §7)."""

from __future__ import annotations

import asyncio
import io
import itertools
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, RadioButton, RadioSet, Select
from tui_helpers import screen_text

from hollywood_gin.cards import CARDS, mask_of, parse_cards
from hollywood_gin.melds import deadwood_of_mask
from hollywood_gin.rules import PRESETS, Rules
from hollywood_gin.scoring import score_hand
from hollywood_gin.store import Store
from hollywood_gin.tui.keeper import KeeperApp
from hollywood_gin.tui.keeper_look import sheet_view
from hollywood_gin.tui.keeper_screens import KeeperHelp, NewSheetScreen, QuestionScreen
from hollywood_gin.tui.keeping import (
    MAX_DEADWOOD,
    EntryError,
    EntryQuestion,
    HandEntry,
    hand_points,
    parse_entry,
    point_ranges,
)
from hollywood_gin.tui.kept_sheet import KeptSheet
from hollywood_gin.tui.saved import SavedGamesScreen

NAMES = ("Alexandra", "Bob")
SIZE = (80, 24)  # the standard terminal: every keeper screen must work in it
HOLLYWOOD = PRESETS["hollywood"]


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'keeper.db'}"


def _sheet_rows(text: str) -> dict[str, list[str]]:
    """The sheet's rows by name, first occurrence (points), as the screen shows them."""
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        words = line.split("▏")[0].split()
        if words and words[0] in NAMES and words[0] not in rows:
            rows[words[0]] = words[1:]
    return rows


def _column(app: KeeperApp, side: int) -> str:
    """One column of the screen, its lines joined so wrapped sentences read whole, without
    the scroll bars."""
    lines = [re.sub(r"[▁▂▃▄▅▆▇█]{2}\s*$", "", line.split("▏", 1)[side])
             for line in screen_text(app).splitlines() if "▏" in line]
    return " ".join(" ".join(lines).split())


def _said(app: KeeperApp) -> str:
    """The right-hand column: the entry line, its preview, the message, the form."""
    return _column(app, 1)


def _left(app: KeeperApp) -> str:
    """The left-hand column: the rules, the sheet, the hands entered."""
    return _column(app, 0)


async def _enter(pilot: Pilot[Any], lines: list[str]) -> None:
    for line in lines:
        await pilot.press(*("space" if ch == " " else ch for ch in line))
        await pilot.press("enter")
        await pilot.pause()


def _burst(app: KeeperApp, text: str) -> None:
    """Keys as a terminal delivers typing done ahead: all at once, with no wait between
    them; a newline is the Enter the terminal turned into ctrl+j before the program read it."""
    driver = app._driver
    assert driver is not None
    for ch in text:
        key = {" ": "space", "\n": "ctrl+j", "\t": "tab"}.get(ch, ch)
        event = events.Key(key, ch)
        event.set_sender(app)
        driver.send_message(event)


async def _until(pilot: Pilot[Any], done: Callable[[], bool]) -> None:
    """Let the app work until ``done()`` (keys typed ahead take a few rounds to settle)."""
    for _i in range(250):
        if done():
            return
        await pilot.pause(0.02)


def _run(app: KeeperApp, script: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)
        app.store.close()

    asyncio.run(run())


def _kept(tmp_path: Path, hands: list[str], names: tuple[str, str] = NAMES,
          rules: Rules = HOLLYWOOD) -> KeptSheet:
    store = Store(_url(tmp_path))
    kept = KeptSheet.new(store, names=names, rules=rules)
    for line in hands:
        kept.add(parse_entry(line, names, rules))
    store.close()
    return kept


# -- what a hand can score (issue 11 §4) ---------------------------------------------------


def test_max_deadwood_is_98_by_search_over_the_meld_solver() -> None:
    """R2.4: no ten cards hold more than 98 deadwood.  A hand with a card worth 8 or less
    counts at most 9 × 10 + 8 = 98, so only hands of cards worth 9 or 10 can pass it:
    every one of those C(20, 10) hands is solved."""
    high = [mask_of([card]) for card in CARDS if card.points >= 9]
    assert len(high) == 20
    best = 0
    for combo in itertools.combinations(high, 10):
        mask = 0
        for bit in combo:
            mask |= bit
        best = max(best, deadwood_of_mask(mask))
    assert best == MAX_DEADWOOD == 98
    # the hand of the proof in keeping.py
    assert deadwood_of_mask(mask_of(parse_cards("Ks Kh Qd Qc Js Jh Td Tc 9s 9h"))) == 98


def test_the_bounds_are_reached_by_real_hands() -> None:
    """The ends of the ranges are scores the engine gives real hands (R5.5–R5.7)."""
    defender = parse_cards("Ks Kh Qd Qc Js Jh Td Tc 9s 9h")
    knocker = parse_cards("As 2s 3s Ah 2h 3h 4d 5d 6d Ac")  # deadwood 1, nothing lays off
    knock = score_hand(knocker, defender)
    assert (knock.kind, knock.points) == ("knock", 97)
    gin = score_hand(parse_cards("As 2s 3s 4s Ah 2h 3h Ad 2d 3d"), defender)
    assert (gin.kind, gin.points) == ("gin", 25 + 98)
    ranges = {r.kind: (r.low, r.high) for r in point_ranges(HOLLYWOOD)}
    assert ranges == {"knock": (1, 97), "undercut": (10, 20), "gin": (25, 123)}


def test_point_ranges_follow_the_rules() -> None:
    ranges = {r.kind: (r.low, r.high) for r in point_ranges(Rules(big_gin_bonus=31,
                                                                  undercut_bonus=25))}
    assert ranges == {"knock": (1, 97), "undercut": (25, 35), "gin": (25, 123),
                      "big_gin": (31, 129)}
    # R5.1 knock limit 0: only gin ends a hand
    assert [r.kind for r in point_ranges(Rules(knock_limit=0))] == ["gin"]
    # R5.1 Oklahoma: the upcard's value, up to 10, whatever knock_limit says
    ranges = {r.kind: (r.low, r.high) for r in point_ranges(Rules(oklahoma=True))}
    assert ranges["undercut"] == (10, 20)
    assert {r.kind: (r.low, r.high) for r in point_ranges(Rules(knock_limit=4))}[
        "undercut"] == (10, 14)


def test_points_no_hand_can_score_are_refused() -> None:
    """Regression: `bob 99999999999999999999` was taken and closed all three games."""
    with pytest.raises(EntryError, match="no hand scores 99999999999999999999"):
        parse_entry("bob 99999999999999999999", NAMES, HOLLYWOOD)
    assert parse_entry("bob 123", NAMES, HOLLYWOOD).points == 123  # gin against 98
    with pytest.raises(EntryError, match=r"gin scores 25 to 123"):
        parse_entry("bob 124", NAMES, HOLLYWOOD)
    with pytest.raises(EntryError, match=r"at least 1 point \(R5\.8\)"):
        parse_entry("bob 0", NAMES, HOLLYWOOD)
    with pytest.raises(EntryError, match="at least 1"):
        parse_entry("bob -5", NAMES, HOLLYWOOD)
    # a gap between the ranges: knocks reach 97, undercuts start at 500
    odd = Rules(undercut_bonus=500)
    with pytest.raises(EntryError, match="an undercut scores 500 to 510"):
        parse_entry("bob 200", NAMES, odd)
    assert parse_entry("bob 505", NAMES, odd).points == 505
    assert parse_entry("bob 129", NAMES, Rules(big_gin_bonus=31)).points == 129


def test_counts_no_hand_can_show_are_refused_with_the_reason() -> None:
    rules = HOLLYWOOD

    def refused(match: str, **kwargs: Any) -> None:
        with pytest.raises(EntryError, match=match):
            hand_points(rules, names=NAMES, **kwargs)

    refused(r"Bob cannot knock with 11: the knock limit is 10 \(R5\.1\)", winner=1,
            kind="knock", knocker_deadwood=11, defender_deadwood=30)
    refused(r"Bob knocked with 0: that is gin", winner=1, kind="knock", knocker_deadwood=0,
            defender_deadwood=30)
    refused(r"not a win but an undercut by Alexandra \(R5\.6\)", winner=1, kind="knock",
            knocker_deadwood=8, defender_deadwood=5)
    refused(r"Alexandra's deadwood must be 0 to 98, not 99", winner=1, kind="knock",
            knocker_deadwood=3, defender_deadwood=99)
    refused(r"Alexandra's deadwood must be 0 to 98, not 200", winner=1, kind="gin",
            defender_deadwood=200)
    refused(r"no undercut: Alexandra's 3 is less than Bob's 9", winner=1, kind="undercut",
            knocker_deadwood=3, defender_deadwood=9)
    refused(r"Alexandra had no deadwood: that is gin, which cannot be undercut", winner=1,
            kind="undercut", knocker_deadwood=0, defender_deadwood=0)
    refused(r"big gin is not played under these rules", winner=1, kind="big_gin",
            defender_deadwood=9)
    with pytest.raises(EntryError, match="only gin ends a hand"):
        hand_points(Rules(knock_limit=0), winner=0, kind="knock", knocker_deadwood=1,
                    defender_deadwood=9, names=NAMES)
    with pytest.raises(EntryError, match="under Oklahoma the knock limit is the upcard"):
        hand_points(Rules(oklahoma=True), winner=0, kind="knock", knocker_deadwood=11,
                    defender_deadwood=20, names=NAMES)
    with pytest.raises(EntryError, match="big gin is not played"):
        parse_entry("bob big gin 10", NAMES, rules)


def test_hand_points_follow_r5() -> None:
    rules = HOLLYWOOD
    # R5.9 first example: knocker 3, defender 10 after lay-offs: 7 to the knocker (R5.5)
    entry = hand_points(rules, winner=0, kind="knock", knocker_deadwood=3, defender_deadwood=10)
    assert (entry.player, entry.points) == (0, 7)
    # R5.9 second example: 5 against 5 is an undercut: 10 + 0 to the defender (R5.6)
    entry = hand_points(rules, winner=1, kind="undercut", knocker_deadwood=5,
                        defender_deadwood=5)
    assert (entry.player, entry.points) == (1, 10)
    # R5.7: gin 25 + the defender's deadwood; 20 in hollywood-20; big gin where played
    assert hand_points(rules, winner=1, kind="gin", defender_deadwood=12).points == 37
    assert hand_points(PRESETS["hollywood-20"], winner=1, kind="gin",
                       defender_deadwood=12).points == 32
    assert hand_points(Rules(big_gin_bonus=31), winner=1, kind="big_gin",
                       defender_deadwood=3).points == 34
    assert hand_points(Rules(undercut_bonus=25), winner=1, kind="undercut",
                       knocker_deadwood=6, defender_deadwood=2).points == 29


def test_the_name_that_starts_the_line_won_the_hand() -> None:
    """Regression: `alice undercut 8 5` credited bob.  Now the named player is the winner:
    `alexandra undercuts 8 5` is Alexandra undercutting Bob's knock of 8 with 5."""
    entry = parse_entry("alexandra undercuts 8 5", NAMES, HOLLYWOOD)
    assert (entry.player, entry.points, entry.kind) == (0, 13, "undercut")
    assert (entry.knocker_deadwood, entry.defender_deadwood) == (8, 5)
    # the knocker's count is the larger, so the counts read in either order
    assert parse_entry("al undercuts 5 8", NAMES, HOLLYWOOD) == entry
    assert parse_entry("bob knocks 3 10", NAMES, HOLLYWOOD) == HandEntry(1, 7, "knock", 3, 10)
    assert parse_entry("bob knocked with 3 against 10", NAMES, HOLLYWOOD).points == 7
    assert parse_entry("2 gin 12", NAMES, HOLLYWOOD) == HandEntry(1, 37, "gin", 0, 12)
    assert parse_entry("b big gin 3", NAMES, Rules(big_gin_bonus=31)).points == 34
    assert parse_entry("bob wins 20", NAMES, HOLLYWOOD) == HandEntry(1, 20)


def test_names_of_several_words() -> None:
    names = ("Mary Ann", "Mary Lou")
    assert parse_entry("mary ann 25", names, HOLLYWOOD).player == 0
    assert parse_entry("Mary Lou knocks 2 9", names, HOLLYWOOD).player == 1
    assert parse_entry("lou 5", names, HOLLYWOOD).player == 1  # a word of the name
    with pytest.raises(EntryError, match="who is 'mary'"):
        parse_entry("mary 25", names, HOLLYWOOD)


def test_lines_that_read_two_ways_are_asked() -> None:
    # bare "undercut": did Alexandra undercut, or was she undercut?  Both readings offered.
    with pytest.raises(EntryQuestion) as asked:
        parse_entry("alexandra undercut 8 5", NAMES, HOLLYWOOD)
    question = asked.value
    assert "did Alexandra undercut Bob's knock?" in question.question
    assert question.yes == HandEntry(0, 13, "undercut", 8, 5)
    assert question.no == HandEntry(1, 13, "undercut", 8, 5)
    assert question.yes_label == "Yes, Alexandra +13" and question.no_label == "No, Bob +13"
    # a "knock" whose count is not below: offer the undercut it was, never credit silently
    with pytest.raises(EntryQuestion) as asked:
        parse_entry("bob knocks 9 4", NAMES, HOLLYWOOD)
    assert asked.value.yes == HandEntry(0, 15, "undercut", 9, 4)
    assert asked.value.no is None
    assert "Alexandra undercut Bob and wins 15 (R5.6)" in asked.value.question
    assert "type 'bob knocks 4 9'" in asked.value.question


def test_bad_lines_name_the_players() -> None:
    for line, words in (("carol 5", "Start the line with a name (Alexandra or Bob)"),
                        ("bob", "after the name, type the points"),
                        ("bob knocks 3", "both deadwood counts, the knocker's first"),
                        ("bob gin", "type Alexandra's deadwood"),
                        ("bob zero", "say how the hand ended")):
        with pytest.raises(EntryError) as refused:
            parse_entry(line, NAMES, HOLLYWOOD)
        assert words in str(refused.value)


def test_kept_sheet_store_round_trip(tmp_path: Path) -> None:
    """Stored as "PLAYER POINTS" actions of a keeper match, and how each hand scored
    (the counts) in its meta; rebuilt by replaying (R7.7)."""
    store = Store(_url(tmp_path))
    kept = KeptSheet.new(store, names=("A", "B"), rules=HOLLYWOOD)
    for player, points in ((0, 40), (0, 35), (1, 20), (0, 30), (1, 25)):
        kept.add(parse_entry(f"{player + 1} {points}", ("A", "B"), HOLLYWOOD))
    kept.add(parse_entry("b knocks 2 9", ("A", "B"), HOLLYWOOD))
    assert [a.action for a in store.load(kept.id).actions] == [
        "0 40", "0 35", "1 20", "0 30", "1 25", "1 7"]
    again = KeptSheet.open(store, kept.id)
    assert again.sheet == kept.sheet
    assert again.sheet.columns[0].total == (265, 40)  # R7.7 first example
    assert again.hands[-1] == HandEntry(1, 7, "knock", 2, 9)
    assert again.how(5) == "B knocked with 2 against A's 9: 9 − 2 = 7 (R5.5)"
    store.close()


def test_a_sheet_written_in_another_window_is_reloaded_not_overwritten(tmp_path: Path) -> None:
    app = KeeperApp(store=Store(_url(tmp_path)), names=NAMES, rules=PRESETS["classic"])

    async def script(pilot: Pilot[Any]) -> None:
        await _enter(pilot, ["bob 25"])
        mine = app.kept
        assert mine is not None
        other = KeptSheet.open(app.store, mine.id)  # the same sheet, open in another window
        other.add(parse_entry("alexandra 12", NAMES, PRESETS["classic"]))
        await _enter(pilot, ["bob 30"])  # this window is behind: nothing is overwritten
        assert "changed in another window" in _said(app)
        assert app.kept is not None and app.kept is not mine
        assert app.kept.sheet.totals == (12, 25)
        await pilot.press("enter")  # the line is kept in the form: Enter enters it now
        await pilot.pause()
        assert app.kept.sheet.totals == (12, 55)

    _run(app, script)


def test_a_sheet_abandoned_in_another_window_takes_no_more_hands(tmp_path: Path) -> None:
    """Abandoned in another window, the sheet took the next hand and was in play again;
    now the hand is refused in words and a new sheet offered."""
    from hollywood_gin.tui.saved import abandon

    app = KeeperApp(store=Store(_url(tmp_path)), names=NAMES, rules=PRESETS["classic"])

    async def script(pilot: Pilot[Any]) -> None:
        await _enter(pilot, ["bob 25"])
        mine = app.kept
        assert mine is not None
        assert abandon(app.store, mine.id)  # the other window's "Abandon"
        await _enter(pilot, ["bob 30"])
        assert isinstance(app.screen, NewSheetScreen)
        notices = [n.message for n in app._notifications]
        assert any(f"sheet {mine.id[:8]} cannot be opened: it was abandoned" in n
                   for n in notices), notices
        saved = app.store.load(mine.id)
        assert (saved.status, [a.action for a in saved.actions]) == ("abandoned", ["1 25"])

    _run(app, script)


def test_a_finished_sheet_refuses_more_hands_by_name(tmp_path: Path) -> None:
    """Regression: "cannot record 5 for player 1" meant Bob, whom the screen calls the
    second player; every message names the players."""
    store = Store(_url(tmp_path))
    kept = KeptSheet.new(store, names=NAMES, rules=PRESETS["classic"])
    kept.add(parse_entry("alex 100", NAMES, kept.rules))
    with pytest.raises(EntryError) as refused:
        kept.add(parse_entry("bob 5", NAMES, kept.rules))
    assert str(refused.value) == ("The match is over: Alexandra won it; ctrl+n starts a new "
                                  "sheet.")
    assert "player" not in str(refused.value)
    store.close()


def test_the_sheet_writes_names_in_full() -> None:
    """Regression: the sheet read "won by  alic"."""
    from rich.console import Console

    kept_names = ("Alexandra Longname", "Bob")
    from hollywood_gin.sheet import ScoreSheet

    sheet = ScoreSheet(HOLLYWOOD)
    for player, points in ((0, 60), (0, 45), (1, 12)):
        sheet.record(player, points)
    console = Console(width=38, record=True)
    console.print(sheet_view(sheet, kept_names, narrow=True))
    text = console.export_text()
    assert "Game 1 won by Alexandra Longname, a shutout" in " ".join(text.split())
    assert "Alexandra" in text and "Longname" in text


@pytest.mark.parametrize("names", [("Mary Ann", "Bob"), ("Alexandra Longname", "Bo")])
def test_five_games_keep_their_row_labels_and_whole_numbers_at_80x24(
        names: tuple[str, str]) -> None:
    """With five games and three-digit numbers, the labels' column was squeezed to nothing
    at 80x24 (whose points, which boxes?) and a name of two words wrapped in pieces (a QA
    pass). The labels keep a few letters on one line, and every number stays whole."""
    from rich.console import Console

    from hollywood_gin.sheet import ScoreSheet

    sheet = ScoreSheet(Rules(columns=5))
    for player, points in [(1, 20)] * 5 + [(0, 110)] * 4:
        sheet.record(player, points)
    console = Console(width=38, record=True)
    console.print(sheet_view(sheet, names, narrow=True))
    rows = [row for row in console.export_text().splitlines()[2:11] if row.strip()]
    labels, values = [], []
    for row in rows:
        words = row.split()
        first = min(i for i in range(len(words))
                    if all(re.fullmatch(r"\+?\d+", w) for w in words[i:]))
        labels.append(" ".join(words[:first]))
        values.append(words[first:])
    said = [names[0], "boxes", "bonus", names[1], "boxes", "bonus", names[0], names[1]]
    for label, word in zip(labels, said, strict=True):  # whole, or its start and "…"
        assert label == word or (len(label) >= 5 and label.endswith("…")
                                 and word.startswith(label[:-1].rstrip())), (label, rows)
    assert values[2] == ["+0", "+120", "+120", "+120", "+120"]
    assert values[5] == ["+300", "+80", "+60", "+40", "+20"]
    assert values[6] == ["0", "230", "230", "230", "230", str(sheet.totals[0])]
    assert values[7] == ["400", "160", "120", "80", "40", str(sheet.totals[1])]
    assert max(len(row) for row in rows) <= 38


@pytest.mark.parametrize("lang", ["en", "af", "lt", "ha", "lo", "nb"])
def test_the_sheet_keeps_its_totals_whole_in_any_room_it_is_given(lang: str) -> None:
    """With long headings (Afrikaans' "Wedstryd 1", "Totaal") the wide sheet was wider than
    the keeper's side at 101 columns, and Rich cut its totals to "110" for 1105 or left the
    Total column blank (a QA pass): a wide form that does not fit its room gives way to
    the narrow one. And two names alike are told apart ("Johan…" was both)."""
    from rich.console import Console

    from hollywood_gin import i18n
    from hollywood_gin.sheet import ScoreSheet

    names = ("Johannes", "Johanna")
    i18n.set_language(lang)
    try:
        for games in (3, 4, 5):
            sheet = ScoreSheet(Rules(columns=games))
            for player, points in [(0, 60), (1, 30), (0, 50), (1, 98), (1, 98)] * 3:
                if not sheet.finished:
                    sheet.record(player, points)
            for room in range(38, 71, 4):
                console = Console(width=room, record=True, file=io.StringIO())
                console.print(sheet_view(sheet, names, narrow=room < 40, room=room))
                rows = console.export_text().splitlines()
                totals = [row.split() for row in rows if row.split()[-1:] == [
                    str(sheet.totals[0])] or row.split()[-1:] == [str(sheet.totals[1])]]
                assert len(totals) == 2, (lang, games, room, rows)
                assert totals[0][0] != totals[1][0], (lang, games, room, rows)
    finally:
        i18n.set_language("en")


# -- the app at 80x24 -----------------------------------------------------------------------


def test_r7_6_example_in_the_keeper(tmp_path: Path) -> None:
    """R7.6: Bob 10, Alexandra 18, Bob 30, Bob 4 → Alexandra 18/0/0, Bob 44/34/4."""
    app = KeeperApp(store=Store(_url(tmp_path)), new=True)

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, NewSheetScreen)
        await _enter(pilot, ["Alexandra", "Bob"])  # Enter in the last name starts
        assert not isinstance(app.screen, NewSheetScreen)
        await _enter(pilot, ["bob 10", "alex 18", "bob 30", "2 4"])
        rows = _sheet_rows(screen_text(app))
        assert rows["Alexandra"][:3] == ["18", "0", "0"]
        assert rows["Bob"][:3] == ["44", "34", "4"]
        assert app.kept is not None
        assert [c.points for c in app.kept.sheet.columns] == [(18, 44), (0, 34), (0, 4)]
        # a bad line says why and enters nothing; it stays in the line to be fixed
        await _enter(pilot, ["carol 5"])
        assert "who is 'carol'" in _said(app)
        assert app.query_one("#quick", Input).value == "carol 5"
        assert len(app.kept.sheet.entries) == 4
        app.query_one("#quick", Input).value = ""
        # undo the last hand, in the store too, and say which
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert _sheet_rows(screen_text(app))["Bob"][:3] == ["40", "30", "0"]
        assert "Took back hand 4: Bob won 4. ctrl+y puts it back." in _said(app)
        assert len(app.store.load(app.kept.id).actions) == 3
        # a ctrl+z too many loses nothing: ctrl+y puts the hands back, in order
        await pilot.press("ctrl+z", "ctrl+y", "ctrl+y")
        await pilot.pause()
        assert [(e.player, e.points) for e in app.kept.sheet.entries] == [
            (1, 10), (0, 18), (1, 30), (1, 4)]
        assert len(app.store.load(app.kept.id).actions) == 4
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert "nothing to put back" in _said(app)

    _run(app, script)


def test_names_and_rules_given_start_at_once(tmp_path: Path) -> None:
    """Regression: the dialog showed even with --names and --rules."""
    app = KeeperApp(store=Store(_url(tmp_path)), names=NAMES, rules=PRESETS["classic"])

    async def script(pilot: Pilot[Any]) -> None:
        assert not isinstance(app.screen, NewSheetScreen)
        assert app.kept is not None and app.kept.names == NAMES
        assert app.kept.rules == PRESETS["classic"]
        await _enter(pilot, ["bob 25"])
        assert app.kept.sheet.totals == (0, 25)

    _run(app, script)
    # --rules alone starts too, with numbered players; a sheet is saved with its first hand,
    # so one left empty is never offered again
    app = KeeperApp(store=Store(_url(tmp_path)), rules=PRESETS["eaai"])

    async def empty(pilot: Pilot[Any]) -> None:
        assert app.kept is not None and not app.kept.saved

    _run(app, empty)
    app = KeeperApp(store=Store(_url(tmp_path)), rules=PRESETS["eaai"])

    async def second(pilot: Pilot[Any]) -> None:
        assert app.kept is not None and app.kept.names == ("Player 1", "Player 2")
        assert "A new sheet. Your other unfinished sheets wait in ctrl+o." in _said(app)

    _run(app, second)


def test_names_typed_while_the_program_starts_land_in_the_dialog(tmp_path: Path) -> None:
    """Regression: keys typed before the dialog showed went to the entry line behind it.
    Here they arrive before the dialog has its focus, as the terminal delivers them."""

    class Early(KeeperApp):
        def on_mount(self) -> None:  # Textual calls KeeperApp's too
            _burst(self, "alice\nbob\nalice 25\nbob knocks 3 10\n")

    app = Early(store=Store(_url(tmp_path)))

    async def script(pilot: Pilot[Any]) -> None:
        await _until(pilot, lambda: app.kept is not None and len(app.kept.sheet.entries) == 2)
        assert app.kept is not None and app.kept.names == ("alice", "bob")
        assert [(e.player, e.points) for e in app.kept.sheet.entries] == [(0, 25), (1, 7)]
        assert app.query_one("#quick", Input).value == ""

    _run(app, script)


def test_hands_typed_ahead_are_neither_cut_nor_wiped(tmp_path: Path) -> None:
    app = KeeperApp(store=Store(_url(tmp_path)), names=NAMES)

    async def script(pilot: Pilot[Any]) -> None:
        _burst(app, "bob 10\nalex 18\nbob 3")
        await _until(pilot, lambda: app.query_one("#quick", Input).value == "bob 3")
        assert app.kept is not None
        assert [(e.player, e.points) for e in app.kept.sheet.entries] == [(1, 10), (0, 18)]
        assert app.query_one("#quick", Input).value == "bob 3"

    _run(app, script)


def test_esc_on_the_dialogs_never_abandons_and_every_sheet_is_offered(tmp_path: Path) -> None:
    """Regression: Esc on "Resume?" then Esc on the new-sheet dialog quit and marked the
    sheet abandoned; and only the latest unfinished sheet was ever offered."""
    older = _kept(tmp_path, ["bob 10", "alex 18"])
    newer = _kept(tmp_path, ["carol 5"], names=("Carol", "Dan"))
    app = KeeperApp(store=Store(_url(tmp_path)))

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, SavedGamesScreen)
        text = screen_text(app)
        assert "Carol vs Dan" in text and "1 hand · 5–0" in text
        assert "Alexandra vs Bob" in text and "2 hands · 18–10" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, NewSheetScreen)
        await pilot.press("escape")
        await pilot.pause()

    _run(app, script)
    store = Store(_url(tmp_path))
    assert store.load(older.id).status == "playing"
    assert store.load(newer.id).status == "playing"
    store.close()
    # the next start offers both again; the older one is taken up
    app = KeeperApp(store=Store(_url(tmp_path)))

    async def again(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, SavedGamesScreen)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.kept is not None and app.kept.id == older.id
        assert _sheet_rows(screen_text(app))["Alexandra"][:3] == ["18", "0", "0"]
        assert "Going on with Alexandra vs Bob" in _said(app)
        # a new sheet leaves this one saved and unfinished
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, NewSheetScreen)
        await pilot.press("ctrl+z", "ctrl+n", "ctrl+o")  # the sheet's keys wait behind it
        await pilot.pause()
        assert isinstance(app.screen, NewSheetScreen) and len(app.screen_stack) == 2
        assert len(app.kept.sheet.entries) == 2
        await pilot.press("escape")  # closing it changes nothing
        await pilot.pause()
        assert app.kept.id == older.id
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        assert app.kept.id != older.id
        assert "Alexandra vs Bob stays saved, unfinished: ctrl+o" in _said(app)

    _run(app, again)
    store = Store(_url(tmp_path))
    assert store.load(older.id).status == "playing"
    store.close()


def test_one_click_on_a_saved_sheet_opens_it(tmp_path: Path) -> None:
    """Regression: a saved sheet in the list opened only on a second click."""
    older = _kept(tmp_path, ["bob 10", "alex 18"])
    _kept(tmp_path, ["carol 5"], names=("Carol", "Dan"))
    app = KeeperApp(store=Store(_url(tmp_path)))

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, SavedGamesScreen)
        table = app.screen.query_one(DataTable)
        await pilot.click(table, offset=(2, 2))  # the header, the newest, then the older one
        await pilot.pause()
        assert not isinstance(app.screen, SavedGamesScreen)
        assert app.kept is not None and app.kept.id == older.id
        assert "Going on with Alexandra vs Bob" in _said(app)

    _run(app, script)


def test_abandoning_takes_words(tmp_path: Path) -> None:
    kept = _kept(tmp_path, ["bob 10"])
    app = KeeperApp(store=Store(_url(tmp_path)))

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, SavedGamesScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert app.kept is not None and app.kept.id == kept.id
        # the list again: the sheet on screen is marked, and may be abandoned, in words
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert "Alexandra vs Bob (open now)" in screen_text(app)
        await pilot.press("delete")
        await pilot.pause()
        assert "Abandon this sheet?" in screen_text(app)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.kept is None  # it is no longer kept here: a new sheet is asked for
        assert isinstance(app.screen, NewSheetScreen)

    _run(app, script)
    store = Store(_url(tmp_path))
    assert store.load(kept.id).status == "abandoned"
    store.close()


def test_the_undercut_question_records_either_reading(tmp_path: Path) -> None:
    app = KeeperApp(store=Store(_url(tmp_path)), names=NAMES)

    async def script(pilot: Pilot[Any]) -> None:
        await _enter(pilot, ["alex undercut 8 5"])
        assert isinstance(app.screen, QuestionScreen)
        text = screen_text(app)
        assert "did Alexandra undercut Bob's knock?" in text
        assert "Yes, Alexandra +13 (y)" in text and "No, Bob +13 (n)" in text
        await pilot.press("n")
        await pilot.pause()
        assert app.kept is not None
        assert app.kept.hands[-1] == HandEntry(1, 13, "undercut", 8, 5)
        assert "Bob undercut Alexandra's knock of 8 with 5" in _said(app)
        # Esc leaves the line as typed, nothing recorded
        await _enter(pilot, ["bob knocks 9 4"])
        assert isinstance(app.screen, QuestionScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert len(app.kept.sheet.entries) == 1
        assert app.query_one("#quick", Input).value == "bob knocks 9 4"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.kept.hands[-1] == HandEntry(0, 15, "undercut", 9, 4)

    _run(app, script)


def test_the_form_says_who_won_and_hides_big_gin_without_it(tmp_path: Path) -> None:
    app = KeeperApp(store=Store(_url(tmp_path)), names=NAMES)

    async def script(pilot: Pilot[Any]) -> None:
        how = app.query_one("#how", RadioSet)
        labels = [str(b.label) for b in how.query(RadioButton) if b.display]
        assert "went big gin" not in labels  # R5.7: not played under hollywood
        buttons = list(app.query_one("#who", RadioSet).query(RadioButton))
        buttons[1].value = True  # Bob won
        list(how.query(RadioButton))[2].value = True  # by undercutting
        await pilot.pause()
        await pilot.pause()  # the form scrolls its numbers, named after the choice, in sight
        assert "Alexandra's deadwood (the knocker), then Bob's" in _said(app)
        app.query_one("#first", Input).value = "8"
        app.query_one("#second", Input).value = "5"
        app.query_one("#below").scroll_end(animate=False)  # as the mouse wheel would
        await pilot.pause()
        await pilot.click("#add")
        await pilot.pause()
        assert app.kept is not None
        assert app.kept.hands[-1] == HandEntry(1, 13, "undercut", 8, 5)
        # The form reads numbers as the entry line does (read_number): "1_0" was 10.
        buttons[1].value = True
        list(how.query(RadioButton))[2].value = True
        app.query_one("#first", Input).value = "1_0"
        app.query_one("#second", Input).value = "5"
        await pilot.pause()
        app.query_one("#add", Button).press()
        await pilot.pause()
        assert "not '1_0'" in _said(app), _said(app)
        assert len(app.kept.hands) == 1

    _run(app, script)
    app = KeeperApp(store=Store(_url(tmp_path)), names=NAMES, rules=Rules(big_gin_bonus=31))

    async def with_big_gin(pilot: Pilot[Any]) -> None:
        how = app.query_one("#how", RadioSet)
        assert "went big gin" in [str(b.label) for b in how.query(RadioButton) if b.display]

    _run(app, with_big_gin)
    app = KeeperApp(store=Store(_url(tmp_path)), names=NAMES, rules=Rules(knock_limit=0))

    async def gin_only(pilot: Pilot[Any]) -> None:  # R5.1: no knock to win or undercut
        how = app.query_one("#how", RadioSet)
        shown = [str(b.label) for b in how.query(RadioButton) if b.display]
        assert shown == ["won points", "went gin"], shown

    _run(app, gin_only)


def test_custom_rules_in_the_new_sheet_dialog(tmp_path: Path) -> None:
    """§7: every option can be set; a preset fills them; an invalid value is refused with
    the reason from the rules' own validation; the rules are saved with the sheet."""
    app = KeeperApp(store=Store(_url(tmp_path)), new=True)

    async def script(pilot: Pilot[Any]) -> None:
        dialog = app.screen
        assert isinstance(dialog, NewSheetScreen)
        text = screen_text(app)
        for words in ("Knock limit (R5.1)", "Start (Enter)", "Cancel (Esc)"):
            assert words in text, words
        preset = dialog.query_one("#preset", Select)
        preset.value = "classic"
        await pilot.pause()
        assert dialog.query_one("#opt-columns", Input).value == "1"
        limit = dialog.query_one("#opt-knock_limit", Input)
        limit.value = "11"
        await pilot.pause()
        assert preset.value == "custom"
        await pilot.click("#start")
        await pilot.pause()
        assert app.screen is dialog  # refused
        assert ("Knock limit: rule knock_limit=11 is invalid: it must be a whole number from "
                "0 to 10") in " ".join(screen_text(app).replace("█", " ").split())
        limit.value = "7"
        dialog.query_one("#opt-entry_rule", Select).value = "by_count"
        dialog.query_one("#opt-columns", Input).value = "3"
        dialog.query_one("#opt-big_gin_bonus", Input).value = "31"
        await pilot.pause()
        assert "knock_limit" not in screen_text(app)
        # Textual ignores a click on a button still showing its last press (0.2 s), as a
        # person's second click comes later than this script's would.
        start = dialog.query_one("#start", Button)
        await _until(pilot, lambda: not start.has_class("-active"))
        await pilot.click("#start")
        await _until(pilot, lambda: app.kept is not None)  # a loaded machine takes a while
        assert app.kept is not None
        expected = Rules(knock_limit=7, entry_rule="by_count", big_gin_bonus=31)
        assert app.kept.rules == expected
        # the sheet is drawn a frame after it is kept (read between the two, this failed once)
        shown = "custom rules · 3 games to 100 · knock ≤7 · gin 25 · big gin 31"
        await _until(pilot, lambda: shown in _left(app))
        assert shown in _left(app)
        # by count (R7.2): A 60, A 45 closes game 1; B's first 12 enters no game
        await _enter(pilot, ["1 60", "1 45", "2 12", "2 12"])
        assert app.store.load(app.kept.id).rules == expected  # saved with the sheet
        assert [e.columns for e in app.kept.sheet.entries] == [(0,), (0, 1), (), (1,)]
        assert "3. Player 2 +12 → no game" in _left(app)
        with pytest.raises(EntryError, match="Player 2 cannot knock with 8: the knock limit is 7"):
            parse_entry("2 knocks 8 20", app.kept.names, app.kept.rules)

    _run(app, script)


def test_names_that_cannot_be_told_apart_are_refused(tmp_path: Path) -> None:
    app = KeeperApp(store=Store(_url(tmp_path)), new=True)

    async def script(pilot: Pilot[Any]) -> None:
        await _enter(pilot, ["Sam", "sam"])
        assert isinstance(app.screen, NewSheetScreen)
        assert "The two players need different names." in screen_text(app)
        # a name of digits would read as "the first player" or "the second"
        app.screen.query_one("#name1", Input).value = "2"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewSheetScreen)
        assert "A name needs a letter" in screen_text(app)

    _run(app, script)


def test_every_keeper_screen_shows_its_numbers_and_buttons_at_80x24(tmp_path: Path) -> None:
    """§3/§4: at 80x24 the sheet's numbers, who won each game, the result, the entry line
    and the keys are all on screen, and so are every dialog's buttons."""
    names = ("Alexandra Longname", "Bob")
    hands = ["bob 10", "alex 18", "bob 30", "bob 4", "alex knocks 2 40", "bob gin 30",
             "alex undercuts 9 2", "bob 5", "alex 50"]
    kept = _kept(tmp_path, hands, names=names)
    app = KeeperApp(store=Store(_url(tmp_path)))

    async def script(pilot: Pilot[Any]) -> None:
        await _until(pilot, lambda: isinstance(app.screen, SavedGamesScreen))
        await pilot.press("enter")  # take up the sheet from the list
        await _until(pilot, lambda: app.kept is not None)  # a loaded machine is slow
        assert app.kept is not None and app.kept.id == kept.id
        await _enter(pilot, ["alex 40"])  # the last hand closes game 3 and the match
        said = _said(app)
        assert "Game 3 closes at 107 to 64: Alexandra Longname wins it" in said
        assert "The match is over: Alexandra Longname won it" in said
        text = screen_text(app)
        sheet = app.kept.sheet
        assert sheet.finished
        for column in sheet.columns:
            for number in (*column.points, *column.boxes, *column.total):
                assert str(number) in text
            for bonus in column.bonuses:
                assert f"+{bonus}" in text
        for total in sheet.totals:
            assert str(total) in text
        flat = _left(app)
        assert "Game 1 won by Bob" in flat
        assert "Game 2 won by Alexandra Longname" in flat
        assert "Match over: Alexandra Longname wins, 2–1 in games, result +63" in flat
        for key in ("quit", "undo", "new sheet", "sheets", "help"):
            assert key in text.splitlines()[-1]
        assert "Enter a hand" in text
        # help, at 80x24, with its close button; the grammar for these players
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, KeeperHelp)
        text = " ".join(screen_text(app).split())
        assert "Close (Esc)" in text and "alexandra knocks 3 10" in text
        assert "bob undercuts 8 5: Alexandra Longname knocked with 8, Bob had 5" in text
        await pilot.press("escape")
        await pilot.pause()
        # the new-sheet dialog: names, preset, the first options and both buttons
        await pilot.press("ctrl+n")
        await pilot.pause()
        text = screen_text(app)
        for words in ("First player", "Second player", "Rules", "Knock limit",
                      "Start (Enter)", "Cancel (Esc)"):
            assert words in text, words
        await pilot.press("escape")
        await pilot.pause()
        # the list of sheets
        await pilot.press("ctrl+o")
        await pilot.pause()
        text = screen_text(app)
        assert "Open (Enter)" in text and "Abandon… (Del)" in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.kept.id == kept.id

    _run(app, script)


def test_score_names_and_list_on_the_command_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from hollywood_gin.cli import main
    from hollywood_gin.tui.commands import _names

    assert _names(["alice,bob"]) == ("alice", "bob")
    assert _names(["alice", "bob"]) == ("alice", "bob")
    assert _names([" Mary  Ann ,Bob"]) == ("Mary Ann", "Bob")
    assert _names(["Mary", "Ann,Bob", "Lee"]) == ("Mary Ann", "Bob Lee")  # no quotes
    for bad in (["alice"], ["a", "b", "c"], ["sam,Sam"]):
        with pytest.raises(Exception, match="names"):
            _names(bad)
    assert main(["score", "--names", "alice", "--db", _url(tmp_path)]) == 2
    assert "--names takes two names" in capsys.readouterr().err
    kept = _kept(tmp_path, ["bob 10"])
    assert main(["score", "--list", "--db", _url(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert kept.id[:8] in out and "Alexandra vs Bob" in out and "1 hand · 0–10" in out


def test_the_readme_grammar_means_what_it_says() -> None:
    """The README's table of keeper lines: each credits the player it names, as it says."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    lines = re.findall(r"^  \| `(bob [^`]*)` \| (.*) \|$", readme, flags=re.MULTILINE)
    assert len(lines) == 5
    names = ("Alice", "Bob")
    expected = {"bob 25": 25, "bob knocks 3 10": 7, "bob undercuts 8 5": 13, "bob gin 12": 37}
    for line, meaning in lines:
        if "big gin" in line:
            assert parse_entry(line, names, Rules(big_gin_bonus=31)).points == 43
            continue
        entry = parse_entry(line, names, HOLLYWOOD)
        assert (entry.player, entry.points) == (1, expected[line]), line
        assert meaning.startswith("Bob") or "Bob wins" in meaning, meaning


def test_tab_typed_ahead_moves_to_the_second_name(tmp_path: Path) -> None:
    app = KeeperApp(store=Store(_url(tmp_path)), new=True)

    async def script(pilot: Pilot[Any]) -> None:
        _burst(app, "Mia\tNoah\n")
        await _until(pilot, lambda: app.kept is not None)
        assert app.kept is not None and app.kept.names == ("Mia", "Noah")

    _run(app, script)


def test_rules_given_on_the_command_line_start_a_sheet() -> None:
    """--rules or --rule given: a sheet with them starts at once; neither: the dialog asks."""
    from hollywood_gin.cli import build_parser
    from hollywood_gin.tui.commands import _given_rules

    parser = build_parser()
    assert _given_rules(parser.parse_args(["score"])) is None
    assert _given_rules(parser.parse_args(["score", "--rules", "classic"])) == PRESETS["classic"]
    assert _given_rules(parser.parse_args(["score", "--rule", "knock_limit=8"])) == Rules(
        knock_limit=8)
    assert _given_rules(parser.parse_args(["score", "--rules", "eaai", "--rule",
                                           "entry_rule=by_count"])) == PRESETS["eaai"].replace(
        entry_rule="by_count")


@pytest.mark.parametrize("lang", ["ha", "en"])
def test_the_new_sheet_dialogs_labels_keep_a_gap_before_their_fields(tmp_path: Path,
                                                                    lang: str) -> None:
    """Hausa's long rules label ran into its field at 80x24 ("… da keHollywood ▼")."""
    from textual.widgets import Label

    from hollywood_gin import i18n
    from hollywood_gin.tui.keeper_screens import NewSheetScreen

    i18n.set_language(lang)
    try:
        app = KeeperApp(store=Store(_url(tmp_path)), new=True)

        async def script(pilot: Pilot[Any]) -> None:
            dialog = app.screen
            assert isinstance(dialog, NewSheetScreen)
            for row in dialog.query(".row"):
                label, field = row.query_one(Label), row.children[-1]
                assert label.content_region.right < field.region.x, (str(label.render()),
                                                                     label.content_region,
                                                                     field.region)

        _run(app, script)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["lt", "ha", "nb", "en"])
def test_the_header_keeps_the_players_names_whole_at_80_columns(tmp_path: Path,
                                                                 lang: str) -> None:
    """At 80 columns the header was cut with an ellipsis ("— Alexandra – Bartholomew ·…",
    and names of 24 letters were lost): it now leaves out the rules (the sheet's first line
    names them), then the keeper's name; a wide screen shows all three."""
    from hollywood_gin import i18n
    from hollywood_gin.i18n import _
    from hollywood_gin.tui.rulewords import preset_label

    i18n.set_language(lang)
    long_names = ("Alexandra", "Bartholomew"), ("Maximiliana Konstantina", "Bartholomew Ezekiel")
    try:
        for n, names in enumerate(long_names):
            store = Store(f"sqlite:///{tmp_path / f'k{n}.db'}")
            app = KeeperApp(store=store, names=names, rules=PRESETS["hollywood-20"])

            async def script(pilot: Pilot[Any], names: tuple[str, str] = names) -> None:
                header = screen_text(pilot.app).splitlines()[0]
                assert "…" not in header and all(name in header for name in names), header
                await pilot.resize_terminal(160, 40)
                await pilot.pause()
                header = screen_text(pilot.app).splitlines()[0]
                assert _(KeeperApp.TITLE) in header and all(name in header for name in names)
                assert preset_label("hollywood-20") in header, header

            _run(app, script)
    finally:
        i18n.set_language("en")
