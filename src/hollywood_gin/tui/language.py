"""The language setting of the terminal game and the score keeper: a list of the languages,
each in its own name, and the choice saved for the next start (:mod:`..settings`).

Reached from the game's help and new-match dialog and from the keeper's help; the screens
say everything again in the new language at once (each knows how to redraw its words).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from .. import i18n, settings
from ..i18n import N_, _
from .widgets import Dialog

__all__ = ["SYSTEM", "LanguageScreen", "apply_language", "ask_language"]

#: The choice that follows the environment again (LANGUAGE, LANG...) instead of a saved one.
SYSTEM = "system"


class LanguageScreen(Dialog[str | None]):
    """Every language offered, in its own name, the one in force highlighted; returns the
    code chosen, :data:`SYSTEM`, or None when closed (nothing changes)."""

    BODY = "#languages"
    LEAVE = 8

    DEFAULT_CSS = """
    LanguageScreen { align: center middle; background: $background 60%; }
    LanguageScreen > Vertical {
        width: 60; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: thick $accent; background: $surface;
    }
    LanguageScreen #languages { height: auto; margin: 1 0; }
    LanguageScreen #buttons { height: 1; align-horizontal: center; dock: bottom; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: a key hint in the footer of the language list (short).
        Binding("escape", "close", N_("close")),
    ]

    def compose(self) -> ComposeResult:
        system = i18n.LANGUAGES[i18n.choose_language(None, os.environ)]
        options = [Option(name, id=code) for code, name in i18n.LANGUAGES.items()]
        # Translators: the last choice of the language list: follow the computer's own
        # setting (the environment's LANGUAGE or LANG); {language} is that language's name.
        options.append(Option(_("As the system says ({language})").format(language=system),
                              id=SYSTEM))
        with Vertical():
            # Translators: the title of the language list (the game's help, the keeper's).
            yield Static(Text(_("Language"), style="bold"), id="title")
            yield OptionList(*options, id="languages")
            with Horizontal(id="buttons"):
                yield Button(_("Close (Esc)"), id="close", compact=True)

    def on_mount(self) -> None:
        super().on_mount()
        languages = self.query_one("#languages", OptionList)
        current = i18n.language()
        saved = settings.saved_language()
        chosen = current if saved is not None or current not in i18n.LANGUAGES else SYSTEM
        languages.highlighted = languages.get_option_index(
            chosen if chosen in i18n.LANGUAGES or chosen == SYSTEM else SYSTEM)
        languages.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def apply_language(app: App[Any], choice: str) -> str:
    """Speak the language chosen from now on and save it for the next start (:data:`SYSTEM`
    forgets the saved one); returns the code now in force.  A setting that cannot be saved
    is said in a notification; the language changes all the same."""
    code = (i18n.choose_language(None, os.environ) if choice == SYSTEM
            else i18n.validate_language(choice))
    i18n.set_language(code)
    try:
        settings.save_language(None if choice == SYSTEM else code)
    except OSError as exc:
        app.notify(_("The language could not be saved for next time: {error}").format(
            error=exc), severity="warning")
    return code


def ask_language(app: App[Any], then: Callable[[], object]) -> None:
    """The language list over whatever is on screen (F2 anywhere); a choice is spoken from
    now on and saved, then ``then`` says everything again in it."""

    def chosen(choice: str | None) -> None:
        if choice is not None:
            apply_language(app, choice)
            then()

    app.push_screen(LanguageScreen(), chosen)
