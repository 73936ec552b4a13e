"""Every subcommand's errors are one line on stderr and exit code 2, never a traceback: bad
values, unwritable paths, missing optional layers; a closed stdout ends it quietly.

The subcommands are read from the parser, so a new one must be added to the tables below
(the first test fails until it is)."""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hollywood_gin import cli
from hollywood_gin.cli import COMMAND_EXTRAS, EXTRA_MODULES, build_parser, main

ROOT = Path(__file__).resolve().parent.parent
RECORD = str(ROOT / "docs" / "example-record.json")
NOWHERE = "/nonexistent-hollywood-gin-dir"


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(actions) == 1
    return dict(actions[0].choices)


#: Out-of-range and malformed values, for every subcommand.
BAD_VALUES: dict[str, list[list[str]]] = {
    "melds": [
        ["--knock-limit", "99", "As"], ["--knock-limit", "-5", "As"],
        ["--knock-limit", "ten", "As"], ["As", "Zq"], ["--discard", "As", "2s"], [""],
        ["As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ad"],
    ],
    "replay": [[f"{NOWHERE}/record.json"], [str(ROOT / "README.md")]],
    "rules": [
        ["--rules", "gin"], ["--rule", "knock_limit=99"], ["--rule", "knock_limit=-5"],
        ["--rule", "oklahoma=on", "--rule", "knock_limit=8"], ["--rule", "color=red"],
        ["--rule", "game_bonus=300"],
    ],
    "arena": [
        ["random", "random", "--hands", "0"], ["random", "random", "--matches", "-3"],
        ["random", "random", "--jobs", "0"], ["random", "random", "--seed", "-1"],
        ["random", "random", "--hands", "2.5"], ["random", "random", "--rule", "columns=9"],
        ["random", "nobody", "--hands", "2"], ["random", "random", "--engine", "gnu"],
        ["random", "random", "--hands", "2", "--plot", f"{NOWHERE}/x.png"],
        ["random", "random", "--hands", "2", "--plot", "/tmp/x.xyz"],
        ["random", "random", "--hands", "2", "--plot", ""],
        ["random", "random", "--hands", "2", "--ray", ""],
        ["random", f"expert:samples={'9' * 5001}", "--hands", "2"],
    ],
    "play": [
        ["--level", "9"], ["--level", "0"], ["--delay", "-1"], ["--delay", "nan"],
        ["--delay", "inf"], ["--delay", "3600"], ["--first", "2"], ["--seed", "-1"],
        ["--rules", "poker"], ["--rule", "knock_limit=11"], ["--rule", "gin_bonus=0"],
    ],
    "stats": [
        ["--export", "abcd"], ["--export", "abcd", f"{NOWHERE}/x.json"],
        ["--export", "abcd", "/"], ["--plot", ""], ["--plot", "/tmp/a.xyz"],
        ["--plot", "/tmp/no-ending"], ["--db", ""],
    ],
    "score": [
        ["--names", "", "bob"], ["--names", "alice", "x" * 99], ["--names", "bob", "Bob"],
        ["--rules", "poker"], ["--rule", "box_bonus=-1"], ["--names", "alice"],
    ],
    "review": [
        [f"{NOWHERE}/record.json"], [str(ROOT / "README.md")], [RECORD, "--player", "2"],
        [RECORD, "--hand", "0"], [RECORD, "--hand", "99"], [RECORD, "--jobs", "0"],
        [RECORD, "--deals", "0"], [RECORD, "--deals", "1"], [RECORD, "--seed", "x"],
        [RECORD, "--seed", "-1"],
        [RECORD, "--saved", "abcd"],
        ["--saved", "ab", "--db", "sqlite://"], ["--saved", "abcd", "--db", "sqlite://"],
    ],
    "serve": [
        ["--port", "0"], ["--port", "70000"], ["--port", "-1"], ["--bot-delay", "-1"],
        ["--bot-delay", "nan"], ["--message-rate", "-1"], ["--message-burst", "0"],
        ["--origin", "gin.example.com"], ["--origin", "ftp://x"], ["--log-level", "loud"],
        ["--log-format", "xml"], ["--db", " "],
    ],
    "db": [
        [], ["bogus"], ["upgrade", "--db", f"sqlite:///{NOWHERE}/x.db"],
        ["current", "--db", f"sqlite:///{NOWHERE}/x.db"],
        ["check", "--db", f"sqlite:///{NOWHERE}/x.db"],
        ["upgrade", "--revision", "9999", "--db", "sqlite://"], ["check", "--db", ""],
    ],
}

