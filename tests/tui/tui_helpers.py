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


def scripted_action(view: Any) -> Any:
    """The scripted person's action for a view (the same policy as :func:`human_turn`)."""
    from hollywood_gin.actions import Discard, DrawStock, Pass

    if view.phase is Phase.OFFER:
        return Pass()
    if view.phase is Phase.DRAW:
        return DrawStock()
    knocks = [a for a in view.legal_actions if isinstance(a, Knock)]
    if knocks:
        return min(knocks, key=lambda a: (a.card is not None, _left(view, a)))
    legal = [c for c in discard_choices(view.hand) if c.card != view.taken_card]
    return Discard(legal[0].card)


def _left(view: Any, knock: Knock) -> int:
    from hollywood_gin.melds import deadwood

    return deadwood(c for c in view.hand if c != knock.card)


def play_out(session: Any, *, hands: int = 1, until_finished: bool = False) -> None:
    """Play a stored session on without the screen (fast): to the end of the current hand,
    of ``hands`` hands, or of the match; it stops at a hand's end, as the screen would."""
    played = 0
    while True:
        if session.hand.is_over:
            played += 1
            if session.match.finished or (not until_finished and played >= hands):
                return
            session.next_hand()
            continue
        if session.human_to_act:
            session.act(scripted_action(session.view()))
        else:
            session.computer_act(session.computer_choice())


def on_screen(app: App[Any], widget: Any) -> bool:
    """The widget is drawn whole inside the screen (not cut, not scrolled away)."""
    visible = app.screen._compositor.visible_widgets
    if widget not in visible:
        return False
    region, clip = visible[widget]
    width, height = app.size
    return (region.width > 0 and region.height > 0 and clip.contains_region(region)
            and region.right <= width and region.bottom <= height)


def rendered(widget: Any) -> str:
    """A Static's whole text at its width, whitespace folded (what it shows when whole)."""
    console = Console(width=max(widget.size.width, 20), file=io.StringIO(), record=True,
                      legacy_windows=False)
    console.print(widget.content)
    return " ".join(console.export_text().split())


def every_text(app: App[Any]) -> str:
    """Every word the screen in front holds, shown or scrolled out of sight: what the screen
    draws now (the footer, the header, the screens behind a dialog), and the text of each of
    its widgets (a Static's content, a button's label, a field's placeholder and value, a
    list's options, a table's cells, tooltips, notifications)."""
    from rich.console import Console
    from textual.widgets import Button, DataTable, Input, OptionList, Select, Static

    parts = [screen_text(app), str(app.title), str(app.sub_title)]
    console = Console(width=200, file=io.StringIO(), record=True, legacy_windows=False)
    for screen in app.screen_stack:
        for widget in screen.walk_children(with_self=False):
            if widget.tooltip is not None:
                parts.append(str(widget.tooltip))
            if isinstance(widget, Static):
                visual = widget.visual
                plain = getattr(visual, "plain", None)
                if plain is not None:
                    parts.append(plain)
                else:
                    console.print(widget.content)
            elif isinstance(widget, Button):
                parts.append(str(widget.label))
            elif isinstance(widget, Input):
                parts += [widget.placeholder, widget.value]
            elif isinstance(widget, Select):
                parts += [str(prompt) for prompt, _value in widget._options]
            elif isinstance(widget, OptionList):
                for option in widget.options:  # a prompt may be a Rich renderable (a grid)
                    if isinstance(option.prompt, str):
                        parts.append(option.prompt)
                    else:
                        console.print(option.prompt)
            elif isinstance(widget, DataTable):
                parts += [str(column.label) for column in widget.columns.values()]
                parts += [str(cell) for row in range(widget.row_count)
                          for cell in widget.get_row_at(row)]
    parts += [f"{n.title} {n.message}" for n in app._notifications]
    parts.append(console.export_text())
    return "\n".join(parts)
