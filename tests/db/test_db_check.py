"""`hollywood-gin db check`: every saved match replays (the backups' restore check)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from hollywood_gin import Rules
from hollywood_gin.cli import main
from hollywood_gin.store import Store


def test_db_check_replays_every_match_and_names_a_damaged_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    good = store.new_match(rules=Rules(), seed=3, players=("a", "b"))
    for _ in range(6):
        good.act(good.match.hand.legal_actions()[0])
    bad = store.new_match(rules=Rules(), seed=4, players=("c", "d"))
    bad.act(bad.match.hand.legal_actions()[0])
    assert main(["db", "check", "--db", url]) == 0
    assert "2 of 2 saved matches replay (7 actions)" in capsys.readouterr().out

    with store.engine.begin() as conn:  # a log that no longer replays
        conn.execute(text("UPDATE hg_actions SET action = 'knock Ah' WHERE match_id = :id"),
                     {"id": bad.id})
    store.close()
    assert main(["db", "check", "--db", url]) == 1
    out = capsys.readouterr().out
    assert f"does not replay: {bad.id}" in out and "1 of 2 saved matches replay" in out
