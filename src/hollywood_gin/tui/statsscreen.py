"""The statistics inside the terminal game (``a``): what ``hollywood-gin stats`` prints, the
accuracy of the reviewed matches over time as a sparkline per level, and the finished
matches, any of which can be reviewed here ("Review this match": the game's review
screen, over the same kept reviews as ``stats --review``).

Fits 80x24: the text scrolls, the list of matches and the buttons stay in sight.
"""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ..errors import HollywoodGinError
from ..i18n import _
from ..store import Store
from .stats import Stats, gather, match_outcome, render
from .widgets import Dialog

__all__ = ["StatsScreen"]

#: The finished matches listed for review, newest first.
class StatsScreen(Dialog[str | None]):
    """Your statistics, and the finished matches to review.  Dismissed with the id of the
    match chosen for review, or None."""

    BODY = "#st-body"
    LEAVE = 13

    DEFAULT_CSS = """
    StatsScreen { align: center middle; background: $background 60%; }
    StatsScreen > Vertical {
        width: 96; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: thick $accent; background: $surface;
    }
    StatsScreen #st-body { height: auto; }
    StatsScreen #st-head { height: 1; margin-top: 1; }
    StatsScreen #st-matches { height: auto; max-height: 6; border: none; padding: 0; }
    StatsScreen #buttons { height: 1; align-horizontal: center; margin-top: 1; }
    StatsScreen #buttons Button { margin: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,a", "close", "close"),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self._store = store
        self._stats: Stats | None = None
        self._error: str | None = None
        try:
            self._stats = gather(store)
        except HollywoodGinError as exc:
            self._error = str(exc)

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="st-body"):
                yield Static(Text(render(self._stats)) if self._stats is not None else Text(
                    _("The statistics cannot be read: {error}").format(error=self._error),
                    style="bold red"), id="st-text")
            yield Static(Text(_("Finished matches: choose one to review it (Enter)"),
                              style="bold"), id="st-head")
            yield OptionList(*self._matches(), id="st-matches")
            with Horizontal(id="buttons"):
                yield Button(_("Review this match (Enter)"), id="review", compact=True)
                yield Button(_("Close (Esc)"), id="close", compact=True)

    def _matches(self) -> list[Option]:
        # Every finished match, the newest first: "a review of any finished match" (the
        # list stopped at the 30 newest, the best match named above it out of reach; a QA
        # pass with a year of matches)
        rows = self._store.matches(kind="computer", status="finished")
        accuracy: dict[str, float] = {}
        if self._stats is not None:
            for points in self._stats.accuracy.values():
                for p in points:
                    accuracy[p.match_id] = p.accuracy
        out = []
        for row in rows:
            totals = row.totals or (0, 0)
            won = match_outcome(row.winner == 0)
            when = datetime.fromtimestamp(row.updated_at).strftime("%Y-%m-%d %H:%M")
            acc = accuracy.get(row.id)
            line = Text(f"{row.id[:8]}  {when}  ")
            line.append(_("level {n}").format(n=row.meta.get("level", "?")) + "  ")
            line.append(f"{won} {totals[0]}–{totals[1]}  ")
            line.append(_("accuracy {n:.0f}").format(n=acc) if acc is not None
                        else _("not reviewed"), style="bold" if acc is not None else "dim")
            out.append(Option(line, id=row.id))
        if not out:
            out.append(Option(Text(_("No finished match yet."), style="dim"), disabled=True))
        return out

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#st-matches", OptionList).focus()

    def _chosen(self) -> str | None:
        matches = self.query_one("#st-matches", OptionList)
        option = matches.highlighted_option
        return None if option is None or option.disabled else option.id

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "review":
            chosen = self._chosen()
            if chosen is not None:
                self.dismiss(chosen)
            return
        self.dismiss(None)
