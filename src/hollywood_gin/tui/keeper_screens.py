"""The score keeper's dialogs: a new sheet (names and every rule option), help, a question.

Each fits an 80x24 terminal: long parts scroll, the buttons always show.  Closing
a dialog (Esc) changes nothing.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown, Select, Static

from ..errors import RulesError
from ..i18n import N_, _
from ..rules import OPTIONS, PRESETS, Option, Rules
from .commands import name_needs_letter
from .keeper_look import option_value_words
from .rulewords import preset_label
from .widgets import Worded

__all__ = ["KeeperHelp", "NewSheetScreen", "QuestionScreen", "SheetChoice"]

SheetChoice = tuple[tuple[str, str], Rules]
"""The two players' names and the rules of a new sheet."""

CUSTOM = "custom"
NAME_LENGTH = 24


class KeeperHelp(Worded, ModalScreen["str | None"]):
    """The keeper's help for the sheet on screen (its names and rules)."""

    DEFAULT_CSS = """
    KeeperHelp { align: center middle; background: $background 60%; }
    KeeperHelp > Vertical {
        width: 96; max-width: 100%; height: 100%; border: thick $accent; background: $surface;
    }
    KeeperHelp VerticalScroll { height: 1fr; padding: 0 1; }
    KeeperHelp #buttons { dock: bottom; height: 1; align-horizontal: center; }
    KeeperHelp #buttons Button { margin: 0 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: key hints in the footer of the keeper's help (short).
        Binding("escape,f1,q", "close", N_("close")),
        Binding("f2", "language", N_("language")),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Markdown(self._text)
            with Horizontal(id="buttons"):
                yield Button(_("Close (Esc)"), id="close", compact=True)
                yield Button(_("Language (F2)"), id="language", compact=True)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "language":
            self.action_language()
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_language(self) -> None:
        """The language list; after a choice the help closes and the keeper says
        everything again in the new language (returns "language")."""
        from .language import LanguageScreen, apply_language

        def chosen(choice: str | None) -> None:
            if choice is not None:
                apply_language(self.app, choice)
                self.dismiss("language")

        self.app.push_screen(LanguageScreen(), chosen)


class QuestionScreen(Worded, ModalScreen["str | None"]):
    """A question about a hand: "yes", "no" or None (Esc: the line stays to be fixed).
    With ``cancel`` there is a third button for Esc (when yes and no both record)."""

    DEFAULT_CSS = """
    QuestionScreen { align: center middle; background: $background 60%; }
    QuestionScreen > Vertical {
        width: 76; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
        border: thick $warning; background: $surface;
    }
    QuestionScreen #question { margin-bottom: 1; }
    QuestionScreen Horizontal { height: auto; }
    QuestionScreen Button { margin: 0 1 0 0; width: auto; min-width: 8; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer('yes')", "yes", show=False),
        Binding("n", "answer('no')", "no", show=False),
        Binding("escape", "answer('')", "cancel", show=False),
    ]

    def __init__(self, question: str, yes: str, no: str, *, cancel: bool = False) -> None:
        super().__init__()
        self._question, self._yes, self._no, self._cancel = question, yes, no, cancel

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self._question), id="question")
            with Horizontal():
                yield Button(_("{label} (y)").format(label=self._yes), variant="primary",
                             id="yes")
                yield Button(_("{label} (n)").format(label=self._no), id="no")
                if self._cancel:
                    yield Button(_("Cancel (Esc)"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_answer("" if event.button.id == "cancel" else str(event.button.id))


def _option_widget(option: Option, value: object) -> Input | Select[Any]:
    ident = f"opt-{option.name}"
    if option.kind == "bool":
        return Select([(_("yes"), True), (_("no"), False)], value=value, allow_blank=False,
                      compact=True, id=ident)
    if option.kind == "choice":
        return Select([(option_value_words(option.name, c), c) for c in option.choices],
                      value=value, allow_blank=False, compact=True, id=ident)
    return Input("" if value is None else str(value), type="integer", compact=True, id=ident,
                 placeholder=_("not played") if option.kind == "optional_int" else "")


class NewSheetScreen(Worded, ModalScreen["SheetChoice | None"]):
    """The two names and the rules of a new sheet: a preset fills every option (§9), any
    option may be changed, and rules the validation refuses are refused with its reason.
    Enter in the second name (or any field) starts; Esc closes and changes nothing."""

    DEFAULT_CSS = """
    NewSheetScreen { align: center middle; background: $background 60%; }
    NewSheetScreen > Vertical {
        width: 80; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: thick $accent; background: $surface;
    }
    NewSheetScreen #title { text-style: bold; margin-bottom: 1; }
    NewSheetScreen .row { height: auto; }
    NewSheetScreen .row Label { width: 1fr; padding-right: 1; }  /* a gap before the field */
    NewSheetScreen .row Input, NewSheetScreen .row Select { width: 22; }
    NewSheetScreen #options { height: auto; border-top: solid $panel-lighten-2; }
    NewSheetScreen #hint { height: auto; color: $text-muted; }
    NewSheetScreen #problem { height: auto; color: $error; text-style: bold; }
    NewSheetScreen #buttons { height: 1; margin-top: 1; }
    NewSheetScreen Button { margin: 0 2 0 0; width: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("cancel")),
        # Enter is taken here, as it is read, not after the field has caught up with the
        # keys before it: names typed ahead while the program starts land in the right field
        # (typed that early, Enter arrives as ctrl+j: the terminal turned it into a newline).
        Binding("enter,ctrl+j", "enter", "next", show=False, priority=True),
        # Tab too moves the focus as it is read, for the same reason.
        Binding("tab", "next_field", "next field", show=False, priority=True),
        Binding("shift+tab", "previous_field", "previous field", show=False, priority=True),
    ]

    def __init__(self, names: tuple[str, str] | None, rules: Rules) -> None:
        """``names`` fill the fields (selected, so typing replaces them); None leaves them
        empty, and an empty field is "Player 1" or "Player 2"."""
        super().__init__()
        self._names = names or ("", "")
        self._rules = rules
        self.refused = False  # the last try to start was refused (the problem says why)
        self._done = False

    def compose(self) -> ComposeResult:
        preset = self._rules.preset_name or CUSTOM
        with Vertical():
            yield Static(_("New scoresheet"), id="title")
            with Horizontal(classes="row"):
                yield Label(_("First player"))
                yield Input(self._names[0], id="name0", compact=True, max_length=NAME_LENGTH,
                            placeholder=_("Player 1"))
            with Horizontal(classes="row"):
                yield Label(_("Second player (Enter starts)"))
                yield Input(self._names[1], id="name1", compact=True, max_length=NAME_LENGTH,
                            placeholder=_("Player 2"))
            with Horizontal(classes="row"):
                yield Label(_("Rules (a preset fills the options below)"))
                yield Select([(preset_label(name), name) for name in PRESETS]
                             + [(_("custom"), CUSTOM)],
                             value=preset, allow_blank=False, compact=True, id="preset")
            with VerticalScroll(id="options", can_focus=False):
                for option in OPTIONS:
                    with Horizontal(classes="row"):
                        yield Label(_("{label} ({rule})").format(
                            label=_(option.label), rule=option.rule))
                        yield _option_widget(option, getattr(self._rules, option.name))
            yield Static("", id="hint")
            yield Static("", id="problem")
            with Horizontal(id="buttons"):
                yield Button(_("Start (Enter)"), variant="primary", id="start", compact=True)
                yield Button(_("Cancel (Esc)"), id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#name0", Input).focus()
        self._fit()

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        # The options scroll in what the names, the problem line and the buttons leave, so
        # those always show, at 80x24 too.
        self.query_one("#options").styles.max_height = max(4, self.size.height - 14)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Say what the option in focus does (its label is short)."""
        ident = event.widget.id or ""
        described = {f"opt-{o.name}": o.description for o in OPTIONS}
        self.query_one("#hint", Static).update(_(described[ident]) if ident in described
                                               else "")

    # -- reading the form ---------------------------------------------------------------

    def _values(self) -> dict[str, Any]:
        """The options as typed; raises RulesError naming one that is not a number."""
        values: dict[str, Any] = {}
        for option in OPTIONS:
            widget = self.query_one(f"#opt-{option.name}")
            if isinstance(widget, Select):
                values[option.name] = widget.value
                continue
            assert isinstance(widget, Input)
            text = widget.value.strip()
            if not text and option.kind == "optional_int":
                values[option.name] = None
                continue
            try:
                values[option.name] = int(text)
            except ValueError:
                raise RulesError(_("{label}: type a whole number").format(
                    label=_(option.label))) from None
        return values

    def rules(self) -> Rules:
        """The rules the form describes; raises RulesError with the reason if invalid."""
        return Rules(**self._values())

    def _check(self) -> Rules | None:
        problem = self.query_one("#problem", Static)
        try:
            rules = self.rules()
        except RulesError as exc:
            reason = str(exc)
            named = re.match(r"rule (\w+)=", reason)
            labels = {o.name: o.label for o in OPTIONS}
            if named and named.group(1) in labels:  # say which field, as it reads
                reason = _("{label}: {reason}").format(label=_(labels[named.group(1)]),
                                                       reason=reason)
            problem.update(reason)
            return None
        problem.update("")
        return rules

    # -- keeping the preset and the options in step -------------------------------------

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id == "preset":
            if event.value in PRESETS:
                self._fill(PRESETS[str(event.value)])
            return
        self._options_changed()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if (event.input.id or "").startswith("opt-"):
            self._options_changed()

    def _fill(self, rules: Rules) -> None:
        for option in OPTIONS:
            widget = self.query_one(f"#opt-{option.name}")
            value = getattr(rules, option.name)
            if isinstance(widget, Select):
                if widget.value != value:
                    widget.value = value
            else:
                assert isinstance(widget, Input)
                text = "" if value is None else str(value)
                if widget.value != text:
                    widget.value = text
        self._check()

    def _options_changed(self) -> None:
        rules = self._check()
        preset = self.query_one("#preset", Select)
        name = (rules.preset_name if rules is not None else None) or CUSTOM
        if preset.value != name:
            preset.value = name

    # -- starting -------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._enter_in(event.input)

    def _enter_in(self, field: Input) -> None:
        if field.id == "name0":
            self.set_focus(self.query_one("#name1", Input))
        else:
            self._start()

    def action_next_field(self) -> None:
        self.focus_next()

    def action_previous_field(self) -> None:
        self.focus_previous()

    def action_enter(self) -> None:
        """Enter in a field: from the first name to the second, from any other, start.

        The focus moves at once, so the keys after Enter go to the second name; starting
        waits until both names have taken the keys typed before it."""
        focused = self.focused
        if not isinstance(focused, Input):
            raise SkipAction()  # a button or a list takes its Enter itself
        if focused.id == "name0":
            self.set_focus(self.query_one("#name1", Input))
            return
        self.refused = False
        first = self.query_one("#name0", Input)
        focused.call_later(first.call_later, self._start)

    def _start(self) -> None:
        if self._done:
            return
        self.refused = True
        problem = self.query_one("#problem", Static)
        first = " ".join(self.query_one("#name0", Input).value.split()) or _("Player 1")
        second = " ".join(self.query_one("#name1", Input).value.split()) or _("Player 2")
        if first.lower() == second.lower():
            problem.update(_("The two players need different names."))
            self.query_one("#name1", Input).focus()
            return
        unreadable = name_needs_letter(first, second)
        if unreadable:
            problem.update(unreadable)
            return
        rules = self._check()
        if rules is None:
            return
        self.refused, self._done = False, True
        self.dismiss(((first[:NAME_LENGTH], second[:NAME_LENGTH]), rules))

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self._start()
        else:
            self.dismiss(None)
