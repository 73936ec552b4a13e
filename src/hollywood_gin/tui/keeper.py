"""The score keeper for games played with real cards (``hollywood-gin score``).

Each hand is entered either as "who won, how many points" or as the two
deadwood counts, the kind of win and who knocked; the points follow the rule book §5
(see :mod:`.keeping`).  The sheet (§7) is always on screen, the last entry can
be undone, and every entry is saved at once so the sheet resumes after a restart.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Markdown,
    RadioButton,
    RadioSet,
    Static,
)

from ..errors import HollywoodGinError
from ..rules import PRESETS, Rules
from ..store import Store
from .keeping import KINDS, EntryError, HandEntry, KeptSheet, hand_points, parse_entry
from .look import entry_words, sheet_table
from .widgets import AskScreen

__all__ = ["KeeperApp"]

KIND_LABELS = {"points": "points won", "knock": "knock", "undercut": "undercut", "gin": "gin",
               "big_gin": "big gin"}

HELP = """\
# Score keeper

Enter each hand as it happened at the table, in the line at the top:

| you type | it means |
|---|---|
| `bob 25` | Bob won the hand for 25 points |
| `bob knock 3 10` | Bob knocked with 3 deadwood, the other player had 10 after lay-offs |
| `bob undercut 8 5` | Bob knocked with 8 and was undercut by 5 |
| `bob gin 12` | Bob went gin; the other player held 12 deadwood |

A name may be shortened (`al` for Alexandra) or given as `1` or `2`.
Or use the form: who, how, the numbers, then *Add hand*.

Points follow the rules (R5.5–R5.7): a knock scores the difference, an undercut the undercut
bonus (10) plus the difference, gin the gin bonus (25) plus the other's deadwood. A knock
whose deadwood is not lower is an undercut for the other player.

The sheet (R7.2–R7.4): a player's first win goes in game 1, the second in games 1 and 2,
then all three; a game closes at 100, with +100 (+200 for a shutout) to its winner and
+20 per box to each player.

