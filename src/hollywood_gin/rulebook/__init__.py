"""The project's rule book, rendered for any :class:`Rules` with that value's numbers filled in.

The text of each language is one Markdown template in this package (``en.md``; a
translator adds ``af.md`` and so on beside it).  A template is Markdown with three
additions, so that a translation stays plain text:

- ``{name}`` is replaced by a value of the rules in force or by generated text (the
  worked examples are computed by the engine under those rules, so they are never wrong);
- a line ``<!-- if FLAG -->`` (or ``<!-- if not FLAG -->``) starts a block kept only when
  the flag holds, ``<!-- else -->`` and ``<!-- end -->`` close it; blocks nest;
- a final ``<!-- phrases ... -->`` comment holds ``key: text`` lines, the small phrases the
  generated parts are built from (a value in double quotes keeps its edge spaces).

The rule numbers (R1.1 … R9.3) are the same in every language: code and tests cite them.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import fields
from functools import cache
from importlib import resources

from ..cards import Card, parse_cards
from ..i18n import PSEUDO, _, ngettext, pseudo
from ..rules import OPTIONS, PRESETS, Option, Rules, preset_label
from ..scoring import HandScore, most_points, score_hand
from ..sheet import ScoreSheet

__all__ = ["LANGUAGES", "markdown_to_text", "rule_book", "rules_in_force"]

_DEFAULT_RULES = Rules()
_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
_DIRECTIVE = re.compile(r"^\s*<!--\s*(if not|if|else|end)\s*([a-z0-9_]*)\s*-->\s*$")


def _languages() -> tuple[str, ...]:
    return tuple(sorted(p.name[:-3] for p in resources.files(__package__).iterdir()
                        if p.name.endswith(".md")))


#: The languages with a rule book of their own; any other falls back to English.
LANGUAGES: tuple[str, ...] = _languages()


_MARKER = re.compile(r"^(\s*(?:[-*+]|\d+\.|#{1,6}|>)\s+|\s*)(.*)$")


def _pseudo_line(line: str) -> str:
    """One line of the English template in the pseudo-locale, its Markdown kept: a list
    marker or heading before the text, a table's pipes, directives (<!-- if -->)."""
    if _DIRECTIVE.match(line) or not line.strip() or line.lstrip().startswith("<!--"):
        return line
    if line.lstrip().startswith("|"):
        cells = line.split("|")
        if all(set(c.strip()) <= set("-: ") for c in cells):
            return line  # the row under a table's heading
        return "|".join(pseudo(c.strip()) if c.strip() else c for c in cells)
    m = _MARKER.match(line)
    assert m is not None
    return m.group(1) + pseudo(m.group(2)) if m.group(2) else line


def _pseudo_template() -> str:
    """The English book in the pseudo-locale (tests scan the rules screens with it): every
    line of text and every phrase accented, placeholders and Markdown kept."""
    text = resources.files(__package__).joinpath("en.md").read_text(encoding="utf-8")
    head, sep, tail = text.partition("<!-- phrases")
    body, end, rest = tail.partition("-->")
    phrases = []
    for line in body.splitlines():
        key, colon, value = line.partition(":")
        if colon:
            value = value.strip()
            quoted = len(value) >= 2 and value[0] == value[-1] == '"'
            value = pseudo(value[1:-1] if quoted else value)
            line = f'{key}: "{value}"'
        phrases.append(line)
    return ("\n".join(_pseudo_line(line) for line in head.splitlines()) + "\n" + sep
            + "\n".join(phrases) + end + rest)


@cache
def _template(lang: str) -> tuple[str, dict[str, str]]:
    """The book template and its phrases for ``lang`` (English when there is no such book)."""
    if lang == PSEUDO:
        text = _pseudo_template()
    else:
        if lang not in LANGUAGES:
            lang = "en"
        text = resources.files(__package__).joinpath(f"{lang}.md").read_text(encoding="utf-8")
    head, sep, tail = text.partition("<!-- phrases")
    if not sep:
        raise ValueError(f"rule book {lang}.md has no phrases block")
    phrases: dict[str, str] = {}
    for line in tail.partition("-->")[0].splitlines():
        key, colon, value = line.partition(":")
        if not colon:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        phrases[key.strip()] = value
    return head.rstrip() + "\n", phrases


