"""How cards, melds, moves and the scoresheet look in the terminal (Rich text, no widgets).

Kept apart from the widgets so the game, the score keeper and the tests share
one way of writing a card: suits in colour, and an optional four-colour deck
(diamonds blue, clubs green) for players who tell suits apart by colour.
"""

from __future__ import annotations

import io
import re
import string
from collections.abc import Iterable, Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.constrain import Constrain
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import Card, Suit
from ..hand import HandResult
from ..i18n import _, is_you, ngettext
from ..rules import Rules
from ..sheet import Column, ScoreSheet, SheetEntry
from .rulewords import sheet_caption

__all__ = [
    "GLUE",
    "LABEL_MOST",
    "Flow",
    "action_words",
    "card_ink",
    "cards_ink",
    "entry_words",
    "face_colour",
    "glued",
    "meld_ink",
    "natural_width",
    "result_headline",
    "sheet_table",
    "styled",
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


def styled(template: str, **values: object) -> Text:
    """A translated sentence with coloured parts in it: ``template`` (already through the
    catalogue) formatted with ``values``, a :class:`Text` value keeping its style, so the
    sentence stays whole for the translator ("take the upcard {card} or pass") while the card
    keeps its colour."""
    out = Text()
    for literal, field, spec, conversion in string.Formatter().parse(template):
        out.append(literal)
        if field is None:
            continue
        value = values[field]
        if isinstance(value, Text):
            out.append_text(value)
        else:
            if conversion == "r":
                value = repr(value)
            elif conversion == "s":
                value = str(value)
            out.append(format(value, spec or ""))
    return out


GLUE = "\u00a0"  # a no-break space: a Flow never breaks a line there


def glued(text: Text) -> Text:
    """The text with its spaces made no-break (:data:`GLUE`): a :class:`Flow` keeps it on
    one line (a meld in its brackets, a count with its "=")."""
    out = text.copy()
    out.plain = out.plain.replace(" ", GLUE)  # as long as before: the colours stay
    return out


def _line_starts(text: str, width: int) -> list[int]:
    """Where each line after the first starts when ``text`` is filled into lines of
    ``width`` cells: greedily at spaces, a word wider than a line folded cell by cell."""
    starts: list[int] = []
    column = 0
    for match in re.finditer(r"\s*\S+\s*", text):  # a word with the spaces around it
        word = match.group(0).rstrip()
        size = cell_len(word)
        if column and column + size > width:
            starts.append(match.start())
            column = 0
        if size > width:  # folded: as many of its cells as fit on each line
            for i, char in enumerate(word):
                cells = cell_len(char)
                if column and column + cells > width:
                    starts.append(match.start() + i)
                    column = 0
                column += cells
        else:
            column += size
        column += len(match.group(0)) - len(word)
    return starts


class Flow:
    """A text that wraps only at its ordinary spaces, never at a no-break one (:data:`GLUE`),
    which it draws as a space.  Rich and Textual both break a line at any space, the
    no-break one too: a meld wrapped as "[K♥" / "K♦ K♣]", a count as "… Q♣ =" / "38".
    A piece wider than the whole line is folded, as a long word is."""

    __slots__ = ("text",)

    def __init__(self, text: Text) -> None:
        self.text = text

    @property
    def plain(self) -> str:
        return self.text.plain.replace(GLUE, " ")

    def __str__(self) -> str:
        return self.plain

    def __repr__(self) -> str:
        return f"Flow({self.plain!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Flow) and self.text == other.text

    __hash__ = None  # type: ignore[assignment]  # mutable, as Text is

    def lines(self, width: int) -> list[Text]:
        """The text in lines of at most ``width`` cells, broken only at ordinary spaces."""
        width = max(1, width)
        out: list[Text] = []
        for line in self.text.split("\n", allow_blank=True):
            # every character but an ordinary space is part of a word: the no-break space
            # is measured as a letter (both one cell wide), then drawn as a space
            words = "".join("x" if c == GLUE else c for c in line.plain)
            for part in line.divide(_line_starts(words, width)):
                part.plain = part.plain.replace(GLUE, " ")
                part.rstrip()
                part.end = "\n"
                part.no_wrap = True
                out.append(part)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.lines(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        plain = self.text.plain
        pieces = [p for line in plain.split("\n") for p in line.split(" ")]
        widest = max((cell_len(p) for p in pieces), default=0)
        whole = max((cell_len(line) for line in plain.split("\n")), default=0)
        return Measurement(widest, whole).with_maximum(options.max_width)


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


def action_words(name: str, action: Action, taken: Card | None = None, *,
                 over: bool = False) -> str:
    """A move said in words for the log; ``taken`` is the pile card a take picked up
    (public, R4.4).  The person's own moves read "You …", the other's "Computer …".
    ``over``: the hand is over, so a knock's face-down discard has been shown (the review)."""
    you = is_you(name)
    if isinstance(action, Pass):
        text = _("You pass the upcard.") if you else _("{name} passes the upcard.")
    elif isinstance(action, TakeUpcard):
        if taken is not None:
            text = (_("You take the upcard {card}.") if you
                    else _("{name} takes the upcard {card}."))
        else:
            text = _("You take the upcard.") if you else _("{name} takes the upcard.")
    elif isinstance(action, DrawStock):
        text = _("You draw from the stock.") if you else _("{name} draws from the stock.")
    elif isinstance(action, TakeDiscard):
        if taken is not None:
            text = (_("You take {card} from the pile.") if you
                    else _("{name} takes {card} from the pile."))
        else:
            text = _("You take the discard.") if you else _("{name} takes the discard.")
    elif isinstance(action, Discard):
        text = _("You discard {card}.") if you else _("{name} discards {card}.")
        taken = action.card
    elif isinstance(action, Knock):
        if action.card is None:
            text = _("You go big gin!") if you else _("{name} goes big gin!")
        elif over:
            taken = action.card
            # the replay's words for a shown knock, ended as the log's lines are
            text = (_("You knock, discarding {card}") if you
                    else _("{name} knocks, discarding {card}")) + "."
        else:
            text = (_("You knock, discarding face down.") if you
                    else _("{name} knocks, discarding face down."))
    else:  # pragma: no cover - every action is named above
        return f"{name}: {action}"
    return text.format(name=name, card=taken.pretty if taken is not None else "")


def result_headline(result: HandResult, names: tuple[str, str]) -> str:
    """One line: who won the hand, how, and for how many points (R5.5–R5.7, R6.1)."""
    if result.winner is None:
        return _("Dead hand: no score (R6.1).")
    who = names[result.winner]
    you = is_you(who)
    points = ngettext("{n} point", "{n} points", result.points).format(n=result.points)
    text = {
        "knock": (_("You knock and win {points}.") if you
                  else _("{name} knocks and wins {points}.")),
        "undercut": (_("You undercut and win {points}.") if you
                     else _("{name} undercuts and wins {points}.")),
        "gin": (_("You go gin and win {points}.") if you
                else _("{name} goes gin and wins {points}.")),
        "big_gin": (_("You go big gin and win {points}.") if you
                    else _("{name} goes big gin and wins {points}.")),
    }[result.kind]
    return text.format(name=who, points=points)


def _ordinal(n: int) -> str:
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(n, _("{n}th").format(n=n))


def entry_words(entry: SheetEntry, sheet: ScoreSheet, names: tuple[str, str]) -> list[str]:
    """How the sheet's last won hand entered it (R7.2) and what it closed (R7.3, R7.4)."""
    who = names[entry.player]
    you = is_you(who)
    wins = sum(1 for e in sheet.entries if e.player == entry.player)
    games = ", ".join(str(i + 1) for i in entry.columns)
    rules = sheet.rules
    if not entry.columns:
        text = (_("Your {nth} won hand: {points} enter no game, the games it would reach "
                  "have closed (R7.2).") if you else
                _("{name}'s {nth} won hand: {points} enter no game, the games it would reach "
                  "have closed (R7.2)."))
    elif len(sheet.columns) == 1:
        text = (_("Your {nth} won hand: {points} entered (R7.2).") if you
                else _("{name}'s {nth} won hand: {points} entered (R7.2)."))
    elif len(entry.columns) == 1:
        text = (_("Your {nth} won hand: {points} entered in game {games} (R7.2).") if you
                else _("{name}'s {nth} won hand: {points} entered in game {games} (R7.2)."))
    else:
        text = (_("Your {nth} won hand: {points} entered in games {games} (R7.2).") if you
                else _("{name}'s {nth} won hand: {points} entered in games {games} (R7.2)."))
    lines = [text.format(name=who, nth=_ordinal(wins), points=entry.points, games=games)]
    for i in entry.closed:
        column = sheet.columns[i]
        assert column.winner is not None
        winner = names[column.winner]
        game = rules.shutout_game_bonus if column.shutout else rules.game_bonus
        boxes = column.boxes[column.winner] * rules.box_bonus
        bonuses = []
        if game or rules.game_bonus or rules.shutout_game_bonus:
            bonuses.append((_("a shutout, +{bonus} game bonus") if column.shutout
                            else _("+{bonus} game bonus")).format(bonus=game))
        if rules.box_bonus:
            bonuses.append(_("+{bonus} for boxes").format(bonus=boxes))
        what = _(" and ").join(bonuses) if bonuses else _("no bonuses")
        if len(sheet.columns) == 1:
            text = (_("The game closes at {points}: you win it, {bonuses} (R7.3, R7.4).") if
                    is_you(winner) else
                    _("The game closes at {points}: {name} wins it, {bonuses} (R7.3, R7.4)."))
        else:
            text = (_("Game {n} closes at {points}: you win it, {bonuses} (R7.3, R7.4).") if
                    is_you(winner) else
                    _("Game {n} closes at {points}: {name} wins it, {bonuses} (R7.3, R7.4)."))
        lines.append(text.format(n=i + 1, points=column.points[column.winner], name=winner,
                                 bonuses=what))
        loser = names[1 - column.winner]
        loser_boxes = column.boxes[1 - column.winner] * rules.box_bonus
        if loser_boxes:  # R7.4: the loser's boxes count too, or his total jumps unexplained
            lines.append((_("You get +{bonus} for your boxes (R7.4).") if is_you(loser) else
                          _("{name} gets +{bonus} for boxes (R7.4).")).format(
                name=loser, bonus=loser_boxes))
    return lines


def _status(column: Column, short: tuple[str, str], size: int) -> Text:
    if column.winner is None:  # still open: a dash where a word would be cut
        word = _("open")
        return Text(word if cell_len(word) <= size else "–", style="dim")
    mark = "*" if column.shutout else ""
    # cut by the cells it takes, never inside a letter with its marks (Lao's "ເຈົ້າ" is
    # three cells in five code points: [:3] left "ເຈົ")
    name = Text(short[column.winner], style="bold yellow")
    name.truncate(size)
    name.append(mark)
    return name


def _word(word: str) -> Text:
    """A row's word in the names' column: when the column is narrowed, words of two or more
    wrap ("wanda ya" / "ci") rather than lose their end; one word too long ends in "…"."""
    return Text(word, style="dim", no_wrap=False, overflow="ellipsis")


LABEL_MOST = 12  # the sheet's names' column at its widest ("Datamaskinen")


def sheet_table(sheet: ScoreSheet, names: tuple[str, str], *, title: str | None = None,
                compact: bool = False, label: int | None = None) -> Group:
    """The sheet (§7): points and boxes per column, who closed it, bonuses, totals; the
    caption names only the bonuses the rules in force play (R7.4).

    ``compact`` fits three games in about 30 columns, for small terminals (the winner of a
    game in three letters); the names' column is as wide as its longest word ("boxes",
    "won by", a name), up to :data:`LABEL_MOST` cells; ``label`` narrows it further (when a
    long language's headings take the room), a word too long then ending in "…"."""
    rules: Rules = sheet.rules
    n = len(sheet.columns)
    # Compact, one cell between columns (the box's rule, no padding); with four or five
    # games the totals go under the table: at 80x24 five games and their totals scrolled
    # out of the side panel, and the match's totals were out of sight (a QA pass)
    totals_below = compact and n > 3
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 0) if compact else (0, 1),
                  collapse_padding=True, title=title, expand=False, title_style="bold",
                  title_justify="left", show_edge=False, pad_edge=False)
    # Rich cuts a cell to the column's width: the column follows its words (Afrikaans'
    # " blokkies", Hausa's "wanda ya ci", Norwegian's "Datamaskinen" were cut at 8 or 9)
    table.add_column("", no_wrap=True, max_width=min(label or LABEL_MOST, LABEL_MOST))
    for i in range(n):
        table.add_column(_("G{n}").format(n=i + 1) if n > 1 else _("Game"), justify="right",
                         no_wrap=True)
    if not totals_below:
        table.add_column(_("Tot") if compact else _("Total"), justify="right", no_wrap=True,
                         style="bold")
    end = () if totals_below else ("",)  # the Total column's cell of a row
    first = (names[0].split(" (")[0], names[1].split(" (")[0])  # "Computer (level 3)"
    styles = ("bold #7fd1ff", "bold #ffb86c")
    closed_any = any(c.closed for c in sheet.columns)
    boxes = bool(rules.box_bonus)  # no box rows when boxes score nothing (R7.4)
    for p in (0, 1):
        cells: list[Text | str] = []
        for column in sheet.columns:
            style = "bold" if column.winner == p else ("dim" if column.closed else "")
            cells.append(Text(str(column.points[p]), style=style))
        table.add_row(Text(first[p], style=styles[p]), *cells, *end,
                      end_section=not boxes and not closed_any and p == 1)
        if boxes:
            table.add_row(_word(" " + _("boxes")),
                          *(Text(str(c.boxes[p]), style="dim") for c in sheet.columns), *end,
                          end_section=not closed_any and p == 1)
        if closed_any and (rules.box_bonus or rules.game_bonus or rules.shutout_game_bonus):
            table.add_row(
                _word(" " + _("bonus")),
                *(Text(f"+{c.bonuses[p]}" if c.closed else "", style="green")
                  for c in sheet.columns),
                *end,
            )
    if closed_any:
        table.add_row(_word(_("won by")),
                      *(_status(c, first, 3 if compact else LABEL_MOST) for c in sheet.columns),
                      *end, end_section=True)
    for p in (0, 1):
        table.add_row(
            Text(first[p], style=styles[p]),
            *(str(c.total[p]) for c in sheet.columns),
            *((str(sheet.totals[p]),) if not totals_below else ()),
        )
    if sheet.finished:
        winner = sheet.winner
        if winner is None:
            caption = _("Match drawn.")
        else:
            caption = (_("You win the match {won}–{lost}, result {result:+d} (R7.5).")
                       if is_you(first[winner]) else
                       _("{name} wins the match {won}–{lost}, result {result:+d} (R7.5)."))
            caption = caption.format(name=first[winner], won=sheet.games_won[winner],
                                     lost=sheet.games_won[1 - winner], result=sheet.result)
        # As wide as the table, wrapped under it: its one long line made the sheet's column
        # as wide as itself, and squeezed the hand's end beside it to 26 columns at 80x24
        lines: list[RenderableType] = [
            Constrain(Text(caption, style="bold yellow"), _table_width(table))]
    else:
        lines = [Text(sheet_caption(rules), style="dim")]
    if totals_below:
        line = Text(_("Total:") + " ", style="bold")
        for p in (0, 1):
            line.append(first[p], style=styles[p])
            line.append(f" {sheet.totals[p]}" + (" · " if p == 0 else ""), style="bold")
        lines.insert(0, line)
    if any(c.shutout for c in sheet.columns):
        lines.append(Text(_("* shutout"), style="dim"))
    return Group(table, *lines)


def measured(renderable: RenderableType) -> Measurement:
    """The cells a renderable takes at least and at most, measured off screen (as wide as
    it likes: nothing here is squeezed by a terminal)."""
    console = Console(width=1000, file=io.StringIO())
    return Measurement.get(console, console.options, renderable)


def _table_width(table: Table) -> int:
    return measured(table).maximum


def natural_width(renderable: RenderableType, room: int) -> int:
    """The width a renderable needs in ``room`` columns with nothing in it squeezed: tables
    whole, even wider than the room (a wide sheet then scrolls sideways instead of cutting
    its numbers), lines of text whole if they fit the room, else wrapped."""
    parts = renderable.renderables if isinstance(renderable, Group) else [renderable]
    width = 1
    for part in parts:
        least, most = measured(part)
        # a line of text wraps to the room; anything else keeps its whole width
        width = max(width, least, min(most, room)) if isinstance(part, Text) else max(
            width, most)
    return width
