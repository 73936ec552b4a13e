"""Where the game goes after a dialog closes, and what the message line still says."""

from __future__ import annotations

import asyncio
from pathlib import Path

from test_tui_review import to_hand_end
from textual.widgets import Static

from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, MatchEndScreen, NewMatchScreen
from hollywood_gin.tui.handend import HandEndScreen


def test_closing_the_new_match_dialog_after_a_match_comes_back_to_its_end(
        store: Store) -> None:
    """n at the match's end, then Esc, left a finished table on which every key said "The
    hand is over: Enter deals the next one", and Enter did nothing."""

    async def run() -> None:
        app = GinApp(store=store, level=1, rules=Rules(columns=1, game_target=1), seed=3,
                     new=True, ask=False, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_hand_end(pilot, app, until_finished=True)
            assert isinstance(app.screen, HandEndScreen)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, MatchEndScreen)
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MatchEndScreen)  # its choices again

    asyncio.run(run())


def test_the_wait_refusal_goes_once_the_computer_has_moved(store: Store) -> None:
    """"Wait: it is the computer's turn." stayed on the player's own turn."""

    async def run() -> None:
        app = GinApp(store=store, level=1, rules=Rules(), seed=3, first_dealer=0, new=True,
                     ask=False, delay=3.0)  # time to press a key in its turn, under load
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):
                await pilot.pause()
                if app.session is not None and app.game.thinking:
                    break
            assert app.session is not None and app.session.computer_to_act
            await pilot.press("x")
            await pilot.pause()
            message = app.game.query_one("#message", Static)
            assert "Wait" in str(message.render())
            for _ in range(400):  # the computer's pause and move
                await pilot.pause(0.05)
                if app.session.human_to_act and not app.game.thinking:
                    break
            await pilot.pause()
            assert app.session.human_to_act
            assert "Wait" not in str(message.render())

    asyncio.run(run())


def test_the_help_shows_its_last_line_at_80x24(store: Store) -> None:
    """Narrow, the help's buttons take two rows, and its last line stayed under them."""
    from tui_helpers import screen_text

    from hollywood_gin.tui.app import HelpScreen

    async def run() -> None:
        app = GinApp(store=store, level=1, rules=Rules(), seed=3, new=True, ask=False, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            for _ in range(50):
                await pilot.pause()
                if isinstance(app.screen, HelpScreen):
                    break
            await pilot.press("end")
            await pilot.pause(0.2)
            assert "'hollywood-gin play' resumes." in " ".join(screen_text(app).split())

    asyncio.run(run())


def test_a_hand_end_narrowed_to_80x24_is_drawn_as_one_opened_there(tmp_path: Path) -> None:
    """Opened at 200x50, then narrowed to 80x24, the hand's end kept its wide sheet (drawn
    compact only when opened narrow), and the melds beside it could split across lines."""
    from tui_helpers import screen_text

    from hollywood_gin import i18n

    async def shot(size: tuple[int, int], name: str) -> str:
        store = Store(f"sqlite:///{tmp_path / name}")
        app = GinApp(store=store, level=1, rules=Rules(game_target=30), seed=11,
                     first_dealer=1, new=True, ask=False, delay=0)
        async with app.run_test(size=size) as pilot:
            await to_hand_end(pilot, app, until_finished=True)
            assert isinstance(app.screen, HandEndScreen)
            if size != (80, 24):
                await pilot.resize_terminal(80, 24)
            for _ in range(10):
                await pilot.pause()
            text = screen_text(app)
        store.close()
        return text

    i18n.set_language("nb")
    try:
        assert asyncio.run(shot((200, 50), "wide.db")) == asyncio.run(shot((80, 24), "80.db"))
    finally:
        i18n.set_language("en")


def test_the_tables_key_hints_go_while_a_dialog_is_over_it(store: Store) -> None:
    """Under every dialog the footer still listed the table's keys (hint, undo, pile),
    which do nothing there."""
    from textual.widgets import Footer

    from hollywood_gin.tui.app import HelpScreen

    async def run() -> None:
        app = GinApp(store=store, level=1, rules=Rules(), seed=3, new=True, ask=False, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(20):
                await pilot.pause()
            footer = app.game.query_one(Footer)
            assert footer.display
            await pilot.press("question_mark")
            for _ in range(20):
                await pilot.pause()
            assert isinstance(app.screen, HelpScreen) and not footer.display
            await pilot.press("escape")
            for _ in range(20):
                await pilot.pause()
            assert app.screen is app.game and footer.display

    asyncio.run(run())
