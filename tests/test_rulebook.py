"""The project's rule book (docs/rules.md, ``hollywood_gin.rulebook``, ``hollywood-gin rules``):
every cited rule number exists, the numbers of the rules in force are filled in, the worked
examples are right, and the shipped docs/rules.md is the default rules' rendering."""

from __future__ import annotations

import fnmatch
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hollywood_gin.cli import main
from hollywood_gin.rulebook import LANGUAGES, markdown_to_text, rule_book, rules_in_force
from hollywood_gin.rules import OPTIONS, PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "hollywood_gin"
RULE = re.compile(r"\bR([1-9])\.([0-9]+)\b")

#: A rule set far from every preset, so each filled-in number is one of its own.
ODD = Rules(knock_limit=7, gin_bonus=21, big_gin_bonus=33, undercut_bonus=17,
            discard_taken_card=True, dead_hand_stock=0, next_dealer="loser", columns=4,
            game_target=150, game_bonus=130, shutout_game_bonus=260, box_bonus=15,
            entry_rule="by_count")

#: Enough variety to reach every block of the template.
VARIANTS = [
    *PRESETS.values(), ODD, Rules(oklahoma=True), Rules(knock_limit=0), Rules(knock_limit=4),
    Rules(columns=2), Rules(columns=5, entry_rule="by_count"), Rules(next_dealer="alternate"),
    Rules(game_bonus=0, shutout_game_bonus=50), Rules(game_target=1), Rules(game_target=40),
    Rules(columns=1, box_bonus=0, game_bonus=0, shutout_game_bonus=0, big_gin_bonus=31),
]


def rule_text(book: str, number: str) -> str:
    """The text of one rule (its bullet and the lines under it), on one line."""
    m = re.search(rf"^- {re.escape(number)} (.*?)(?=^- R|^#|\Z)", book, re.S | re.M)
    assert m is not None, f"{number} is not in the book"
    return " ".join(m.group(1).split())


def cited_rules() -> set[str]:
    found: set[str] = set()
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js"), *(ROOT / "tests").rglob("*.py"),
                 *(ROOT / "benchmarks").rglob("*.py"), *(ROOT / "docs").glob("*.md"),
                 ROOT / "README.md"]:
        found |= {f"R{a}.{b}" for a, b in RULE.findall(path.read_text(encoding="utf-8"))}
    return found


def test_R1_to_R9_every_rule_number_cited_anywhere_is_in_the_book() -> None:
    cited = cited_rules()
    assert {"R1.1", "R5.6", "R7.7", "R8.3"} <= cited  # the scan finds the citations
    for rules in VARIANTS:
        book = rule_book(rules)
        defined = {m.group(1) for m in re.finditer(r"^- (R[1-9]\.[0-9]+) ", book, re.M)}
        assert cited <= defined, f"cited but not in the book: {sorted(cited - defined)}"
        for option in OPTIONS:
            assert option.rule in defined


def test_R9_docs_rules_md_is_the_default_rules_book() -> None:
    """Regenerate with: hollywood-gin rules --markdown > docs/rules.md"""
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == rule_book()


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.preset_name or "custom")
def test_every_variant_renders_completely(rules: Rules) -> None:
    book = rule_book(rules)
    assert "{" not in book and "}" not in book and "<!--" not in book
    assert not re.search(r"\S  ", book), "two spaces between words"
    assert all(len(line) <= 80 for line in book.splitlines() if not line.startswith("|"))
    for option in OPTIONS:
        assert f"`{option.name}`" in book
    text = markdown_to_text(book, width=60)
    assert "**" not in text and "`" not in text and "<!--" not in text
    assert all(len(line) <= 60 for line in text.splitlines() if not line.startswith("  "))