#: Arguments under which each subcommand writes something to stdout and then ends (a
#: command with a screen of its own prints its help, which argparse writes itself).
OUTPUT: dict[str, list[str]] = {
    "melds": ["melds", "--discard", "As 2s 3s 4h 5h 6h 8d 8c 8h 5c Kd"],
    "replay": ["replay", RECORD],
    "rules": ["rules"],
    "arena": ["arena", "random", "random", "--hands", "2", "--quiet"],
    "play": ["play", "--help"],
    "stats": ["stats", "--db", "sqlite://"],
    "score": ["score", "--help"],
    "serve": ["serve", "--help"],
    "db": ["db", "history"],
    "review": ["review", RECORD, "--deals", "8"],
}


def test_every_subcommand_is_in_the_tables() -> None:
    names = set(subcommands())
    assert names == set(BAD_VALUES) == set(OUTPUT)


def run_main(argv: list[str]) -> int:
    """``main``'s exit code, whether it returns it or argparse exits with it."""
    try:
        return main(argv)
    except SystemExit as exc:
        assert isinstance(exc.code, int)
        return exc.code


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, f"stderr is not one line: {err!r}"
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(("command", "argv"),
                         [(c, a) for c, bad in BAD_VALUES.items() for a in bad],
                         ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_bad_values_are_one_line_and_exit_code_2(capsys: pytest.CaptureFixture[str],
                                                 command: str, argv: list[str]) -> None:
    code = run_main([command, *argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert re.match(rf"hollywood-gin {command}( [a-z]+)?: error: ", line), line  # db check


@pytest.mark.parametrize("argv", [["bogus"], ["--bogus"], ["melds", "As", "--bogus"]])
def test_a_bad_command_is_one_line_too(capsys: pytest.CaptureFixture[str],
                                       argv: list[str]) -> None:
    assert run_main(argv) == 2
    assert one_error_line(capsys.readouterr().err).startswith("hollywood-gin: error: ")


@pytest.mark.parametrize(("argv", "message"), [
    (["melds", "--knock-limit", "99", "As"], "it must be a whole number from 0 to 10, not '99'"),
    (["melds", "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"], "give 1 to 11 cards"),
    # it tags --discard's lines only: alone it used to be taken and do nothing
    (["melds", "--knock-limit", "5", "As 2s 3s"], "--knock-limit tags the discards of"),
    (["play", "--delay", "-1"], "it must be a number from 0 to 10, not '-1'"),
    (["play", "--level", "9"], "level must be 1 to 5, not 9"),
    (["arena", "random", "random", "--hands", "0"], "it must be a whole number, 1 or more"),
    # Only ASCII digits: int() reads Arabic-Indic digits and underscores too.
    (["arena", "random", "random", "--seed", "\u0663"],
     "from 0 to 9223372036854775807, not '\u0663'"),
    (["play", "--seed", "1_000"], "not '1_000'"),
    (["stats", "--export", "abcd", f"{NOWHERE}/x.json"],
     f"cannot write {NOWHERE}/x.json: there is no folder {NOWHERE}"),
    (["arena", "a", "b", "--plot", f"{NOWHERE}/x.png"], f"cannot write {NOWHERE}/x.png"),
    # before any game: the format is told by the ending, and Matplotlib has no .xyz
    (["arena", "random", "random", "--plot", "/tmp/x.xyz"],
     "cannot draw /tmp/x.xyz: a picture's file name ends in .png, .svg, .pdf"),
    (["stats", "--plot", ""], "cannot write '': no file name was given"),
    (["arena", "random", "random", "--ray", ""], "the Ray address is empty"),
    # Ray's own error was a traceback ("ValueError: Invalid address format"; a QA pass)
    (["arena", "random", "random", "--ray", "nonsense"], "not a Ray address: 'nonsense'"),
    (["arena", "random", "random", "--ray", "head:99999"], "not a Ray address: 'head:99999'"),
    (["arena", "random", f"greedy:danger={'9' * 5001}"],
     "(a finite number, of at most 300 digits)"),
    (["serve", "--message-rate", "-1"], "--message-rate: it must be a number, 0 or more"),
    (["score", "--names", "bob", "Bob"], "the two players need different names"),
    (["rules", "--rule", "knock_limit=-5"],
     "knock_limit='-5' is invalid: it must be a whole number from 0 to 10"),
    (["arena", "random", "random", "--hands", "2", "--engine", "openspiel", "--rule",
      "knock_limit=5"], "--engine openspiel plays OpenSpiel's own gin_rummy rules"),
])
def test_the_error_says_what_was_wrong(capsys: pytest.CaptureFixture[str], argv: list[str],
                                       message: str) -> None:
    assert run_main(argv) == 2
    assert message in one_error_line(capsys.readouterr().err)


@pytest.mark.parametrize("command", ["play", "stats", "score", "serve"])
def test_an_unusable_database_is_one_line(capsys: pytest.CaptureFixture[str],
                                          command: str) -> None:
    assert main([command, "--db", f"sqlite:///{NOWHERE}/x.db"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert f"cannot open the database sqlite:///{NOWHERE}/x.db" in line


def test_serve_on_an_address_in_use_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", "sqlite://"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert f"cannot listen on 127.0.0.1:{port}: " in line and "in use" in line
    assert main(["serve", "--host", "no-such-host.invalid", "--db", "sqlite://"]) == 2
    assert "cannot listen on no-such-host.invalid" in one_error_line(capsys.readouterr().err)


def test_an_os_error_of_any_command_is_one_line_naming_the_path(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(args: argparse.Namespace) -> int:
        raise FileNotFoundError(2, "No such file or directory", "/gone/x.json")

    monkeypatch.setattr(cli, "_cmd_rules", fails)
    assert main(["rules"]) == 2
    assert one_error_line(capsys.readouterr().err) == \
        "hollywood-gin rules: error: cannot use /gone/x.json: No such file or directory"


def test_stats_export_to_an_unwritable_path_writes_nothing(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """The issue's case: a real match exported to /nonexistent/x.json."""
    from hollywood_gin.rules import Rules
    from hollywood_gin.store import Store

    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    try:
        match_id = store.new_match(rules=Rules(), seed=3, first_dealer=0,
                                   players=("You", "Bot")).id
        store.set_status(match_id, "abandoned")  # one still played is not exported
    finally:
        store.close()
    assert main(["stats", "--db", url, "--export", match_id, f"{NOWHERE}/x.json"]) == 2
    assert f"cannot write {NOWHERE}/x.json" in one_error_line(capsys.readouterr().err)
    out = tmp_path / "x.json"
    assert main(["stats", "--db", url, "--export", match_id, str(out)]) == 0
    assert json.loads(out.read_text())["format"] == "hollywood-gin-record"


# -- a closed stdout --------------------------------------------------------------------------

def run_into_closed_pipe(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run the command with its stdout a pipe whose reading end is already closed, so the
    first write fails (no race: nothing ever reads)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "hollywood_gin", *argv], stdout=write,
                              stderr=subprocess.PIPE, text=True, check=False, timeout=120)
    finally:
        os.close(write)


@pytest.mark.parametrize("command", sorted(OUTPUT))
def test_a_closed_stdout_ends_every_command_quietly(command: str) -> None:
    done = run_into_closed_pipe(OUTPUT[command])
    assert done.stderr == ""
    assert done.returncode in ((0, 1) if "--help" in OUTPUT[command] else (1,))


@pytest.mark.parametrize("command", sorted(OUTPUT))
def test_help_into_a_closed_stdout_is_quiet(command: str) -> None:
    done = run_into_closed_pipe([command, "--help"])
    # argparse itself drops a help it cannot write; either way nothing is said
    assert done.stderr == "" and done.returncode in (0, 1)


def test_replay_into_head_prints_its_first_line_quietly() -> None:
    """The issue's case: ``replay docs/example-record.json | head -1``."""
    done = subprocess.run(f"{sys.executable} -m hollywood_gin replay {RECORD} | head -1",
                          shell=True, capture_output=True, text=True, check=False)
    assert done.stdout == "Hand 1\n" and done.stderr == ""


# -- a missing optional layer -----------------------------------------------------------------

@pytest.mark.parametrize(("missing", "argv", "extra"), [
    ("uvicorn", ["serve"], "web"),
    ("starlette", ["serve"], "web"),
    ("sqlalchemy", ["serve"], "web"),
    ("prometheus_client", ["serve"], "web"),
    ("alembic", ["db", "upgrade", "--db", "sqlite://"], "store"),
    ("psycopg", ["db", "upgrade", "--db", "postgresql+psycopg://u:p@127.0.0.1:9/x"],
     "postgres"),
    ("textual", ["play"], "play"),
    ("textual", ["score"], "play"),
    ("sqlalchemy", ["stats"], "play"),
    ("sqlalchemy", ["review", "--saved", "abcd", "--db", "sqlite://"], "store"),
    ("sqlalchemy", ["play"], "play"),
    ("psycopg", ["stats", "--db", "postgresql+psycopg://u:p@127.0.0.1:9/x"], "postgres"),
    ("redis", ["serve", "--db", "postgresql+psycopg://u:p@127.0.0.1:9/x", "--bus",
               "redis://127.0.0.1:9/0"], "redis"),
    ("matplotlib", ["arena", "random", "random", "--hands", "2", "--plot", "x.png"], "plot"),
    ("matplotlib", ["stats", "--plot", "x.png"], "plot"),
    ("ray", ["arena", "random", "random", "--hands", "2", "--ray", "auto"], "cluster"),
    ("pyspiel", ["arena", "random", "random", "--hands", "2", "--engine", "openspiel"],
     "openspiel"),
])
def test_a_missing_layer_names_the_extra_to_install(tmp_path: Path, missing: str,
                                                    argv: list[str], extra: str) -> None:
    """The module is made missing in a fresh interpreter (None in sys.modules), as on a
    machine without that extra."""
    code = (f"import sys; sys.modules[{missing!r}] = None\n"
            "from hollywood_gin.cli import main\n"
            f"sys.exit(main({argv!r}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, cwd=tmp_path, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    line = one_error_line(done.stderr)
    assert line.startswith(f"hollywood-gin {argv[0]}: error: ")
    assert f"pip install 'hollywood-gin[{extra}]'" in line and missing in line
    assert not (tmp_path / "x.png").exists()


def test_a_database_driver_that_is_none_of_ours_is_not_sent_to_an_extra(tmp_path: Path) -> None:
    """`--db mysql://` said "this needs the 'play' extra (MySQLdb is not installed)", which
    would not have helped."""
    code = ("import sys; sys.modules['MySQLdb'] = None\n"
            "from hollywood_gin.cli import main\n"
            "sys.exit(main(['stats', '--db', 'mysql://u:secret@127.0.0.1:9/x']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, cwd=tmp_path, timeout=120)
    line = one_error_line(done.stderr)
    assert done.returncode == 2 and "pip install" not in line and "secret" not in line
    assert "its driver MySQLdb is not installed" in line and "SQLite and PostgreSQL" in line


def test_the_extras_table_matches_pyproject() -> None:
    """EXTRA_MODULES names the modules of every extra of pyproject.toml that the command
    line can need (dev is the test tools, rl a library for research code)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    module_of = {"open-spiel": "pyspiel", "prometheus-client": "prometheus_client",
                 "markdown-it-py": "markdown_it"}

    def modules(extra: str) -> set[str]:
        found: set[str] = set()
        for requirement in extras[extra]:
            name = requirement.split(">")[0].split("[")[0].split("=")[0].strip()
            if name == "hollywood-gin":
                for inner in requirement.split("[")[1].split("]")[0].split(","):
                    found |= modules(inner)
            else:
                found.add(module_of.get(name, name))
        return found

    assert set(EXTRA_MODULES) == set(extras) - {"dev"}
    for extra, names in EXTRA_MODULES.items():
        assert names == modules(extra), extra
    assert set(COMMAND_EXTRAS.values()) <= set(EXTRA_MODULES)
    assert set(COMMAND_EXTRAS) <= set(subcommands())
