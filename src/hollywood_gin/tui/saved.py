"""Saved games: every unfinished match against the computer and every unfinished
score-keeper sheet, to list (``play --list``), resume, or abandon in words.

Closing a list or a question never abandons anything: a match is abandoned only when the
person answers "Abandon" to "Abandon this match? It will count as a loss."
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar, TextIO

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ..errors import HollywoodGinError
from ..i18n import _, ngettext
from ..sheet import ScoreSheet, SheetError
from ..store import Store, StoredMatch
from .widgets import AskScreen, Dialog

__all__ = ["SavedGamesScreen", "SavedRow", "print_saved", "saved_rows"]

#: The store's kinds of match and what the list calls them.
_KINDS = {"computer": "match", "keeper": "sheet"}


@dataclass(frozen=True)
class SavedRow:
    """One unfinished match or sheet as the lists show it."""

    id: str
    kind: str  # "match" | "sheet"
    title: str
    rules: str
    score: str
    when: str


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def _sheet_of(store: Store, row: StoredMatch) -> tuple[ScoreSheet, int]:
    """The sheet as it stands and the number of hands played, rebuilt from the store."""
    sheet = ScoreSheet(row.rules)
    if row.kind == "keeper":  # each saved action is "player points" (keeping.py)
        actions = store.load(row.id).actions
        for act in actions:
            player, points = act.action.split()
            sheet.record(int(player), int(points))
        return sheet, len(actions)
    hands = store.hands(row.id)
    for hand in hands:
        if hand["winner"] is not None:
            sheet.record(int(hand["winner"]), int(hand["points"]))
    return sheet, len(hands)


def _row(store: Store, row: StoredMatch) -> SavedRow:
    kind = _KINDS[row.kind]
    rules = row.rules.preset_name or _("custom")
    try:
        sheet, hands = _sheet_of(store, row)
        totals = sheet.totals
    except (HollywoodGinError, SheetError, ValueError, KeyError):
        totals, hands = (0, 0), 0
    if kind == "match":
        level = row.meta.get("level", "?")
        title = _("Computer, level {level}").format(level=level)
        score = _("you {you} – computer {computer}").format(you=totals[0], computer=totals[1])
    else:
        title = _("{first} vs {second}").format(first=row.players[0], second=row.players[1])
        score = f"{row.players[0]} {totals[0]} – {row.players[1]} {totals[1]}"
    if kind == "match":
        played = _("hand {n}").format(n=hands + 1)  # the hand being played
    else:
        played = ngettext("{n} hand", "{n} hands", hands).format(n=hands)
    return SavedRow(id=row.id, kind=kind, title=title, rules=rules,
                    score=f"{score} · {played}", when=_when(row.updated_at))


def saved_rows(store: Store, kind: str | None = None) -> list[SavedRow]:
    """Every unfinished match ("match") and sheet ("sheet"), or one kind, newest first."""
    rows = [row for row in store.matches(status="playing") if row.kind in _KINDS
            and (kind is None or _KINDS[row.kind] == kind)]
    return [_row(store, row) for row in rows]


def print_saved(store: Store, out: TextIO) -> None:
    """The lists for ``play --list``: unfinished matches, then unfinished sheets."""
    rows = saved_rows(store)
    matches = [r for r in rows if r.kind == "match"]
    sheets = [r for r in rows if r.kind == "sheet"]
    if not rows:
        print(_("No unfinished matches or sheets."), file=out)
        return
    for title, group, how in (
        (_("Unfinished matches against the computer"), matches,
         _("resume one with: hollywood-gin play --resume ID")),
        (_("Unfinished score-keeper sheets"), sheets,
         _("resume the newest with: hollywood-gin score")),
    ):
        if not group:
            continue
        print(f"{title} ({how}):", file=out)
        for r in group:
            print(f"  {r.id[:8]}  {r.when}  {r.title} · {r.rules} · {r.score}", file=out)


def _abandon_question(row: SavedRow) -> tuple[str, str]:
    if row.kind == "match":
        return (_("Abandon?"),
                _("Abandon this match? It will count as a loss.\n{title} · {score}").format(
                    title=row.title, score=row.score))
    return (_("Abandon?"),
            _("Abandon this sheet? It will no longer be offered.\n{title} · {score}").format(
                title=row.title, score=row.score))


class SavedGamesScreen(Dialog[str | None]):
    """Every unfinished match (or sheet) to resume one; returns its id, or None when closed
    (Esc abandons nothing).  "Abandon…" asks first, in words, and only then abandons."""

    BODY = "#saved-list"
    LEAVE = 7

    DEFAULT_CSS = """
    SavedGamesScreen { align: center middle; background: $background 60%; }
    SavedGamesScreen > Vertical {
        width: 90; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: thick $accent; background: $surface;
    }
    SavedGamesScreen #saved-title { margin-bottom: 1; }
    SavedGamesScreen OptionList { height: auto; }
    SavedGamesScreen #saved-note { color: $text-muted; height: auto; }
    SavedGamesScreen #buttons { height: 1; align-horizontal: center; margin-top: 1; dock: bottom; }
    SavedGamesScreen #buttons Button { margin: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close"),
        Binding("a", "abandon", "abandon"),
        Binding("n", "close", "new match", show=False),
    ]

    def __init__(self, store: Store, kind: str | None = "match", *,
                 current: str | None = None) -> None:
        super().__init__()
        self._store = store
        self._kind = kind
        self._current = current
        self.rows: list[SavedRow] = []
        self.abandoned: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(_("Saved games: choose one to resume"), style="bold"),
                         id="saved-title")
            yield OptionList(id="saved-list")
            yield Static("", id="saved-note")
            with Horizontal(id="buttons"):
                yield Button(_("Resume (Enter)"), variant="primary", id="resume", compact=True)
                yield Button(_("Abandon… (a)"), id="abandon", compact=True)
                yield Button(_("Close (Esc)"), id="close", compact=True)

    def on_mount(self) -> None:
        self._load()
        self.query_one(OptionList).focus()

    def _load(self) -> None:
        self.rows = saved_rows(self._store, self._kind)
        options = self.query_one(OptionList)
        options.clear_options()
        for row in self.rows:
            line = Text(row.title, style="bold")
            if row.id == self._current:
                line.append(" " + _("(playing now)"), style="yellow")
            line.append(f" · {row.rules} · {row.when}\n  ", style="")
            line.append(row.score)
            line.append(f" · {row.id[:8]}", style="dim")
            options.add_option(Option(line, id=row.id))
        note = "" if self.rows else _("Nothing unfinished: every match is over or abandoned.")
        self.query_one("#saved-note", Static).update(note)
        self.query_one("#resume", Button).display = bool(self.rows)
        self.query_one("#abandon", Button).display = bool(self.rows)
        if self.rows:
            options.highlighted = 0

    def _highlighted(self) -> SavedRow | None:
        index = self.query_one(OptionList).highlighted
        return self.rows[index] if index is not None and index < len(self.rows) else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_abandon(self) -> None:
        row = self._highlighted()
        if row is None:
            return
        title, question = _abandon_question(row)

        def answered(yes: bool | None) -> None:
            if yes:
                self._store.set_status(row.id, "abandoned")
                self.abandoned.append(row.id)
                self._load()

        self.app.push_screen(AskScreen(title, question, (_("Abandon"), "a"),
                                       (_("Keep it"), "k"), enter=False), answered)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "resume":
            row = self._highlighted()
            if row is not None:
                self.dismiss(row.id)
        elif event.button.id == "abandon":
            self.action_abandon()
        else:
            self.dismiss(None)