def test_the_numbers_of_the_rules_in_force_are_filled_in() -> None:
    book = rule_book(ODD)
    assert "written for the rules in force: custom rules" in " ".join(book.split())
    assert "7 or less" in rule_text(book, "R5.1")
    assert "undercut bonus, 17" in rule_text(book, "R5.6")
    r57 = rule_text(book, "R5.7")
    assert "gin bonus, 21" in r57 and "big gin bonus, 33" in r57
    assert "may be thrown back at once" in rule_text(book, "R4.3")
    assert "whoever lost a hand deals" in rule_text(book, "R3.1")
    assert "leaves the stock empty" in rule_text(book, "R6.1")
    assert "four columns, game 1 to game 4" in rule_text(book, "R7.1")
    assert "by count" in rule_text(book, "R7.2")
    assert "reaches 150 or more" in rule_text(book, "R7.3")
    r74 = rule_text(book, "R7.4")
    assert "game bonus, 130" in r74 and "260 if the loser" in r74 and "box bonus, 15" in r74
    assert "if both won as many games" in rule_text(book, "R7.5")  # four: a tie is possible
    r59 = rule_text(book, "R5.9")
    assert "21 + 31 = 52" in r59 and "33 + 31 = 64" in r59 and "17 + 0 = 17" in r59
    # the table says which values are not the defaults
    assert "| `knock_limit` | **7** | 10 | 0 to 10 | R5.1 |" in book
    assert "| `oklahoma` | off | off | on or off | R5.1 |" in book


@pytest.mark.parametrize("columns", [2, 3, 4, 5])
def test_R7_2_the_entry_sequence_stops_at_the_last_column(columns: int) -> None:
    for entry_rule in ("traditional", "by_count"):
        r72 = rule_text(rule_book(Rules(columns=columns, entry_rule=entry_rule)), "R7.2")
        last = ", ".join(str(n) for n in range(1, columns)) + f" and {columns}"
        assert f"and every later one in games {last}" in r72
        assert f"game {columns + 1}" not in r72 and f"and {columns + 1}" not in r72


def test_R5_1_oklahoma_and_gin_only_say_so() -> None:
    r51 = rule_text(rule_book(Rules(oklahoma=True)), "R5.1")
    assert "Oklahoma" in r51 and "upcard" in r51 and "an ace upcard means gin only" in r51
    assert "10 or less" not in r51
    assert "only with gin" in rule_text(rule_book(Rules(knock_limit=0)), "R5.1")
    assert "Neither of the first two knocks" in rule_text(rule_book(Rules(knock_limit=0)), "R5.9")
    assert "The second knock is not allowed" in rule_text(rule_book(Rules(knock_limit=4)), "R5.9")
    assert "not allowed" not in rule_text(rule_book(), "R5.9")


@pytest.mark.parametrize("name", ["classic", "eaai"])
def test_R7_a_one_column_rule_set_reads_as_one_game(name: str) -> None:
    book = rule_book(PRESETS[name])
    section = book[book.index("## 7."):book.index("## 8.")]
    assert "## 7. Scoring: one game" in section
    for wrong in ("at once", "three", "columns", "game 2", "Game 1"):
        assert wrong not in section, wrong
    assert "The sheet reads Alexandra 18 and Bob 44." in " ".join(section.split())


def test_R7_eaai_has_no_bonuses_and_says_so() -> None:
    r74 = rule_text(rule_book(PRESETS["eaai"]), "R7.4")
    assert "no game bonus and no shutout bonus" in r74 and "no box bonus" in r74


def test_R5_9_worked_examples_default() -> None:
    book = rule_book()
    r59 = rule_text(book, "R5.9")
    assert "The knocker wins 10 − 3 = 7." in r59
    assert "lays off 8♠ 9♠ 10♣" in r59
    assert "undercut: the defender wins 10 + 0 = 10" in r59
    assert "25 + 31 = 56" in r59


