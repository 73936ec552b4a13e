"""The game in the terminal: a Hollywood match against the computer (``hollywood-gin play``).

The screen shows only the person's view (R3.4): his hand grouped into its
best melds with the deadwood live, the pile (public, R4.4), the stock count,
the computer's card count and the cards it is known to hold.  Every action
goes through :class:`~.session.GameSession`, so it is saved before it is
shown; an illegal attempt shows the engine's reason and changes nothing.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Markdown, RadioButton, RadioSet, Static

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import Card
from ..errors import HollywoodGinError, IllegalActionError
from ..hand import HandResult, Phase
from ..melds import best_melds, discard_choices
from ..rules import PRESETS, Rules
from ..store import Store
from .look import (
    action_words,
    card_ink,
    cards_ink,
    entry_words,
    meld_ink,
    result_headline,
    sheet_table,
)
from .session import (
    COMPUTER,
    HUMAN,
    BotFactory,
    GameSession,
    Hinter,
    Move,
    default_bot,
    default_hint,
    resumable,
)
from .widgets import AskScreen, CardWidget

__all__ = ["GinApp", "NewMatch"]

KEYS = "1234567890-"
KEY_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "minus"]
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


def _possessive(name: str) -> str:
    return "Your" if name == "You" else f"{name}'s"


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


def _row(label: str, body: Text) -> Text:
    line = Text("  ")
    line.append(f"{label:<10}", style="dim")
    line.append_text(body)
    return line


def _melds_text(melds: tuple[tuple[Card, ...], ...], four: bool) -> Text:
    out = Text()
    for n, meld in enumerate(melds):
        if n:
            out.append(" ")
        out.append_text(meld_ink(meld, four))
    return out if melds else Text("none", style="dim")


def _deadwood_text(cards: tuple[Card, ...], count: int, four: bool) -> Text:
    out = cards_ink(cards, four)
    out.append(f" = {count}", style="bold")
    return out


def hand_end_layout(session: GameSession, four: bool) -> Group:
    """Both hands laid out as melds, lay-offs and deadwood (R5.1–R5.4, R6.1)."""
    hand = session.hand
    result = hand.result
    assert result is not None
    names = session.names
    parts: list[Text] = []
    headline = Text.assemble((f"Hand {session.hand_number} · ", "bold"))
    headline.append(result_headline(result, names), style="bold yellow")
    parts += [headline, Text("")]
    score = result.score
    if score is None:  # dead hand (R6.1): both hands shown, nothing scored
        for p in (HUMAN, COMPUTER):
            layout = best_melds(result.hands[p])
            parts.append(Text(names[p], style="bold"))
            parts.append(_row("melds", _melds_text(layout.melds, four)))
            parts.append(_row("deadwood", _deadwood_text(layout.unmatched, layout.deadwood,
                                                         four)))
        return Group(*parts)
    assert result.knocker is not None
    k, d = result.knocker, 1 - result.knocker
    title = Text(f"{names[k]} knocked", style="bold")
    if result.knock_discard is not None:
        title.append(", discarding ")
        title.append_text(card_ink(result.knock_discard, four))
        title.append(" face down")
    parts.append(title)
    parts.append(_row("melds", _melds_text(score.knocker_melds, four)))
    parts.append(_row("deadwood", _deadwood_text(score.knocker_unmatched,
                                                 score.knocker_deadwood, four)))
    parts.append(Text(names[d], style="bold"))
    parts.append(_row("melds", _melds_text(score.defender_melds, four)))
    if score.layoffs:
        groups: dict[tuple[Card, ...], list[Card]] = {}
        for lay in score.layoffs:
            groups.setdefault(lay.meld, []).append(lay.card)
        laid = Text()
        for n, (meld, cards) in enumerate(groups.items()):
            if n:
                laid.append(", ")
            laid.append_text(cards_ink(cards, four))
            laid.append(" on ")
            laid.append_text(meld_ink(meld, four))
        parts.append(_row("lays off", laid))
    elif result.kind in ("gin", "big_gin"):
        parts.append(_row("lays off", Text("nothing: no lay-offs against gin (R5.7)",
                                           style="dim")))
    parts.append(_row("deadwood", _deadwood_text(score.defender_unmatched,
                                                 score.defender_deadwood, four)))
    return Group(*parts)


def hand_end_points(session: GameSession) -> Group:
    """The points of the hand (R5.5–R5.7) and how they entered the sheet (R7.2–R7.4)."""
    hand = session.hand
    result = hand.result
    assert result is not None
    parts: list[Text] = []
    score = result.score
    if score is not None and result.winner is not None:
        rules = hand.rules
        kd, dd = score.knocker_deadwood, score.defender_deadwood
        winner = session.names[result.winner]
        sums = {
            "knock": f"Knock: {dd} − {kd} = {result.points} to {winner} (R5.5).",
            "undercut": f"Undercut: {rules.undercut_bonus} + ({kd} − {dd}) = {result.points} "
                        f"to {winner} (R5.6).",
            "gin": f"Gin: {rules.gin_bonus} + {dd} = {result.points} to {winner} (R5.7).",
            "big_gin": f"Big gin: {rules.big_gin_bonus} + {dd} = {result.points} to {winner} "
                       "(R5.7).",
        }
        parts.append(Text(sums[result.kind], style="bold"))
        sheet = session.sheet
        if sheet.entries:
            for words in entry_words(sheet.entries[-1], sheet, session.names):
                parts.append(Text(""))
                parts.append(Text(words))
    else:
        again = ("the deal passes to the other player" if hand.rules.next_dealer == "alternate"
                 else "the same dealer deals again")
        parts.append(Text(f"Nothing enters the sheet; {again} (R3.1).", style="bold"))
    return Group(*parts)


class HandEndScreen(ModalScreen[str]):
    """The end of a hand: both layouts, the points, and how they entered the sheet."""

    DEFAULT_CSS = """
    HandEndScreen { align: center middle; background: $background 50%; }
    HandEndScreen > Vertical {
        width: 100; height: auto; max-height: 100%; padding: 1 2;
        border: thick $warning; background: $surface;
    }
    HandEndScreen #result { height: auto; margin-top: 1; }
    HandEndScreen #points { width: 1fr; height: auto; padding-right: 2; }
    HandEndScreen #end-sheet { width: auto; height: auto; }
    HandEndScreen #buttons { height: auto; align-horizontal: center; margin-top: 1; }
    HandEndScreen Button { margin: 0 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "close('next')", "next hand", priority=True),
        Binding("u", "close('undo')", "undo"),
    ]

    def __init__(self, session: GameSession, four: bool) -> None:
        super().__init__()
        self._session = session
        self._four = four

    def compose(self) -> ComposeResult:
        last = self._session.match.finished
        session = self._session
        with Vertical():
            yield Static(hand_end_layout(session, self._four), id="layout")
            with Horizontal(id="result"):
                yield Static(hand_end_points(session), id="points")
                yield Static(sheet_table(session.sheet, session.names), id="end-sheet")
            with Horizontal(id="buttons"):
                label = "See the match result (Enter)" if last else "Next hand (Enter)"
                yield Button(label, variant="primary", id="next")
                if self._session.can_undo:
                    yield Button("Undo my last move (u)", id="undo")

    def action_close(self, choice: str) -> None:
        if choice == "undo" and not self._session.can_undo:
            return
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(str(event.button.id))


