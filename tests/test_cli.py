"""The ``hollywood-gin`` command line: melds, replay, --json, --help, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hollywood_gin.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_melds_prints_best_arrangement(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "melds", "5s 6s 7s 9h 9d 9c Jc Qc Kc 3d")
    assert code == 0
    assert "5♠ 6♠ 7♠" in out and "9♥ 9♦ 9♣" in out and "= 3" in out


def test_melds_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "melds", "--json", "As,2s,3s,Kd,Kh")
    data = json.loads(out)
    assert code == 0
    assert data == {"cards": ["As", "2s", "3s", "Kd", "Kh"], "melds": [["As", "2s", "3s"]],
                    "unmatched": ["Kh", "Kd"], "deadwood": 20}


def test_melds_discard_ranks_every_discard(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "As 2s 3s 4h 5h 6h 8d 8c 8h 5c Kd"
    code, out, _ = run(capsys, "melds", "--discard", "--json", hand)
    data = json.loads(out)
    assert code == 0
    assert data["best"] == ["Kd"]
    assert len(data["discards"]) == 11
    by_card = {d["card"]: d for d in data["discards"]}
    assert by_card["Kd"]["deadwood"] == 5 and by_card["Kd"]["can_knock"]
    assert by_card["5c"]["deadwood"] == 10 and by_card["5c"]["can_knock"]
    assert not by_card["As"]["can_knock"]
    code, out, _ = run(capsys, "melds", "--discard", hand)
    assert code == 0 and "Best discard: K♦ (deadwood 5)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["melds", "As", "Zq"], "cannot read card 'Zq'"),
        (["melds", "As", "as"], "given twice"),
        (["melds", "--discard", "As", "2s"], "--discard needs 11 cards"),
        (["replay", "/nonexistent/record.json"], "cannot read record"),
    ],
)
def test_bad_input_is_a_clear_error(capsys: pytest.CaptureFixture[str], argv: list[str],
                                    message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_replay_prints_hand_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(DOCS / "example-record.json"))
    assert code == 0
    assert "Hand 1" in out and "Bob deals" in out and "knocks and wins" in out
    assert "Match over: Bob wins" in out


def test_replay_speaks_to_you_in_the_second_person(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A record of the terminal game names the player "You": "You take 4♦", not "You takes"."""
    data = json.loads((DOCS / "example-record.json").read_text())
    data["players"] = ["Alexandra", "You"]  # Bob, who deals, takes and knocks, is you
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    for right in ("You deal. Upcard J♠.", "  You take 4♦", "  You discard 10♦",
                  "  You knock, discarding K♠", "  You show A♣ 2♣ 3♣", "  You draw ",
                  "You knock and win: 47 points (deadwood 10 against 57).",
                  "Match over: you win, result +352.", "  Alexandra takes J♠"):
        assert right in out, right
    for wrong in ("You deals", "You takes", "You knocks", "You discards", "You draws",
                  "You shows", "You wins", "You passes", "You lays", "You goes"):
        assert wrong not in out, wrong
    # cards on screen have suit symbols, never the letter form of the record
    assert "Kd" not in out and "Th" not in out and "4d" not in out


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32"])
def test_replay_reads_a_record_in_any_json_encoding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], encoding: str) -> None:
    """A record saved by an editor with a byte order mark replays as the record reader reads
    it (replay read the file a second time as plain UTF-8, and refused it)."""
    path = tmp_path / "bom.json"
    path.write_bytes((DOCS / "example-record.json").read_text().encode(encoding))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "Match over: Bob wins" in out


def test_replay_sends_no_escape_sequence_of_a_name_to_the_terminal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((DOCS / "example-record.json").read_text())
    data["players"] = ["\x1b]0;pwned\x07Eve", "Bob\nHand 9"]
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\nHand 9" not in out  # no forged line
    assert "\ufffd]0;pwned\ufffdEve" in out and "Bob\ufffdHand 9" in out


def test_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", "--json", str(DOCS / "example-record.json"))
    data = json.loads(out)
    assert code == 0
    assert data["players"] == ["Alexandra", "Bob"]
    assert data["winner"] == 1 and data["totals"] == [0, 352]
    assert data["hands"][0]["result"]["kind"] == "knock"


def test_replay_refuses_a_tampered_record(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((DOCS / "example-record.json").read_text())
    data["hands"][0]["result"]["points"] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "hand 1" in err and "states result" in err


@pytest.mark.parametrize("command", ["melds", "replay"])
def test_help_everywhere(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    assert "usage: hollywood-gin " + command in capsys.readouterr().out


def test_installed_command_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "hollywood_gin", "melds", "As 2s 3s"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "A♠ 2♠ 3♠" in done.stdout


def test_every_layer_adds_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("melds", "replay", "arena", "play", "stats", "score", "serve"):
        assert f"    {command} " in out, f"{command} missing from hollywood-gin --help"


def test_help_needs_no_optional_dependency() -> None:
    """``hollywood-gin --help`` must work on a core-only install: no layer imports its
    third-party packages until its command runs."""
    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def guard(name, *a, **k):\n"
        "    if name.split('.')[0] in {'textual', 'starlette', 'uvicorn', 'sqlalchemy',\n"
        "                              'ray', 'pyspiel', 'gymnasium', 'pettingzoo', 'numpy',\n"
        "                              'matplotlib', 'platformdirs'}:\n"
        "        raise ImportError('optional ' + name)\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = guard\n"
        "from hollywood_gin.cli import main\n"
        "sys.exit(main(['melds', 'As', '2s', '3s']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "A♠ 2♠ 3♠" in done.stdout


def test_melds_discard_wraps_a_long_language_line_keeping_each_meld_whole(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """In Lithuanian a line of `melds --discard` ran to 85 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["--lang", "lt", "melds", "As", "2s", "3s", "4h", "5h", "6h", "8d", "8c",
                 "8h", "5c", "Kd", "--discard"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    text = " ".join(" ".join(lines).split())
    assert "A♠ 2♠ 3♠ 4♥ 5♥ 6♥ 8♥ 8♦ 8♣" in text
    assert not any(line.strip() in ("8♦ 8♣", "8♣") for line in lines), lines  # melds whole
