"""What the table and the hand's end must keep in sight at 80x24: the move list's latest move
after a resume (it stopped at "Computer draws from the", the last lines below it) and after a
resize from large back to 80x24, and the hand's own room at the match's end (all found by a
QA pass)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.containers import VerticalScroll
from tui_helpers import play_out, screen_text, scripted_action, settle

from hollywood_gin.rules import PRESETS, Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HandEndScreen
from hollywood_gin.tui.session import GameSession
from hollywood_gin.tui.widgets import AskScreen


def _at_the_end(app: GinApp) -> bool:
    box = app.game.query_one("#log-box", VerticalScroll)
    return box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y


def test_the_latest_move_is_in_sight_after_a_resume_and_a_resize(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    session = GameSession.new(store, level=1, rules=Rules(), seed=3, first_dealer=1)
    while session.pm.action_count < 24 and not session.hand.is_over:
        if session.human_to_act:
            session.act(scripted_action(session.view()))
        else:
            session.computer_act(session.computer_choice())
    assert not session.hand.is_over and session.human_to_act

    async def offered() -> None:  # q, then play: "Resume" in the offer
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)
            await pilot.press("enter")
            await settle(pilot, app)
            for _ in range(5):
                await pilot.pause()
            assert app.session is not None and app.session.id == session.id
            assert _at_the_end(app), "resumed: the last moves are out of sight"

    async def run() -> None:
        app = GinApp(store=store, resume=session.id, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for _ in range(5):
                await pilot.pause()
            assert _at_the_end(app), "resumed: the last moves are out of sight"
            await pilot.resize_terminal(200, 60)
            await settle(pilot, app)
            await pilot.resize_terminal(80, 24)
            for _ in range(5):
                await pilot.pause()
            assert _at_the_end(app), "resized back to 80x24: the last moves out of sight"

    asyncio.run(offered())
    asyncio.run(run())
    store.close()


def test_the_last_hand_end_leaves_the_hand_its_room_at_80x24(tmp_path: Path) -> None:
    """The match's result under the sheet ("Computer wins the match 2–1, result +472
    (R7.5).") was one line, and the sheet's column as wide as it: the hand's end beside it
    had 26 columns at 80x24, its melds broken over lines (a QA pass).  It wraps under the
    sheet now, which is as wide as its table."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    session = GameSession.new(store, level=1, rules=PRESETS["hollywood"].with_options(
        ["game_target=20"]), seed=2, first_dealer=1)
    play_out(session, until_finished=True)
    assert session.match.finished

    async def run() -> None:
        app = GinApp(store=store, resume=session.id, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, HandEndScreen)
            left = app.screen.query_one("#end-left").size.width
            sheet = app.screen.query_one("#end-sheet").size.width
            assert left >= 40 and sheet <= 36, (left, sheet)
            said = " ".join(screen_text(app).split())
            assert "the match" in said and "(R7.5)" in said

    asyncio.run(run())
    store.close()