def test_R7_6_and_R7_7_worked_examples_default() -> None:
    book = rule_book()
    assert "The sheet reads Alexandra 18 / 0 / 0 and Bob 44 / 34 / 4." in rule_text(book, "R7.6")
    r77 = rule_text(book, "R7.7")
    assert "It takes game 1 to 105 and closes it, won by A." in r77
    assert "Game 1: A 105, B 20; boxes A 3, B 1; won by A; with bonuses " \
        "A 105 + 100 + 3 × 20 = 265, B 20 + 1 × 20 = 40." in r77
    assert "Game 2: A 65, B 25; boxes A 2, B 1; still open." in r77
    assert "Game 3: A 30, B 0; boxes A 1, B 0; still open." in r77
    assert "A 105 + 200 + 2 × 20 = 345" in r77
    assert "B's 12 goes into game 2: game 2 is the first open column where he has no entry." \
        in r77


def test_R7_2_by_count_example_side_by_side() -> None:
    """A 60, A 45, B 12, B 12: by count B's first 12 enters no column and his second game 2
    only; the traditional rule puts them in game 2, then games 2 and 3."""
    for rules in (Rules(), Rules(entry_rule="by_count")):
        r77 = rule_text(rule_book(rules), "R7.7")
        assert "A wins 60, A wins 45, B wins 12 and B wins 12." in r77
        if rules.entry_rule == "traditional":
            traditional = r77[r77.index("Traditional (these rules)"):r77.index("By count")]
            by_count = r77[r77.index("By count"):]
        else:
            by_count = r77[r77.index("By count (these rules)"):r77.index("By the traditional")]
            traditional = r77[r77.index("By the traditional rule"):]
        assert "B's 12 goes into no column: it is his first win, and game 1 is closed. " \
            "B's 12 goes into game 2." in by_count
        assert "B's 12 goes into game 2:" in traditional
        assert "B's 12 goes into games 2 and 3:" in traditional


def test_worked_examples_scale_with_the_game_target() -> None:
    r77 = rule_text(rule_book(Rules(game_target=150)), "R7.7")
    assert "A wins 60, A wins 53, B wins 30, A wins 45 and B wins 38." in r77
    assert "It takes game 1 to 158 and closes it, won by A." in r77


def test_R9_3_the_book_marks_the_preset_in_force() -> None:
    for name, rules in PRESETS.items():
        book = rule_book(rules)
        assert f"the `{name}` preset" in book.split("\n\n")[1].replace("\n", " ")
        items = rule_text(book, "R9.3").split(" - ")[1:]
        assert [item.split("`")[1] for item in items if "*These rules.*" in item] == [name]


def test_an_unknown_language_falls_back_to_english() -> None:
    assert "en" in LANGUAGES
    assert rule_book(lang="xx") == rule_book() == rule_book(lang="en")


def test_rules_in_force_panel() -> None:
    lines = dict(rules_in_force(Rules()))
    assert lines["Rules"] == "Hollywood"  # the preset's name on the screens, not its key
    assert lines["Knock"] == "at 10 or less"
    assert lines["Gin bonus"] == "25" and lines["Big gin bonus"] == "not played"
    assert lines["Scoring"] == "3 games at once, each to 100"
    assert lines["Dead hand"] == "2 cards left in the stock"
    eaai = dict(rules_in_force(PRESETS["eaai"]))
    assert eaai["Rules"] == "EAAI"
    assert eaai["Scoring"] == "one game to 100" and "Entry rule" not in eaai
    assert eaai["Undercut bonus"] == "25" and eaai["Box bonus"] == "0"
    assert eaai["Next hand"] == "the players deal in turn"
    odd = dict(rules_in_force(ODD))
    assert odd["Rules"] == "custom" and odd["Knock"] == "at 7 or less"
    assert odd["Entry rule"] == "by count" and odd["Big gin bonus"] == "33"
    assert dict(rules_in_force(Rules(oklahoma=True)))["Knock"].startswith("at the upcard")
    assert dict(rules_in_force(Rules(dead_hand_stock=1)))["Dead hand"] == \
        "1 card left in the stock"


