"""The game's dialogs: a new match (level, rules, first dealer) and the help screen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown, RadioButton, RadioSet, Static

from ..rules import PRESETS, Rules
from .session import COMPUTER, HUMAN

__all__ = ["HelpScreen", "NewMatch", "NewMatchScreen"]

PRESET_NAMES = tuple(PRESETS)
LEVEL_NAMES = {1: "1 · beginner", 2: "2 · casual", 3: "3 · club player", 4: "4 · strong",
               5: "5 · expert"}

HELP_RULES = """\
## The rules in short

**Deal** ten cards each; the 21st is turned up to start the pile (R3.2, R3.3).
**Opening:** the non-dealer may take the upcard or pass, then the dealer; if both pass,
the non-dealer draws from the stock (R4.1).
**A turn:** take the top of the stock or of the pile, then discard. A card just taken
from the pile may not be discarded that turn (R4.2, R4.3).

**Melds:** a *set* is 3 or 4 of a rank; a *run* 3 or more in sequence in one suit, ace
low (R2.1, R2.2). Other cards are *deadwood*: ace 1, pictures 10 (R1.3, R2.4).

**Knock** with 10 deadwood or less after your discard: lay out your melds; the defender
lays off on them (R5.1, R5.3). Lower deadwood wins the difference (R5.5); if the
defender has as little or less, his *undercut* wins 10 + the difference (R5.6).
**Gin** (no deadwood) wins 25 + the defender's deadwood and cannot be undercut (R5.7).
With two cards left in the stock after a discard the hand is dead (R6.1).

**Hollywood:** three games at once. Your first won hand goes in game 1, your second in
games 1 and 2, later ones in all three (R7.2). A game closes at 100 (R7.3): its winner
gets +100 (+200 for a shutout) and each player +20 a box, a won hand in it (R7.4).
Two games of three win the match (R7.5).
"""

HELP_KEYS = (
    ("t, click pile", "take the upcard or discard"),
    ("x", "pass the upcard"),
    ("s, click stock", "draw from the stock"),
    ("1–9 0 -, click", "choose a card"),
    ("again, Enter", "discard the chosen card"),
    ("← →", "move the choice"),
    ("k", "knock (chosen or best card)"),
    ("g", "gin"),
    ("h", "hint: the expert's move, why"),
    ("u", "undo your last move"),
    ("c", "four-colour deck"),
    ("n", "new match"),
    ("? F1", "this help (Esc closes)"),
    ("q", "quit (the match is saved)"),
)


def help_keys() -> Group:
    """The keys of the game screen as a borderless table."""
    table = Table(box=None, show_header=False, padding=(0, 1), expand=True)
    table.add_column(style="bold #f0c020", no_wrap=True)
    table.add_column()
    for key, what in HELP_KEYS:
        table.add_row(key, what)
    return Group(
        Text("Keys and mouse", style="bold #7fd1ff"), Text(""), table, Text(""),
        Text("Hints and undo mark the match assisted. Every move is saved: quit at any time "
             "and 'hollywood-gin play' resumes.", style="dim"))


@dataclass(frozen=True, slots=True)
class NewMatch:
    """What the new-match dialog chose."""

    level: int
    rules: Rules
    first_dealer: int | None



# -- dialogs -------------------------------------------------------------------------------------


class NewMatchScreen(ModalScreen[NewMatch | None]):
    """Opponent level 1–5, rule preset (the rule book §9) and who deals first (R3.1)."""

    DEFAULT_CSS = """
    NewMatchScreen { align: center middle; background: $background 60%; }
    NewMatchScreen > Vertical {
        width: 84; height: auto; padding: 1 2; border: thick $accent; background: $surface;
    }
    NewMatchScreen Horizontal { height: auto; }
    NewMatchScreen .choice { width: 1fr; height: auto; margin: 0 1; }
    NewMatchScreen RadioSet { width: 100%; }
    NewMatchScreen #buttons { align-horizontal: center; margin-top: 1; }
    NewMatchScreen Button { margin: 0 2; }
    NewMatchScreen .label { text-style: bold; }
    NewMatchScreen #title { margin-bottom: 1; }
    NewMatchScreen #note { color: $text-muted; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "start", priority=True),
        Binding("escape", "cancel", "cancel"),
    ]

    def __init__(self, *, level: int, preset: str | None, custom: Rules | None,
                 first_dealer: int | None) -> None:
        super().__init__()
        self._level = level
        self._custom = custom
        self._preset = preset if preset in PRESETS else "hollywood"
        self._dealer = first_dealer

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("New match against the computer", style="bold"), id="title")
            with Horizontal():
                with Vertical(classes="choice"):
                    yield Static("Opponent", classes="label")
                    with RadioSet(id="level"):
                        for n, name in LEVEL_NAMES.items():
                            yield RadioButton(name, value=n == self._level)
                with Vertical(classes="choice"):
                    yield Static("Rules", classes="label")
                    with RadioSet(id="preset"):
                        if self._custom is not None:
                            yield RadioButton("as given", value=True)
                        for name in PRESET_NAMES:
                            yield RadioButton(name, value=self._custom is None
                                              and name == self._preset)
                with Vertical(classes="choice"):
                    yield Static("First dealer", classes="label")
                    with RadioSet(id="dealer"):
                        for i, name in enumerate(("at random (R3.1)", "you", "the computer")):
                            chosen = {None: 0, 0: 1, 1: 2}[self._dealer] == i
                            yield RadioButton(name, value=chosen)
            yield Static("hollywood: three games to 100 · hollywood-20: gin bonus 20 · "
                         "classic: one game to 100 · eaai: the AI-challenge rules", id="note")
            with Horizontal(id="buttons"):
                yield Button("Start (Enter)", variant="primary", id="start")
                yield Button("Cancel (Esc)", id="cancel")

    def action_start(self) -> None:
        level = self.query_one("#level", RadioSet).pressed_index + 1
        index = self.query_one("#preset", RadioSet).pressed_index
        if self._custom is not None:
            rules = self._custom if index <= 0 else PRESETS[PRESET_NAMES[index - 1]]
        else:
            rules = PRESETS[PRESET_NAMES[max(index, 0)]]
        dealer = {0: None, 1: HUMAN, 2: COMPUTER}[max(self.query_one("#dealer",
                                                                      RadioSet).pressed_index, 0)]
        self.dismiss(NewMatch(max(level, 1), rules, dealer))

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()


class HelpScreen(ModalScreen[None]):
    """The rules in short and the keys."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; }
    HelpScreen > Horizontal {
        width: 108; height: auto; max-height: 95%; border: thick $accent;
        background: $surface;
    }
    HelpScreen #rules { width: 1fr; height: auto; max-height: 30; }
    HelpScreen #keys { width: 50; height: auto; max-height: 30; padding: 1 1 0 1; }
    HelpScreen Markdown { margin: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1,enter", "close", "close"),
    ]

    def compose(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="rules"):
                yield Markdown(HELP_RULES)
            with VerticalScroll(id="keys"):
                yield Static(help_keys())

    def action_close(self) -> None:
        self.dismiss(None)

