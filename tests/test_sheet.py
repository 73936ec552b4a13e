"""Tests of the Hollywood scoresheet, named after the rules of the rule book §7–§9 they check."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hollywood_gin.errors import HollywoodGinError
from hollywood_gin.rules import Rules
from hollywood_gin.sheet import Column, ScoreSheet, SheetEntry, SheetError

A, B = 0, 1
DEFAULT = Rules()


def sheet_of(wins: list[tuple[int, int]], rules: Rules = DEFAULT) -> ScoreSheet:
    sheet = ScoreSheet(rules)
    for player, points in wins:
        sheet.record(player, points)
    return sheet


def points(sheet: ScoreSheet) -> list[tuple[int, int]]:
    return [c.points for c in sheet.columns]


def boxes(sheet: ScoreSheet) -> list[tuple[int, int]]:
    return [c.boxes for c in sheet.columns]


# -- R7.1 ---------------------------------------------------------------------------------------


def test_R7_1_sheet_starts_with_three_open_columns_at_zero() -> None:
    sheet = ScoreSheet()
    assert len(sheet.columns) == 3
    assert all(c == Column() and not c.closed and c.winner is None for c in sheet.columns)
    assert sheet.totals == (0, 0)
    assert sheet.games_won == (0, 0)
    assert not sheet.finished
    assert sheet.winner is None and sheet.result is None
    assert sheet.entries == ()


# -- R7.2 / R7.6 --------------------------------------------------------------------------------


def test_R7_6_worked_example() -> None:
    # Bob is player 1, Alexandra player 0.
    sheet = ScoreSheet()
    log = [sheet.record(B, 10), sheet.record(A, 18), sheet.record(B, 30), sheet.record(B, 4)]
    assert [e.columns for e in log] == [(0,), (0,), (0, 1), (0, 1, 2)]
    assert all(e.closed == () for e in log)
    assert [c.points[A] for c in sheet.columns] == [18, 0, 0]
    assert [c.points[B] for c in sheet.columns] == [44, 34, 4]
    assert [c.boxes[A] for c in sheet.columns] == [1, 0, 0]
    assert [c.boxes[B] for c in sheet.columns] == [3, 2, 1]
    # no column closed yet: no bonuses, totals are the points
    assert all(c.bonuses == (0, 0) and c.total == c.points for c in sheet.columns)
    assert sheet.totals == (18, 82)
    assert not sheet.finished


def test_R7_2_first_second_third_and_later_wins() -> None:
    sheet = ScoreSheet()
    assert sheet.record(A, 5).columns == (0,)
    assert sheet.record(A, 5).columns == (0, 1)
    assert sheet.record(A, 5).columns == (0, 1, 2)
    assert sheet.record(A, 5).columns == (0, 1, 2)
    assert points(sheet) == [(20, 0), (15, 0), (10, 0)]


# -- R7.7 ---------------------------------------------------------------------------------------


def test_R7_7_first_example_every_number() -> None:
    sheet = ScoreSheet()
    e = [sheet.record(*w) for w in [(A, 40), (A, 35), (B, 20), (A, 30), (B, 25)]]
    # A's third win takes game 1 to 105 and closes it ...
    assert e[3] == SheetEntry(A, 30, (0, 1, 2), (0,))
    # ... B's second win finds game 1 closed: his first entry in game 2.
    assert e[4] == SheetEntry(B, 25, (1,), ())
    assert points(sheet) == [(105, 20), (65, 25), (30, 0)]
    assert boxes(sheet) == [(3, 1), (2, 1), (1, 0)]
    g1, g2, g3 = sheet.columns
    assert g1.closed and g1.winner == A and not g1.shutout
    assert not g2.closed and not g3.closed
    assert g1.bonuses == (100 + 3 * 20, 1 * 20)
    assert g1.total == (265, 40)
    assert g2.total == (65, 25) and g3.total == (30, 0)
    assert sheet.totals == (265 + 65 + 30, 40 + 25 + 0)
    assert sheet.games_won == (1, 0)


def test_R7_7_shutout_then_player_enters_game_2() -> None:
    sheet = ScoreSheet()
    sheet.record(A, 60)
    second = sheet.record(A, 45)
    assert second.closed == (0,)
    g1 = sheet.columns[0]
    assert g1.points == (105, 0) and g1.boxes == (2, 0)
    assert g1.shutout and g1.winner == A
    assert g1.total == (105 + 200 + 2 * 20, 0)
    assert g1.total == (345, 0)
    third = sheet.record(B, 12)
    # the first open column where B has no entry
    assert third.columns == (1,)
    assert sheet.columns[1].points == (45, 12)
    assert sheet.columns[2].points == (0, 0)


def test_R7_7_closing_mid_run() -> None:
    # A's run of wins goes on after game 1 closes in its middle: game 1 takes nothing more,
    # and A has entries in both other games, so each later win enters games 2 and 3.
    sheet = ScoreSheet()
    for pts in (40, 35, 30):
        sheet.record(A, pts)
    assert sheet.columns[0].closed
    assert sheet.record(A, 10).columns == (1, 2)
    assert sheet.record(A, 10).columns == (1, 2)
    assert points(sheet) == [(105, 0), (85, 0), (50, 0)]
    assert boxes(sheet) == [(3, 0), (4, 0), (3, 0)]
    assert sheet.columns[0].total == (105 + 200 + 3 * 20, 0)


def test_R7_2_player_shut_out_of_game_1_then_runs_through_games_2_and_3() -> None:
    sheet = sheet_of([(A, 100)])  # one hand closes game 1, B has no entry anywhere
    assert sheet.record(B, 10).columns == (1,)
    assert sheet.record(B, 10).columns == (1, 2)
    assert sheet.record(B, 10).columns == (1, 2)
    assert points(sheet) == [(100, 0), (0, 30), (0, 20)]
    # A's entry was in game 1 only, so his next win is his first entry of game 2
    assert sheet.record(A, 7).columns == (1,)


# -- R7.3 / R8.3 --------------------------------------------------------------------------------


def test_R7_3_column_closes_exactly_at_target() -> None:
    sheet = sheet_of([(A, 99)])
    assert not sheet.columns[0].closed
    assert sheet.record(A, 1).closed == (0,)
    assert sheet.columns[0].points == (100, 0)


def test_R7_3_closed_column_takes_nothing() -> None:
    sheet = sheet_of([(A, 100)])
    before = sheet.columns[0]
    sheet.record(A, 30)
    sheet.record(B, 30)
    assert sheet.columns[0] == before


def test_R8_3_closing_hand_enters_every_other_column_it_reaches() -> None:
    sheet = sheet_of([(A, 10), (A, 10)])
    # decided before the hand: games 1, 2 (entries) and 3 (first without); two of them close
    entry = sheet.record(A, 95)
    assert entry == SheetEntry(A, 95, (0, 1, 2), (0, 1))
    assert points(sheet) == [(115, 0), (105, 0), (95, 0)]
    assert [c.closed for c in sheet.columns] == [True, True, False]
    assert sheet.games_won == (2, 0)
    # game 3 still open and can be won by either player
    assert sheet.record(B, 100).closed == (2,)
    assert sheet.finished and sheet.winner == A


def test_R8_3_one_hand_can_close_all_three_columns() -> None:
    sheet = sheet_of([(B, 1), (B, 1)])
    entry = sheet.record(B, 150)
    assert entry.closed == (0, 1, 2)
    assert sheet.finished and sheet.winner == B and sheet.games_won == (0, 3)


# -- R7.4 / R8.2 --------------------------------------------------------------------------------


def test_R7_4_shutout_game_bonus() -> None:
    sheet = sheet_of([(B, 120)])
    g1 = sheet.columns[0]
    assert g1.shutout and g1.winner == B
    assert g1.bonuses == (0, 200 + 20)


def test_R7_4_game_bonus_when_loser_scored() -> None:
    sheet = sheet_of([(A, 1), (B, 100)])
    g1 = sheet.columns[0]
    assert not g1.shutout and g1.winner == B
    assert g1.bonuses == (20, 100 + 20)
    assert g1.total == (21, 220)


def test_R7_4_bonuses_never_count_towards_closing() -> None:
    sheet = sheet_of([(A, 30), (A, 30), (A, 30)], Rules(box_bonus=50))
    assert sheet.columns[0].points == (90, 0)
    assert not sheet.columns[0].closed and sheet.columns[0].bonuses == (0, 0)
    sheet.record(A, 10)  # closes game 1: 100 points, plus bonuses that game 2 does not see
    assert sheet.columns[0].total == (100 + 200 + 4 * 50, 0)
    assert sheet.columns[1].points == (70, 0) and not sheet.columns[1].closed


def test_R8_2_box_counts_differ_by_column() -> None:
    sheet = sheet_of([(A, 40), (A, 35), (B, 20), (A, 30), (B, 25)])
    assert [c.boxes[A] for c in sheet.columns] == [3, 2, 1]
    sheet.record(A, 60)  # closes game 2 at 125 with A's 3 boxes there, not 4
    g2 = sheet.columns[1]
    assert g2.closed and g2.boxes == (3, 1)
    assert g2.bonuses == (100 + 3 * 20, 1 * 20)


# -- R7.5 ---------------------------------------------------------------------------------------


def test_R7_5_match_ends_when_all_columns_closed() -> None:
    sheet = sheet_of([(A, 40), (A, 35), (B, 20), (A, 30), (B, 25), (A, 60)])
    # A's 60 enters games 2 and 3 and closes game 2 at 125
    assert [c.winner for c in sheet.columns] == [A, A, None]
    assert not sheet.finished and sheet.winner is None and sheet.result is None
    assert sheet.record(B, 80).columns == (2,)  # B's first entry in game 3
    assert not sheet.finished
    assert sheet.record(A, 50).closed == (2,)
    assert sheet.finished and all(c.closed for c in sheet.columns)
    assert points(sheet) == [(105, 20), (125, 25), (140, 80)]
    assert boxes(sheet) == [(3, 1), (3, 1), (3, 1)]
    assert [c.total for c in sheet.columns] == [(265, 40), (285, 45), (300, 100)]
    assert sheet.games_won == (3, 0) and sheet.winner == A
    assert sheet.totals == (850, 185) and sheet.result == 665


def test_R7_5_result_may_be_negative_for_the_winner() -> None:
    sheet = sheet_of([(B, 60), (B, 35), (B, 50), (A, 50), (A, 60), (A, 45)])
    assert points(sheet) == [(0, 145), (110, 85), (105, 50)]
    assert [c.winner for c in sheet.columns] == [B, A, A]
    assert [c.total for c in sheet.columns] == [(0, 405), (250, 125), (245, 70)]
    assert sheet.finished and sheet.games_won == (2, 1)
    assert sheet.totals == (495, 600)
    assert sheet.winner == A
    assert sheet.result == -105


def test_R7_5_recording_on_finished_sheet_raises() -> None:
    sheet = sheet_of([(A, 1), (A, 1), (A, 100)])
    assert sheet.finished
    before = sheet.copy()
    with pytest.raises(SheetError, match="finished"):
        sheet.record(B, 10)
    assert sheet == before and sheet.columns == before.columns


def test_R7_5_even_columns_tie_on_games_goes_to_higher_total() -> None:
    rules = Rules(columns=2, game_target=10)
    sheet = sheet_of([(A, 10), (B, 15)], rules)
    assert sheet.finished and sheet.games_won == (1, 1)
    assert sheet.totals == (10 + 200 + 20, 15 + 200 + 20)
    assert sheet.winner == B and sheet.result == 5


def test_R7_5_even_columns_full_tie_is_a_draw() -> None:
    sheet = sheet_of([(A, 10), (B, 10)], Rules(columns=2, game_target=10))
    assert sheet.finished and sheet.games_won == (1, 1) and sheet.totals == (230, 230)
    assert sheet.winner is None
    assert sheet.result == 0


# -- R9 options ---------------------------------------------------------------------------------


def test_R9_columns_1_single_game() -> None:
    sheet = ScoreSheet(Rules(columns=1))
    assert len(sheet.columns) == 1
    # every hand goes to the one game, whoever wins it
    assert [sheet.record(*w).columns for w in [(A, 25), (A, 30), (B, 40)]] == [(0,), (0,), (0,)]
    assert not sheet.finished
    entry = sheet.record(A, 50)
    assert entry.closed == (0,)
    assert sheet.finished
    game = sheet.columns[0]
    assert game.points == (105, 40) and game.boxes == (3, 1)
    assert game.total == (105 + 100 + 3 * 20, 40 + 20)
    assert sheet.games_won == (1, 0) and sheet.winner == A
    assert sheet.result == 265 - 60
    with pytest.raises(SheetError):
        sheet.record(A, 1)


def test_R9_eaai_preset_has_no_bonuses() -> None:
    sheet = sheet_of([(A, 60), (B, 40), (A, 45)], Rules.preset("eaai"))
    assert sheet.finished and sheet.winner == A
    assert sheet.totals == (105, 40) and sheet.result == 65


def test_R9_game_target_option() -> None:
    sheet = sheet_of([(A, 60), (A, 45)], Rules(game_target=125))
    assert not sheet.columns[0].closed
    assert sheet.record(A, 20).closed == (0,)
    assert sheet.columns[0].points == (125, 0)


def test_R9_game_bonus_and_box_bonus_options() -> None:
    rules = Rules(game_bonus=0, box_bonus=25, shutout_game_bonus=300)
    sheet = sheet_of([(A, 5), (B, 100)], rules)
    assert sheet.columns[0].bonuses == (25, 0 + 25)
    sheet = sheet_of([(A, 60), (A, 45)], rules)
    assert sheet.columns[0].bonuses == (300 + 2 * 25, 0)
    sheet = sheet_of([(A, 5), (B, 100)], Rules(box_bonus=0))
    assert sheet.columns[0].bonuses == (0, 100)


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "pts", "named"),
    [
        (2, 10, "2"),
        (-1, 10, "-1"),
        (True, 10, "True"),
        ("0", 10, "'0'"),
        (None, 10, "None"),
        (0, 0, "0"),
        (0, -5, "-5"),
        (0, "5", "'5'"),
        (0, True, "True"),
        (1, 5.0, "5.0"),
    ],
)
def test_bad_input_raises_sheet_error_naming_value(player: Any, pts: Any, named: str) -> None:
    sheet = sheet_of([(A, 40), (B, 20)])
    before = sheet.copy()
    with pytest.raises(SheetError) as info:
        sheet.record(player, pts)
    assert named in str(info.value)
    assert sheet == before
    assert sheet.columns == before.columns and sheet.entries == before.entries


def test_sheet_error_is_a_package_error() -> None:
    assert issubclass(SheetError, HollywoodGinError)
    assert issubclass(SheetError, ValueError)


# -- undo and copy ------------------------------------------------------------------------------


def test_undo_removes_last_hand() -> None:
    sheet = sheet_of([(A, 40), (A, 35), (B, 20)])
    before = sheet.columns
    sheet.record(A, 30)  # closes game 1
    assert sheet.undo() == SheetEntry(A, 30, (0, 1, 2), (0,))
    assert sheet.columns == before and not sheet.columns[0].closed
    assert len(sheet.entries) == 3


def test_undo_after_finish_reopens() -> None:
    sheet = sheet_of([(A, 1), (A, 1), (A, 100)])
    assert sheet.finished
    sheet.undo()
    assert not sheet.finished and sheet.winner is None and sheet.result is None
    sheet.record(B, 5)
    assert sheet.entries[-1].columns == (0,)


def test_undo_on_empty_sheet_raises() -> None:
    with pytest.raises(SheetError, match="nothing to undo"):
        ScoreSheet().undo()


def test_copy_is_independent() -> None:
    sheet = sheet_of([(A, 40)])
    other = sheet.copy()
    other.record(B, 30)
    assert len(sheet.entries) == 1 and sheet.columns[0].points == (40, 0)
    assert other.columns[0].points == (40, 30)
    sheet.undo()
    assert len(other.entries) == 2


# -- saving -------------------------------------------------------------------------------------


def test_from_dict_round_trip() -> None:
    rules = Rules(game_target=50)
    sheet = sheet_of([(A, 40), (A, 35), (B, 20), (A, 30), (B, 25)], rules)
    data = sheet.to_dict()
    assert data == {"entries": [[0, 40], [0, 35], [1, 20], [0, 30], [1, 25]]}
    again = ScoreSheet.from_dict(data, rules)
    assert again == sheet and again.columns == sheet.columns and again.entries == sheet.entries
    assert ScoreSheet.from_dict(ScoreSheet().to_dict()) == ScoreSheet()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (None, "object"),
        ([[0, 5]], "object"),
        ({}, "entries"),
        ({"entries": [], "rules": {}}, "entries"),
        ({"entries": 5}, "list"),
        ({"entries": [5]}, "entry 0"),
        ({"entries": [[0, 5], [1]]}, "entry 1"),
        ({"entries": [[0, 5, 1]]}, "entry 0"),
        ({"entries": [[2, 5]]}, "player"),
        ({"entries": [[0, "5"]]}, "'5'"),
        ({"entries": [[0, 0]]}, "points"),
        ({"entries": [[0, 1], [0, 1], [0, 100], [1, 5]]}, "entry 3.*finished"),
    ],
)
def test_from_dict_malformed(data: object, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        ScoreSheet.from_dict(data)


# -- rendering ----------------------------------------------------------------------------------


def test_str_renders_table() -> None:
    sheet = sheet_of([(A, 40), (A, 35), (B, 20), (A, 30), (B, 25)])
    text = str(sheet)
    lines = text.replace("|", " ").splitlines()
    assert "Game 1" in lines[0] and "Game 3" in lines[0] and "Total" in lines[0]
    assert lines[1] == "Player 0" and lines[2].split() == ["points", "105", "65", "30"]
    assert lines[8].split()[-4:] == ["265", "65", "30", "360"]
    assert lines[9].split()[-4:] == ["40", "25", "0", "65"]
    assert lines[10] == "Game 1 won by Player 0" and len(lines) == 11  # the others open
    finished = str(sheet_of([(A, 100), (A, 100), (A, 100)]))
    assert "Game 3 won by Player 0, a shutout" in finished and "Match over" in finished
    assert sheet_of([(B, 100)] * 3).render(("Bob", "You")).endswith(
        "Match over: you win, result +960.")
    # the seat called "You" is spoken to ("Game 1 won by You" read "Kai ya ci" in Hausa)
    assert "You won game 1, a shutout" in sheet_of([(B, 100)] * 3).render(("Bob", "You"))


@pytest.mark.parametrize("lang", ["en", "af", "lt", "nb", "lo", "ha"])
def test_the_rendered_sheet_lines_up_and_fits_80_columns(lang: str) -> None:
    """The labels' column was the longest name plus 8 (the length of " points"): longer
    words pushed the numbers out of line, and a three-game sheet was 108 columns wide
    with "won by You, shutout" in its cells."""
    from hollywood_gin import i18n

    sheet = sheet_of([(A, 40), (A, 35), (B, 20), (A, 30), (B, 25)])
    with i18n.using(lang):
        lines = sheet.render(("Alexandra", "Computer (level 2)")).splitlines()
    table = [line for line in lines if line.startswith("  ")]
    ends = {len(line) for line in table if "|" not in line}
    assert len(ends) == 1, table  # every row's last column ends at one place
    assert all(len(line) <= 80 for line in lines), lines


# -- properties ---------------------------------------------------------------------------------


def reference(rules: Rules, wins: list[tuple[int, int]]) -> dict[str, Any]:
    """A slow sheet written straight from R7.2–R7.5, sharing no code with ScoreSheet."""
    n = rules.columns
    score = {(col, p): 0 for col in range(n) for p in (0, 1)}
    hands = {(col, p): 0 for col in range(n) for p in (0, 1)}
    won: dict[int, int] = {}
    entered_log = []
    for player, pts in wins:
        assert len(won) < n, "reference: recording on a finished sheet"
        open_cols = [col for col in range(n) if col not in won]
        # R7.2: "every open column in which the winner already has an entry, and the first
        # open column in which he has none"
        with_entry = {col for col in open_cols if hands[col, player]}
        without = [col for col in open_cols if not hands[col, player]]
        cols = with_entry | set(without[:1])
        for col in cols:
            score[col, player] += pts
            hands[col, player] += 1
        for col in cols:  # R7.3, after adding to all (R8.3)
            if score[col, player] >= rules.game_target:
                won[col] = player
        entered_log.append(sorted(cols))
    totals = [0, 0]
    col_totals = []
    for col in range(n):
        t = [score[col, 0], score[col, 1]]
        if col in won:  # R7.4
            w = won[col]
            t[w] += rules.shutout_game_bonus if score[col, 1 - w] == 0 else rules.game_bonus
            for p in (0, 1):
                t[p] += rules.box_bonus * hands[col, p]
        col_totals.append(tuple(t))
        totals[0] += t[0]
        totals[1] += t[1]
    winner = None
    if len(won) == n:
        games = [sum(1 for w in won.values() if w == p) for p in (0, 1)]
        if games[0] != games[1]:
            winner = games.index(max(games))
        elif totals[0] != totals[1]:
            winner = totals.index(max(totals))
    return {
        "points": [(score[c, 0], score[c, 1]) for c in range(n)],
        "boxes": [(hands[c, 0], hands[c, 1]) for c in range(n)],
        "winners": [won.get(c) for c in range(n)],
        "col_totals": col_totals,
        "totals": tuple(totals),
        "finished": len(won) == n,
        "winner": winner,
        "entered": entered_log,
    }


rules_strategy = st.builds(
    lambda columns, target, game, extra, box: Rules(
        columns=columns, game_target=target, game_bonus=game,
        shutout_game_bonus=game + extra,  # R9.2: a shutout never earns less
        box_bonus=box),
    st.integers(1, 5),
    st.one_of(st.sampled_from([100, 125, 150]), st.integers(1, 60)),
    st.integers(0, 200),
    st.integers(0, 100),
    st.integers(0, 30),
)
wins_strategy = st.lists(st.tuples(st.integers(0, 1), st.integers(1, 70)), max_size=60)


def play_to_end(rules: Rules, wins: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The given wins up to the end of the match, then A wins until it is over."""
    played: list[tuple[int, int]] = []
    sheet = ScoreSheet(rules)
    for w in wins:
        if sheet.finished:
            break
        sheet.record(*w)
        played.append(w)
    while not sheet.finished:  # each such hand closes the first open column at least
        sheet.record(A, rules.game_target)
        played.append((A, rules.game_target))
    return played


