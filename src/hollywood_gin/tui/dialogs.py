"""The game's smaller screens: help (also the menu), and the whole discard pile.

Each fits 80x24: its body scrolls and its buttons stay in sight.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Markdown, Static

from ..actions import TakeDiscard, TakeUpcard
from ..i18n import N_, _, language, ngettext
from ..rules import Rules
from .look import card_ink, cards_ink
from .rulewords import help_rules
from .session import COMPUTER, HUMAN, GameSession
from .widgets import Dialog

__all__ = ["HelpScreen", "PileScreen", "RulesScreen", "help_keys"]


def _help_keys() -> tuple[tuple[str, str], ...]:
    return (
        (_("t, click pile"), _("take the upcard or discard")),
        ("x", _("pass the upcard")),
        (_("s, click stock"), _("draw from the stock")),
        (_("1–9 0 -, click"), _("choose a card")),
        (_("again, Enter"), _("discard the chosen card")),
        ("← →", _("move the choice")),
        ("k", _("knock (chosen or best card)")),
        ("g", _("gin")),
        ("h", _("hint: the expert's move, why")),
        ("u", _("undo your last move, if no hidden card was shown since")),
        (_("p, click pile text"), _("the whole discard pile")),
        ("r", _("the rules in force")),
        ("v", _("at a hand's or the match's end: review your decisions")),
        ("l", _("saved games: resume or abandon")),
        ("a", _("your statistics; review a finished match")),
        ("c", _("four-colour deck")),
        ("n", _("new match (this one stays saved)")),
        ("? F1", _("this help (Esc closes)")),
        ("q", _("quit (the match is saved)")),
    )


def help_keys() -> Group:
    """The keys of the game screen as a borderless table."""
    table = Table(box=None, show_header=False, padding=(0, 1), expand=True)
    table.add_column(style="bold #f0c020", no_wrap=True)
    table.add_column()
    for key, what in _help_keys():
        table.add_row(key, what)
    return Group(
        Text(_("Keys and mouse"), style="bold #7fd1ff"), Text(""), table, Text(""),
        Text(_("Hints and undo mark the match assisted. Every move is saved: quit at any "
               "time and {command} resumes.").format(command="'hollywood-gin play'"),
             style="dim"))


class HelpScreen(Dialog[str | None]):
    """The rules in force in short, the keys, and the way to the rules, saved games and a
    new match.  Dismissed with what the person chose ("rules", "saved", "new") or None."""

    BODY = "#help-body"
    LEAVE = 3

    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; }
    HelpScreen > Vertical {
        width: 110; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface;
    }
    HelpScreen #help-body { height: auto; }
    HelpScreen #help-cols { height: auto; }
    HelpScreen #rules { width: 1fr; height: auto; }
    HelpScreen #keys { width: 50; height: auto; padding: 1 1 0 1; }
    HelpScreen.-narrow #help-cols { layout: vertical; }
    HelpScreen.-narrow #keys { width: 100%; }
    HelpScreen Markdown { margin: 0 1; }
    HelpScreen #buttons { height: 1; align-horizontal: center; dock: bottom; }
    HelpScreen #buttons Button { margin: 0 1; min-width: 0; }
    /* Narrow: five buttons do not fit one row in every language; three to a row. */
    HelpScreen.-narrow #buttons { layout: grid; grid-size: 3; grid-gutter: 0 1; height: 2; }
    HelpScreen.-narrow #buttons Button { width: 100%; margin: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: key hints in the footer of the help (short).
        Binding("escape,q,question_mark,f1,enter", "close", N_("close")),
        Binding("r", "choose('rules')", N_("rules")),
        Binding("l", "choose('saved')", N_("saved games")),
        Binding("n", "choose('new')", N_("new match")),
        Binding("f2", "language", N_("language")),
    ]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self._rules = rules

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="help-body"), Horizontal(id="help-cols"):
                with Vertical(id="rules"):
                    yield Markdown(help_rules(self._rules))
                yield Static(help_keys(), id="keys")
            with Horizontal(id="buttons"):
                # Translators: the help's buttons, one row at 80 columns (with the key).
                for ident, label in (("rules", _("Rules (r)")), ("saved", _("Saved games (l)")),
                                     ("new", _("New match (n)")),
                                     ("language", _("Language (F2)")),
                                     ("close", _("Close (Esc)"))):
                    yield Button(label, id=ident, compact=True)

    def leave(self) -> int:
        """Narrow, the buttons take two rows (three to a row): a row more to leave, or the
        help's last line stayed under them at 80x24."""
        return self.LEAVE + (1 if self.has_class("-narrow") else 0)

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < 110, "-narrow")
        self.query_one("#help-body").focus()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < 110, "-narrow")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def action_language(self) -> None:
        """The language list; a choice is spoken at once, on every screen."""
        from .language import ask_language

        ask_language(self.app, getattr(self.app, "reword", lambda: None))

    def reword(self) -> None:
        self.call_later(self.recompose)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "language":
            self.action_language()
            return
        self.dismiss(None if event.button.id == "close" else event.button.id)


