"""Saved games: a new app on the same database resumes exactly where the last one stopped."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tui_helpers import SIZE, human_turn, play_to_hand_end, screen_text, settle

from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HandEndScreen, NewMatchScreen
from hollywood_gin.tui.widgets import AskScreen


def _app(url: str, *, new: bool = False) -> GinApp:
    return GinApp(store=Store(url), level=2, rules=Rules(), seed=99, first_dealer=0, new=new,
                  ask=False, delay=0)


def test_resume_mid_hand_after_a_restart(tmp_path: Path) -> None:
    """Quit mid-hand; the next run offers the match and continues at the same action."""
    url = f"sqlite:///{tmp_path / 'games.db'}"

    async def first() -> tuple[str, int, object]:
        app = _app(url, new=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            for _ in range(5):
                await human_turn(pilot, app)
                await settle(pilot, app)
            session = app.session
            assert session is not None
            state = (session.id, session.pm.action_count, session.view())
            await pilot.press("q")
        app.store.close()
        return state

    async def second(expected: tuple[str, int, object]) -> None:
        app = _app(url)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)
            assert "Resume it exactly where it stopped?" in screen_text(app)
            await pilot.press("r")
            await settle(pilot, app)
            session = app.session
            assert session is not None
            assert (session.id, session.pm.action_count, session.view()) == expected
            # and it plays on from there
            await human_turn(pilot, app)
            await settle(pilot, app)
            assert session.pm.action_count > expected[1]
        app.store.close()

    asyncio.run(second(asyncio.run(first())))


def test_resume_at_the_end_of_a_hand_and_a_new_match_keeps_it(tmp_path: Path) -> None:
    """Stopped on the end-of-hand screen: it shows again; saying no starts a new match and
    the old one stays saved, unfinished (closing a question never abandons, issue 11 §2)."""
    url = f"sqlite:///{tmp_path / 'games.db'}"

    async def first() -> str:
        app = _app(url, new=True)
        async with app.run_test(size=SIZE) as pilot:
            await play_to_hand_end(pilot, app)
            assert isinstance(app.screen, HandEndScreen)
            match_id = app.session.id
        app.store.close()
        return match_id

    async def second(match_id: str) -> None:
        app = _app(url)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await settle(pilot, app)
            assert isinstance(app.screen, HandEndScreen)
            assert app.session.id == match_id
        app.store.close()

    async def third(match_id: str) -> None:
        app = _app(url)
        app.ask = True
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.session is not None and app.session.id != match_id
        statuses = {m.id: m.status for m in app.store.matches()}
        assert statuses[match_id] == "playing"
        app.store.close()

    match_id = asyncio.run(first())
    asyncio.run(second(match_id))
    asyncio.run(third(match_id))