@settings(max_examples=300, deadline=None)
@given(rules_strategy, wins_strategy)
def test_R7_invariants_on_random_matches(rules: Rules, wins: list[tuple[int, int]]) -> None:
    sheet = ScoreSheet(rules)
    frozen: dict[int, Column] = {}  # closed columns, as they were when they closed
    hands_while_first_open = 0
    for player, pts in play_to_end(rules, wins):
        before = sheet.columns
        open_before = [i for i, c in enumerate(before) if not c.closed]
        if not before[0].closed:
            hands_while_first_open += 1
        entry = sheet.record(player, pts)
        cols = sheet.columns

        # R7.2: the hand enters the first open columns, one more than the open columns in which
        # the player already had an entry (the prefix property below), as far as there are any.
        had = sum(1 for i in open_before if before[i].boxes[player] > 0)
        assert entry.columns == tuple(open_before[: min(had + 1, len(open_before))])
        assert set(entry.closed) <= set(entry.columns)
        assert set(entry.closed) == {i for i in open_before if cols[i].closed}
        # undo (on a copy) restores exactly the previous sheet
        probe = sheet.copy()
        assert probe.undo() == entry and probe.columns == before

        for i, c in enumerate(cols):
            # R7.3: closed columns never change afterwards
            if i in frozen:
                assert c == frozen[i]
            elif c.closed:
                frozen[i] = c
            if c.closed:
                assert c.winner is not None
                assert c.points[c.winner] >= rules.game_target
                assert c.points[1 - c.winner] < rules.game_target
                # R7.4
                game = rules.shutout_game_bonus if c.shutout else rules.game_bonus
                expected = [rules.box_bonus * c.boxes[p] for p in (0, 1)]
                expected[c.winner] += game
                assert c.bonuses == tuple(expected)
                assert c.shutout == (c.points[1 - c.winner] == 0)
            else:
                assert max(c.points) < rules.game_target
                assert c.bonuses == (0, 0) and c.total == c.points and not c.shutout
            assert c.total == (c.points[0] + c.bonuses[0], c.points[1] + c.bonuses[1])
            # every hand scores >= 1, so an entry means points
            assert all((c.boxes[p] > 0) == (c.points[p] > 0) for p in (0, 1))

        open_now = [i for i, c in enumerate(cols) if not c.closed]
        for p in (0, 1):
            # R7.2: among open columns, a player's entries are a prefix of them, and in two open
            # columns the earlier one holds at least the later one's points and boxes.
            has = [cols[i].boxes[p] > 0 for i in open_now]
            assert has == sorted(has, reverse=True)
            for j, k in itertools.pairwise(open_now):
                assert cols[j].points[p] >= cols[k].points[p]
                assert cols[j].boxes[p] >= cols[k].boxes[p]

        assert sheet.totals == (sum(c.total[0] for c in cols), sum(c.total[1] for c in cols))
        assert sum(sheet.games_won) == sum(1 for c in cols if c.closed)

    # the first column takes every hand while it is open
    assert sum(sheet.columns[0].boxes) == hands_while_first_open
    # boxes and points are exactly what the log says
    for i, c in enumerate(sheet.columns):
        for p in (0, 1):
            mine = [e for e in sheet.entries if e.player == p and i in e.columns]
            assert c.boxes[p] == len(mine)
            assert c.points[p] == sum(e.points for e in mine)

    # R7.5
    assert sheet.finished and all(c.closed for c in sheet.columns)
    games = sheet.games_won
    if games[0] != games[1]:
        assert sheet.winner == (0 if games[0] > games[1] else 1)
    if rules.columns % 2:
        assert sheet.winner is not None
    w = sheet.winner
    totals = sheet.totals
    assert sheet.result == (0 if w is None else totals[w] - totals[1 - w])
    # saving replays to the same sheet
    assert ScoreSheet.from_dict(sheet.to_dict(), rules) == sheet


