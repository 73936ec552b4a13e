"""Every unfinished match and score-keeper sheet, to choose one or to give one up.

Shared by the terminal game (``play``, ``play --list``) and the score keeper
(``score``, ``score --list``).  Nothing here abandons anything unless the
player confirms it in words: closing the list, or saying no, leaves every
saved game as it was.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TextIO

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Static

from ..cli import terminal_width
from ..errors import HollywoodGinError
from ..i18n import _, ngettext
from ..replay import player_name
from ..sheet import ScoreSheet, SheetError
from ..store import Store, StoredMatch, StoreError
from .rulewords import preset_label
from .widgets import ButtonFlow, Worded

__all__ = ["NEW", "ConfirmScreen", "SavedGamesScreen", "SavedRow", "abandon", "print_saved",
           "saved_rows", "when_words"]

#: What :class:`SavedGamesScreen` returns when its "new" button is pressed (ids are hex).
NEW = "new"

# Store kinds behind the two kinds of row: a match against the computer in the terminal,
# and a score-keeper sheet.  Web tables ("web-…") belong to the browser's lobby.
_STORE_KIND = {"match": "computer", "sheet": "keeper"}
_ROW_KIND = {store_kind: kind for kind, store_kind in _STORE_KIND.items()}


@dataclass(frozen=True)
class SavedRow:
    """One unfinished match or sheet as the list shows it."""

    id: str
    kind: str  # "match" | "sheet"
    title: str  # the opponent's level for a match, the two names for a sheet
    rules: str  # the preset's name, or "custom"
    score: str  # games and points so far
    when: str  # last played, in words


def when_words(stamp: float, now: float | None = None) -> str:
    """When something was last played, as a person says it ("5 minutes ago", "yesterday 20:15")."""
    now = time.time() if now is None else now
    ago = max(0.0, now - stamp)
    if ago < 60:
        return _("just now")
    if ago < 3600:
        minutes = int(ago // 60)
        return ngettext("{count} minute ago", "{count} minutes ago", minutes).format(
            count=minutes)
    then, today = time.localtime(stamp), time.localtime(now)
    clock = time.strftime("%H:%M", then)
    days = (_day_number(today) - _day_number(then))
    if days <= 0:
        return _("today {time}").format(time=clock)
    if days == 1:
        return _("yesterday {time}").format(time=clock)
    if days < 7:
        return ngettext("{count} day ago", "{count} days ago", days).format(count=days)
    return time.strftime("%Y-%m-%d", then)


def _day_number(moment: time.struct_time) -> int:
    """Days since the epoch of a local date, so "yesterday" is right across months."""
    return int(time.mktime((moment.tm_year, moment.tm_mon, moment.tm_mday, 12, 0, 0, 0, 0,
                            -1)) // 86400)


def _points(sheet: ScoreSheet) -> str:
    totals, games = sheet.totals, sheet.games_won
    text = _("{first}–{second}").format(first=totals[0], second=totals[1])
    if any(column.closed for column in sheet.columns):
        text += " · " + _("games {first}–{second}").format(first=games[0], second=games[1])
    return text


def _match_row(store: Store, row: StoredMatch, now: float | None) -> SavedRow:
    level = row.meta.get("level")
    title = (_("Computer, level {level}").format(level=level) if level is not None
             else player_name(row.players[1]))
    sheet = ScoreSheet(row.rules)
    hands = store.hands(row.id)
    try:
        for hand in hands:
            if hand["winner"] is not None:
                sheet.record(int(hand["winner"]), int(hand["points"]))
        score = _("hand {number} · you {score}").format(number=len(hands) + 1,
                                                        score=_points(sheet))
    except SheetError:
        score = _("cannot be read")
    return SavedRow(row.id, "match", title, preset_label(row.rules.preset_name), score,
                    when_words(row.updated_at, now))


def _sheet_row(store: Store, row: StoredMatch, now: float | None) -> SavedRow:
    title = _("{first} vs {second}").format(first=row.players[0], second=row.players[1])
    try:
        sheet = ScoreSheet(row.rules)
        for act in store.load(row.id).actions:
            player, points = act.action.split()
            sheet.record(int(player), int(points))
        count = len(sheet.entries)
        score = ngettext("{count} hand · {score}", "{count} hands · {score}", count).format(
            count=count, score=_points(sheet))
    except (ValueError, HollywoodGinError):
        score = _("cannot be read")
    return SavedRow(row.id, "sheet", title, preset_label(row.rules.preset_name), score,
                    when_words(row.updated_at, now))


def saved_rows(store: Store, kind: str | None = None, *, now: float | None = None,
               damaged: list[str] | None = None) -> list[SavedRow]:
    """Every unfinished match ("match") and/or sheet ("sheet"), the last played first; a
    damaged one is left out, its error appended to ``damaged`` if given."""
    if kind is not None and kind not in _STORE_KIND:
        raise ValueError(f"kind must be 'match' or 'sheet', not {kind!r}")  # a caller's bug
    rows = store.matches(kind=None if kind is None else _STORE_KIND[kind], status="playing",
                         damaged=[] if damaged is None else damaged)
    out: list[SavedRow] = []
    for row in rows:  # the store gives them newest first (updated_at)
        row_kind = _ROW_KIND.get(row.kind)
        if row_kind == "match":
            out.append(_match_row(store, row, now))
        elif row_kind == "sheet":
            out.append(_sheet_row(store, row, now))
    return out


def abandon(store: Store, match_id: str) -> bool:
    """Give up an unfinished match or sheet; a finished one is left alone.  True if done."""
    if store.load(match_id).status != "playing":
        return False
    store.set_status(match_id, "abandoned")
    return True


def print_saved(store: Store, out: TextIO, kind: str | None = None) -> None:
    """The unfinished matches and sheets as a plain text table (``play --list``, ``score
    --list``)."""
    damaged: list[str] = []
    rows = saved_rows(store, kind, damaged=damaged)
    for error in damaged:
        out.write(_("A saved match is damaged and left out: {error}").format(error=error) + "\n")
    if not rows:
        out.write({"match": _("No unfinished match."), "sheet": _("No unfinished sheet.")}.get(
            kind or "", _("No unfinished match or sheet.")) + "\n")
        return
    kinds = {"match": _("match"), "sheet": _("sheet")}
    head = (_("id"), _("kind"), _("title"), _("rules"), _("score"), _("last played"))
    table = [head] + [(row.id[:8], kinds[row.kind], row.title, row.rules, row.score, row.when)
                      for row in rows]
    room = terminal_width()
    # One line a row where the table fits the terminal; else its first three columns, and
    # the rest under them, indented (81 to 105 columns in English, Afrikaans, Lithuanian,
    # Norwegian and Hausa ran past 80)
    parts = [range(6)]
    if _table_width(table, parts[0]) > room:
        parts = [range(3), range(3, 6)]
    widths = [max(cell_len(line[i]) for line in table) for i in range(len(head))]
    for line in table:
        for n, part in enumerate(parts):
            text = "  ".join(line[i] + " " * (widths[i] - cell_len(line[i])) for i in part)
            out.write(("    " if n else "") + text.rstrip() + "\n")


def _table_width(table: Sequence[Sequence[str]], part: range) -> int:
    return sum(max(cell_len(line[i]) for line in table) for i in part) + 2 * (len(part) - 1)


class ConfirmScreen(Worded, ModalScreen[bool]):
    """A yes/no question where only a yes (the button or `y`) says yes; No has the focus,
    so Enter, Esc and a stray key all keep things as they are."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; background: $background 60%; }
    ConfirmScreen > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
        border: thick $error; background: $surface;
    }
    ConfirmScreen #question { margin-bottom: 1; }
    ConfirmScreen Horizontal { height: auto; align-horizontal: center; }
    ConfirmScreen Button { margin: 0 1; width: auto; min-width: 10; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "answer(False)", "no", show=False),
        Binding("y", "answer(True)", "yes", show=False),
    ]

    def __init__(self, question: Text | str, yes: str, no: str) -> None:
        super().__init__()
        self._question, self._yes, self._no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._question, id="question")
            with Horizontal():
                yield Button(_("{label} (y)").format(label=self._yes), variant="error", id="yes")
                yield Button(_("{label} (n)").format(label=self._no), variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")


class _RowsTable(DataTable[str]):
    """The rows, where Home and End go to the first and last row (the table has few columns),
    and one click on a row opens it (Enter opens the highlighted row; the arrows only move)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "first", show=False),
        Binding("end", "scroll_bottom", "last", show=False),
    ]

    async def _on_click(self, event: events.Click) -> None:
        # DataTable selects only a click on the cell already under the cursor, so a row opened
        # on the second click.  Textual calls this before DataTable's own handler (each class
        # in the MRO gets the event): the cursor goes to the clicked cell here, and
        # DataTable's handler then selects it, once.  Header clicks are left to DataTable.
        meta = event.style.meta
        row, column = meta.get("row"), meta.get("column")
        if (self.cursor_type == "row" and self.show_cursor and isinstance(row, int)
                and isinstance(column, int) and 0 <= row < self.row_count):
            self.cursor_coordinate = Coordinate(row, column)


class SavedGamesScreen(Worded, ModalScreen[str | None]):
    """The list of unfinished matches and sheets: returns the chosen id, :data:`NEW` for the
    "new" button, or None when closed.  Abandoning asks first, and only a yes abandons."""

    DEFAULT_CSS = """
    SavedGamesScreen { align: center middle; background: $background 60%; }
    SavedGamesScreen > Vertical {
        width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SavedGamesScreen #title { text-style: bold; }
    SavedGamesScreen DataTable { height: auto; margin: 1 0 0 0; }
    SavedGamesScreen #detail { height: auto; margin: 1 0 0 0; color: $text-muted; }
    SavedGamesScreen #buttons { height: auto; margin: 1 0 0 0; }
    SavedGamesScreen Button { margin: 0 1 0 0; width: auto; min-width: 8; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close", show=False),
        # Not a letter: names typed ahead must never start abandoning a row.
        Binding("delete", "abandon", "abandon", show=False),
    ]

    def __init__(self, rows: Sequence[SavedRow], title: str | None = None, *,
                 store: Store | None = None, new: str | None = None,
                 current: str | None = None) -> None:
        """``store`` lets the list abandon a row (without it there is no Abandon button);
        ``new`` is the label of a button that returns :data:`NEW` (none if not given);
        ``current`` is the id of the one on screen now, marked so.  The ids abandoned here
        are in :attr:`abandoned` once the list closes."""
        super().__init__()
        self.rows = list(rows)
        self.current = current
        self.abandoned: list[str] = []
        self._title = title if title is not None else _("Saved games")
        self._store = store
        self._new = new

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._title, id="title")
            yield Static(_("Enter or a click on the chosen row opens it · Esc closes"),
                         id="hint")
            yield _RowsTable(id="rows", cursor_type="row", zebra_stripes=True)
            yield Static("", id="detail")
            with ButtonFlow(id="buttons"):
                yield Button(_("Open (Enter)"), variant="primary", id="open")
                if self._new is not None:
                    yield Button(_("{label} (n)").format(label=self._new), id="new")
                if self._store is not None:
                    yield Button(_("Abandon… (Del)"), variant="error", id="abandon")
                yield Button(_("Close (Esc)"), id="close")

    def on_mount(self) -> None:
        table = self.query_one("#rows", DataTable)
        # When before the score: a score with closed games runs to 33 columns and pushed
        # "last played" off an 80-column screen (a QA pass); the line under the table
        # says the whole row.
        table.add_columns(_("title"), _("rules"), _("last played"), _("score"))
        self._fill()
        self._fit()
        table.focus()

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        # The table scrolls within what the title, detail and buttons leave, so they always
        # show, at 80x24 too (the buttons three rows high, on two rows in a long language).
        rows = self.query_one("#buttons", ButtonFlow).rows
        self.query_one("#rows", DataTable).styles.max_height = max(
            3, self.size.height - 11 - 3 * rows)

    def on_button_flow_reflowed(self, event: ButtonFlow.Reflowed) -> None:
        self._fit()

    def _fill(self) -> None:
        table = self.query_one("#rows", DataTable)
        table.clear()
        for row in self.rows:
            title = (_("{title} (open now)").format(title=row.title) if row.id == self.current
                     else row.title)
            table.add_row(title, row.rules, row.when, row.score, key=row.id)
        self.query_one("#open", Button).disabled = not self.rows
        if self._store is not None:
            self.query_one("#abandon", Button).disabled = not self.rows
        self._show_detail()

    def _current(self) -> SavedRow | None:
        table = self.query_one("#rows", DataTable)
        if not self.rows or not 0 <= table.cursor_row < len(self.rows):
            return None
        return self.rows[table.cursor_row]

    def _show_detail(self) -> None:
        row = self._current()
        detail = self.query_one("#detail", Static)
        if row is None:
            detail.update(_("Nothing unfinished is saved."))
            return
        detail.update(_("{title} · rules {rules} · {score} · last played {when}").format(
            title=row.title, rules=row.rules, score=row.score, when=row.when))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.dismiss(str(event.row_key.value))

    def on_key(self, event: events.Key) -> None:
        if event.key == "n" and self._new is not None:
            event.stop()
            self.dismiss(NEW)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        ident = event.button.id
        if ident == "open":
            row = self._current()
            if row is not None:
                self.dismiss(row.id)
        elif ident == "new":
            self.dismiss(NEW)
        elif ident == "abandon":
            self.action_abandon()
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_abandon(self) -> None:
        """Ask in words; only a yes abandons the highlighted row."""
        store, row = self._store, self._current()
        if store is None or row is None:
            return
        question = (_("Abandon this match? It will count as a loss.") if row.kind == "match"
                    else _("Abandon this sheet?"))
        text = Text(question, style="bold")
        text.append("\n" + _("{title} · {score} · last played {when}").format(
            title=row.title, score=row.score, when=row.when))

        def answered(yes: bool | None) -> None:
            self.query_one("#rows", DataTable).focus()  # the arrows move on the rows again
            if not yes:
                return
            try:
                if abandon(store, row.id):
                    self.abandoned.append(row.id)
            except StoreError as exc:  # not saved: the row stays, unabandoned
                self.notify(_("Not abandoned: {error}").format(error=exc), severity="error")
                return
            self.rows = [r for r in self.rows if r.id != row.id]
            self._fill()
            self.notify(_("Abandoned: {title}").format(title=row.title))

        self.app.push_screen(ConfirmScreen(text, _("Yes, abandon it"), _("No, keep it")),
                             answered)