def _keep_blocks(text: str, flags: dict[str, bool]) -> str:
    """Apply the ``<!-- if -->`` blocks of a template."""
    out: list[str] = []
    stack: list[tuple[bool, bool]] = []  # (this block's condition, the enclosing block shown)
    shown = True
    for line in text.splitlines():
        m = _DIRECTIVE.match(line)
        if m is None:
            if shown:
                out.append(line)
            continue
        word, flag = m.groups()
        if word in ("if", "if not"):
            if flag not in flags:
                raise KeyError(f"rule book: unknown flag {flag!r}")
            cond = flags[flag] if word == "if" else not flags[flag]
            stack.append((cond, shown))
            shown = shown and cond
        elif word == "else":
            cond, outer = stack[-1]
            stack[-1] = (not cond, outer)
            shown = outer and not cond
        else:
            shown = stack.pop()[1]
    if stack:
        raise ValueError("rule book: an <!-- if --> block is not closed")
    return "\n".join(out) + "\n"


def _fill(text: str, values: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


class _Words:
    """The phrases of one book, filled in by name."""

    def __init__(self, phrases: dict[str, str]) -> None:
        self.phrases = phrases

    def __call__(self, key: str, **values: object) -> str:
        return _fill(self.phrases[key], {k: str(v) for k, v in values.items()})

    def join(self, items: Sequence[str], last: str = "list_last") -> str:
        """``a, b and c`` (or ``a, b or c`` with ``last="list_or"``)."""
        if len(items) <= 1:
            return "".join(items)
        return self.phrases["list_sep"].join(items[:-1]) + self.phrases[last] + items[-1]

    def value(self, value: object) -> str:
        if isinstance(value, bool):
            return self("on" if value else "off")
        if value is None:
            return self("none")
        return str(value)

    def allowed(self, option: Option) -> str:
        if option.kind == "bool":
            return self.join([self("on"), self("off")], "list_or")
        if option.kind == "choice":
            return self.join(list(option.choices), "list_or")
        if option.high is not None:
            values = self("range", low=option.low, high=option.high)
        else:
            values = self("at_least", low=option.low)
        return self("none_or", values=values) if option.kind == "optional_int" else values


# -- worked examples, computed by the engine under the rules in force ----------------------

def _cards(text: str) -> str:
    return " ".join(c.pretty for c in parse_cards(text))


def _melds(score: HandScore, side: str) -> str:
    melds = score.knocker_melds if side == "knocker" else score.defender_melds
    return ", ".join("".join(c.pretty for c in m) for m in melds)


def _unmatched(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards)


#: R5.9: (knocker, defender) of each worked example; the knock limit never matters here.
_KNOCK = ("5s 6s 7s 9h 9d 9c Jc Qc Kc 3d", "8s 9s 4d 4h 4c Tc 2h 2d Ad 5h")
_UNDERCUT = ("As 2s 3s 4h 5h 6h 8d 8c 8h 5c", "7h 8s Kd Kh Ks 2c 3c 4c 4d Ad")
_GIN = ("As 2s 3s 4s 4h 5h 6h 8d 8c 8h", "5s 9s Kd Kh Ks 2c 3c 4c 7d Qd")
_BIG_GIN = "As 2s 3s 4s 4h 5h 6h 8d 8c 8h 8s"


def _hand_examples(rules: Rules) -> dict[str, str]:
    values: dict[str, str] = {}
    for key, (knocker, defender) in (("knock", _KNOCK), ("undercut", _UNDERCUT)):
        s = score_hand(parse_cards(knocker), parse_cards(defender), rules=rules, knock_limit=10)
        values |= {
            f"{key}_melds": _melds(s, "knocker"),
            f"{key}_deadwood_cards": _unmatched(s.knocker_unmatched),
            f"{key}_deadwood": str(s.knocker_deadwood),
            f"{key}_defender": _cards(defender),
            f"{key}_defender_melds": _melds(s, "defender"),
            f"{key}_layoffs": " ".join(c.pretty for c in s.layoff_cards),
            f"{key}_defender_deadwood_cards": _unmatched(s.defender_unmatched),
            f"{key}_defender_deadwood": str(s.defender_deadwood),
            f"{key}_points": str(s.points),
        }
    s = score_hand(parse_cards(_GIN[0]), parse_cards(_GIN[1]), rules=rules)
    values |= {
        "gin_melds": _melds(s, "knocker"), "gin_defender": _cards(_GIN[1]),
        "gin_defender_melds": _melds(s, "defender"),
        "gin_defender_deadwood": str(s.defender_deadwood), "gin_points": str(s.points),
    }
    if rules.big_gin_bonus is not None:
        s = score_hand(parse_cards(_BIG_GIN), parse_cards(_GIN[1]), rules=rules)
        values |= {"big_gin_melds": _melds(s, "knocker"), "big_gin_points": str(s.points)}
    else:
        values |= {"big_gin_melds": "", "big_gin_points": ""}
    return values


def _scaled(wins: Sequence[tuple[int, int]], rules: Rules) -> list[tuple[int, int]]:
    """The examples are written for games to 100; other targets scale the points alike, up
    to what a hand can score (a game to 1000 gave "A wins 600")."""
    if rules.game_target == 100:
        return list(wins)
    most = most_points(rules)
    return [(p, min(most, max(1, (pts * rules.game_target + 50) // 100))) for p, pts in wins]


def _played(rules: Rules, wins: Sequence[tuple[int, int]], *, open_only: bool = False
            ) -> list[tuple[int, int]]:
    """The wins a sheet takes: up to the match's end, or with ``open_only`` those before
    the first that closes a game (R7.6's example is of a sheet with every game open)."""
    sheet = ScoreSheet(rules)
    out: list[tuple[int, int]] = []
    for player, points in wins:
        if sheet.finished or (sheet.record(player, points).closed and open_only):
            break
        out.append((player, points))
    return out


def _story(rules: Rules, wins: Sequence[tuple[int, int]], names: tuple[str, str],
           w: _Words) -> tuple[str, str, ScoreSheet]:
    """The wins as played (a finished match stops them) and what each did on the sheet."""
    sheet = ScoreSheet(rules)
    played: list[str] = []
    story: list[str] = []
    single = rules.columns == 1
    counts = [0, 0]
    for player, points in _played(rules, wins):
        who = names[player]
        counts[player] += 1
        fresh = [i for i, c in enumerate(sheet.columns) if not c.closed and not c.boxes[player]]
        entry = sheet.record(player, points)
        played.append(w("wins", player=who, points=points))
        if not single:
            games = [str(i + 1) for i in entry.columns]
            if not games:
                why = w("why_by_count") if counts[player] == 1 else w("why_closed")
                story.append(w("story_enters_none", player=who, points=points, why=why))
            else:
                where = (w("game_one", n=games[0]) if len(games) == 1
                         else w("game_many", list=w.join(games)))
                # R7.2 traditional: say why when a closed column moved his first entry on.
                if (rules.entry_rule == "traditional" and fresh and fresh[0] in entry.columns
                        and fresh[0] != counts[player] - 1):
                    story.append(w("story_first_entry", player=who, points=points,
                                   games=where, game=fresh[0] + 1))
                else:
                    story.append(w("story_enters", player=who, points=points, games=where))
        for i in entry.closed:
            col = sheet.columns[i]
            key = "story_shutout" if col.shutout else "story_closes"
            if single:
                story.append(w(key + "_single", player=who, points=points,
                               score=col.points[player]))
            else:
                story.append(w(key, game=i + 1, score=col.points[player], player=who))
    if sheet.finished:
        story.append(w("story_match_over"))
    return w.join(played), " ".join(story), sheet


def _column_lines(rules: Rules, sheet: ScoreSheet, names: tuple[str, str], w: _Words) -> str:
    lines = []
    for n, col in enumerate(sheet.columns, 1):
        if col.winner is None:
            status = w("column_open")
        else:
            totals = []
            for p in (0, 1):
                game = col.total[p] - col.points[p] - col.boxes[p] * rules.box_bonus
                args = {"points": col.points[p], "game": game, "boxes": col.boxes[p],
                        "box": rules.box_bonus, "total": col.total[p]}
                has_box = rules.box_bonus > 0 and col.boxes[p] > 0
                key = ("sum_all" if game and has_box else "sum_game" if game
                       else "sum_boxes" if has_box else "sum_plain")
                totals.append(w(key, **args))
            status = w("column_closed", winner=names[col.winner], a=names[0], a_total=totals[0],
                       b=names[1], b_total=totals[1])
        label = w("column_label_single") if rules.columns == 1 else w("column_label", n=n)
        lines.append("    " + w("column_line", label=label, a=names[0], a_points=col.points[0],
                                   b=names[1], b_points=col.points[1], a_boxes=col.boxes[0],
                                   b_boxes=col.boxes[1], status=status))
    return "\n".join(lines)


#: R7.6 (Bob is player 1, Alexandra player 0) and R7.7 (A is player 0), written for 100.
_R76 = ((1, 10), (0, 18), (1, 30), (1, 4))
_R77A = ((0, 40), (0, 35), (1, 20), (0, 30), (1, 25))
_R77B = ((0, 60), (0, 45), (1, 12))
_BY_COUNT = ((0, 60), (0, 45), (1, 12), (1, 12))


def _sheet_examples(rules: Rules, w: _Words) -> dict[str, str]:
    values: dict[str, str] = {}
    pair = (w("name_alexandra"), w("name_bob"))
    # before any game closes, as its heading says; at least its first win (a game to 1
    # closes at once)
    r76 = _scaled(_R76, rules)
    wins, story, sheet = _story(rules, _played(rules, r76, open_only=True) or r76[:1], pair, w)
    values |= {"r76_wins": wins, "r76_story": story, "r76_sheet": w.join([
        w("sheet_player", player=pair[p],
          scores=w("sheet_sep").join(str(c.points[p]) for c in sheet.columns))
        for p in (0, 1)])}
    ab = (w("name_a"), w("name_b"))
    for key, example in (("r77a", _R77A), ("r77b", _R77B)):
        wins, story, sheet = _story(rules, _scaled(example, rules), ab, w)
        values |= {f"{key}_wins": wins, f"{key}_story": story,
                   f"{key}_columns": _column_lines(rules, sheet, ab, w)}
    other = rules.replace(entry_rule="traditional" if rules.entry_rule == "by_count"
                          else "by_count")
    # the same wins told both ways: as many as both sheets take (one match may end sooner)
    both = _scaled(_BY_COUNT, rules)
    both = both[:min(len(_played(rules, both)), len(_played(other, both)))]
    wins, story, _sheet = _story(rules, both, ab, w)
    values |= {"bc_wins": wins, "bc_story": story,
               "bc_other_story": _story(other, both, ab, w)[1]}
    return values


# -- the book -------------------------------------------------------------------------------

def _in_force(rules: Rules, w: _Words) -> str:
    name = rules.preset_name
    if name is not None:
        return w("in_force_preset", preset=name)
    changes = [w("change", option=f.name, value=w.value(getattr(rules, f.name)))
               for f in fields(rules) if getattr(rules, f.name) != getattr(_DEFAULT_RULES, f.name)]
    return w("in_force_custom", changes=w.join(changes))


def _options_parts(rules: Rules, w: _Words) -> tuple[str, str]:
    rows, lines = [], []
    for o in OPTIONS:
        value, default = getattr(rules, o.name), getattr(_DEFAULT_RULES, o.name)
        shown = w.value(value)
        if value != default:
            shown = f"**{shown}**"
        rows.append(f"| `{o.name}` | {shown} | {w.value(default)} | {w.allowed(o)} | "
                    f"{o.rule} |")
        lines.append(f"  - `{o.name}`: {w('opt_' + o.name)}.")
    return "\n".join(rows), "\n".join(lines)


def _entry_sequence(rules: Rules, w: _Words) -> str:
    """R7.2 in words for this many columns: the n-th win counts in games 1 to n."""
    parts = [w("entry_first")]
    for n in range(2, rules.columns + 1):
        games = w("game_many", list=w.join([str(i) for i in range(1, n + 1)]))
        key = "entry_last" if n == rules.columns else "entry_next"
        parts.append(w(key, nth=w(f"nth_{n}"), games=games))
    return w("entry_sep").join(parts)


def _limit_note(rules: Rules, w: _Words) -> str:
    """R5.9's knocks have deadwood 3 and 5: say so when the rules in force forbid them."""
    if rules.oklahoma:
        return w("note_oklahoma")
    if rules.knock_limit < 3:
        return w("note_no_knocks", knock_limit=rules.knock_limit)
    if rules.knock_limit < 5:
        return w("note_no_undercut", knock_limit=rules.knock_limit)
    return ""


def rule_book(rules: Rules = _DEFAULT_RULES, *, lang: str = "en") -> str:
    """The whole rule book in Markdown, for ``rules``, in ``lang`` (English if there is none)."""
    template, phrases = _template(lang)
    w = _Words(phrases)
    words = {n: w(f"number_{n}") for n in range(2, 6)}
    columns_word = words.get(rules.columns, str(rules.columns))
    limit = rules.knock_limit
    flags = {
        "oklahoma": rules.oklahoma,
        "gin_only": not rules.oklahoma and limit == 0,
        "plain_limit": not rules.oklahoma and limit > 0,
        "big_gin": rules.big_gin_bonus is not None,
        "discard_taken_card": rules.discard_taken_card,
        "dealer_winner": rules.next_dealer == "winner",
        "dealer_loser": rules.next_dealer == "loser",
        "dealer_alternate": rules.next_dealer == "alternate",
        "dead_hand_stock": rules.dead_hand_stock > 0,
        "several_columns": rules.columns > 1,
        "traditional": rules.entry_rule == "traditional",
        "by_count": rules.entry_rule == "by_count",
        "game_bonus": rules.game_bonus > 0,
        "shutout_bonus": rules.shutout_game_bonus > 0,
        "box_bonus": rules.box_bonus > 0,
    }
    table, text = _options_parts(rules, w)
    values: dict[str, str] = {
        name: str(getattr(rules, name)) for name in (
            "knock_limit", "gin_bonus", "undercut_bonus", "dead_hand_stock", "columns",
            "game_target", "game_bonus", "shutout_game_bonus", "box_bonus")
    }
    values |= {
        "big_gin_bonus": str(rules.big_gin_bonus),
        "last_card": str(52 - rules.dead_hand_stock),
        "columns_word": columns_word,
        "entry_sequence": _entry_sequence(rules, w),
        "even_tie": w("even_tie") if rules.columns % 2 == 0 else "",
        "rules_in_force": _in_force(rules, w),
        "limit_note": _limit_note(rules, w),
        "options_table": table,
        "options_text": text,
    }
    for name, preset in PRESETS.items():
        values[f"preset_{name.replace('-', '_')}"] = w("preset_here") if preset == rules else ""
    values |= _hand_examples(rules)
    values |= _sheet_examples(rules, w)
    book = _fill(_keep_blocks(template, flags), values)
    # an empty generated part leaves two spaces between words
    return _reflow(re.sub(r"(?<=\S)  +(?=\S)", " ", book))


# -- the short panel and the terminal -------------------------------------------------------

def rules_in_force(rules: Rules) -> list[tuple[str, str]]:
    """Short (label, value) lines for a "rules in force" panel, in the player's language."""
    lines: list[tuple[str, str]] = []
    lines.append((_("Rules"), preset_label(rules.preset_name)))  # as the screens name it
    if rules.oklahoma:
        knock = _("at the upcard's value or less (Oklahoma)")
    elif rules.knock_limit == 0:
        knock = _("gin only")
    else:
        knock = _("at {limit} or less").format(limit=rules.knock_limit)
    lines.append((_("Knock"), knock))
    lines.append((_("Gin bonus"), str(rules.gin_bonus)))
    lines.append((_("Big gin bonus"), _("not played") if rules.big_gin_bonus is None
                  else str(rules.big_gin_bonus)))
    lines.append((_("Undercut bonus"), str(rules.undercut_bonus)))
    lines.append((_("Taken discard"), _("may be discarded at once") if rules.discard_taken_card
                  else _("not discarded the same turn")))
    if rules.dead_hand_stock:
        dead = ngettext("{n} card left in the stock", "{n} cards left in the stock",
                        rules.dead_hand_stock).format(n=rules.dead_hand_stock)
    else:
        dead = _("the stock used up")
    lines.append((_("Dead hand"), dead))
    dealer = {"winner": _("the winner deals"), "loser": _("the loser deals"),
              "alternate": _("the players deal in turn")}[rules.next_dealer]
    lines.append((_("Next hand"), dealer))
    if rules.columns == 1:
        lines.append((_("Scoring"), _("one game to {target}").format(target=rules.game_target)))
    else:
        lines.append((_("Scoring"), _("{columns} games at once, each to {target}").format(
            columns=rules.columns, target=rules.game_target)))
        lines.append((_("Entry rule"), _("by count") if rules.entry_rule == "by_count"
                      else _("traditional")))
    lines.append((_("Game bonus"), str(rules.game_bonus)))
    lines.append((_("Shutout bonus"), str(rules.shutout_game_bonus)))
    lines.append((_("Box bonus"), str(rules.box_bonus)))
    return lines


_INLINE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\*\*(.+?)\*\*"), r"\1"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"\1"),
    (re.compile(r"`([^`]+)`"), r"\1"),
)


def _plain(text: str) -> str:
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    return text


def _blocks(markdown: str) -> Iterator[tuple[str, int, list[str]]]:
    """The book's blocks: ("blank"), ("heading", level, [title]), ("table", 0, rows) and
    ("text", indent, [first line, …]) for a paragraph or a bullet item (indent counts the
    bullet's own two characters), its lines already joined into one."""
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            yield "blank", 0, []
            i += 1
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            yield "heading", level, [line.lstrip("#").strip()]
            i += 1
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            yield "table", 0, rows
        else:
            lead = len(line) - len(line.lstrip())
            bullet = line.lstrip().startswith("- ")
            parts = [line.strip()]
            i += 1
            while (i < len(lines) and lines[i].strip() and not lines[i].startswith(("#", "|"))
                   and not lines[i].lstrip().startswith("- ")):
                parts.append(lines[i].strip())
                i += 1
            yield ("item" if bullet else "text"), lead, [" ".join(parts)]


_SUM = re.compile(r" ([-+−×=]) (?=\S)")
_GLUE = "\u00a0"  # textwrap breaks only at ASCII spaces
_SUM_HEAD = re.compile(r"(?<=\S) (?=[0-9]+\u00a0[-+−×=])")


def _wrap(text: str, first: str, rest: str, width: int) -> list[str]:
    """Wrapped lines; a sum like ``25 + 31 = 56`` is never broken across lines."""
    glued = _SUM.sub(lambda m: f"{_GLUE}{m.group(1)}{_GLUE}", text)
    glued = _SUM_HEAD.sub(_GLUE, glued)  # and the name before it: "A 105 + 100 …"
    lines = textwrap.wrap(glued, width=width, initial_indent=first, subsequent_indent=rest,
                          break_on_hyphens=False, break_long_words=False)
    return [line.replace(_GLUE, " ") for line in lines] or [first.rstrip()]


def _reflow(markdown: str, width: int = 80) -> str:
    """Markdown with every paragraph and bullet item rewrapped to ``width`` (the generated
    parts make long lines); headings and tables as they are."""
    out: list[str] = []
    for kind, indent, data in _blocks(markdown):
        if kind == "blank":
            out.append("")
        elif kind == "heading":
            out.append("#" * indent + " " + data[0])
        elif kind == "table":
            out += data
        elif kind == "item":
            out += _wrap(data[0][2:], " " * indent + "- ", " " * (indent + 2), width)
        else:
            out += _wrap(data[0], " " * indent, " " * indent, width)
    return "\n".join(out).strip("\n") + "\n"


def markdown_to_text(markdown: str, width: int = 80) -> str:
    """The book as readable plain text for a terminal: no markup, wrapped to ``width``."""
    out: list[str] = []
    for kind, indent, data in _blocks(markdown):
        if kind == "blank":
            if out and out[-1] != "":
                out.append("")
        elif kind == "heading":
            title = _plain(data[0])
            out += [title, ("=" if indent == 1 else "-") * min(len(title), width), ""]
        elif kind == "table":
            rows = [[_plain(c.strip()) for c in row.strip().strip("|").split("|")]
                    for row in data]
            rows = [r for r in rows if not all(set(c) <= {"-", ":"} for c in r)]
            widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
            # wider than the terminal: the widest column wraps its cells (in Hausa,
            # Lithuanian, Norwegian and Lao the options' table ran to 82-89 columns)
            excess = 2 + sum(widths) + 2 * (len(widths) - 1) - width
            if excess > 0:
                widest = widths.index(max(widths))
                widths[widest] = max(10, widths[widest] - excess)
            for n, row in enumerate(rows):
                cells = [textwrap.wrap(c, widths[k], break_on_hyphens=False) or [""]
                         for k, c in enumerate(row)]
                for part in range(max(len(c) for c in cells)):
                    out.append("  " + "  ".join(
                        (c[part] if part < len(c) else "").ljust(widths[k])
                        for k, c in enumerate(cells)).rstrip())
                if n == 0:
                    out.append("  " + "  ".join("-" * x for x in widths))
        elif kind == "item":
            out += _wrap(_plain(data[0][2:]), " " * indent + "- ", " " * (indent + 2), width)
        else:
            out += _wrap(_plain(data[0]), " " * indent, " " * indent, width)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"
