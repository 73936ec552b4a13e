"""How the score keeper shows its sheet, its rules and what each hand did (Rich text only).

The keeper writes every name in full (a long one wraps, never cut), says which
games a hand entered and what it closed under the rules in force (R7.2–R7.5),
and describes the rules of the sheet, preset or custom (§9).
"""

from __future__ import annotations

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..i18n import N_, _, ngettext
from ..rules import OPTIONS, Rules
from ..sheet import ScoreSheet, SheetEntry
from .keeping import example_lines, max_knock_limit, vocabulary
from .kept_sheet import KeptSheet
from .look import measured
from .rulewords import preset_label

__all__ = ["entry_lines", "game_numbers", "games_words", "hands_view", "help_text",
           "option_value_words", "rules_line", "sheet_view"]

NAME_STYLES = ("bold #7fd1ff", "bold #ffb86c")

_CHOICE_WORDS = {
    "winner": N_("the winner"),
    "alternate": N_("in turn"),
    "loser": N_("the loser"),
    "traditional": N_("traditional"),
    "by_count": N_("by count"),
}


def option_value_words(name: str, value: object) -> str:
    """An option's value as the form and the help show it."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("not played")
    if isinstance(value, str):
        return _(_CHOICE_WORDS.get(value, value))
    return str(value)


def game_numbers(columns: tuple[int, ...]) -> str:
    """ "1", "1, 2" — columns counted from 1."""
    return ", ".join(str(i + 1) for i in columns)


def games_words(columns: tuple[int, ...]) -> str:
    """ "game 1", "games 1, 2" — standing alone (in a sentence, its own words and case)."""
    return ngettext("game {numbers}", "games {numbers}", len(columns)).format(
        numbers=game_numbers(columns))


def rules_line(rules: Rules) -> str:
    """The rules of a sheet on one line: the preset's name (or "custom") and what scores."""
    name = preset_label(rules.preset_name)
    games = ngettext("{count} game to {target}", "{count} games to {target}",
                     rules.columns).format(count=rules.columns, target=rules.game_target)
    parts = [_("{name} rules").format(name=name), games]
    limit = max_knock_limit(rules)
    if rules.oklahoma:
        parts.append(_("Oklahoma knock"))
    elif limit:
        parts.append(_("knock ≤{limit}").format(limit=limit))
    else:
        parts.append(_("gin only"))
    parts.append(_("gin {bonus}").format(bonus=rules.gin_bonus))
    if rules.big_gin_bonus is not None:
        parts.append(_("big gin {bonus}").format(bonus=rules.big_gin_bonus))
    if limit:
        parts.append(_("undercut {bonus}").format(bonus=rules.undercut_bonus))
    if rules.game_bonus or rules.shutout_game_bonus:
        parts.append(_("game +{bonus} (shutout +{shutout})").format(
            bonus=rules.game_bonus, shutout=rules.shutout_game_bonus))
    else:
        parts.append(_("no game bonus"))
    if rules.box_bonus:
        parts.append(_("box +{bonus}").format(bonus=rules.box_bonus))
    if rules.columns > 1 and rules.entry_rule == "by_count":
        parts.append(_("entries by count"))
    return " · ".join(parts)


def sheet_view(sheet: ScoreSheet, names: tuple[str, str], *, narrow: bool = False,
               room: int | None = None) -> RenderableType:
    """The sheet (§7): each player's points and boxes per game, bonuses once a game closes,
    the totals, who won each closed game, and the match result (R7.5). ``room``: the
    cells it has; a wide form that does not fit them gives way to the narrow one (long
    headings and five games: Rich cut the wide one's totals, a QA pass)."""
    table = _sheet_table(sheet, names, narrow)
    if not narrow and room is not None and measured(table).minimum > room:
        table = _sheet_table(sheet, names, True)
    lines: list[RenderableType] = [table]
    for i, column in enumerate(sheet.columns):
        if column.winner is not None:
            text = (_("Game {number} won by {name}, a shutout") if column.shutout
                    else _("Game {number} won by {name}"))
            lines.append(Text(text.format(number=i + 1, name=names[column.winner]),
                              style="yellow"))
    if sheet.finished:
        winner = sheet.winner
        if winner is None:
            caption = _("Match over: drawn, {first} to {second} (R7.5).").format(
                first=sheet.totals[0], second=sheet.totals[1])
        else:
            won = sheet.games_won
            caption = _("Match over: {name} wins, {won}–{lost} in games, result {result:+d} "
                        "(R7.5).").format(name=names[winner], won=won[winner],
                                          lost=won[1 - winner], result=sheet.result)
        lines.append(Text(caption, style="bold yellow"))
    return Group(*lines)


