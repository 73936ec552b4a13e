"""The score keeper for games played with real cards (``hollywood-gin score``).

Each hand is entered as "who won, how many points" or as how it ended with
the deadwood counts; the points follow the rule book's §5 (see :mod:`.keeping`),
which refuses what no hand can score.  The sheet (§7) is always on screen,
the last entry can be undone, and every entry is saved at once, so any
unfinished sheet can be taken up again; a sheet is abandoned only when the
player says so in words.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.compose import compose
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Header, Input, RadioButton, RadioSet, Static

from .. import settings
from ..errors import HollywoodGinError
from ..i18n import N_, _
from ..rules import PRESETS, Rules
from ..store import Store, StoreConflict
from .keeper_form import entry_from_form, form_words
from .keeper_look import entry_lines, hands_view, help_text, rules_line, sheet_view
from .keeper_screens import KeeperHelp, NewSheetScreen, QuestionScreen, SheetChoice
from .keeping import (
    KINDS,
    EntryError,
    EntryQuestion,
    HandEntry,
    entry_examples,
    entry_how,
    parse_entry,
)
from .kept_sheet import KeptSheet
from .rulewords import preset_label
from .saved import NEW, SavedGamesScreen, saved_rows
from .widgets import ClickThrough, WordedScreen, fit_header, quit_hint

__all__ = ["KeeperApp"]

KIND_LABELS = {"points": N_("won points"), "knock": N_("knocked"),
               "undercut": N_("undercut the knock"), "gin": N_("went gin"),
               "big_gin": N_("went big gin")}
NARROW = 100  # below this width the sheet and the entry share the screen more tightly
RIGHT_WIDE, RIGHT_NARROW = 52, 40  # the entry's side, wide and narrow (the CSS's #right)


class KeeperApp(App[None]):
    """A saved Hollywood scoresheet for a game with real cards."""

    TITLE = N_("Hollywood Gin · score keeper")
    ENABLE_COMMAND_PALETTE = False  # Textual's own commands, in English, are not the keeper's
    AUTO_FOCUS = "#quick"  # what is typed goes to the entry line, from the first moment
    CSS = """
    Screen { background: #0f2a1d; }
    #main { height: 1fr; }
    #left { width: 1fr; padding: 0 1; }
    #right { width: RIGHT_WIDE; padding: 0 1; border-left: vkey $panel-lighten-2; }
    .-narrow #right { width: RIGHT_NARROW; }
    #below { height: 1fr; }
    #entry-label { text-style: bold; }
    #preview { height: auto; min-height: 1; }
    #message { height: auto; margin-top: 1; }
    .label { text-style: bold; margin-top: 1; }
    #form { height: auto; }
    #form RadioSet { width: 100%; height: auto; }
    #numbers { height: auto; }
    #numbers Input { width: 1fr; }
    #sheet { height: auto; }
    #hands-title { text-style: bold; margin-top: 1; }
    #hands { height: auto; color: $text-muted; }
    #add { margin-top: 0; }
    """.replace("RIGHT_WIDE", str(RIGHT_WIDE)).replace("RIGHT_NARROW", str(RIGHT_NARROW))
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", N_("undo"), priority=True),
        Binding("ctrl+y", "redo", N_("redo"), priority=True),
        Binding("ctrl+n", "new_sheet", N_("new sheet"), priority=True),
        Binding("ctrl+o", "saved", N_("sheets"), priority=True),
        Binding("f1", "help", N_("help")),
        Binding("f2", "language", "language", show=False),
        Binding("escape", "focus_quick", "entry line", show=False),
        # Enter is taken as it is read: the hand is added once the line has taken the keys
        # before it, and before those after it (a next hand typed ahead is neither cut into
        # this one nor wiped with it).  Typed before the program has started, Enter arrives
        # as ctrl+j.
        Binding("enter,ctrl+j", "enter", "add", show=False, priority=True),
        Binding("ctrl+q", "quit", N_("quit"), priority=True),
    ]

    def __init__(self, *, store: Store, rules: Rules | None = None,
                 names: tuple[str, str] | None = None, new: bool = False) -> None:
        """``names`` or ``rules`` given (on the command line) start a new sheet at once;
        ``new`` skips the list of unfinished sheets and asks for a new one."""
        super().__init__()
        self.title = _(self.TITLE)
        self.store = store
        self.start_now = names is not None or rules is not None
        self.rules = rules if rules is not None else PRESETS["hollywood"]
        self.names = names
        self.new = new
        self.kept: KeptSheet | None = None
        self.numbers_label = ""
        self.undone: list[HandEntry] = []  # hands taken back, the last last (redo)
        self._held: list[events.Key] | None = None  # keys waiting (see hold_keys)
        self._refused_line: str | None = None  # the entry line as last refused
        self._click_through = ClickThrough()
        self._hold_wait = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static("", id="sheet")
                yield Static(_("Hands entered, the last first"), id="hands-title")
                yield Static("", id="hands")
            with Vertical(id="right"):
                # The entry line stays in view; what is said and the form scroll below it.
                yield Static(_("Enter a hand: who won it first"), id="entry-label")
                yield Input(placeholder=" · ".join(entry_examples(self.rules, "bob")[:2]),
                            id="quick")
                with VerticalScroll(id="below", can_focus=False):
                    yield Static("", id="preview")
                    yield Static("", id="message")
                    yield Static(_("Or with the form (mouse or Tab):"), classes="label")
                    with Vertical(id="form"):
                        yield Static(_("Who won the hand"), classes="label")
                        yield RadioSet(_("Player 1"), _("Player 2"), id="who", compact=True)
                        yield Static(_("How"), classes="label")
                        yield RadioSet(*(_(KIND_LABELS[k]) for k in KINDS), id="how",
                                       compact=True)
                        yield Static("", id="numbers-label", classes="label")
                        with Horizontal(id="numbers"):
                            yield Input(id="first", type="integer")
                            yield Input(id="second", type="integer")
                # the form's button in sight below it, however long the form runs (80x24,
                # a long language): never scrolled away
                yield Button(_("Add hand"), variant="primary", id="add", compact=True)
        yield Footer()  # its keys are buttons too: undo, new sheet, sheets, help, quit

    # -- starting ----------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        """Keys read while the screen is changing wait (see :meth:`hold_keys`); the second
        click of a double-click that opened a sheet does not click on it."""
        if (self._held is not None and isinstance(event, events.Key)
                and not event.is_forwarded):
            self._held.append(event)
            return
        if self._click_through.swallows(self, event):
            return
        await super().on_event(event)

    def hold_keys(self, until: Callable[[], bool], seconds: float = 2.0) -> None:
        """Keep the keys read from now until ``until()`` (or ``seconds`` have passed), then
        pass them on in order.  Typed while the program starts (the terminal keeps them),
        they used to reach no field, or the entry line behind the dialog; typed after the
        Enter that starts a sheet, the closing dialog."""
        if self._held is None:
            self._held = []
        deadline = time.monotonic() + seconds
        self._hold_wait += 1
        wait = self._hold_wait  # a later wait replaces this one

        async def check() -> None:
            if self._held is None or wait != self._hold_wait or not self.screen_stack:
                return  # nothing held, another wait's, or quitting
            if until() or time.monotonic() > deadline:
                held, self._held = self._held, None
                for n, key in enumerate(held):
                    await super(KeeperApp, self).on_event(key)
                    if self._held is not None:  # that key began another wait: the rest too
                        self._held[:0] = held[n + 1:]
                        break
            else:
                self.set_timer(0.02, check)

        self.set_timer(0.02, check)

    def on_mount(self) -> None:
        # The first dialog goes up before the first frame, so keys typed while the program
        # starts land in it (they used to go to the hidden entry line behind it).
        self._fit(self.size.width)
        self._form_changed()
        self.hold_keys(lambda: self.focused is not None, seconds=5)
        unused = settings.problem()
        if unused is not None:
            self.notify(unused, severity="warning", timeout=12)
        if self.start_now:
            self.start_sheet((self.names or (_("Player 1"), _("Player 2")), self.rules))
            if KeptSheet.unfinished(self.store):
                self.say(_("A new sheet. Your other unfinished sheets wait in ctrl+o."))
            return
        if not self.new and KeptSheet.unfinished(self.store):
            self.action_saved(first=True)
            return
        self.action_new_sheet(first=True)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)
        self._fit_header(event.size.width)
        self.refresh_sheet()

    def _fit_header(self, width: int | None = None) -> None:
        """The players and the rules beside the keeper's name, as much as fits (the sheet's
        first line names the rules again)."""
        if self.kept is None:
            self.title, self.sub_title = _(self.TITLE), ""
            return
        first, second = self.kept.names
        fit_header(self, _(self.TITLE), [
            _("{first} vs {second} · {rules}").format(
                first=first, second=second, rules=preset_label(self.kept.rules.preset_name)),
            _("{first} vs {second}").format(first=first, second=second)], width)

    def _fit(self, width: int) -> None:
        narrow = width < NARROW
        if self.has_class("-narrow") != narrow:  # restyling every widget is slow
            self.set_class(narrow, "-narrow")

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    @property
    def sheet_room(self) -> int:
        """The cells the sheet has: the screen less the entry's side (the CSS's #right,
        its border in it) and #left's padding."""
        return self.size.width - (RIGHT_NARROW if self.narrow else RIGHT_WIDE) - 2

    def action_saved(self, first: bool = False) -> None:
        """The unfinished sheets, to take one up (or abandon one, asked in words)."""
        if not first and not self.on_sheet():
            return  # a dialog is open already
        rows = saved_rows(self.store, "sheet")
        title = _("Unfinished sheets: choose one to go on with")
        current = self.kept
        listing = SavedGamesScreen(rows, title, store=self.store, new=_("New sheet"),
                                   current=current.id if current is not None else None)

        def chosen(choice: str | None) -> None:
            if current is not None and current.id in listing.abandoned:
                self.kept = None  # abandoned from the list: it is no longer kept here
                self._fit_header()
                self.action_new_sheet(first=True)
                return
            if choice == NEW or (choice is None and first):
                self.action_new_sheet(first=first)
            elif choice is not None and (current is None or choice != current.id):
                self.open_sheet(choice)

        self.push_screen(listing, chosen)

    def open_sheet(self, match_id: str) -> None:
        try:
            kept = KeptSheet.open(self.store, match_id)
        except HollywoodGinError as exc:
            words = _("The saved sheet {id} cannot be opened: {error}").format(
                id=match_id[:8], error=exc)
            self.say(words, error=True)
            # the message line is behind the dialog that opens next: said over it too
            self.notify(words, severity="error", timeout=12)
            if self.kept is None:
                self.action_new_sheet(first=True)
            return
        self.attach(kept)
        self.say(_("Going on with {first} vs {second}, started {when}.").format(
            first=kept.names[0], second=kept.names[1], when=kept.started()))

    def action_new_sheet(self, first: bool = False) -> None:
        """Ask for the names and rules of a new sheet; the one on screen stays saved as it is.
        Closing the dialog changes nothing (with no sheet on screen, it quits)."""
        if not first and not self.on_sheet():
            return  # a dialog is open already
        names = self.kept.names if self.kept else self.names
        rules = self.kept.rules if self.kept else self.rules

        def chosen(choice: SheetChoice | None) -> None:
            if choice is None:
                if self.kept is None:
                    self.exit()
                return
            old = self.kept
            self.start_sheet(choice)
            if old is not None and old.saved and not old.sheet.finished:
                self.say(_("{first} vs {second} stays saved, unfinished: ctrl+o takes it up "
                           "again.").format(first=old.names[0], second=old.names[1]))

        self.push_screen(NewSheetScreen(names, rules), chosen)

    def start_sheet(self, choice: SheetChoice) -> None:
        names, rules = choice
        self.names, self.rules = names, rules
        self.attach(KeptSheet.new(self.store, names=names, rules=rules))

    def attach(self, kept: KeptSheet) -> None:
        self.kept = kept
        self.undone = []
        self._fit_header()
        who = self.query_one("#who", RadioSet)
        for button, name in zip(who.query(RadioButton), kept.names, strict=False):
            button.label = name
        kinds = list(self.query_one("#how", RadioSet).query(RadioButton))
        knocks = kept.rules.knock_limit > 0 or kept.rules.oklahoma  # R5.1: not gin only
        shown = {"knock": knocks, "undercut": knocks,
                 "big_gin": kept.rules.big_gin_bonus is not None}  # R5.7: where it is played
        for kind, played in shown.items():
            button = kinds[KINDS.index(kind)]
            button.display = played
            if not played and button.value:
                button.value = False
        first = kept.names[0].split()[0].lower()
        self.query_one("#quick", Input).placeholder = " · ".join(
            entry_examples(kept.rules, first))
        self.say("")
        self._form_changed()
        self.refresh_sheet()
        self.query_one("#quick", Input).focus()

    # -- showing -----------------------------------------------------------------------

    def say(self, text: str | Text, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.update(Text(text, style="bold red") if error and isinstance(text, str)
                       else text)
        if self.focused is self.query_one("#quick", Input):
            self.query_one("#below", VerticalScroll).scroll_home(animate=False)
        elif (str(text) and self.focused is not None
              and (self.focused.id == "add"
                   or self.query_one("#form") in self.focused.ancestors_with_self)):
            # using the form, scrolled below the message: say it where it is seen too
            self.notify(str(text), severity="error" if error else "information", timeout=6)

    def refresh_sheet(self) -> None:
        kept = self.kept
        if kept is None:
            return
        self.query_one("#sheet", Static).update(Group(
            Text(rules_line(kept.rules), style="dim"),
            sheet_view(kept.sheet, kept.names, narrow=self.narrow, room=self.sheet_room)))
        self.query_one("#hands", Static).update(hands_view(kept))

    # -- entering ----------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "quick" or self.kept is None or not event.input.is_attached:
            return  # (a key typed as the program quits changes a line no longer shown)
        preview = self.query_one("#preview", Static)
        text = event.value.strip()
        if event.value == self._refused_line:
            # refused as typed: the message says why (a change read after the Enter, when
            # the line was typed or pasted fast, said it a second time here, in grey)
            preview.update("")
            return
        if not text:
            preview.update("")
            return
        if self.kept.sheet.finished:
            preview.update(Text(self.kept.over_words(), style="yellow"))
            return
        try:
            entry = parse_entry(text, self.kept.names, self.kept.rules)
        except EntryQuestion as question:
            preview.update(Text(_("Enter asks: {question}").format(
                question=question.question), style="yellow"))
            return
        except EntryError as exc:
            preview.update(Text(str(exc), style="dim"))
            return
        if entry.kind == "points":
            words = _("→ {name} +{points}").format(name=self.kept.names[entry.player],
                                                   points=entry.points)
        else:
            words = "→ " + entry_how(entry, self.kept.names)
        preview.update(Text(words, style="green"))

    def action_enter(self) -> None:
        focused = self.focused
        dialog = self.screen
        if (isinstance(dialog, NewSheetScreen) and isinstance(focused, Input)
                and focused.id != "name0"):
            # This Enter starts the sheet: what is typed next is for the entry line.
            line = self.query_one("#quick", Input)
            self.hold_keys(lambda: dialog.refused or (self.screen is self.screen_stack[0]
                                                      and self.focused is line))
            raise SkipAction()  # the dialog takes the Enter itself
        if (self.screen is not self.screen_stack[0] or not isinstance(focused, Input)
                or self.kept is None):
            raise SkipAction()  # a dialog, a button or a list takes its Enter itself
        if focused.id == "quick":
            focused.call_later(self.submit_line, focused)
        else:
            focused.call_later(self.add_from_form)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()  # Enter is handled by action_enter

    def submit_line(self, line: Input) -> None:
        """Add the hand typed in the entry line, or say why not (the line stays to fix)."""
        assert self.kept is not None
        try:
            entry = parse_entry(line.value, self.kept.names, self.kept.rules)
        except EntryQuestion as question:
            self.ask(question, line)
            return
        except EntryError as exc:
            self._refused_line = line.value
            self.refuse(str(exc))
            return
        if self.add(entry):
            line.value = ""

    def ask(self, question: EntryQuestion, line: Input | None) -> None:
        """Ask which reading is meant; a yes or no records it, Esc leaves the line as typed."""

        def answered(answer: str | None) -> None:
            entry = {"yes": question.yes, "no": question.no}.get(answer or "")
            if entry is not None and self.add(entry):
                if line is not None:
                    line.value = ""
                else:
                    self._clear_form()
            elif line is not None:
                line.focus()

        self.push_screen(QuestionScreen(question.question, question.yes_label,
                                        question.no_label, cancel=question.no is not None),
                         answered)

    def refuse(self, reason: str) -> None:
        self.say(reason, error=True)
        # the entry line's preview said the same in grey: said once, in the message
        self.query_one("#preview", Static).update("")
        self.bell()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        self._form_changed()
        # the numbers to give next, named after the choice, come into sight (at 80x24 the
        # form scrolls above its button)
        self.call_after_refresh(self.query_one("#numbers").scroll_visible, animate=False)

    def _form_changed(self) -> None:
        words = form_words(self.kept.names if self.kept else None,
                           self.query_one("#who", RadioSet).pressed_index,
                           self.query_one("#how", RadioSet).pressed_index)
        first, second = self.query_one("#first", Input), self.query_one("#second", Input)
        second.display = words.two
        first.placeholder, second.placeholder = words.first, words.second
        self.numbers_label = words.label
        self.query_one("#numbers-label", Static).update(words.label)

    def _clear_form(self) -> None:
        self.query_one("#first", Input).value = ""
        self.query_one("#second", Input).value = ""

    def add_from_form(self) -> None:
        kept = self.kept
        if kept is None:
            return
        try:
            entry = entry_from_form(kept.names, kept.rules,
                                    self.query_one("#who", RadioSet).pressed_index,
                                    self.query_one("#how", RadioSet).pressed_index,
                                    self.query_one("#first", Input).value,
                                    self.query_one("#second", Input).value)
        except EntryQuestion as question:
            self.ask(question, None)
            return
        except EntryError as exc:
            self.refuse(str(exc))
            return
        if self.add(entry):
            self._clear_form()

    def add(self, entry: HandEntry) -> bool:
        """Save and enter one hand; say how it scored and entered the sheet (R7.2–R7.4)."""
        kept = self.kept
        assert kept is not None
        try:
            recorded = kept.add(entry)
        except StoreConflict:
            self._changed_elsewhere(kept.id)
            return False
        except HollywoodGinError as exc:
            self.refuse(str(exc))
            return False
        self.undone = []  # a new hand: what was taken back stays out
        words = Text(entry_how(entry, kept.names) + ".", style="bold")
        for line in entry_lines(recorded, kept.sheet, kept.names):
            words.append("\n" + line)
        if kept.sheet.finished:
            words.append("\n" + kept.over_words(), style="bold yellow")
        self.say(words)
        self.query_one("#preview", Static).update("")
        self.refresh_sheet()
        return True

    def _changed_elsewhere(self, sheet_id: str) -> None:
        """Another window wrote first: show the sheet as saved, and forget what ctrl+y would
        put back (it was taken back from the sheet as it was).  A sheet abandoned there
        cannot be opened again: a new one is offered."""
        self.kept = None
        self.undone = []
        self.open_sheet(sheet_id)
        if self.kept is not None:
            self.refuse(_("This sheet was changed in another window: it is shown as saved "
                          "now."))

    def on_sheet(self) -> bool:
        """The sheet's screen is in front (no dialog over it): its keys may act."""
        return self.kept is not None and self.screen is self.screen_stack[0]

    def action_undo(self) -> None:
        kept = self.kept
        if kept is None or not self.on_sheet():
            return
        try:
            entry = kept.undo()[1]
        except StoreConflict:
            self._changed_elsewhere(kept.id)
            return
        except HollywoodGinError as exc:
            self.refuse(str(exc))
            return
        self.undone.append(entry)
        self.say(_("Took back hand {number}: {how}. ctrl+y puts it back.").format(
            number=len(kept.sheet.entries) + 1, how=entry_how(entry, kept.names)))
        self.refresh_sheet()

    def action_redo(self) -> None:
        """Put back the hand last taken back (a ctrl+z too many loses nothing)."""
        if not self.on_sheet():
            return
        if not self.undone:
            self.refuse(_("nothing to put back: no hand has been taken back since the last "
                          "one entered"))
            return
        undone = self.undone
        if self.add(undone[-1]):  # which forgets the others, unless put back here
            self.undone = undone[:-1]

    def action_help(self) -> None:
        names = self.kept.names if self.kept else (self.names or (_("Player 1"), _("Player 2")))
        rules = self.kept.rules if self.kept else self.rules
        self.push_screen(KeeperHelp(help_text(names, rules)), self._after_help)

    def action_language(self) -> None:
        """The language list over the sheet (F2, as in the help)."""
        from .language import ask_language

        ask_language(self, lambda: self.call_later(self.reword, False))

    def _after_help(self, choice: str | None) -> None:
        """The help closed; after a new language it opens again, in that language."""
        if choice == "language":
            self.call_later(self.reword)

    async def reword(self, help_again: bool = True) -> None:
        """Everything again in the language just chosen: the sheet's screen is built anew
        (what the entry line held is kept), the sheet put back on it, the help reopened
        when the language was chosen from it."""
        line = self.query_one("#quick", Input).value
        screen = self.screen_stack[0]
        async with screen.batch():
            await screen.query("*").exclude(".-textual-system").remove()
            await screen.mount_all(compose(self))
        self._form_changed()
        if self.kept is not None:
            self.attach(self.kept)
        else:
            self._fit_header()
        self.query_one("#quick", Input).value = line
        screen.refresh_bindings()
        if help_again:
            self.action_help()

    def get_default_screen(self) -> WordedScreen:
        return WordedScreen()

    def action_help_quit(self) -> None:
        quit_hint(self)

    def action_focus_quick(self) -> None:
        self.query_one("#quick", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        ident = event.button.id
        if ident == "add":
            self.add_from_form()