@settings(max_examples=400, deadline=None)
@given(rules_strategy, wins_strategy, st.booleans())
def test_R7_2_agrees_with_reference(rules: Rules, wins: list[tuple[int, int]], end: bool) -> None:
    played = play_to_end(rules, wins)
    if not end:  # also compare unfinished sheets: the prefix of the given wins that fits
        played = played[: len(wins)]
    sheet = sheet_of(played, rules)
    ref = reference(rules, played)
    assert points(sheet) == ref["points"]
    assert boxes(sheet) == ref["boxes"]
    assert [c.winner for c in sheet.columns] == ref["winners"]
    assert [c.total for c in sheet.columns] == ref["col_totals"]
    assert sheet.totals == ref["totals"]
    assert sheet.finished == ref["finished"]
    assert sheet.winner == ref["winner"]
    assert [list(e.columns) for e in sheet.entries] == ref["entered"]


@settings(max_examples=100, deadline=None)
@given(rules_strategy, wins_strategy)
def test_undo_matches_replay_of_shorter_log(rules: Rules, wins: list[tuple[int, int]]) -> None:
    played = play_to_end(rules, wins)
    sheet = sheet_of(played, rules)
    for n in range(len(played) - 1, -1, -1):
        sheet.undo()
        shorter = sheet_of(played[:n], rules)
        assert sheet == shorter and sheet.columns == shorter.columns


