"""The command line's JSON holds the keys docs/json.md lists, in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hollywood_gin.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")


def _keys(heading: str) -> list[set[str]]:
    """The key lists of a section of docs/json.md: its "Keys:" sentence, split at ";"."""
    section = DOC.split(f"## `{heading}`", 1)[1].split("\n## ", 1)[0]
    sentence = section.split("Keys: ", 1)[1].split("\n\n", 1)[0]
    return [set(re.findall(r"`([a-z_]+)`", part)) for part in sentence.split(";")]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("lang", ["en", "lt"])
def test_melds_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str],
                                            lang: str) -> None:
    (top,) = _keys("hollywood-gin melds CARDS --json")
    out = _run(capsys, "--lang", lang, "melds", "As", "2s", "3s", "4h", "5h", "6h", "8d",
               "8c", "8h", "5c", "--json")
    assert set(out) == top and out["deadwood"] == 5
    top, discard = _keys("hollywood-gin melds ELEVEN CARDS --discard --json")
    out = _run(capsys, "--lang", lang, "melds", "As", "2s", "3s", "4h", "5h", "6h", "8d",
               "8c", "8h", "5c", "Kd", "--discard", "--json")
    assert set(out) == top
    assert isinstance(out["discards"], list)
    assert all(set(d) == discard for d in out["discards"])


def test_replay_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    top, hand, action, result = _keys("hollywood-gin replay FILE --json")
    out = _run(capsys, "replay", str(ROOT / "docs" / "example-record.json"), "--json")
    assert set(out) == top
    hands = out["hands"]
    assert isinstance(hands, list)
    for h in hands:
        assert set(h) == hand
        assert all(set(a) == action for a in h["actions"])
        assert h["result"] is None or set(h["result"]) == result


def test_stats_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    (top,) = _keys("hollywood-gin stats --json")
    out = _run(capsys, "stats", "--json", "--db", f"sqlite:///{tmp_path / 'games.db'}")
    assert set(out) == top
