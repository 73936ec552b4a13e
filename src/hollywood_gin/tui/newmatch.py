"""The new-match dialog: the opponent's level, who deals first, and every rule option.

The form is built from :data:`hollywood_gin.rules.OPTIONS` (each option's kind, bounds and
choices); a preset fills the fields in, and changing a field shows "custom".  Start builds
a :class:`~hollywood_gin.rules.Rules` value: an invalid value is refused with the reason
its validation gives, and nothing starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static
from textual.widgets._select import SelectOverlay

from ..errors import RulesError
from ..i18n import N_, _
from ..rules import OPTIONS, PRESETS, Option, Rules
from .rulewords import choice_label, option_label, preset_label, preset_notes
from .session import COMPUTER, HUMAN
from .widgets import Dialog

__all__ = ["LEVEL_NAMES", "NewMatch", "NewMatchScreen"]

LEVEL_NAMES = {1: N_("1 · beginner"), 2: N_("2 · casual"), 3: N_("3 · club player"),
               4: N_("4 · strong"), 5: N_("5 · expert")}
CUSTOM = "custom"


@dataclass(frozen=True, slots=True)
class NewMatch:
    """What the new-match dialog chose."""

    level: int
    rules: Rules
    first_dealer: int | None


class NewMatchScreen(Dialog[NewMatch | None]):
    """Opponent level 1–5, who deals first (R3.1), a preset and every option (the rule book §9)."""

    BODY = "#form"
    LEAVE = 8

    DEFAULT_CSS = """
    NewMatchScreen { align: center middle; background: $background 60%; }
    NewMatchScreen > Vertical {
        width: 90; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: thick $accent; background: $surface;
    }
    NewMatchScreen #form { height: auto; }
    NewMatchScreen #title { margin-bottom: 1; }
    NewMatchScreen Grid { height: auto; grid-gutter: 0 1; grid-rows: auto; }
    NewMatchScreen #match { grid-size: 4; grid-columns: 13 1fr 13 1fr; }
    NewMatchScreen #options { grid-size: 4; grid-columns: 22 1fr 22 1fr; }
    NewMatchScreen .label { text-style: bold; height: auto; }  /* a long name wraps */
    NewMatchScreen .section { text-style: bold; margin-top: 1; }
    NewMatchScreen #note { color: $text-muted; }
    NewMatchScreen #foot { height: auto; dock: bottom; }
    NewMatchScreen #error { color: $error; text-style: bold; height: auto; }
    NewMatchScreen #buttons { height: 1; align-horizontal: center; margin-top: 1; }
    NewMatchScreen #buttons Button { margin: 0 2; }
    NewMatchScreen Input, NewMatchScreen Select { width: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: key hints in the footer of the new-match dialog (short).
        Binding("enter", "enter_default", N_("start"), priority=True),
        Binding("escape", "cancel", N_("cancel")),
        Binding("f2", "language", N_("language")),
    ]

    def __init__(self, *, level: int, rules: Rules, first_dealer: int | None) -> None:
        super().__init__()
        self._level = level
        self._rules = rules
        self._dealer = first_dealer
        self._filling = False

    # -- building ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        rules = self._rules
        with Vertical():
            yield Static(Text(_("New match against the computer"), style="bold"), id="title")
            with VerticalScroll(id="form"):
                with Grid(id="match"):
                    yield Static(_("Opponent"), classes="label")
                    yield Select([(_(name), n) for n, name in LEVEL_NAMES.items()],
                                 value=self._level, allow_blank=False, compact=True,
                                 id="level")
                    yield Static(_("First dealer"), classes="label")
                    dealers = [(_("at random (R3.1)"), "random"), (_("you"), "you"),
                               (_("the computer"), "computer")]
                    yield Select(dealers, value={None: "random", HUMAN: "you",
                                                 COMPUTER: "computer"}[self._dealer],
                                 allow_blank=False, compact=True, id="dealer")
                    yield Static(_("Rules"), classes="label")
                    presets = [(preset_label(name), name) for name in PRESETS] + [
                        (_("custom"), CUSTOM)]
                    yield Select(presets, value=rules.preset_name or CUSTOM, allow_blank=False,
                                 compact=True, id="preset")
                yield Static(preset_notes(), id="note")
                yield Static(_("Rule options (the rule book §9)"), classes="section")
                with Grid(id="options"):
                    for option in OPTIONS:
                        yield Static(option_label(option), classes="label")
                        yield self._field(option, getattr(rules, option.name))
            with Vertical(id="foot"):  # the reason for a refusal and the buttons, in sight
                yield Static("", id="error")
                with Horizontal(id="buttons"):
                    yield Button(_("Start (Enter)"), variant="primary", id="start",
                                 compact=True)
                    yield Button(_("Cancel (Esc)"), id="cancel", compact=True)
                    yield Button(_("Language (F2)"), id="language", compact=True)

    def _field(self, option: Option, value: Any) -> Widget:
        ident = f"opt-{option.name}"
        field: Widget
        if option.kind == "bool":  # said in words: a checkbox's mark reads the same either way
            field = Select([(_("no"), False), (_("yes"), True)], value=bool(value),
                           allow_blank=False, compact=True, id=ident)
        elif option.kind == "choice":
            field = Select([(choice_label(c), c) for c in option.choices], value=value,
                           allow_blank=False, compact=True, id=ident)
        else:
            placeholder = _("none") if option.kind == "optional_int" else ""
            field = Input("" if value is None else str(value), type="integer", compact=True,
                          placeholder=placeholder, id=ident)
        field.tooltip = f"{_(option.description)} ({option.rule})" if option.description \
            else option.rule
        return field

    def on_mount(self) -> None:
        for level in self.query("#level").results(Select):  # none if the app is quitting
            level.focus()

    # -- reading and filling ------------------------------------------------------------

    def _fill(self, rules: Rules) -> None:
        """Put a rule set's values in the fields (a preset was chosen)."""
        self._filling = True
        try:
            for option in OPTIONS:
                value = getattr(rules, option.name)
                field = self.query_one(f"#opt-{option.name}")
                if isinstance(field, Select):
                    field.value = value
                elif isinstance(field, Input):
                    field.value = "" if value is None else str(value)
        finally:
            self._filling = False

    def read_rules(self) -> Rules:
        """The rules the fields say; :class:`RulesError` with the reason if they are not
        valid (a blank whole number included)."""
        values: dict[str, Any] = {}
        for option in OPTIONS:
            field = self.query_one(f"#opt-{option.name}")
            if isinstance(field, Select):
                values[option.name] = field.value
            elif isinstance(field, Input):
                text = field.value.strip()
                if not text and option.kind == "optional_int":
                    values[option.name] = None
                else:  # the rules module reads it, and says what is allowed if it cannot
                    values[option.name] = option.parse(text)
        return Rules(**values)

    def _changed(self) -> None:
        """A field changed: show the preset these values equal, or "custom", and any error."""
        if self._filling:
            return
        error = self.query_one("#error", Static)
        try:
            rules = self.read_rules()
        except RulesError as exc:
            error.update(str(exc))
            return
        error.update("")
        preset = self.query_one("#preset", Select)
        name = rules.preset_name or CUSTOM
        if preset.value != name:
            self._filling = True
            preset.value = name
            self.call_after_refresh(self._done_filling)

    def _done_filling(self) -> None:
        self._filling = False

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset":
            if not self._filling and event.value in PRESETS:
                self._fill(PRESETS[str(event.value)])
                self.query_one("#error", Static).update("")
        elif (event.select.id or "").startswith("opt-"):
            self._changed()

    @on(Input.Changed)
    def _field_changed(self) -> None:
        self._changed()

    # -- answering --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter picks from an open list rather than starting the match (and presses a
        focused button, :class:`EnterDefault`)."""
        if action == "enter_default" and isinstance(self.focused, SelectOverlay):
            return False
        return super().check_action(action, parameters)

    def action_enter_default(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        try:
            rules = self.read_rules()
        except RulesError as exc:
            self.query_one("#error", Static).update(
                _("Not started: {reason}.").format(reason=str(exc).rstrip(".")))
            self.app.bell()
            return
        level = self.query_one("#level", Select).value
        dealer = {"random": None, "you": HUMAN, "computer": COMPUTER}[
            str(self.query_one("#dealer", Select).value)]
        self.dismiss(NewMatch(int(str(level)), rules, dealer))

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_language(self) -> None:
        """The language list; a choice is spoken at once (the form keeps what it holds)."""
        from .language import LanguageScreen, apply_language

        def chosen(choice: str | None) -> None:
            if choice is not None:
                apply_language(self.app, choice)
                reword = getattr(self.app, "reword", None)
                if reword is not None:
                    reword()

        self.app.push_screen(LanguageScreen(), chosen)

    def reword(self) -> None:
        """The form again in the language just chosen, with the values it held: the rules
        they make, or, with a value unfinished (a blank field), each field as it was (all
        of them went back to the preset's without a word)."""
        typed: dict[str, Any] | None = {
            option.name: self._field_value(option.name) for option in OPTIONS}
        try:
            self._rules = self.read_rules()
            typed = None
        except RulesError:
            pass
        self._level = int(str(self.query_one("#level", Select).value))
        self._dealer = {"random": None, "you": HUMAN, "computer": COMPUTER}[
            str(self.query_one("#dealer", Select).value)]

        async def again() -> None:
            await self.recompose()
            if typed is not None:
                self._filling = True
                for name, value in typed.items():
                    field = self.query_one(f"#opt-{name}")
                    if isinstance(field, Input | Select):
                        field.value = value
                self.query_one("#preset", Select).value = CUSTOM
                self.call_after_refresh(self._retyped)
            self.fit()
            self.on_mount()

        self.call_later(again)

    def _field_value(self, name: str) -> Any:
        field = self.query_one(f"#opt-{name}")
        return field.value if isinstance(field, Input | Select) else None

    def _retyped(self) -> None:
        self._filling = False
        self._changed()  # says again what is wrong with the unfinished value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "language":
            self.action_language()
        else:
            self.action_cancel()
