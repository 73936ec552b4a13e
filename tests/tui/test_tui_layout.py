"""The row of buttons that flows onto more rows when its labels do not fit (issue 12: a long
language at 80 columns cut the last button of a row that did not wrap)."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Button
from tui_helpers import on_screen

from hollywood_gin.tui.widgets import ButtonFlow

LABELS = ("Patarimas (h)", "Atšaukti (u)", "Krūva (p)", "Pagalba (?)")


class _Row(App[None]):
    CSS = "ButtonFlow Button { margin-right: 1; min-width: 0; }"

    def __init__(self, width: int) -> None:
        super().__init__()
        self.width = width

    def compose(self) -> ComposeResult:
        with ButtonFlow(id="row") as row:
            row.styles.width = self.width
            for i, label in enumerate(LABELS):
                yield Button(label, id=f"b{i}", compact=True)


def _rows(width: int, hide: int | None = None) -> tuple[int, list[bool], list[int]]:
    result: list[Any] = []

    async def run() -> None:
        app = _Row(width)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            row = app.query_one(ButtonFlow)
            if hide is not None:
                app.query_one(f"#b{hide}").display = False
                row.reflow()
                await pilot.pause()
            buttons = [b for b in app.query(Button).results(Button) if b.display]
            result.extend([row.rows, [on_screen(app, b) and b.region.right <= width
                                      for b in buttons],
                           sorted({b.region.y for b in buttons})])

    asyncio.run(run())
    return result[0], result[1], result[2]


def test_a_row_of_buttons_that_fits_stays_one_row() -> None:
    rows, whole, lines = _rows(70)
    assert rows == 1 and all(whole) and lines == [0]


def test_a_row_of_buttons_too_wide_flows_onto_a_second_row_every_button_whole() -> None:
    rows, whole, lines = _rows(40)
    assert rows == 2 and all(whole) and lines == [0, 1]
    rows, whole, lines = _rows(18)  # one a row
    assert rows == 4 and all(whole) and lines == [0, 1, 2, 3]


def test_a_hidden_button_leaves_room_for_the_others() -> None:
    rows, whole, lines = _rows(50, hide=0)  # three left: 15 + 12 + 14 (with margins) fit
    assert rows == 1 and all(whole) and lines == [0]
