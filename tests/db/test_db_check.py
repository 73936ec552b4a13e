"""`hollywood-gin db check`: every saved match replays (the backups' restore check)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from hollywood_gin import Rules
from hollywood_gin.cli import main
from hollywood_gin.store import Store


def _damage_and_check(store: Store, url: str, sql: str, match_id: str,
                      capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``sql`` on one saved match behind the store's back, then ``db check``: it must
    fail, and its report is returned."""
    with store.engine.begin() as conn:
        conn.execute(text(sql), {"id": match_id})
    store.close()
    assert main(["db", "check", "--db", url]) == 1
    return capsys.readouterr().out


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

    out = _damage_and_check(store, url,  # a log that no longer replays
                            "UPDATE hg_actions SET action = 'knock Ah' WHERE match_id = :id",
                            bad.id, capsys)
    assert f"does not replay: {bad.id}" in out and "1 of 2 saved matches replay" in out


def test_db_check_reads_a_keeper_sheet_and_reports_a_damaged_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    sheet = store.create_match(rules=Rules.preset("classic"), seed=0, first_dealer=0,
                               players=("ann", "bob"), kind="keeper",
                               meta={"preset": "classic", "hows": {}})
    store.append_action(sheet, 0, hand_number=1, player=0, action="0 25")
    assert main(["db", "check", "--db", url]) == 0  # a sheet's hands are not card actions
    assert "1 of 1 saved matches replay" in capsys.readouterr().out
    damaged = store.new_match(rules=Rules(), seed=5, players=("c", "d"))
    out = _damage_and_check(store, url, "UPDATE hg_matches SET rules = '{' WHERE id = :id",
                            damaged.id, capsys)
    assert f"saved match {damaged.id} is damaged" in out and "1 of 2 saved matches" in out