Keys: `Enter` add · `ctrl+z` undo the last hand · `ctrl+n` new sheet · `f1` help ·
`ctrl+q` quit (the sheet is saved).
"""


class KeeperHelp(ModalScreen[None]):
    DEFAULT_CSS = """
    KeeperHelp { align: center middle; background: $background 60%; }
    KeeperHelp > VerticalScroll {
        width: 92; max-height: 90%; border: thick $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,enter,q", "close", "close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(HELP)

    def action_close(self) -> None:
        self.dismiss(None)


class NewSheetScreen(ModalScreen["tuple[tuple[str, str], Rules] | None"]):
    """The two players' names and the rule preset (the rule book §9) of a new sheet."""

    DEFAULT_CSS = """
    NewSheetScreen { align: center middle; background: $background 60%; }
    NewSheetScreen > Vertical {
        width: 70; height: auto; padding: 1 2; border: thick $accent; background: $surface;
    }
    NewSheetScreen Input { margin-bottom: 1; }
    NewSheetScreen #buttons { height: auto; align-horizontal: center; margin-top: 1; }
    NewSheetScreen Button { margin: 0 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, names: tuple[str, str], preset: str) -> None:
        super().__init__()
        self._names = names
        self._preset = preset

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("New scoresheet", style="bold"))
            yield Static("First player")
            yield Input(self._names[0], id="name0")
            yield Static("Second player")
            yield Input(self._names[1], id="name1")
            yield Static("Rules")
            with RadioSet(id="preset"):
                for name in PRESETS:
                    yield RadioButton(name, value=name == self._preset)
            with Horizontal(id="buttons"):
                yield Button("Start (Enter)", variant="primary", id="start")
                yield Button("Cancel (Esc)", id="cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "name0":
            self.query_one("#name1", Input).focus()
        else:
            self._start()

    def _start(self) -> None:
        first = self.query_one("#name0", Input).value.strip() or "Player 1"
        second = self.query_one("#name1", Input).value.strip() or "Player 2"
        if first.lower() == second.lower():
            second += " 2"
        index = max(self.query_one("#preset", RadioSet).pressed_index, 0)
        self.dismiss(((first[:24], second[:24]), PRESETS[list(PRESETS)[index]]))

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self._start()
        else:
            self.dismiss(None)


class KeeperApp(App[None]):
    """A saved Hollywood scoresheet for a game with real cards."""

    TITLE = "Hollywood Gin · score keeper"
    CSS = """
    Screen { background: #0f2a1d; }
    #main { height: 1fr; }
    #left { width: 1fr; padding: 0 1; }
    #right { width: 52; padding: 0 1; border-left: vkey $panel-lighten-2; }
    #quick { margin-top: 1; }
    #preview { height: 2; margin: 0 1; }
    #preview.-error { color: $error; text-style: bold; }
    #form { height: auto; margin-top: 1; }
    #form Vertical { width: 1fr; height: auto; }
    #form RadioSet { width: 100%; height: auto; }
    .label { text-style: bold; }
    #right > .label { margin-top: 1; }
    #numbers { height: auto; }
    #numbers Input { width: 1fr; }
    #actions { height: auto; margin-top: 1; }
    #actions Button { margin-right: 1; min-width: 10; }
    #sheet { height: auto; margin-top: 1; }
    #hands { height: 1fr; margin-top: 1; color: $text-muted; }
    #message { height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", "undo last hand", priority=True),
        Binding("ctrl+n", "new_sheet", "new sheet", priority=True),
        Binding("f1", "help", "help"),
        Binding("escape", "focus_quick", "entry line", show=False),
        Binding("ctrl+q", "quit", "quit", priority=True),
    ]

    def __init__(self, *, store: Store, rules: Rules | None = None,
                 names: tuple[str, str] | None = None, new: bool = False) -> None:
        super().__init__()
        self.store = store
        self.rules = rules if rules is not None else PRESETS["hollywood"]
        self.names = names
        self.new = new
        self.kept: KeptSheet | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="sheet")
                yield Static("", id="message")
                yield Static("", id="hands")
            with VerticalScroll(id="right"):
                yield Static(Text("Enter a hand", style="bold"))
                yield Input(placeholder="bob 25 · bob knock 3 10 · bob gin 12", id="quick")
                yield Static("", id="preview")
                yield Static("or with the form (mouse or Tab):", classes="label")
                with Horizontal(id="form"):
                    with Vertical():
                        yield Static("Who won / knocked", classes="label")
                        yield RadioSet("Player 1", "Player 2", id="who")
                    with Vertical():
                        yield Static("How", classes="label")
                        yield RadioSet(*(KIND_LABELS[k] for k in KINDS), id="how")
                with Horizontal(id="numbers"):
                    yield Input(placeholder="points | knocker dw", id="first",
                                type="integer")
                    yield Input(placeholder="defender dw", id="second",
                                type="integer")
                with Horizontal(id="actions"):
                    yield Button("Add hand", variant="primary", id="add")
                    yield Button("Undo", id="undo")
                    yield Button("New sheet", id="new")
                    yield Button("Help", id="help")
        yield Footer()

    # -- starting ----------------------------------------------------------------------

    def on_mount(self) -> None:
        self.call_after_refresh(self._start)

    def _start(self) -> None:
        row = None if self.new else KeptSheet.latest_unfinished(self.store)
        if row is None:
            self.action_new_sheet(first=True)
            return
        try:
            kept = KeptSheet.open(self.store, row.id)
        except HollywoodGinError as exc:
            self.say(f"The saved sheet {row.id[:8]} cannot be opened: {exc}", error=True)
            self.action_new_sheet(first=True)
            return
        totals = kept.sheet.totals
        question = Text(f"You have an unfinished sheet, {kept.names[0]} against "
                        f"{kept.names[1]}, started {kept.started()}: "
                        f"{len(kept.sheet.entries)} hands, {totals[0]} to {totals[1]}.\n"
                        "Go on with it?")

        def answered(resume: bool | None) -> None:
            if resume:
                self.attach(kept)
            else:
                self.store.set_status(kept.id, "abandoned")
                self.action_new_sheet(first=True)

        self.push_screen(AskScreen("Resume?", question, ("Resume", "r"), ("New sheet", "n")),
                         answered)

    def action_new_sheet(self, first: bool = False) -> None:
        names = self.names or (self.kept.names if self.kept else ("Player 1", "Player 2"))
        preset = self.rules.preset_name or "hollywood"

        def chosen(choice: tuple[tuple[str, str], Rules] | None) -> None:
            if choice is None:
                if self.kept is None:
                    self.exit()
                return
            if self.kept is not None and not self.kept.sheet.finished:
                self.store.set_status(self.kept.id, "abandoned")
            names, rules = choice
            self.names, self.rules = names, rules
            self.attach(KeptSheet.new(self.store, names=names, rules=rules))

        self.push_screen(NewSheetScreen(names, preset), chosen)

    def attach(self, kept: KeptSheet) -> None:
        self.kept = kept
        self.sub_title = f"{kept.names[0]} vs {kept.names[1]} · {kept.rules.preset_name or ''}"
        who = self.query_one("#who", RadioSet)
        for button, name in zip(who.query(RadioButton), kept.names, strict=False):
            button.label = name
        first = kept.names[0].split()[0].lower()
        self.query_one("#quick", Input).placeholder = (
            f"{first} 25 · {first} knock 3 10 · {first} gin 12")
        self.say("")
        self.refresh_sheet()
        self.query_one("#quick", Input).focus()

    # -- showing -----------------------------------------------------------------------

    def say(self, text: str | Text, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.set_class(error, "-error")
        message.update(Text(text, style="bold red") if error and isinstance(text, str)
                       else text)

    def refresh_sheet(self) -> None:
        kept = self.kept
        if kept is None:
            return
        names = kept.names
        self.query_one("#sheet", Static).update(
            sheet_table(kept.sheet, names, title="Hollywood scoresheet"))
        lines = [Text("Hands entered", style="bold")]
        for n, (entry, how) in enumerate(zip(kept.sheet.entries, kept.hows, strict=False), 1):
            games = ", ".join(str(i + 1) for i in entry.columns) or "none open"
            closed = f" · closes game {', '.join(str(i + 1) for i in entry.closed)}" \
                if entry.closed else ""
            line = Text.assemble((f"{n:>3}. {names[entry.player]} +{entry.points}", "bold"))
            line.append(f"  → game{'s' if len(entry.columns) > 1 else ''} {games}{closed}")
            if how and how != f"{names[entry.player]} +{entry.points}":
                line.append(f"  ({how})", style="dim")
            lines.append(line)
        if len(lines) == 1:
            lines.append(Text("none yet", style="dim"))
        self.query_one("#hands", Static).update(Group(*lines))

    # -- entering ----------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "quick" or self.kept is None:
            return
        preview = self.query_one("#preview", Static)
        text = event.value.strip()
        if not text:
            preview.update("")
            return
        try:
            entry = parse_entry(text, self.kept.names, self.kept.rules)
        except EntryError as exc:
            preview.update(Text(str(exc), style="dim"))
            return
        preview.update(Text(f"→ {self.kept.names[entry.player]} scores {entry.points}  "
                            f"({entry.how})", style="green"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.kept is None:
            return
        if event.input.id == "quick":
            try:
                entry = parse_entry(event.value, self.kept.names, self.kept.rules)
            except EntryError as exc:
                self.say(str(exc), error=True)
                self.bell()
                return
            if self.add(entry):
                event.input.value = ""
        else:
            self.add_from_form()

    def add_from_form(self) -> None:
        kept = self.kept
        if kept is None:
            return
        who = self.query_one("#who", RadioSet).pressed_index
        how = self.query_one("#how", RadioSet).pressed_index
        first = self.query_one("#first", Input).value.strip()
        second = self.query_one("#second", Input).value.strip()
        try:
            if who < 0:
                raise EntryError("choose who won (or knocked)")
            if how < 0:
                raise EntryError("choose how the hand was won")
            kind = KINDS[how]
            if kind == "points":
                if not first:
                    raise EntryError("type the points won")
                entry = parse_entry(f"{who + 1} {first}", kept.names, kept.rules)
            elif kind in ("gin", "big_gin"):
                if not (second or first):
                    raise EntryError("type the other player's deadwood")
                entry = hand_points(kept.rules, knocker=who, kind=kind, knocker_deadwood=0,
                                    defender_deadwood=int(second or first), names=kept.names)
            else:
                if not first or not second:
                    raise EntryError("type both deadwood counts: the knocker's, then the "
                                     "defender's")
                entry = hand_points(kept.rules, knocker=who, kind=kind,
                                    knocker_deadwood=int(first), defender_deadwood=int(second),
                                    names=kept.names)
        except (EntryError, ValueError) as exc:
            self.say(str(exc), error=True)
            self.bell()
            return
        if self.add(entry):
            self.query_one("#first", Input).value = ""
            self.query_one("#second", Input).value = ""

    def add(self, entry: HandEntry) -> bool:
        """Save and enter one hand; say how it entered the sheet (R7.2–R7.4)."""
        kept = self.kept
        assert kept is not None
        try:
            recorded = kept.add(entry)
        except HollywoodGinError as exc:
            self.say(str(exc), error=True)
            self.bell()
            return False
        words = Text.assemble((f"{entry.how}. ", "bold"))
        words.append(" ".join(entry_words(recorded, kept.sheet, kept.names)))
        if kept.sheet.finished:
            words.append("\nThe match is over. ctrl+n starts a new sheet.", style="bold yellow")
        self.say(words)
        self.refresh_sheet()
        return True

    def action_undo(self) -> None:
        kept = self.kept
        if kept is None:
            return
        try:
            removed = kept.undo()
        except HollywoodGinError as exc:
            self.say(str(exc), error=True)
            self.bell()
            return
        self.say(f"Took back {kept.names[removed.player]} +{removed.points}.")
        self.refresh_sheet()

    def action_help(self) -> None:
        self.push_screen(KeeperHelp())

    def action_focus_quick(self) -> None:
        self.query_one("#quick", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        ident = event.button.id
        if ident == "add":
            self.add_from_form()
        elif ident == "undo":
            self.action_undo()
        elif ident == "new":
            self.action_new_sheet()
        elif ident == "help":
            self.action_help()
