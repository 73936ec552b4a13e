"""Helpers for driving the terminal apps headless with Textual's pilot.

A scripted person plays the game through keys (or clicks), the way a player
would: pass the upcard, draw from the stock, knock when the engine allows it,
otherwise discard the card that leaves the least deadwood.
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from hollywood_gin.actions import Knock
from hollywood_gin.hand import Phase
from hollywood_gin.melds import discard_choices
from hollywood_gin.tui.app import KEY_NAMES, GinApp, HandEndScreen, MatchEndScreen

SIZE = (112, 34)


def screen_text(app: App[Any]) -> str:
    """Everything the screen shows now, as plain text (what a person could read)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)
    update = app.screen._compositor.render_update(full=True,
                                                  screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


async def settle(pilot: Pilot[Any], app: GinApp) -> None:
    """Wait until the computer has finished moving and the screen is drawn."""
    for _ in range(400):
        await pilot.pause()
        if not app.busy:
            await app.workers.wait_for_complete()
            await pilot.pause()
            if not app.busy:
                return
    raise AssertionError("the computer never finished its turn")


async def human_turn(pilot: Pilot[Any], app: GinApp, *, mouse: bool = False) -> None:
    """One action of the scripted person, by key (or by mouse)."""
    session = app.session
    assert session is not None and session.human_to_act
    view = session.view()
    game = app.game
    if view.phase is Phase.OFFER:
        await (pilot.click("#b-pass") if mouse else pilot.press("x"))
    elif view.phase is Phase.DRAW:
        await (pilot.click("#stock") if mouse else pilot.press("s"))
    else:
        knocks = [a for a in view.legal_actions if isinstance(a, Knock)]
        if knocks:
            await (pilot.click("#b-knock") if mouse and game.query_one("#b-knock").display
                   else pilot.press("k"))
            return
        legal = [c for c in discard_choices(view.hand) if c.card != view.taken_card]
        index = game.order.index(legal[0].card)
        if mouse:
            cards = list(game.query("CardWidget.mine"))
            await pilot.click(cards[index])
            await pilot.click(cards[index])
        else:
            await pilot.press(KEY_NAMES[index], KEY_NAMES[index])


async def play_to_hand_end(pilot: Pilot[Any], app: GinApp, *, mouse: bool = False,
                           each: Any = None, limit: int = 400) -> None:
    """Play the person's side until the end-of-hand screen shows."""
    for _ in range(limit):
        await settle(pilot, app)
        if isinstance(app.screen, (HandEndScreen, MatchEndScreen)):
            return
        if each is not None:
            each()
        await human_turn(pilot, app, mouse=mouse)
    raise AssertionError("the hand did not end")