class PileScreen(Dialog[None]):
    """The whole discard pile, top first, each card with who put it there, and the cards
    each player took from it this hand: all of it is public (R4.4)."""

    BODY = "#pile-body"
    LEAVE = 4

    DEFAULT_CSS = """
    PileScreen { align: center middle; background: $background 60%; }
    PileScreen > Vertical {
        width: 84; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: thick $accent; background: $surface;
    }
    PileScreen #pile-body { height: auto; }
    PileScreen #buttons { height: 1; align-horizontal: center; margin-top: 1; dock: bottom; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,p,q,enter,space", "close", N_("close")),
    ]

    def __init__(self, session: GameSession, four: bool) -> None:
        super().__init__()
        self._session = session
        self._four = four

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="pile-body"):
                yield Static(self._content(), id="pile-list")
            with Horizontal(id="buttons"):
                yield Button(_("Close (Esc)"), id="close", compact=True)

    def _content(self) -> Group:
        session, four = self._session, self._four
        story = list(reversed(session.pile_story()))
        title = Text(ngettext("The discard pile, top first: {n} card (R4.4: all of it is public)",
                              "The discard pile, top first: {n} cards (R4.4: all of it is "
                              "public)", len(story)).format(n=len(story)), style="bold")
        who = {None: _("upcard"), HUMAN: _("you"), COMPUTER: _("computer")}
        width = min(self.app.size.width, 84) - 6
        per_row = max(1, width // 16)
        grid = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
        for _col in range(per_row):
            grid.add_column(no_wrap=True)
        row: list[Text] = []
        for n, (card, player) in enumerate(story, start=1):
            cell = Text(f"{n:>2}. ", style="dim")
            cell.append_text(card_ink(card, four))
            cell.append(" " + who[player], style="dim")
            row.append(cell)
            if len(row) == per_row:
                grid.add_row(*row)
                row = []
        if row:
            grid.add_row(*row, *([""] * (per_row - len(row))))
        taken: dict[int, list[object]] = {HUMAN: [], COMPUTER: []}
        for move in session.moves():
            if isinstance(move.action, (TakeUpcard, TakeDiscard)) and move.taken is not None:
                taken[move.player].append(move.taken)
        lines = Text(_("Taken from the pile this hand:"), style="bold")
        for player, name in ((HUMAN, _("you")), (COMPUTER, _("the computer"))):
            lines.append(f"\n  {name}: ")
            lines.append_text(cards_ink(taken[player], four, empty=_("nothing")))  # type: ignore[arg-type]
        return Group(title, Text(""), grid, Text(""), lines)

    def on_mount(self) -> None:
        self.query_one("#pile-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)


class RulesScreen(Dialog[None]):
    """The rules in force for the current match: a panel of their numbers, then the whole
    rule book written for them (:mod:`hollywood_gin.rulebook`), scrolled with the keys."""

    BODY = "#rules-body"
    LEAVE = 3

    DEFAULT_CSS = """
    RulesScreen { align: center middle; background: $background 60%; }
    RulesScreen > Vertical {
        width: 100; max-width: 100%; height: auto; max-height: 100%; border: thick $accent;
        background: $surface;
    }
    RulesScreen #rules-body { height: auto; }
    RulesScreen #in-force { margin: 1 2 0 2; height: auto; }
    RulesScreen Markdown { margin: 0 1; }
    RulesScreen #buttons { height: 1; align-horizontal: center; dock: bottom; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,r", "close", N_("close")),
    ]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self._rules = rules

    def compose(self) -> ComposeResult:
        from ..rulebook import rule_book, rules_in_force

        panel = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False,
                      title=_("The rules in force"), title_justify="left",
                      title_style="bold #7fd1ff")
        panel.add_column(style="dim", no_wrap=True)
        panel.add_column(style="bold")
        for label, value in rules_in_force(self._rules):
            panel.add_row(label, value)
        with Vertical():
            with VerticalScroll(id="rules-body"):
                yield Static(panel, id="in-force")
                yield Markdown(rule_book(self._rules, lang=language()), id="book")
            with Horizontal(id="buttons"):
                yield Button(_("Close (Esc)"), id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#rules-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)
