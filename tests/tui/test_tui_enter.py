"""Enter presses the button that has the focus: a dialog's main action runs on Enter only
when no button is focused (Tab to "Cancel" then Enter started a match; Tab to "Review"
then Enter dealt the next hand)."""

from __future__ import annotations

import asyncio
from typing import Any

from test_tui_newmatch import _opened
from test_tui_review import make_app, reviewed, to_hand_end
from textual.app import App, ComposeResult
from textual.widgets import Button, Static

from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp
from hollywood_gin.tui.handend import HandEndScreen
from hollywood_gin.tui.widgets import AskScreen


async def _focus(pilot: Any, screen: Any, ident: str) -> None:
    button = screen.query_one(f"#{ident}", Button)
    button.focus()
    await pilot.pause()
    assert screen.focused is button


def test_enter_on_cancel_in_the_new_match_dialog_starts_nothing(store: Store) -> None:
    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _opened(pilot, app)
            await _focus(pilot, screen, "cancel")
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is not screen and app.session is None
            assert store.matches() == []

    asyncio.run(run())


def test_enter_on_review_at_the_hand_end_opens_the_review(store: Store) -> None:
    async def run() -> None:
        app = make_app(store, seed=11)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_hand_end(pilot, app)
            screen = app.screen
            assert isinstance(screen, HandEndScreen)
            number = app.session.hand_number if app.session else 0
            await _focus(pilot, screen, "review")
            await pilot.press("enter")
            await reviewed(pilot, app)  # the review, not the next deal
            assert app.session is not None and app.session.hand_number == number

    asyncio.run(run())


class _Asking(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.answers: list[bool | None] = []

    def compose(self) -> ComposeResult:
        yield Static("")

    def ask(self) -> None:
        self.push_screen(AskScreen("Resume?", "Resume it?", ("Resume", "r"),
                                   ("New match", "n")), self.answers.append)


def test_enter_on_the_no_button_of_a_question_answers_no() -> None:
    async def run() -> None:
        app = _Asking()
        async with app.run_test(size=(80, 24)) as pilot:
            app.ask()
            await pilot.pause()
            await _focus(pilot, app.screen, "no")
            await pilot.press("enter")
            await pilot.pause()
            app.ask()  # with no button focused, Enter is yes
            await pilot.pause()
            app.screen.set_focus(None)
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
        assert app.answers == [False, True]

    asyncio.run(run())
