"""``hollywood-gin review``: records, saved matches, text and JSON, errors, the progress bar."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hollywood_gin.actions import Pass
from hollywood_gin.bots import make_bot
from hollywood_gin.cli import main
from hollywood_gin.record import save_record
from hollywood_gin.review.text import ReviewProgress
from hollywood_gin.rules import Rules
from review_helpers import play_hand

FAST = ["--deals", "12"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    save_record(play_hand(("greedy", "random"), 3), path, players=("Ann", "Bob"))
    return path


def test_review_a_record_prints_every_decision_of_a_hand(
    capsys: pytest.CaptureFixture[str], record: Path
) -> None:
    code, out, err = run(capsys, "review", str(record), "--hand", "1", *FAST)
    assert code == 0
    assert "Review of Ann's decisions (player 0)" in out
    assert "Accuracy" in out and "expected points lost" in out
    assert "Points lost by kind: upcard and draw choices" in out
    assert "Hand 1:" in out and "your cards:" in out
    assert "♠" in out or "♥" in out or "♦" in out or "♣" in out  # cards with suit symbols
    assert err == ""  # no progress bar when stderr is not a terminal


def test_review_json_is_the_match_review(capsys: pytest.CaptureFixture[str], record: Path) -> None:
    code, out, _ = run(capsys, "review", str(record), "--player", "1", "--json", "--seed", "4",
                       *FAST)
    assert code == 0
    data = json.loads(out)
    assert data["format"] == "hollywood-gin-review" and data["player"] == 1
    assert data["names"] == ["Ann", "Bob"]
    assert data["method"]["seed"] == 4 and data["method"]["max_deals"] == 12
    assert data["decision_count"] == len(data["hands"][0]["decisions"]) > 0
    for d in data["hands"][0]["decisions"]:
        assert d["view"]["player"] == 1 and "hindsight" not in d
    code, again, _ = run(capsys, "review", str(record), "--player", "1", "--json", "--seed",
                         "4", *FAST)
    assert again == out  # the same record and seed give the same review


def test_hindsight_is_opt_in_and_labelled(capsys: pytest.CaptureFixture[str],
                                          record: Path) -> None:
    _, out, _ = run(capsys, "review", str(record), "--hindsight", *FAST)
    assert "hindsight (not used for the grade): the opponent held" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["review", "/nonexistent/record.json"], "cannot read record"),
        (["review", "RECORD", "--hand", "7"], "there is no hand 7"),
        # in the player's language (they were English in every one; a QA pass)
        (["--lang", "lt", "review", "RECORD", "--hand", "7"], "nėra raundo 7; serijoje yra "
                                                                "raundai nuo 1 iki"),
        (["--lang", "nb", "review", "RECORD", "--hand", "7"], "det finnes ingen giv 7"),
    ],
)
def test_review_errors_are_clear(capsys: pytest.CaptureFixture[str], record: Path,
                                 argv: list[str], message: str) -> None:
    argv = [str(record) if a == "RECORD" else a for a in argv]
    code, out, err = run(capsys, *argv, *FAST)
    assert code == 2 and out == ""
    assert message in err


@pytest.mark.parametrize("argv", [["review"], ["review", "x.json", "--saved", "abcd"],
                                  ["review", "x.json", "--player", "2"],
                                  ["review", "x.json", "--jobs", "0"]])
def test_review_bad_arguments_are_usage_errors(capsys: pytest.CaptureFixture[str],
                                               argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "hollywood-gin review: error:" in err and len(err.strip().splitlines()) == 1


def test_review_a_saved_match(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from hollywood_gin.store import Store

    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    game = store.new_match(rules=Rules(), seed=5, players=("You", "Computer"))
    bots = [make_bot("basic", seed=1), make_bot("greedy", seed=2)]
    hand = game.match.hand
    while not hand.is_over:
        seat = hand.to_act
        game.act(bots[seat].choose(hand.view(seat)), seat)
    store.close()
    code, out, _ = run(capsys, "review", "--saved", game.id[:6], "--db", url, "--json", *FAST)
    assert code == 0
    data = json.loads(out)
    assert data["names"] == ["You", "Computer"] and len(data["hands"]) == 1
    code, out, err = run(capsys, "review", "--saved", "ffffffff", "--db", url, *FAST)
    assert code == 2 and "no saved match" in err


def test_an_unusable_database_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "review", "--saved", "abcd", "--db",
                       "sqlite:////nonexistent-hollywood-gin-dir/x.db")
    assert code == 2 and len(err.splitlines()) == 1
    assert "cannot open the database" in err


def test_an_unfinished_hand_is_not_reviewed(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    from hollywood_gin.match import Match

    match = Match(seed=9)
    match.apply(Pass())
    path = tmp_path / "open.json"
    save_record(match, path)
    code, _, err = run(capsys, "review", str(path), "--hand", "1", *FAST)
    assert code == 2 and "not over" in err
    code, out, _ = run(capsys, "review", str(path), *FAST)
    # the reason is that no hand is over, not that the turns had one legal action each
    assert code == 0 and "No hand of this match is over yet" in out
    assert "No decision to review" not in out and "Hands:" not in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_draws_only_on_a_terminal() -> None:
    tty = _Terminal()
    bar = ReviewProgress(tty)
    for done in range(4):
        bar(done, 3)
    assert "review [" in tty.getvalue() and "3/3 decisions" in tty.getvalue()
    assert tty.getvalue().endswith("\n")
    pipe = io.StringIO()
    quiet = ReviewProgress(pipe)
    quiet(1, 3)
    quiet(3, 3)
    assert pipe.getvalue() == ""


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_review_reads_a_record_in_any_json_encoding_as_replay_does(
    capsys: pytest.CaptureFixture[str], record: Path, tmp_path: Path, encoding: str
) -> None:
    other = tmp_path / "other.json"
    other.write_text(record.read_text(encoding="utf-8"), encoding=encoding)
    code, out, err = run(capsys, "review", str(other), *FAST)
    assert (code, err) == (0, "")
    assert "Review of Ann's decisions (player 0)" in out


def test_review_says_the_programs_names_in_the_language_and_no_control_character(
    capsys: pytest.CaptureFixture[str], record: Path, tmp_path: Path
) -> None:
    data = json.loads(record.read_text(encoding="utf-8"))
    data["players"] = ["You", "\x1b[2JEvil\nHand 9: forged"]
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(data), encoding="utf-8")
    code, out, _err = run(capsys, "review", str(hostile), "--lang", "af", *FAST)
    assert code == 0
    assert "You" not in out and "\x1b" not in out and "Hand 9" not in out
    code, out, _err = run(capsys, "review", str(hostile), "--json", *FAST)
    assert json.loads(out)["names"] == data["players"]  # the JSON keeps them as saved


@pytest.mark.parametrize("lang", ["en", "af", "lt"])
def test_the_review_fits_the_terminal_and_loses_no_word(
    capsys: pytest.CaptureFixture[str], record: Path, monkeypatch: pytest.MonkeyPatch,
    lang: str
) -> None:
    """Wrapped at spaces to the terminal's width (80 when not a terminal): long lines of
    the summary and the positions were up to 138 columns."""
    words: dict[int, list[str]] = {}
    lines: dict[int, list[str]] = {}
    for columns in (10_000, 80, 60):
        monkeypatch.setenv("COLUMNS", str(columns))
        code, out, _ = run(capsys, "review", str(record), "--hand", "1", "--lang", lang, *FAST)
        assert code == 0
        lines[columns] = out.splitlines()
        assert max(len(line) for line in lines[columns]) <= columns
        words[columns] = out.split()
        # a line that fits is left as it is (a decision's lines are not run together)
        assert {ln for ln in lines[10_000] if len(ln) <= columns} <= set(lines[columns])
    assert words[80] == words[60] == words[10_000]
    monkeypatch.setenv("COLUMNS", "10000")
    assert max(len(line) for line in run(capsys, "review", str(record), "--hand", "1",
                                         *FAST)[1].splitlines()) > 80  # there was wrapping


def test_the_terminal_games_player_is_you_and_a_draw_shows_the_pile_top(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A QA pass read "Review of You's decisions" on an exported match, and "upcard: 2♣" at
    a draw, where 2♣ was the opponent's discard on top of the pile."""
    path = tmp_path / "yours.json"
    save_record(play_hand(("greedy", "random"), 3), path, players=("You", "Computer (level 1)"))
    code, out, _err = run(capsys, "review", str(path), "--hand", "1", *FAST)
    assert code == 0
    assert "Review of your decisions (player 0)" in out and "You's" not in out
    draws = [line for line in out.splitlines() if "top of the pile:" in line]
    assert draws, out
    assert all("upcard:" not in line for line in draws)
