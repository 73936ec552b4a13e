"""The end of a hand (both layouts, the points, the sheet entry) and the end of the match."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..cards import Card
from ..melds import best_melds
from .look import card_ink, cards_ink, entry_words, meld_ink, result_headline, sheet_table
from .session import COMPUTER, HUMAN, GameSession

__all__ = ["HandEndScreen", "MatchEndScreen", "hand_end_layout", "hand_end_points"]


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

