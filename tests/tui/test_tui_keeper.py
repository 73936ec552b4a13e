"""The score keeper: the R7.6 example, points from deadwood (R5.5–R5.7), undo, resume."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tui_helpers import screen_text

from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.keeper import KeeperApp, NewSheetScreen
from hollywood_gin.tui.keeping import EntryError, KeptSheet, hand_points, parse_entry
from hollywood_gin.tui.widgets import AskScreen

NAMES = ("Alexandra", "Bob")
SIZE = (112, 36)


def _sheet_rows(text: str) -> dict[str, list[str]]:
    """The sheet's rows by label, first occurrence (points), as the screen shows them."""
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        words = line.split("▏")[0].split()
        if words and words[0] in NAMES and words[0] not in rows:
            rows[words[0]] = words[1:]
    return rows


async def _enter(pilot, lines: list[str]) -> None:  # type: ignore[no-untyped-def]
    for line in lines:
        for ch in line:
            await pilot.press("space" if ch == " " else ch)
        await pilot.press("enter")
        await pilot.pause()


def test_r7_6_example_in_the_keeper(tmp_path: Path) -> None:
    """R7.6: Bob 10, Alexandra 18, Bob 30, Bob 4 → Alexandra 18/0/0, Bob 44/34/4."""
    url = f"sqlite:///{tmp_path / 'keeper.db'}"

    async def run() -> None:
        app = KeeperApp(store=Store(url), names=NAMES, new=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NewSheetScreen)
            await pilot.click("#start")
            await pilot.pause()
            await _enter(pilot, ["bob 10", "alex 18", "bob 30", "2 4"])
            text = screen_text(app)
            rows = _sheet_rows(text)
            assert rows["Alexandra"][:3] == ["18", "0", "0"]
            assert rows["Bob"][:3] == ["44", "34", "4"]
            assert app.kept is not None
            assert [c.points for c in app.kept.sheet.columns] == [(18, 44), (0, 34), (0, 4)]
            # a bad line says why and enters nothing
            await _enter(pilot, ["carol 5"])
            assert "who is 'carol'" in screen_text(app)
            assert len(app.kept.sheet.entries) == 4
            # undo the last hand, in the store too
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert _sheet_rows(screen_text(app))["Bob"][:3] == ["40", "30", "0"]
            assert len(app.store.load(app.kept.id).actions) == 3
        app.store.close()

    asyncio.run(run())


def test_keeper_resumes_and_computes_from_deadwood(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keeper.db'}"

    async def first() -> str:
        app = KeeperApp(store=Store(url), names=NAMES, new=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("enter", "enter")  # accept both names
            await pilot.pause()
            await _enter(pilot, ["bob knock 3 10", "alex knock 8 5", "bob gin 12"])
            assert app.kept is not None
            assert [(e.player, e.points) for e in app.kept.sheet.entries] == [
                (1, 7), (1, 13), (1, 37)]
            ident = app.kept.id
        app.store.close()
        return ident

    async def second(ident: str) -> None:
        app = KeeperApp(store=Store(url))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)
            await pilot.press("r")
            await pilot.pause()
            assert app.kept is not None and app.kept.id == ident
            assert [(e.player, e.points) for e in app.kept.sheet.entries] == [
                (1, 7), (1, 13), (1, 37)]
            # the form: Alexandra (first), knock, 2 against 9
            await pilot.click("#who")
            await pilot.press("enter")
            await pilot.click("#how")
            await pilot.press("down", "enter")
            app.query_one("#first").value = "2"  # type: ignore[attr-defined]
            app.query_one("#second").value = "9"  # type: ignore[attr-defined]
            await pilot.click("#add")
            await pilot.pause()
            assert (app.kept.sheet.entries[-1].player, app.kept.sheet.entries[-1].points) == (0, 7)
        app.store.close()

    asyncio.run(second(asyncio.run(first())))


def test_hand_points_follow_r5() -> None:
    rules = Rules()
    # R5.9 first example: knocker 3, defender 10 after lay-offs: 7 to the knocker (R5.5)
    entry = hand_points(rules, knocker=0, kind="knock", knocker_deadwood=3, defender_deadwood=10)
    assert (entry.player, entry.points) == (0, 7)
    # R5.9 second example: 5 against 5 is an undercut: 10 + 0 to the defender (R5.6)
    entry = hand_points(rules, knocker=0, kind="knock", knocker_deadwood=5, defender_deadwood=5)
    assert (entry.player, entry.points) == (1, 10)
    entry = hand_points(rules, knocker=1, kind="undercut", knocker_deadwood=9,
                        defender_deadwood=4)
    assert (entry.player, entry.points) == (0, 15)
    # R5.7: gin 25 + the defender's deadwood; gin bonus is an option (20 in hollywood-20)
    assert hand_points(rules, knocker=1, kind="gin", knocker_deadwood=0,
                       defender_deadwood=12).points == 37
    assert hand_points(Rules.preset("hollywood-20"), knocker=1, kind="gin",
                       knocker_deadwood=0, defender_deadwood=12).points == 32
    assert hand_points(Rules(undercut_bonus=25), knocker=0, kind="knock", knocker_deadwood=6,
                       defender_deadwood=2).points == 29
    with pytest.raises(EntryError, match=r"R5\.1"):
        hand_points(rules, knocker=0, kind="knock", knocker_deadwood=11, defender_deadwood=20)
    with pytest.raises(EntryError, match=r"R2\.5"):
        hand_points(rules, knocker=0, kind="gin", knocker_deadwood=3, defender_deadwood=20)
    with pytest.raises(EntryError, match=r"R5\.5"):
        hand_points(rules, knocker=0, kind="undercut", knocker_deadwood=3, defender_deadwood=9)
    with pytest.raises(EntryError, match="big gin"):
        hand_points(rules, knocker=0, kind="big_gin", knocker_deadwood=0, defender_deadwood=9)


def test_parse_entry_forms() -> None:
    rules = Rules()
    assert parse_entry("Bob 25", NAMES, rules).points == 25
    assert parse_entry("al 18", NAMES, rules).player == 0
    assert parse_entry("1 knock 2 9", NAMES, rules).points == 7
    assert parse_entry("b big-gin 3", NAMES, Rules(big_gin_bonus=31)).points == 34
    for bad in ("", "bob", "bob zero", "bob 0", "x 10", "bob knock 3"):
        with pytest.raises(EntryError):
            parse_entry(bad, NAMES, rules)


def test_kept_sheet_store_round_trip(tmp_path: Path) -> None:
    """Stored as "PLAYER POINTS" actions of a keeper match; rebuilt by replaying (R7.7)."""
    store = Store(f"sqlite:///{tmp_path / 'k.db'}")
    kept = KeptSheet.new(store, names=("A", "B"), rules=Rules())
    for player, points in ((0, 40), (0, 35), (1, 20), (0, 30), (1, 25)):
        kept.add(parse_entry(f"{player + 1} {points}", ("A", "B"), Rules()))
    assert [a.action for a in store.load(kept.id).actions] == [
        "0 40", "0 35", "1 20", "0 30", "1 25"]
    again = KeptSheet.open(store, kept.id)
    assert again.sheet == kept.sheet
    assert again.sheet.columns[0].total == (265, 40)  # R7.7 first example
    store.close()