class MatchEndScreen(ModalScreen[str]):
    """The finished sheet and the match result (R7.5)."""

    DEFAULT_CSS = """
    MatchEndScreen { align: center middle; background: $background 50%; }
    MatchEndScreen > Vertical {
        width: 72; height: auto; padding: 1 2; border: thick $success; background: $surface;
    }
    MatchEndScreen #buttons { height: auto; align-horizontal: center; margin-top: 1; }
    MatchEndScreen Button { margin: 0 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "close('new')", "new match", priority=True),
        Binding("q,escape", "close('quit')", "quit"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self._session = session

    def compose(self) -> ComposeResult:
        session = self._session
        sheet = session.sheet
        winner = sheet.winner
        if winner is None:
            title = "The match is drawn."
        elif winner == HUMAN:
            title = f"You win the match, {sheet.games_won[0]} games to {sheet.games_won[1]}!"
        else:
            title = (f"The computer wins the match, {sheet.games_won[1]} games to "
                     f"{sheet.games_won[0]}.")
        totals = sheet.totals
        lines = Text.assemble((title + "\n", "bold yellow"))
        lines.append(f"Totals: you {totals[0]}, computer {totals[1]}; result for you "
                     f"{totals[0] - totals[1]:+d} (R7.5). {session.hand_number} hands played.")
        if session.assisted:
            lines.append("\nYou used hints or undo: this match counts as assisted.", style="dim")
        with Vertical():
            yield Static(Group(lines, Text(""), sheet_table(sheet, session.names,
                                                              title="Final sheet")))
            with Horizontal(id="buttons"):
                yield Button("New match (n)", variant="primary", id="new")
                yield Button("Quit (q)", id="quit")

    def action_close(self, choice: str) -> None:
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(str(event.button.id))


# -- the game screen -----------------------------------------------------------------------------


class GameScreen(Screen[None]):
    """The table: the computer's side, stock and pile, the log, your hand, actions, the sheet."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #main { height: 1fr; }
    #table { width: 1fr; padding: 0 1; }
    #side { width: 38; padding: 0 1; border-left: vkey $panel-lighten-2; }
    .row { height: 3; }
    #hand-row { height: 3; }
    .caption { height: 1; color: $text-muted; }
    #opp-label { height: 1; margin-top: 1; }
    #middle { height: 4; margin-top: 1; }
    #stock-label { width: 14; padding: 0 1; height: 3; }
    #pile-label { width: 1fr; padding: 0 1; height: 3; }
    #log { height: 9; margin-top: 1; }
    #hand-label { height: 1; margin-top: 1; }
    #keys { height: 1; color: $text-muted; }
    #melds { height: 1; }
    #prompt { height: 2; margin-top: 1; }
    #message { height: 1; }
    #message.-error { color: $error; text-style: bold; }
    #buttons { height: 1; margin-top: 1; }
    #buttons Button { margin-right: 1; min-width: 6; }
    #sheet { height: auto; }
    /* a small terminal (under 104 columns): flat one-line cards, a narrower sheet */
    GameScreen.-narrow #side { width: 33; }
    GameScreen.-narrow #table { padding: 0; }
    GameScreen.-narrow #info { display: none; }
    GameScreen.-narrow #log { height: 1fr; }
    GameScreen.-narrow .row, GameScreen.-narrow #hand-row { height: 1; }
    GameScreen.-narrow #middle { height: 3; }
    GameScreen.-narrow CardWidget { width: 3; height: 1; border: none; margin: 0 1 0 0; }
    GameScreen.-narrow CardWidget.-group { margin: 0 1 0 2; }
    GameScreen.-narrow CardWidget.-meld { border: none; background: #dcefdc; }
    GameScreen.-narrow CardWidget.-new { border: none; background: #d6ecfa; }
    GameScreen.-narrow CardWidget.-taken { border: none; background: #ead9f5; }
    GameScreen.-narrow CardWidget.-hinted { border: none; background: #f7d9a0; }
    GameScreen.-narrow CardWidget.-selected { border: none; background: #ffe45c; }
    GameScreen.-narrow CardWidget.-back { border: none; }
    #info { height: 4; margin-top: 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "take", "take"),
        Binding("x", "pass", "pass"),
        Binding("s", "draw", "stock"),
        Binding("enter,d,space", "discard", "discard"),
        Binding("k", "knock", "knock"),
        Binding("g", "gin", "gin"),
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("left", "move(-1)", "choose", show=False),
        Binding("right", "move(1)", "choose", show=False),
        Binding("c", "colours", "colours", show=False),
        Binding("n", "new_match", "new", show=False),
        Binding("question_mark,f1", "help", "help"),
        Binding("q", "quit", "quit"),
        *(Binding(key, f"pick({i})", show=False) for i, key in enumerate(KEY_NAMES)),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.session: GameSession | None = None
        self.order: list[Card] = []  # the person's cards in the order shown
        self.selected: Card | None = None
        self.hinted: Card | None = None
        self.hinting = False  # a hint is being thought out
        self.new_card: Card | None = None
        self.log_lines: list[Text] = []
        self.thinking = False
        self._ended_hand = 0  # the hand whose end was shown
        self._offered: tuple[bool | None, ...] = ()
        self._shown: dict[str, Text | str] = {}
        self._sheet_key: tuple[object, ...] = ()

    @property
    def gin_app(self) -> GinApp:
        app = self.app
        assert isinstance(app, GinApp)
        return app

    # -- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield Static("", id="opp-label")
                with Horizontal(classes="row", id="opp-row"):
                    for i in range(11):
                        yield CardWidget(slot=i, classes="opp")
                with Horizontal(id="middle"):
                    yield CardWidget(id="stock")
                    yield Static("", id="stock-label")
                    yield CardWidget(id="pile")
                    yield Static("", id="pile-label")
                yield Static("", id="hand-label")
                with Horizontal(id="hand-row"):
                    for i in range(11):
                        yield CardWidget(slot=i, classes="mine")
                yield Static("", id="keys")
                yield Static("", id="melds")
                yield Static("", id="prompt")
                yield Static("", id="message")
                with Horizontal(id="buttons"):
                    for ident, label in (
                        ("take", "Take upcard (t)"), ("pass", "Pass (x)"),
                        ("draw", "Draw stock (s)"), ("pick", "Take discard (t)"),
                        ("discard", "Discard"), ("knock", "Knock (k)"), ("gin", "Gin! (g)"),
                        ("hint", "Hint (h)"), ("undo", "Undo (u)"), ("help", "Help (?)"),
                    ):
                        button = Button(label, id=f"b-{ident}", compact=True,
                                        variant="warning" if ident in ("knock", "gin")
                                        else "default")
                        button.can_focus = False
                        yield button
            with Vertical(id="side"):
                yield Static("", id="sheet")
                yield Static("", id="info")
                yield Static("", id="log")
        yield Footer()

    # -- showing ---------------------------------------------------------------------

    def attach(self, session: GameSession) -> None:
        """Show a (new or resumed) match and carry on from wherever it stands."""
        self.app.workers.cancel_group(self.app, "computer")  # a match left mid-move stops
        self.thinking = False
        self.session = session
        self.selected = self.hinted = self.new_card = None
        self.log_lines = []
        self._ended_hand = 0
        rules = session.rules
        preset = rules.preset_name or "custom rules"
        self.gin_app.sub_title = f"You vs {session.names[COMPUTER]} · {preset}"
        self._log(Text(f"Hand {session.hand_number}: {self._dealer_words()}.", style="italic"))
        for player, action in session.hand.history:  # a resumed hand: its moves so far
            name = "You" if player == HUMAN else "Computer"
            style = "#7fd1ff" if player == HUMAN else "#ffb86c"
            self._log(Text(action_words(name, action), style=style))
        self.proceed()

    def on_mount(self) -> None:
        for widget in self.query(CardWidget).results(CardWidget):
            widget.hide()  # nothing on the table until a match is dealt
        for button in self.query("#buttons Button").results(Button):
            button.display = False

    def _dealer_words(self) -> str:
        assert self.session is not None
        dealer = self.session.hand.dealer
        return "you deal" if dealer == HUMAN else "the computer deals"

    def _log(self, line: Text) -> None:
        self.log_lines = [*self.log_lines, line][-8:]

    def say(self, text: str | Text, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.set_class(error, "-error")
        message.update(text)

    def refresh_table(self) -> None:
        """Redraw everything from the person's view (the only state the screen reads)."""
        session = self.session
        if session is None:
            return
        four = self.gin_app.four_colour
        view = session.view()
        names = session.names
        # the computer's side: a back for each unknown card, faces for known ones (R4.4)
        known = list(view.opponent_known)
        hidden = view.opponent_card_count - len(known)
        for i, widget in enumerate(self.query("CardWidget.opp").results(CardWidget)):
            widget.mark("-group", i == hidden and bool(known))
            if i < hidden:
                widget.show_back()
            elif i < hidden + len(known):
                widget.show_face(known[i - hidden], four_colour=four)
            else:
                widget.hide()
        label = Text.assemble((f"{names[COMPUTER]}", "bold #ffb86c"))
        label.append(f" · {view.opponent_card_count} cards", style="")
        if known:
            label.append(" · known from the pile: ")
            label.append_text(cards_ink(known, four))
        if view.dealer == COMPUTER:
            label.append(" · dealer", style="dim")
        self._put("opp-label", label)
        # the stock and the pile
        stock = self.query_one("#stock", CardWidget)
        if view.stock_count:
            stock.show_back()
        else:
            stock.show_empty()
        self._put("stock-label",
            Text.assemble(("Stock\n", "bold"), f"{view.stock_count} cards\n",
                          ("click or s", "dim")))
        pile = self.query_one("#pile", CardWidget)
        upcard = view.upcard
        if upcard is not None:
            pile.show_face(upcard, four_colour=four)
        else:
            pile.show_empty()
        pile_label = Text.assemble(
            ("Upcard\n" if view.phase is Phase.OFFER else "Discard pile\n", "bold"))
        under = list(reversed(view.discard_pile[:-1]))
        if under:
            pile_label.append("below: ")
            pile_label.append_text(cards_ink(under[:8], four))
            if len(under) > 8:
                pile_label.append(" …", style="dim")
        else:
            pile_label.append("nothing below", style="dim")
        pile_label.append("\nclick or t", style="dim")
        self._put("pile-label", pile_label)
        log = Text.assemble(("Moves\n", "bold"))
        log.append_text(Text("\n").join(self.log_lines))
        self._put("log", log)
        self._refresh_hand(view, four)
        self._refresh_prompt(view)
        self._refresh_buttons(view)
        compact = self.has_class("-narrow")
        if self._sheet_key != (session.id, session.sheet.entries, compact):
            self._sheet_key = (session.id, session.sheet.entries, compact)
            self.query_one("#sheet", Static).update(
                sheet_table(session.sheet, names, title="Hollywood scoresheet", compact=compact))
        info = Text(f"Hand {session.hand_number} · {self._dealer_words()}\n")
        rules = session.rules
        info.append(f"Rules: {rules.preset_name or 'custom'} · knock ≤ {view.knock_limit} · "
                    f"gin +{rules.gin_bonus} · undercut +{rules.undercut_bonus}\n")
        if session.assisted:
            info.append("Assisted: hints or undo used\n", style="yellow")
        info.append("Match " + session.id[:8], style="dim")
        self._put("info", info)
        offered = tuple(self.check_action(a, ()) for a in _FOOTER_ACTIONS)
        if offered != self._offered:  # the footer is rebuilt on every refresh: only on change
            self._offered = offered
            self.refresh_bindings()

    def _refresh_hand(self, view_hand: object, four: bool) -> None:
        session = self.session
        assert session is not None
        view = session.view()
        layout = best_melds(view.hand)
        order: list[Card] = []
        starts: set[int] = set()
        meld_cards: set[Card] = set()
        for meld in layout.melds:
            starts.add(len(order))
            order.extend(meld)
            meld_cards.update(meld)
        if layout.unmatched:
            starts.add(len(order))
            order.extend(layout.unmatched)
        starts.discard(0)
        self.order = order
        if self.selected not in order:
            self.selected = None
        for i, widget in enumerate(self.query("CardWidget.mine").results(CardWidget)):
            if i >= len(order):
                widget.hide()
                continue
            card = order[i]
            widget.show_face(card, four_colour=four)
            widget.mark("-group", i in starts)
            widget.mark("-meld", card in meld_cards)
            widget.mark("-new", card == self.new_card)
            widget.mark("-taken", card == view.taken_card)
            widget.mark("-hinted", card == self.hinted)
            widget.mark("-selected", card == self.selected)
        # each card's key under it: cards 5 wide (3 when narrow), 1 apart, 3 (2) before a group
        narrow = self.has_class("-narrow")
        keys = Text(" " if narrow else "  ")
        for i in range(len(order)):
            if i in starts:
                keys.append(" " if narrow else "  ")
            keys.append(KEYS[i] + (" " * (3 if narrow else 5)),
                        style="bold" if order[i] == self.selected else "")
        self._put("keys", keys)
        label = Text.assemble(("Your hand", "bold #7fd1ff"))
        label.append(f" · deadwood {layout.deadwood}", style="bold")
        if len(view.hand) == 11:
            best = discard_choices(view.hand)[0]
            label.append(f" · best discard leaves {best.deadwood}")
        if view.dealer == HUMAN:
            label.append(" · dealer", style="dim")
        self._put("hand-label", label)
        melds = Text()
        for meld in layout.melds:
            melds.append_text(meld_ink(meld, four))
            melds.append(" ")
        melds.append("deadwood " if layout.melds else "no melds yet · deadwood ", style="dim")
        melds.append_text(cards_ink(layout.unmatched, four))
        melds.append(f" = {layout.deadwood}")
        self._put("melds", melds)

    def _refresh_prompt(self, view: object) -> None:
        session = self.session
        assert session is not None
        v = session.view()
        four = self.gin_app.four_colour
        prompt = Text()
        if v.phase is Phase.OVER:
            prompt.append("The hand is over.", style="bold")
        elif self.thinking or v.to_act == COMPUTER:
            prompt.append("The computer is thinking…", style="italic")
        elif v.phase is Phase.OFFER:
            prompt.append("The opening (R4.1): ", style="bold")
            prompt.append("take the upcard ")
            if v.upcard is not None:
                prompt.append_text(card_ink(v.upcard, four))
            prompt.append(" (t, or click it) or pass (x).")
        elif v.phase is Phase.DRAW:
            prompt.append("Your turn: ", style="bold")
            if v.upcard_refused:
                prompt.append("both passed the upcard, so draw from the stock (s) (R4.1).")
            else:
                prompt.append("draw from the stock (s) or take ")
                if v.upcard is not None:
                    prompt.append_text(card_ink(v.upcard, four))
                prompt.append(" from the pile (t).")
        else:
            prompt.append("Discard: ", style="bold")
            if self.selected is None:
                prompt.append("choose a card (1–9, 0, -, ← →, or click it), then again or "
                              "Enter to discard it.")
                knocks = self._knock_options()
                if knocks:
                    best = min(knocks, key=lambda c: c[1])
                    word = "go gin" if best[1] == 0 else "knock"
                    prompt.append(f"\nYou can {word}: ", style="bold yellow")
                    prompt.append(f"{'g' if best[1] == 0 else 'k'} discards ")
                    prompt.append_text(card_ink(best[0], four))
                    prompt.append(f" and leaves {best[1]} deadwood.")
            else:
                rest = [c for c in v.hand if c != self.selected]
                after = best_melds(rest)
                prompt.append("discard ")
                prompt.append_text(card_ink(self.selected, four))
                prompt.append(f"? It leaves deadwood {after.deadwood}. Enter or again to "
                              "discard, another key to change.")
                if self.selected == v.taken_card and not v.rules.discard_taken_card:
                    prompt.append("\nIt was just taken from the pile, so it may not be "
                                  "discarded this turn (R4.3).", style="yellow")
                elif after.deadwood <= v.knock_limit:
                    word = "Gin" if after.deadwood == 0 else "Knock"
                    prompt.append(f"\n{word} ({word[0].lower()}) would show ", style="yellow")
                    for meld in after.melds:
                        prompt.append_text(meld_ink(meld, four))
                        prompt.append(" ")
                    if after.unmatched:
                        prompt.append("with ")
                        prompt.append_text(cards_ink(after.unmatched, four))
        self._put("prompt", prompt)

    def _knock_options(self) -> list[tuple[Card, int]]:
        """Legal knock discards and the deadwood each leaves (R5.1), from the legal actions."""
        assert self.session is not None
        view = self.session.view()
        cards = [a.card for a in view.legal_actions if isinstance(a, Knock) and a.card]
        if not cards:
            return []
        left = {c.card: c.deadwood for c in discard_choices(view.hand)}
        return [(card, left[card]) for card in cards]

    def _refresh_buttons(self, view: object) -> None:
        session = self.session
        assert session is not None
        v = session.view()
        mine = session.human_to_act and not self.thinking
        legal = v.legal_actions if mine else ()
        knocks = self._knock_options() if mine else []
        show = {
            "take": any(isinstance(a, TakeUpcard) for a in legal),
            "pass": any(isinstance(a, Pass) for a in legal),
            "draw": any(isinstance(a, DrawStock) for a in legal),
            "pick": any(isinstance(a, TakeDiscard) for a in legal),
            "discard": v.phase is Phase.DISCARD and mine,
            "knock": any(d > 0 for _, d in knocks),
            "gin": any(d == 0 for _, d in knocks) or any(
                isinstance(a, Knock) and a.card is None for a in legal),
            "hint": mine,
            "undo": session.can_undo and not self.thinking,
            "help": True,
        }
        for ident, visible in show.items():
            button = self.query_one(f"#b-{ident}", Button)
            if button.display != visible:
                button.display = visible
        if v.upcard is not None:
            self._label("take", f"Take {v.upcard.pretty} (t)")
            self._label("pick", f"Take {v.upcard.pretty} (t)")
        self._label("discard", f"Discard {self.selected.pretty} (⏎)" if self.selected
                    else "Discard… (choose a card)")
        sel = [d for c, d in knocks if c == self.selected]
        self._label("knock", f"Knock {self.selected.pretty} (k)"
                    if self.selected and sel and sel[0] else "Knock (k)")

    def _put(self, ident: str, content: Text) -> None:
        """Update a Static only when its text changed (each update re-lays the screen out)."""
        if self._shown.get(ident) != content:
            self._shown[ident] = content
            # every one of these has a fixed size, so no new layout is needed
            self.query_one(f"#{ident}", Static).update(content, layout=False)

    def _label(self, ident: str, label: str) -> None:
        if self._shown.get(f"b-{ident}") != label:
            self._shown[f"b-{ident}"] = label
            button = self.query_one(f"#b-{ident}", Button)
            button.label = label
            button.refresh(layout=True)  # its width follows the new label

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footer keys: knock and gin are offered only when legal (R5.1, R2.5).  The other keys
        stay put (rebuilding the footer at every move is slow); out of turn they say why."""
        session = self.session
        if action not in ("knock", "gin"):
            return True
        if session is None or not session.human_to_act or self.thinking:
            return False
        gin = any(d == 0 for _, d in self._knock_options()) or any(
            isinstance(a, Knock) and a.card is None for a in session.view().legal_actions)
        if action == "gin":
            return gin
        return any(d > 0 for _, d in self._knock_options())

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < 104
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
            self.refresh_table()

    def on_key(self, event: events.Key) -> None:
        """A key whose action is not offered now still gets its reason, not silence."""
        action = _KEY_ACTIONS.get(event.key)
        if action is not None and not self.check_action(action, ()):
            event.stop()
            getattr(self, f"action_{action}")()

    # -- flow ------------------------------------------------------------------------

    def proceed(self) -> None:
        """After any change: redraw, then show the hand's end or let the computer move."""
        session = self.session
        if session is None:
            return
        start_computer = session.computer_to_act and not self.thinking
        if start_computer:
            self.thinking = True
        self.refresh_table()
        if session.hand.is_over:
            if self._ended_hand != session.hand_number:
                self._ended_hand = session.hand_number
                self.app.push_screen(HandEndScreen(session, self.gin_app.four_colour),
                                     self._after_hand_end)
        elif start_computer:
            self.app.run_worker(self._computer_moves(), group="computer", exclusive=True)

    async def _computer_moves(self) -> None:
        """The computer's moves one at a time, each after a short pause so it can be read."""
        session = self.session
        assert session is not None
        try:
            while session.computer_to_act:
                await asyncio.sleep(self.gin_app.delay)
                action = await asyncio.to_thread(session.computer_choice)
                move = session.computer_act(action)
                self._record(move)
                self.refresh_table()
        except HollywoodGinError as exc:
            self.say(f"The computer could not move: {exc}", error=True)
        finally:
            self.thinking = False
        self.proceed()

    def _record(self, move: Move) -> None:
        session = self.session
        assert session is not None
        names = session.names
        name = "You" if move.player == HUMAN else "Computer"
        words = action_words(name, move.action, move.taken)
        style = "#7fd1ff" if move.player == HUMAN else "#ffb86c"
        self._log(Text(words, style=style))
        if move.result is not None:
            self._log(Text(result_headline(move.result, names), style="bold yellow"))

    def _after_hand_end(self, choice: str | None) -> None:
        session = self.session
        assert session is not None
        if choice == "undo" and session.can_undo:
            self.action_undo()
            return
        if session.match.finished:
            self.app.push_screen(MatchEndScreen(session), self._after_match_end)
            return
        session.next_hand()
        self.selected = self.hinted = self.new_card = None
        self.log_lines = []
        self._log(Text(f"Hand {session.hand_number}: {self._dealer_words()}.", style="italic"))
        self.say("")
        self.proceed()

    def _after_match_end(self, choice: str | None) -> None:
        if choice == "new":
            self.gin_app.ask_new_match()
        else:
            self.app.exit()

    def play(self, action: Action) -> HandResult | None:
        """The person's action through the session; an illegal one only shows why (R-cited)."""
        session = self.session
        if session is None:
            self.say("Start a match first (n).", error=True)
            return None
        if self.thinking:
            self.say("Wait: the computer is moving.", error=True)
            return None
        before = set(session.view().hand)
        try:
            move = session.act(action)
        except IllegalActionError as exc:
            self.say(_sentence(str(exc)), error=True)
            self.app.bell()
            return None
        after = set(session.view().hand)
        drawn = after - before
        self.new_card = next(iter(drawn)) if drawn else None
        self.selected = self.hinted = None
        self.say("")
        self._record(move)
        self.proceed()
        return move.result

    # -- actions ---------------------------------------------------------------------

    def action_take(self) -> None:
        session = self.session
        if session is not None and session.hand.phase is Phase.OFFER:
            self.play(TakeUpcard())
        else:
            self.play(TakeDiscard())

    def action_pass(self) -> None:
        self.play(Pass())

    def action_draw(self) -> None:
        self.play(DrawStock())

    def action_pick(self, index: int) -> None:
        """Choose the card at a place in the hand; choosing it again discards it."""
        if index >= len(self.order):
            self.say(f"There is no card {KEYS[index]}: you hold {len(self.order)} cards.",
                     error=True)
            return
        self.choose(self.order[index])

    def choose(self, card: Card) -> None:
        session = self.session
        if session is None:
            return
        if session.hand.phase is not Phase.DISCARD or not session.human_to_act or self.thinking:
            self.play(Discard(card))  # not the time to discard: the engine says why
            return
        if self.selected == card:
            self.play(Discard(card))
            return
        self.selected = card
        self.say("")
        self.refresh_table()

    def action_move(self, step: int) -> None:
        if not self.order:
            return
        if self.selected in self.order:
            assert self.selected is not None
            index = (self.order.index(self.selected) + step) % len(self.order)
        else:
            index = 0 if step > 0 else len(self.order) - 1
        session = self.session
        if session is not None and session.hand.phase is Phase.DISCARD:
            self.selected = self.order[index]
            self.refresh_table()

    def action_discard(self) -> None:
        if self.selected is None:
            session = self.session
            if session is not None and session.hand.phase is Phase.DISCARD:
                self.say("Choose the card to discard first: 1–9, 0, - or click it.", error=True)
            else:
                self.play(Discard(self.order[0]) if self.order else Pass())
            return
        self.play(Discard(self.selected))

    def action_knock(self) -> None:
        session = self.session
        if session is None:
            return
        view = session.view()
        if view.phase is not Phase.DISCARD or not session.human_to_act:
            if view.phase is Phase.OVER:
                self.say("The hand is over.", error=True)
            elif not session.human_to_act or self.thinking:
                self.say("Wait: it is the computer's turn.", error=True)
            else:
                self.say("You knock after taking a card: first draw from the stock (s) or "
                         "take the discard (t) (R4.2, R5.1).", error=True)
            return
        if self.selected is not None:
            self.play(Knock(self.selected))
            return
        options = self._knock_options()
        if options:
            card = min(options, key=lambda c: (c[1], c[0].index))[0]
            self.play(Knock(card))
            return
        best = discard_choices(view.hand)[0]
        self.say(f"You cannot knock: your best discard ({best.card.pretty}) leaves "
                 f"{best.deadwood} deadwood, over the knock limit of {view.knock_limit} (R5.1).",
                 error=True)
        self.app.bell()

    def action_gin(self) -> None:
        session = self.session
        if session is None:
            return
        view = session.view()
        if any(isinstance(a, Knock) and a.card is None for a in view.legal_actions):
            self.play(Knock(None))  # big gin: all eleven cards melded (R5.7 option)
            return
        gins = [c for c, d in self._knock_options() if d == 0]
        if not gins:
            if view.phase is Phase.DISCARD and session.human_to_act:
                best = discard_choices(view.hand)[0]
                self.say(f"No gin: your best discard leaves {best.deadwood} deadwood; gin needs "
                         "0 (R2.5).", error=True)
                self.app.bell()
            else:
                self.action_knock()
            return
        self.play(Knock(self.selected if self.selected in gins else gins[0]))

    def action_hint(self) -> None:
        session = self.session
        if session is None:
            return
        if self.thinking or not session.human_to_act:
            self.say("A hint is given on your turn.", error=True)
            return
        if self.hinting:
            return
        self.hinting = True
        self.say("Thinking about a hint…")
        self.app.run_worker(self._hint(session), group="hint", exclusive=True)

    async def _hint(self, session: GameSession) -> None:
        """The expert thinks on a thread (up to half a second in a close call) so the
        table stays live; a hint that the game has moved past is dropped."""
        try:
            position, view, sheet = session.hint_position()
            action, reason = await asyncio.to_thread(session.think_hint, view, sheet)
        except HollywoodGinError as exc:
            self.say(f"No hint: {exc}", error=True)
            return
        except ImportError:
            self.say("No hint: the computer players are not installed.", error=True)
            return
        finally:
            self.hinting = False
        if session is not self.session or not session.give_hint(position):
            return
        card = action.card if isinstance(action, (Discard, Knock)) else None
        self.hinted = card
        if card is not None:
            self.selected = card
        text = Text.assemble(("Hint: ", "bold yellow"))
        text.append(f"{_action_name(action)} — {reason}")
        self.refresh_table()
        self.say(text)

    def action_undo(self) -> None:
        session = self.session
        if session is None:
            return
        if self.thinking:
            self.say("Wait: the computer is moving.", error=True)
            return
        try:
            undone = session.undo()
        except HollywoodGinError as exc:
            self.say(_sentence(str(exc)), error=True)
            return
        self.selected = self.hinted = self.new_card = None
        self._ended_hand = 0 if not session.hand.is_over else session.hand_number
        self._log(Text(f"You undid your last move ({undone} action"
                       f"{'s' if undone != 1 else ''} taken back).", style="italic"))
        self.say("Undone. This match now counts as assisted.")
        self.proceed()

    def action_colours(self) -> None:
        app = self.gin_app
        app.four_colour = not app.four_colour
        self.say("Four-colour deck " + ("on: ♦ blue, ♣ green." if app.four_colour else "off."))
        self.refresh_table()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_new_match(self) -> None:
        self.gin_app.ask_new_match()

    async def action_quit(self) -> None:
        self.app.exit()

    @on(CardWidget.Chosen)
    def _card_clicked(self, event: CardWidget.Chosen) -> None:
        widget = event.widget
        if widget.id == "stock":
            self.action_draw()
        elif widget.id == "pile":
            self.action_take()
        elif widget.has_class("mine") and widget.card is not None:
            self.choose(widget.card)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        ident = (event.button.id or "").removeprefix("b-")
        handlers = {
            "take": self.action_take, "pick": self.action_take, "pass": self.action_pass,
            "draw": self.action_draw, "discard": self.action_discard,
            "knock": self.action_knock, "gin": self.action_gin, "hint": self.action_hint,
            "undo": self.action_undo, "help": self.action_help,
        }
        handler = handlers.get(ident)
        if handler is not None:
            handler()


_FOOTER_ACTIONS = ("knock", "gin")
_KEY_ACTIONS = {"k": "knock", "g": "gin"}


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", ")", "!")) else text + "."


def _action_name(action: Action) -> str:
    if isinstance(action, Discard):
        return f"discard {action.card.pretty}"
    if isinstance(action, Knock):
        return "go big gin" if action.card is None else f"knock, discarding {action.card.pretty}"
    return {"pass": "pass the upcard", "take": "take the upcard", "draw": "draw from the stock",
            "pick": "take the discard"}.get(str(action), str(action))


# -- the app -------------------------------------------------------------------------------------


class GinApp(App[None]):
    """``hollywood-gin play``: resume the unfinished match, or start a new one."""

    TITLE = "Hollywood Gin"
    CSS = """
    GameScreen { background: #0f2a1d; }
    """

    def __init__(
        self,
        *,
        store: Store,
        level: int = 3,
        rules: Rules | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        new: bool = False,
        ask: bool = True,
        delay: float = 0.7,
        four_colour: bool = False,
        bot_factory: BotFactory = default_bot,
        hinter: Hinter = default_hint,
    ) -> None:
        """``ask`` False starts at once with the given level and rules (for tests and
        scripts); ``delay`` is the pause before each computer move, in seconds."""
        super().__init__()
        self.store = store
        self.level = level
        self.rules = rules if rules is not None else PRESETS["hollywood"]
        self.seed = seed
        self.first_dealer = first_dealer
        self.new = new
        self.ask = ask
        self.delay = delay
        self.four_colour = four_colour
        self.bot_factory = bot_factory
        self.hinter = hinter

    def get_default_screen(self) -> GameScreen:
        return GameScreen()

    @property
    def game(self) -> GameScreen:
        screen = self.screen_stack[0] if self.screen_stack else None
        if not isinstance(screen, GameScreen):
            screen = next(s for s in self.screen_stack if isinstance(s, GameScreen))
        return screen

    @property
    def session(self) -> GameSession | None:
        return self.game.session

    @property
    def busy(self) -> bool:
        """The computer is moving or a hint is being thought out (tests wait for this)."""
        return self.game.thinking or self.game.hinting

    def on_mount(self) -> None:
        self.call_after_refresh(self._start)

    def _start(self) -> None:
        row = None if self.new else resumable(self.store)
        if row is None:
            self.ask_new_match(first=True)
            return
        try:
            session = GameSession.resume(self.store, row.id, bot_factory=self.bot_factory,
                                         hinter=self.hinter)
        except (HollywoodGinError, ImportError) as exc:
            self.game.say(f"The saved match {row.id[:8]} cannot be resumed: {exc}", error=True)
            self.ask_new_match(first=True)
            return
        totals = session.sheet.totals
        question = Text(
            f"You have an unfinished match against {session.names[COMPUTER]}, "
            f"started {session.started()}: hand {session.hand_number}, "
            f"you {totals[0]} – computer {totals[1]}.\n"
            "Resume it exactly where it stopped?")

        def answered(resume: bool | None) -> None:
            if resume:
                self.game.attach(session)
            else:
                session.abandon()
                self.ask_new_match(first=True)

        self.push_screen(AskScreen("Resume?", question, ("Resume", "r"), ("New match", "n")),
                         answered)

    def ask_new_match(self, first: bool = False) -> None:
        """The new-match dialog, or a match at once when not asking."""
        if not self.ask and first:
            self.start_match(NewMatch(self.level, self.rules, self.first_dealer))
            return
        custom = None if self.rules.preset_name else self.rules

        def chosen(choice: NewMatch | None) -> None:
            if choice is not None:
                old = self.session
                if old is not None and not old.match.finished:
                    old.abandon()
                self.start_match(choice)
            elif self.session is None:
                self.exit()

        self.push_screen(NewMatchScreen(level=self.level, preset=self.rules.preset_name,
                                        custom=custom, first_dealer=self.first_dealer), chosen)

    def start_match(self, choice: NewMatch) -> None:
        try:
            session = GameSession.new(self.store, level=choice.level, rules=choice.rules,
                                      seed=self.seed, first_dealer=choice.first_dealer,
                                      bot_factory=self.bot_factory, hinter=self.hinter)
        except ImportError as exc:
            self.game.say(f"The computer players are not installed: {exc}", error=True)
            return
        self.level, self.rules = choice.level, choice.rules
        self.seed = None  # a seed given on the command line deals the first match only
        self.game.attach(session)
