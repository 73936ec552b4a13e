"""The end of a hand (both layouts, the points, the sheet entry) and the end of the match.

Both offer the game review (Review, v: :mod:`.review`); closing it comes back here."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from ..cards import Card
from ..i18n import N_, _, is_you, ngettext, pgettext
from ..melds import best_melds
from .look import (
    GLUE,
    Flow,
    card_ink,
    cards_ink,
    entry_words,
    glued,
    meld_ink,
    result_headline,
    sheet_table,
    styled,
)
from .rulewords import sheet_title
from .session import COMPUTER, HUMAN, GameSession
from .widgets import ButtonFlow, Dialog

__all__ = ["HandEndScreen", "MatchEndScreen", "hand_end_layout", "hand_end_points"]


def _rows(*rows: tuple[str, Text]) -> Table:
    """Label and value rows; a long value wraps under itself, not under the label, and
    only between melds, cards and words (never inside a meld's brackets)."""
    table = Table(box=None, show_header=False, padding=(0, 1, 0, 0), pad_edge=False)
    table.add_column(no_wrap=True, style="dim")
    table.add_column(ratio=1)
    for label, body in rows:
        table.add_row("  " + label, Flow(body))
    return table


def _melds_text(melds: tuple[tuple[Card, ...], ...], four: bool) -> Text:
    out = Text()
    for n, meld in enumerate(melds):
        if n:
            out.append(" ")
        out.append_text(glued(meld_ink(meld, four)))
    return out if melds else Text(_("none"), style="dim")


def _deadwood_text(cards: tuple[Card, ...], count: int, four: bool) -> Text:
    out = cards_ink(cards, four)
    out.append(f" ={GLUE}{count}", style="bold")  # the count stays with its "="
    return out


def hand_end_layout(session: GameSession, four: bool) -> Group:
    """Both hands laid out as melds, lay-offs and deadwood (R5.1–R5.4, R6.1)."""
    hand = session.hand
    result = hand.result
    assert result is not None
    names = session.names
    parts: list[RenderableType] = []
    headline = Text.assemble((_("Hand {n}").format(n=session.hand_number) + " · ", "bold"))
    headline.append(result_headline(result, names), style="bold yellow")
    parts.append(headline)
    score = result.score
    melds_word, deadwood_word = _("melds"), _("deadwood")
    if score is None:  # dead hand (R6.1): both hands shown, nothing scored
        for p in (HUMAN, COMPUTER):
            layout = best_melds(result.hands[p])
            parts.append(Text(names[p], style="bold"))
            parts.append(_rows((melds_word, _melds_text(layout.melds, four)),
                               (deadwood_word, _deadwood_text(layout.unmatched,
                                                              layout.deadwood, four))))
        return Group(*parts)
    assert result.knocker is not None
    k, d = result.knocker, 1 - result.knocker
    if result.knock_discard is not None:
        # Translators: {card} is the knock's discard, like 7♥, put face down (R5.1).
        title = styled(_("You knocked, discarding {card} face down") if is_you(names[k])
                       else _("{name} knocked, discarding {card} face down"),
                       name=names[k], card=card_ink(result.knock_discard, four))
        title.stylize("bold")
    else:
        title = Text(_("You went big gin") if is_you(names[k])
                     else _("{name} went big gin").format(name=names[k]), style="bold")
    parts.append(title)
    parts.append(_rows((melds_word, _melds_text(score.knocker_melds, four)),
                       (deadwood_word, _deadwood_text(score.knocker_unmatched,
                                                      score.knocker_deadwood, four))))
    parts.append(Text(names[d], style="bold"))
    rows: list[tuple[str, Text]] = [(melds_word, _melds_text(score.defender_melds, four))]
    if score.layoffs:
        groups: dict[tuple[Card, ...], list[Card]] = {}
        for lay in score.layoffs:
            groups.setdefault(lay.meld, []).append(lay.card)
        laid = Text()
        for n, (meld, cards) in enumerate(groups.items()):
            if n:
                laid.append(", ")
            # Translators: a lay-off at the hand's end: {cards} (like 7♥) laid off on {meld}
            # (cards in brackets, like [4♥ 5♥ 6♥]).
            laid.append_text(styled(_("{cards} on {meld}"), cards=cards_ink(cards, four),
                                    meld=glued(meld_ink(meld, four))))
        rows.append((_("lays off"), laid))
    elif result.kind in ("gin", "big_gin"):
        rows.append((_("lays off"), Text(_("nothing: no lay-offs against gin (R5.7)"),
                                         style="dim")))
    rows.append((deadwood_word, _deadwood_text(score.defender_unmatched,
                                               score.defender_deadwood, four)))
    parts.append(_rows(*rows))
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
        sums = {
            "knock": _("Knock: {dd} − {kd} = {points} to {name} (R5.5)."),
            "undercut": _("Undercut: {bonus} + ({kd} − {dd}) = {points} to {name} (R5.6)."),
            "gin": _("Gin: {bonus} + {dd} = {points} to {name} (R5.7)."),
            "big_gin": _("Big gin: {bonus} + {dd} = {points} to {name} (R5.7)."),
        }
        bonus = {"undercut": rules.undercut_bonus, "gin": rules.gin_bonus,
                 "big_gin": rules.big_gin_bonus}.get(result.kind)
        name = session.names[result.winner]
        parts.append(Text(sums[result.kind].format(
            dd=dd, kd=kd, points=result.points, bonus=bonus,
            # Translators: "you" as the one the points go to ("= 56 to you"); Afrikaans
            # says "vir jou", not the subject's "jy"
            name=pgettext("points to", "you") if is_you(name) else name), style="bold"))
        sheet = session.sheet
        if sheet.entries:
            for words in entry_words(sheet.entries[-1], sheet, session.names):
                parts.append(Text(words))
    else:
        again = (_("the deal passes to the other player") if hand.rules.next_dealer == "alternate"
                 else _("the same dealer deals again"))
        parts.append(Text(_("Nothing enters the sheet; {again} (R3.1).").format(again=again),
                          style="bold"))
    return Group(*parts)


class _EndScreen(Dialog[str]):
    """A hand's or the match's end, whose sheet is drawn compact below ``COMPACT_BELOW``
    columns: drawn again when a resize crosses that width (made large, then narrowed to
    80x24, its cards split across lines, "[A", "♠", "2♠")."""

    COMPACT_BELOW: ClassVar[int] = 110

    def compact(self) -> bool:
        self._compact = self.app.size.width < self.COMPACT_BELOW
        return self._compact

    def on_resize(self, event: events.Resize) -> None:
        if (event.size.width < self.COMPACT_BELOW) != getattr(self, "_compact", None):
            self.call_later(self._drawn_again)

    async def _drawn_again(self) -> None:
        await self.recompose()
        self.fit()


class HandEndScreen(_EndScreen):
    """The end of a hand: both layouts, the points, and how they entered the sheet.

    At 80x24 it fits: the layouts and points on the left, the compact sheet on the right,
    the body scrolls if it ever must, and the buttons stay in sight below it."""

    BODY = "#end-body"
    LEAVE = 4

    DEFAULT_CSS = """
    HandEndScreen { align: center middle; background: $background 50%; }
    HandEndScreen > Vertical {
        width: 110; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: thick $warning; background: $surface;
    }
    HandEndScreen #end-body { height: auto; }
    HandEndScreen #end-cols { height: auto; }
    HandEndScreen #end-left { width: 1fr; height: auto; padding-right: 1; }
    HandEndScreen #points { height: auto; margin-top: 1; }
    HandEndScreen #end-sheet { width: auto; height: auto; }
    HandEndScreen #buttons { align-horizontal: center; margin-top: 1; dock: bottom;
                          grid-gutter: 0 1; }
    HandEndScreen #buttons Button { min-width: 0; }
    HandEndScreen #notice { height: auto; margin-top: 1; color: $error; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: key hints in the footer of the hand's end (short).
        Binding("enter,space", "enter_default", N_("next hand"), priority=True),
        Binding("n", "close('next')", N_("next hand"), show=False),
        Binding("v", "close('review')", N_("review")),
    ]

    def __init__(self, session: GameSession, four: bool, notice: str = "") -> None:
        """``notice``: why the next hand was not dealt (it could not be saved)."""
        super().__init__()
        self._session = session
        self._four = four
        self._notice = notice

    def compose(self) -> ComposeResult:
        session = self._session
        last = session.match.finished
        compact = self.compact()
        with Vertical():
            with VerticalScroll(id="end-body"):
                with Horizontal(id="end-cols"):
                    with Vertical(id="end-left"):
                        yield Static(hand_end_layout(session, self._four), id="layout")
                    yield Static(sheet_table(session.sheet, session.names,
                                             title=sheet_title(session.rules),
                                             compact=compact), id="end-sheet")
                # The whole width for the words (beside the sheet, at 80 columns, they had
                # a third of it and ran past the screen's foot).
                yield Static(hand_end_points(session), id="points")
            if self._notice:  # below the body, in sight with the buttons
                yield Static(self._notice, id="notice")
            with ButtonFlow(id="buttons"):
                label = _("See the match result (Enter)") if last else _("Next hand (Enter)")
                yield Button(label, variant="primary", id="next", compact=True)
                # No undo here: the hand's end has shown the cards (TUI session._undo).
                yield Button(_("Review (v)"), id="review", compact=True)

    def leave(self) -> int:
        notices = self.query("#notice")
        return super().leave() + sum(n.outer_size.height for n in notices)

    def on_mount(self) -> None:
        super().on_mount()
        if self._notice:  # its height is known once drawn
            self.call_after_refresh(self.fit)

    def action_enter_default(self) -> None:
        self.dismiss("next")

    def action_close(self, choice: str) -> None:
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(str(event.button.id))


class MatchEndScreen(_EndScreen):
    """The finished sheet and the match result (R7.5); a rematch, a new match, or quit."""

    BODY = "#final-body"
    LEAVE = 4
    COMPACT_BELOW = 90

    DEFAULT_CSS = """
    MatchEndScreen { align: center middle; background: $background 50%; }
    MatchEndScreen > Vertical {
        width: 76; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: thick $success; background: $surface;
    }
    MatchEndScreen #final-body { height: auto; }
    MatchEndScreen #buttons { align-horizontal: center; margin-top: 1; dock: bottom;
                          grid-gutter: 0 1; }
    MatchEndScreen #buttons Button { min-width: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: key hints in the footer of the match's end (short).
        Binding("r", "close('rematch')", N_("rematch")),
        Binding("enter", "enter_default", N_("rematch"), show=False, priority=True),
        Binding("n", "close('new')", N_("new match")),
        Binding("v", "close('review')", N_("review")),
        Binding("q,escape", "close('quit')", N_("quit")),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self._session = session

    def compose(self) -> ComposeResult:
        session = self._session
        sheet = session.sheet
        winner = sheet.winner
        if winner is None:
            title = _("The match is drawn.")
        elif winner == HUMAN:
            title = _("You win the match, {won} games to {lost}!").format(
                won=sheet.games_won[0], lost=sheet.games_won[1])
        else:
            title = _("The computer wins the match, {won} games to {lost}.").format(
                won=sheet.games_won[1], lost=sheet.games_won[0])
        if len(sheet.columns) == 1:
            title = {None: _("The match is drawn."), HUMAN: _("You win the match!"),
                     COMPUTER: _("The computer wins the match.")}[winner]
        totals = sheet.totals
        lines = Text.assemble((title + "\n", "bold yellow"))
        lines.append(_("Totals: you {you}, computer {computer}; result for you {result:+d} "
                       "(R7.5).").format(you=totals[0], computer=totals[1],
                                         result=totals[0] - totals[1]) + " ")
        lines.append(ngettext("{n} hand played.", "{n} hands played.", session.hand_number)
                     .format(n=session.hand_number))
        if session.assisted:
            lines.append("\n" + _("You used hints or undo: this match counts as assisted."),
                         style="dim")
        compact = self.compact()
        with Vertical():
            with VerticalScroll(id="final-body"):
                yield Static(Group(lines, Text(""), sheet_table(
                    sheet, session.names, title=_("Final sheet"), compact=compact)))
            with ButtonFlow(id="buttons"):
                yield Button(_("Rematch (r)"), variant="primary", id="rematch", compact=True)
                yield Button(_("New match (n)"), id="new", compact=True)
                yield Button(_("Review (v)"), id="review", compact=True)
                yield Button(_("Quit (q)"), id="quit", compact=True)

    def action_enter_default(self) -> None:
        self.dismiss("rematch")

    def action_close(self, choice: str) -> None:
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(str(event.button.id))