def _sheet_table(sheet: ScoreSheet, names: tuple[str, str], narrow: bool) -> Table:
    n = len(sheet.columns)
    # Narrow, one cell between columns (the box's rule, no padding), the labels kept at a
    # few letters ("Mary …", "boxes"): with five games at 80x24 Rich squeezed the labels'
    # column to nothing, and no row said whose points or which bonus it held (a QA pass)
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 0) if narrow else (0, 1),
                  collapse_padding=True, expand=False, show_edge=False, pad_edge=False)
    words = (*names, " " + _("boxes"), " " + _("bonus"))
    # at least enough of the names to tell them apart ("Johan…" was both Johannes and
    # Johanna), and five cells of a word
    same = next((i for i, (a, b) in enumerate(zip(*names, strict=False)) if a != b),
                min(len(names[0]), len(names[1])))
    table.add_column("", max_width=14 if narrow else 24,  # wrapable: the first to give way
                     min_width=min(max(6, same + 2), max(cell_len(w) for w in words)))
    for i, column in enumerate(sheet.columns):
        label = (_("G{number}") if narrow else _("Game {number}")).format(number=i + 1)
        label = label if n > 1 else _("Game")
        # a number is never cut: the labels' column gives way first
        shown = (label, *map(str, (*column.points, *column.total)), *(
            f"+{b}" for b in column.bonuses))
        table.add_column(label, justify="right", no_wrap=True,
                         min_width=max(cell_len(c) for c in shown))
    total = _("Tot") if narrow and n > 3 else _("Total")
    table.add_column(total, justify="right", no_wrap=True, style="bold",
                     min_width=max(cell_len(c) for c in (total, *map(str, sheet.totals))))
    closed_any = any(c.closed for c in sheet.columns)
    for p in (0, 1):
        cells: list[Text | str] = []
        for column in sheet.columns:
            style = "bold" if column.winner == p else ("dim" if column.closed else "")
            cells.append(Text(str(column.points[p]), style=style))
        table.add_row(_label(names[p], NAME_STYLES[p]), *cells, "")
        table.add_row(_label(" " + _("boxes"), "dim"),
                      *(Text(str(c.boxes[p]), style="dim") for c in sheet.columns), "",
                      end_section=not closed_any and p == 1)
        if closed_any:
            table.add_row(_label(" " + _("bonus"), "dim"),
                          *(Text(f"+{c.bonuses[p]}" if c.closed else "", style="green")
                            for c in sheet.columns), "", end_section=p == 1)
    for p in (0, 1):
        table.add_row(_label(names[p], NAME_STYLES[p]),
                      *(str(c.total[p]) for c in sheet.columns), str(sheet.totals[p]))
    return table


def _label(word: str, style: str) -> Text:
    """A row's label, on one line: cut with "…" where the column is narrowed, never wrapped
    into pieces ("Mary" / "Ann", "box" / "es")."""
    return Text(word, style=style, no_wrap=True, overflow="ellipsis")


def _ordinal_win(count: int) -> str:
    if count == 1:
        return _("first win")
    if count == 2:
        return _("second win")
    if count == 3:
        return _("third win")
    return _("win number {count}").format(count=count)


def entry_lines(entry: SheetEntry, sheet: ScoreSheet, names: tuple[str, str]) -> list[str]:
    """Which games the sheet's last hand entered (R7.2) and what it closed (R7.3, R7.4)."""
    who = names[entry.player]
    wins = sum(1 for e in sheet.entries if e.player == entry.player)
    if entry.columns:
        # a whole sentence per number: "entered in" takes its own case (Lithuanian's "į
        # žaidimą 2", not the standalone "žaidimas 2")
        lines = [ngettext("{name}'s {nth}: {points} entered in game {numbers} (R7.2).",
                          "{name}'s {nth}: {points} entered in games {numbers} (R7.2).",
                          len(entry.columns)).format(
            name=who, nth=_ordinal_win(wins), points=entry.points,
            numbers=game_numbers(entry.columns))]
    else:
        lines = [_("{name}'s {nth}: {points} enters no game, the games it would enter are "
                   "closed (R7.2, by count).").format(name=who, nth=_ordinal_win(wins),
                                                      points=entry.points)]
    rules = sheet.rules
    for i in entry.closed:
        column = sheet.columns[i]
        assert column.winner is not None
        winner, loser = column.winner, 1 - column.winner
        game = rules.shutout_game_bonus if column.shutout else rules.game_bonus
        text = (_("Game {number} closes at {points} to {other}: {name} wins it, a shutout: "
                  "+{game} and +{boxes} for boxes; {loser} +{loser_boxes} for boxes (R7.3, "
                  "R7.4).") if column.shutout else
                _("Game {number} closes at {points} to {other}: {name} wins it: +{game} and "
                  "+{boxes} for boxes; {loser} +{loser_boxes} for boxes (R7.3, R7.4)."))
        lines.append(text.format(
            number=i + 1, points=column.points[winner], other=column.points[loser],
            name=names[winner], game=game, boxes=column.boxes[winner] * rules.box_bonus,
            loser=names[loser], loser_boxes=column.boxes[loser] * rules.box_bonus))
    return lines


