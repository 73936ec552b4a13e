"""The move list of the table keeps its latest move in sight: after a resume (it stopped at
"Computer draws from the", the last lines below it) and after a resize from large back to
80x24 (left several lines above its end); both found by a QA pass."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.containers import VerticalScroll
from tui_helpers import scripted_action, settle

from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp
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
