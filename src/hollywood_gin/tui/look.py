"""How cards, melds, moves and the scoresheet look in the terminal (Rich text, no widgets).

Kept apart from the widgets so the game, the score keeper and the tests share
one way of writing a card: suits in colour, and an optional four-colour deck
(diamonds blue, clubs green) for players who tell suits apart by colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import Card, Suit
from ..hand import HandResult
from ..rules import Rules
from ..sheet import Column, ScoreSheet, SheetEntry

__all__ = [
    "action_words",
    "card_ink",
    "cards_ink",
    "entry_words",
    "face_colour",
    "meld_ink",
    "result_headline",
    "sheet_table",
]

# On a card face (light background) and as ink on the dark terminal background.
_FACE_TWO = {Suit.SPADES: "#1a1a1a", Suit.HEARTS: "#c8102e", Suit.DIAMONDS: "#c8102e",
             Suit.CLUBS: "#1a1a1a"}
_FACE_FOUR = {Suit.SPADES: "#1a1a1a", Suit.HEARTS: "#c8102e", Suit.DIAMONDS: "#1f5fbf",
              Suit.CLUBS: "#12803a"}
_INK_TWO = {Suit.SPADES: "#eeeeee", Suit.HEARTS: "#ff6b6b", Suit.DIAMONDS: "#ff6b6b",
            Suit.CLUBS: "#eeeeee"}
_INK_FOUR = {Suit.SPADES: "#eeeeee", Suit.HEARTS: "#ff6b6b", Suit.DIAMONDS: "#6cb4ff",
             Suit.CLUBS: "#6ee07a"}


def face_colour(card: Card, four_colour: bool = False) -> str:
    """The colour of a card's rank and suit on its (light) face."""
    return (_FACE_FOUR if four_colour else _FACE_TWO)[card.suit]


def card_ink(card: Card, four_colour: bool = False) -> Text:
    """A card written inline on the dark background, in its suit's colour."""
    colour = (_INK_FOUR if four_colour else _INK_TWO)[card.suit]
    return Text(card.pretty, style=f"bold {colour}")


def cards_ink(cards: Iterable[Card], four_colour: bool = False, empty: str = "–") -> Text:
    """Cards separated by spaces; ``empty`` when there are none."""
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_ink(card, four_colour))
    return out if out.plain else Text(empty, style="dim")


def meld_ink(meld: Sequence[Card], four_colour: bool = False) -> Text:
    """A meld in brackets, so melds read as groups (R2.1, R2.2)."""
    out = Text()
    out.append("[", style="dim")
    out.append_text(cards_ink(meld, four_colour))
    out.append("]", style="dim")
    return out


def _says(name: str, verb: str) -> str:
    """``name`` and the verb agreeing with it: "You pass", "Computer passes"."""
    if name == "You":
        return f"You {verb}"
    ending = "es" if verb.endswith(("s", "sh", "ch", "x")) or verb == "go" else "s"
    return f"{name} {verb}{ending}"


def _owner(name: str) -> str:
    return "Your" if name == "You" else f"{name}'s"


def action_words(name: str, action: Action, taken: Card | None = None) -> str:
    """A move said in words for the log; ``taken`` is the pile card a take picked up."""
    if isinstance(action, Pass):
        return f"{_says(name, 'pass')} the upcard."
    if isinstance(action, TakeUpcard):
        card = f" {taken.pretty}" if taken else ""
        return f"{_says(name, 'take')} the upcard{card}."
    if isinstance(action, DrawStock):
        return f"{_says(name, 'draw')} from the stock."
    if isinstance(action, TakeDiscard):
        return f"{_says(name, 'take')} {taken.pretty if taken else 'the discard'} from the pile."
    if isinstance(action, Discard):
        return f"{_says(name, 'discard')} {action.card.pretty}."
    if isinstance(action, Knock):
        if action.card is None:
            return f"{_says(name, 'go')} big gin!"
        return f"{_says(name, 'knock')}, discarding face down."
    return f"{name}: {action}"  # pragma: no cover - every action is named above