def test_the_book_ships_in_the_package() -> None:
    """The installed wheel needs the templates: pyproject's package data covers every one."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["hollywood_gin"]
    books = list((PACKAGE / "rulebook").glob("*.md"))
    assert books
    for book in books:
        rel = book.relative_to(PACKAGE).as_posix()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), rel


# -- the command ------------------------------------------------------------------------------

def test_rules_command_prints_plain_text_for_a_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--rules", "eaai"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Hollywood Gin: the rule book\n====")
    assert "undercut bonus, 25" in " ".join(out.split())
    assert "Scoring: one game" in out and "**" not in out and "`" not in out


def test_rules_command_markdown_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--markdown", "--rules", "classic", "--rule", "knock_limit=8",
                 "--rule", "big_gin_bonus=31"]) == 0
    out = capsys.readouterr().out
    assert out == rule_book(PRESETS["classic"].replace(knock_limit=8, big_gin_bonus=31))
    assert main(["rules", "--markdown"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("argv", "message"), [
    (["rules", "--rule", "knock_limit=99"],
     "knock_limit='99' is invalid: it must be a whole number from 0 to 10"),
    (["rules", "--rule", "oklahoma=on", "--rule", "knock_limit=8"], "upcard sets the knock limit"),
    (["rules", "--rule", "nonsense"], "write it as NAME=VALUE"),
])
def test_rules_command_refuses_bad_options_in_one_line(
        capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and len(err.strip().splitlines()) == 1


def test_rules_given_tells_a_chosen_preset_from_the_default() -> None:
    from hollywood_gin.cli import build_parser, rules_given, rules_of

    parser = build_parser()
    plain = parser.parse_args(["rules"])
    assert not rules_given(plain) and rules_of(plain) == Rules()
    assert rules_given(parser.parse_args(["rules", "--rules", "hollywood"]))
    chosen = parser.parse_args(["play", "--rule", "gin_bonus=20"])
    assert rules_given(chosen) and rules_of(chosen) == PRESETS["hollywood-20"]


def test_rules_command_runs_installed() -> None:
    done = subprocess.run([sys.executable, "-m", "hollywood_gin", "rules", "--rules", "classic"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "one game" in done.stdout


def _paragraph(book: str, number: str) -> str:
    """The text of one rule, from its number to the next rule's."""
    text = " ".join(book.split())
    start = text.index(f"- {number} ")
    following = re.search(r"- R\d+\.\d+ ", text[start + 3:])
    return text[start:start + 3 + following.start()] if following else text[start:]


@pytest.mark.parametrize("target", [1000, 250, 3, 50, 100])
def test_R7_6_and_R7_7_examples_score_only_what_a_hand_can(target: int) -> None:
    """The examples were scaled from games to 100 without a cap: a game to 1000 read "A wins
    600" where no hand scores over 123; a game to 3 told R7.6's example, "before any
    column has closed", up to a closed game (a QA pass)."""
    from hollywood_gin.scoring import most_points

    rules = Rules(game_target=target)
    book = rule_book(rules)
    points = [int(n) for n in re.findall(r"wins (\d+)", " ".join(book.split()))]
    assert points and max(points) <= most_points(rules) == 123
    r76 = _paragraph(book, "R7.6")
    assert "before any column has closed" in r76 and "closes it" not in r76, r76


@pytest.mark.parametrize("rule", ["traditional", "by_count"])
def test_R7_2_both_entry_stories_tell_the_wins_their_heading_lists(rule: str) -> None:
    """With a game to 1, one entry rule ended the match a win sooner than the other, and
    the heading listed three wins where a story told four (a QA pass)."""
    text = " ".join(rule_book(Rules(game_target=1, entry_rule=rule)).split())
    part = text[text.index("The two entry rules side by side: "):]
    heading = part[:part.index(". ")]
    wins = heading.count(" wins ")
    stories = re.split(r" - (?:By count|Traditional|By the traditional rule)",
                       part[len(heading):])[1:3]
    assert len(stories) == 2
    for story in stories:
        assert story.count("'s 1 goes into") == wins, (heading, story)
