"""No English hides in the score keeper, the statistics and the review, and the keeper fits
in a long language (issue 12; the scan and its layouts: ``pseudo_scan``).

The keeper's screens are visited with the pilot, in one app per layout: its new-sheet
dialog, its sheet with hands and an error, its question, help and list.  The statistics
and the review of a finished match are scanned in the pseudo-locale at both sizes.
"""

from __future__ import annotations

import asyncio

import pytest
from pseudo_scan import SIZES, Scan, leaks, until
from textual.widgets import Input
from tui_helpers import every_text, play_out, settle

from hollywood_gin import i18n
from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp
from hollywood_gin.tui.keeper import KeeperApp
from hollywood_gin.tui.keeper_screens import KeeperHelp, NewSheetScreen, QuestionScreen
from hollywood_gin.tui.saved import SavedGamesScreen
from hollywood_gin.tui.session import GameSession


def test_every_screen_of_the_keeper_speaks_only_through_the_catalogue_and_fits(
        store: Store, layout: tuple[int, int]) -> None:
    """In the pseudo-locale, no untranslated word; in it, in Lithuanian and in Afrikaans, at
    80x24 and 120x40, no button cut or scrolled away and the table's numbers in sight."""
    size = layout
    async def run() -> None:
        app = KeeperApp(store=store, new=True)
        async with app.run_test(size=size) as pilot:
            scan = Scan(app)
            await until(pilot, app, NewSheetScreen)
            await scan(pilot, "the new-sheet dialog")
            await pilot.press(*"Alice", "enter", *"Bob", "enter")
            for _ in range(50):
                await pilot.pause()
                if not isinstance(app.screen, NewSheetScreen):
                    break
            await scan(pilot, "an empty sheet")
            for line in ("alice 25", "bob knocks 3 10", "alice nonsense"):
                await pilot.press(*line, "enter")
            await scan(pilot, "a sheet with hands and an error")
            app.query_one("#quick", Input).value = ""  # the refused line stays to be fixed
            await pilot.press(*"bob undercut 8 5", "enter")
            await until(pilot, app, QuestionScreen)
            await scan(pilot, "a question")
            await pilot.press("escape")
            await pilot.press("f1")
            await until(pilot, app, KeeperHelp)
            await scan(pilot, "the keeper's help")
            await pilot.press("escape")
            await pilot.press("ctrl+o")
            await until(pilot, app, SavedGamesScreen)
            await scan(pilot, "the unfinished sheets")
            await pilot.press("escape")
            assert scan.found == {}, '\n'.join(f'{k}: {v}' for k, v in scan.found.items())
            if not scan.words:
                return
            # The scan sees what it should: the footer's key hints, a word said in English.
            assert i18n.pseudo("undo") in every_text(app)
            app.notify("Plain English")
            await pilot.pause()
            assert "Plain" in leaks(app)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_statistics_and_the_review_speak_only_through_the_catalogue(
        store: Store, qps: None, size: tuple[int, int]) -> None:
    """The statistics screen (a) before and after a review, and the review screen of a
    finished match stepped through its decisions (issue 13's screens)."""
    from hollywood_gin.review import ReviewSettings
    from hollywood_gin.tui.review import ReviewScreen
    from hollywood_gin.tui.statsscreen import StatsScreen

    old = GameSession.new(store, level=2, rules=Rules(columns=1, game_target=1), seed=8,
                          first_dealer=0)
    play_out(old, until_finished=True)

    async def run() -> None:
        app = GinApp(store=store, level=1, rules=Rules(), seed=9, first_dealer=1, new=True,
                     ask=False, delay=0,
                     review_settings=ReviewSettings(min_deals=2, max_deals=4, batch=2))
        async with app.run_test(size=size) as pilot:
            scan = Scan(app)
            await settle(pilot, app)
            await pilot.press("a")
            await until(pilot, app, StatsScreen)
            await scan(pilot, "the statistics")
            await pilot.press("enter")
            for _ in range(2000):
                await pilot.pause()
                screen = app.screen
                if isinstance(screen, ReviewScreen) and screen.done:
                    break
            await scan(pilot, "the review")
            for step in range(6):
                await pilot.press("right")
                await scan(pilot, f"the review, decision {step + 2}")
            await pilot.press("escape")
            await until(pilot, app, StatsScreen)
            await scan(pilot, "the statistics after a review")
            assert scan.found == {}, '\n'.join(f'{k}: {v}' for k, v in scan.found.items())

    asyncio.run(run())