# -- R7.2 option entry_rule --------------------------------------------------------------------

BY_COUNT = Rules(entry_rule="by_count")


def test_R7_2_entry_rule_by_count_example_from_the_rule_book() -> None:
    # A 60, A 45 closes game 1; by count B's first 12 enters nowhere, his second game 2 only.
    sheet = sheet_of([(A, 60), (A, 45)], BY_COUNT)
    first = sheet.record(B, 12)
    assert first.columns == () and first.closed == ()
    second = sheet.record(B, 12)
    assert second.columns == (1,)
    assert points(sheet) == [(105, 0), (45, 12), (0, 0)]
    assert boxes(sheet) == [(2, 0), (1, 1), (0, 0)]


def test_R7_2_entry_rule_traditional_on_the_same_hands() -> None:
    sheet = sheet_of([(A, 60), (A, 45)])
    assert sheet.record(B, 12).columns == (1,)
    assert sheet.record(B, 12).columns == (1, 2)
    assert points(sheet) == [(105, 0), (45, 24), (0, 12)]


def test_R7_2_entry_rule_by_count_equals_traditional_while_no_column_closes() -> None:
    wins = [(B, 10), (A, 18), (B, 30), (B, 4), (A, 7), (A, 9)]
    assert points(sheet_of(wins, BY_COUNT)) == points(sheet_of(wins))


def test_R7_2_entry_rule_by_count_undo_and_reload_count_the_scoreless_win() -> None:
    sheet = sheet_of([(A, 60), (A, 45), (B, 12)], BY_COUNT)
    again = ScoreSheet.from_dict(sheet.to_dict(), BY_COUNT)
    assert again.record(B, 12).columns == (1,)
    sheet.record(B, 12)
    sheet.undo()
    assert sheet.record(B, 12).columns == (1,)


def test_R9_entry_rule_is_validated() -> None:
    with pytest.raises(HollywoodGinError, match="entry_rule"):
        Rules(entry_rule="sometimes")  # type: ignore[arg-type]