def hands_view(kept: KeptSheet) -> RenderableType:
    """The hands entered, the last first: who scored what, the games it went to and
    closed, and how it ended when entered as more than points."""
    if not kept.sheet.entries:
        return Text(_("none yet"), style="dim")
    hands = Table.grid(padding=(0, 1))
    hands.add_column(justify="right", no_wrap=True)
    hands.add_column()
    for n in reversed(range(len(kept.sheet.entries))):
        entry = kept.sheet.entries[n]
        games = games_words(entry.columns) if entry.columns else _("no game")
        line = Text.assemble((f"{kept.names[entry.player]} +{entry.points}", "bold"),
                             f" → {games}")
        if entry.closed:
            # a whole phrase per number (Lithuanian's "uždaro žaidimą 1": not the
            # standalone "žaidimas 1")
            closes = ngettext("closes game {numbers}", "closes games {numbers}",
                              len(entry.closed))
            line.append(" · " + closes.format(numbers=game_numbers(entry.closed)),
                        style="yellow")
        if kept.hands[n].kind != "points" or n in kept.old_hows:
            line.append("\n" + kept.how(n), style="dim")
        hands.add_row(Text(f"{n + 1}.", style="bold"), line)
    return hands


def help_text(names: tuple[str, str], rules: Rules) -> str:
    """The keeper's help (Markdown) for these players under these rules."""
    rows = "\n".join(f"- `{line}`: {meaning}" for line, meaning in example_lines(names, rules))
    limit = max_knock_limit(rules)
    parts = [
        "# " + _("Score keeper"),
        _("Type each hand as it happened, starting with **the name of the player who won "
          "it** (or its first letters, or 1 or 2), then press Enter:"),
        rows,
        # Translators: {asked} is the English word "undercut", which reads two ways; {word}
        # is the first of the entry line's undercut words (translated with them).
        _("Knocks and undercuts take two deadwood counts, **the knocker's first**, the "
          "other's after laying off. `{asked}` alone reads two ways, so the keeper asks "
          "who undercut; `{word}` does not ask. The form below the entry line does the "
          "same with the mouse.").format(asked="undercut", word=vocabulary().undercut[0]),
        "## " + _("Points (R5.5–R5.8)"),
    ]
    if limit:
        parts.append(_("A knock scores the difference of the counts; the knocker needs at "
                       "most {limit} deadwood and less than the other player, otherwise the "
                       "other undercuts and scores {bonus} plus the difference.").format(
            limit=(_("the upcard's value (Oklahoma)") if rules.oklahoma else limit),
            bonus=rules.undercut_bonus))
    else:
        parts.append(_("The knock limit is 0: only gin ends a hand."))
    gin = _("Gin scores {bonus} plus the other's whole deadwood.").format(
        bonus=rules.gin_bonus)
    if rules.big_gin_bonus is not None:
        gin += " " + _("Big gin scores {bonus} plus the other's deadwood.").format(
            bonus=rules.big_gin_bonus)
    parts.append(gin)
    parts.append(_("No ten cards hold more than 98 deadwood, so points or counts beyond "
                   "what a hand can score are refused."))
    parts.append("## " + _("The sheet (R7)"))
    if rules.columns == 1:
        parts.append(_("One game to {target}.").format(target=rules.game_target))
    elif rules.entry_rule == "by_count":
        parts.append(_("{count} games at once. By count: a player's first win goes in game "
                       "1, his second in games 1 and 2, and so on, open games only; once "
                       "game 1 has closed a first win enters nowhere.").format(
            count=rules.columns))
    else:
        parts.append(_("{count} games at once. A won hand enters every open game where its "
                       "winner already has an entry, and the first open game where he has "
                       "none: first win game 1, second win games 1 and 2, and so on.")
                     .format(count=rules.columns))
    parts.append(_("A game closes when a player reaches {target}: {game} game bonus to him "
                   "({shutout} for a shutout), and {box} per box (won hand in that game) "
                   "to each player.").format(target=rules.game_target, game=rules.game_bonus,
                                             shutout=rules.shutout_game_bonus,
                                             box=rules.box_bonus))
    options = "\n".join(f"- {_(o.label)} ({o.rule}): "
                        f"**{option_value_words(o.name, getattr(rules, o.name))}**"
                        for o in OPTIONS)
    parts.append("## " + _("Rules of this sheet: {name}").format(
        name=preset_label(rules.preset_name)))
    parts.append(options)
    parts.append(_("The whole rule book, with these rules filled in: {command} (with the "
                   "same `--rules` and `--rule` options).").format(
        command="`hollywood-gin rules`"))
    parts.append("## " + _("Keys"))
    # Translators: the keeper's keys, as the keyboard and the footer name them (Enter,
    # ctrl+z...): keep those names and the backquotes around them.
    parts.append(_("`Enter` add the hand · `ctrl+z` take back the last hand · `ctrl+y` put it "
                   "back · `ctrl+n` new sheet · `ctrl+o` unfinished sheets · `f1` help · "
                   "`ctrl+q` quit (the sheet is saved)"))
    return "\n\n".join(parts)