def result_headline(result: HandResult, names: tuple[str, str]) -> str:
    """One line: who won the hand, how, and for how many points (R5.5–R5.7, R6.1)."""
    if result.winner is None:
        return "Dead hand: only two cards left in the stock, no score (R6.1)."
    who = names[result.winner]
    how = {"knock": "knock", "undercut": "undercut", "gin": "go", "big_gin": "go"}[result.kind]
    extra = {"gin": " gin", "big_gin": " big gin"}.get(result.kind, "")
    points = f"{result.points} point{'s' if result.points != 1 else ''}"
    return f"{_says(who, how)}{extra} and {'win' if who == 'You' else 'wins'} {points}."


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def entry_words(entry: SheetEntry, sheet: ScoreSheet, names: tuple[str, str]) -> list[str]:
    """How the sheet's last won hand entered it (R7.2) and what it closed (R7.3, R7.4)."""
    who = names[entry.player]
    wins = sum(1 for e in sheet.entries if e.player == entry.player)
    games = ", ".join(str(i + 1) for i in entry.columns)
    plural = "s" if len(entry.columns) > 1 else ""
    lines = [f"{_owner(who)} {_ordinal(wins)} won hand: {entry.points} entered in "
             f"game{plural} {games} (R7.2)."]
    for i in entry.closed:
        column = sheet.columns[i]
        assert column.winner is not None
        rules = sheet.rules
        game = rules.shutout_game_bonus if column.shutout else rules.game_bonus
        boxes = column.boxes[column.winner] * rules.box_bonus
        kind = "a shutout, " if column.shutout else ""
        lines.append(
            f"Game {i + 1} closes at {column.points[column.winner]}: "
            f"{_says(names[column.winner], 'win')} it, {kind}+{game} game bonus and +{boxes} "
            "for boxes (R7.3, R7.4)."
        )
    return lines


def _status(column: Column, short: tuple[str, str], size: int) -> Text:
    if column.winner is None:
        return Text("open"[:size], style="dim")
    mark = "*" if column.shutout else ""
    return Text(short[column.winner][:size] + mark, style="bold yellow")


def sheet_table(sheet: ScoreSheet, names: tuple[str, str], *, title: str | None = None,
                compact: bool = False) -> Group:
    """The Hollywood sheet (§7): points and boxes per column, who closed it, bonuses, totals.

    ``compact`` fits it in 29 columns, for small terminals."""
    rules: Rules = sheet.rules
    n = len(sheet.columns)
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True, title=title,
                  expand=False, title_style="bold", title_justify="left", show_edge=False,
                  pad_edge=False)
    table.add_column("", no_wrap=True, max_width=9)
    for i in range(n):
        table.add_column(f"G{i + 1}" if n > 1 else "Game", justify="right", no_wrap=True)
    table.add_column("Tot" if compact else "Total", justify="right", no_wrap=True,
                     style="bold")
    short = (names[0].split(" (")[0][:9], names[1].split(" (")[0][:9])
    styles = ("bold #7fd1ff", "bold #ffb86c")
    closed_any = any(c.closed for c in sheet.columns)
    for p in (0, 1):
        cells: list[Text | str] = []
        for column in sheet.columns:
            style = "bold" if column.winner == p else ("dim" if column.closed else "")
            cells.append(Text(str(column.points[p]), style=style))
        table.add_row(Text(short[p], style=styles[p]), *cells, "")
        table.add_row(Text(" boxes", style="dim"),
                      *(Text(str(c.boxes[p]), style="dim") for c in sheet.columns), "",
                      end_section=not closed_any and p == 1)
        if closed_any:
            table.add_row(
                Text(" bonus", style="dim"),
                *(Text(f"+{c.bonuses[p]}" if c.closed else "", style="green")
                  for c in sheet.columns),
                "",
            )
    if closed_any:
        table.add_row(Text("won by", style="dim"),
                      *(_status(c, short, 3 if compact else 4) for c in sheet.columns),
                      "", end_section=True)
    for p in (0, 1):
        table.add_row(
            Text(short[p], style=styles[p]),
            *(str(c.total[p]) for c in sheet.columns),
            str(sheet.totals[p]),
        )
    if sheet.finished:
        winner = sheet.winner
        caption = "Match drawn." if winner is None else (
            f"{short[winner]} win{'' if short[winner] == 'You' else 's'} the match "
            f"{sheet.games_won[winner]}–{sheet.games_won[1 - winner]}, "
            f"result {sheet.result:+d} (R7.5)")
        return Group(table, Text(caption, style="bold yellow"))
    bonus = f"game +{rules.game_bonus}" if rules.game_bonus else "no game bonus"
    shut = " · * shutout" if any(c.shutout for c in sheet.columns) else ""
    return Group(table, Text(f"to {rules.game_target} · {bonus} · box +{rules.box_bonus}{shut}",
                             style="dim"))
