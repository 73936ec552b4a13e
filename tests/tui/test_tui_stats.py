"""Statistics over saved matches, the record export, and the CLI commands of the tui layer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hollywood_gin.bots import make_bot
from hollywood_gin.cli import main
from hollywood_gin.record import load_record
from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.session import HUMAN, GameSession
from hollywood_gin.tui.stats import gather, render


def _play(store: Store, *, level: int, seed: int, rules: Rules) -> GameSession:
    """A whole match through the session, the person's side played by the basic bot."""
    session = GameSession.new(store, level=level, rules=rules, seed=seed, first_dealer=0)
    me = make_bot("basic", seed=seed)
    while not session.match.finished:
        if session.hand.is_over:
            session.next_hand()
        if session.human_to_act:
            session.act(me.choose(session.view(), session.sheet))
        else:
            session.computer_act(session.computer_choice())
    return session


def test_stats_count_matches_hands_gins_undercuts_and_streaks(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    tiny = Rules(game_target=5)
    played = [_play(store, level=level, seed=seed, rules=tiny)
              for level, seed in ((1, 1), (1, 2), (2, 3))]
    unfinished = GameSession.new(store, level=2, rules=tiny, seed=9)
    stats = gather(store)
    assert set(stats.levels) == {1, 2}
    assert stats.levels[1].matches == 2 and stats.levels[2].matches == 2
    assert stats.levels[1].finished == 2 and stats.levels[2].finished == 1
    won = [s for s in played if s.sheet.winner == HUMAN]
    assert sum(s.won for s in stats.levels.values()) == len(won)
    results = [r for s in played for r in s.match.results]
    assert sum(s.hands for s in stats.levels.values()) == len(results)
    assert stats.gins == sum(1 for r in results if r.kind == "gin" and r.winner == HUMAN)
    assert stats.undercuts_given == sum(
        1 for r in results if r.kind == "undercut" and r.winner == HUMAN)
    assert stats.undercuts_suffered == sum(
        1 for r in results if r.kind == "undercut" and r.winner != HUMAN)
    assert stats.best is not None and stats.worst is not None
    assert stats.best.result >= stats.worst.result
    assert stats.longest_streak <= len(won)
    text = render(stats)
    assert "Longest win streak" in text and unfinished.id[:8] in text
    store.close()


def test_stats_cli_json_and_export_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    session = _play(store, level=1, seed=4, rules=Rules(game_target=5))
    store.close()
    assert main(["stats", "--db", url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["levels"]["1"]["finished"] == 1
    out = tmp_path / "match.json"
    assert main(["stats", "--db", url, "--export", session.id[:8], str(out)]) == 0
    capsys.readouterr()
    replayed = load_record(out)
    assert replayed.sheet.totals == session.sheet.totals
    assert main(["replay", str(out)]) == 0
    assert "Hand 1" in capsys.readouterr().out
    assert main(["stats", "--db", url, "--export", "zzzz", str(out)]) == 2


def test_help_lists_the_commands_without_starting_textual(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("play", "stats", "score"):
        assert command in out
    with pytest.raises(SystemExit):
        main(["play", "--level", "7"])


def test_a_match_given_up_counts_as_a_lost_match(tmp_path: Path) -> None:
    """"Abandon this match? It will count as a loss": the statistics say so (issue 11 §2)."""
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    session = GameSession.new(store, level=2, rules=Rules(), seed=1, first_dealer=0)
    session.abandon()
    stats = gather(store)
    assert stats.levels[2].abandoned == 1 and stats.levels[2].won == 0
    text = render(stats)
    assert "given up" in text and "0%" in text  # no win in one decided match
    assert "1 hands" not in text
    store.close()
