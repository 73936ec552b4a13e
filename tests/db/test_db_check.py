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


def _finished(store: Store, seed: int) -> str:
    """A short match (one game to 1 point) played to its end by two basic bots."""
    from hollywood_gin.bots import make_bot

    pm = store.new_match(rules=Rules().replace(columns=1, game_target=1), seed=seed,
                         players=("a", "b"))
    bots = [make_bot("basic", seed=seed), make_bot("basic", seed=seed + 1)]
    while not pm.match.finished:
        if pm.match.hand.is_over:
            pm.match.next_hand()
        hand = pm.match.hand
        pm.act(bots[hand.to_act].choose(hand.view(hand.to_act)))
    return pm.id


@pytest.mark.parametrize(("sql", "said"), [
    ("UPDATE hg_matches SET winner = 1 - winner WHERE id = :id", "winner"),
    ("UPDATE hg_matches SET status = 'abandoned' WHERE id = :id", "status 'abandoned'"),
    ("UPDATE hg_matches SET totals = '[1, 2]' WHERE id = :id", "totals (1, 2)"),
    ("UPDATE hg_hands SET points = points + 1 WHERE match_id = :id", "hand 1"),
    ("DELETE FROM hg_hands WHERE match_id = :id", "hand 1 None"),
])
def test_db_check_compares_the_saved_results_with_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sql: str, said: str
) -> None:
    """The statistics read a match's saved winner, totals and hand results, not its log:
    a changed winner turned a won match into a lost one, and db check said it replayed."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    won, other = _finished(store, 5), _finished(store, 6)
    assert main(["db", "check", "--db", url]) == 0
    assert "2 of 2 saved matches replay" in capsys.readouterr().out
    out = _damage_and_check(store, url, sql, won, capsys)
    assert f"does not replay: {won}: its saved summary differs from its replay" in out, out
    assert said in out and other not in out and "1 of 2 saved matches replay" in out


@pytest.mark.parametrize("totals", ["'[1]'", "'\"ab\"'", "'[1e400, 3]'", "'[true, 3]'"])
def test_damaged_totals_are_a_damaged_match_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], totals: str
) -> None:
    """Totals of one number, a text or an infinity crashed `stats` with a traceback."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    won = _finished(store, 5)
    out = _damage_and_check(store, url, f"UPDATE hg_matches SET totals = {totals} "
                            "WHERE id = :id", won, capsys)
    assert f"saved match {won} is damaged: its totals are not two whole numbers" in out
    assert "0 of 1 saved matches replay" in out
    assert main(["stats", "--db", url]) == 0  # the others are counted, this one named
    assert f"A saved match is damaged and left out: saved match {won} is damaged" in (
        capsys.readouterr().out)


def _matches(store: Store, count: int, actions: int) -> list[str]:
    """``count`` matches, each ``actions`` actions into its first hand (fewer if it ends)."""
    ids = []
    for seed in range(count):
        pm = store.new_match(rules=Rules(), seed=seed, players=("a", "b"))
        for _ in range(actions):
            if pm.match.hand.is_over:
                break
            pm.act(pm.match.hand.legal_actions()[-1])
        ids.append(pm.id)
    return ids


def test_db_check_counts_a_match_with_a_lost_action_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """"4 of 5 saved matches replay" for four matches, one of them short of an action."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    ids = _matches(store, 4, 3)
    out = _damage_and_check(store, url, "DELETE FROM hg_actions WHERE match_id = :id AND "
                            "seq = 2", ids[0], capsys)
    assert "3 of 4 saved matches replay" in out, out


def test_a_malformed_database_file_is_one_line_of_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bytes damaged in the file ("database disk image is malformed"): db check and stats
    --export printed SQLAlchemy's traceback.  Damaged at each tenth of the file in turn."""
    path = tmp_path / "games.db"
    url = f"sqlite:///{path}"
    store = Store(url)
    ids = _matches(store, 12, 60)
    store.close()
    whole = path.read_bytes()
    malformed = 0
    for tenth in range(1, 10):
        data = bytearray(whole)
        start = len(data) * tenth // 10
        data[start:start + 2000] = bytes(b ^ 0x5A for b in data[start:start + 2000])
        path.write_bytes(bytes(data))
        for argv in (["db", "check", "--db", url],
                     ["stats", "--db", url, "--export", ids[5], str(tmp_path / "out.json")]):
            code = main(argv)
            said = capsys.readouterr()
            assert code in (0, 1, 2), (argv, said)
            assert "Traceback" not in said.err and "sqlalchemy" not in said.err + said.out
            if code == 2:
                assert said.err.count("\n") == 1, said.err  # one line
            malformed += "database disk image is malformed" in said.err + said.out
    assert malformed  # some tenth hit the matches' pages


def test_db_check_and_current_never_create_the_database_they_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped path: db check built a fresh database there and passed ("0 of 0 saved
    matches replay", exit 0), the restore check's one wrong answer, and db current left an
    empty file (found by a QA pass).  Neither creates anything now; check fails in words."""
    typo = tmp_path / "gmaes.db"
    url = f"sqlite:///{typo}"
    assert main(["db", "check", "--db", url]) == 2
    assert f"there is no database at {url}: no file {typo}" in capsys.readouterr().err
    assert main(["db", "current", "--db", url, "--check"]) == 1
    assert "empty (no file yet)" in capsys.readouterr().out
    assert main(["db", "current", "--db", url]) == 0
    assert not typo.exists()
    # another program's database: nothing of ours to check, and none of our tables made
    import sqlite3

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    assert main(["db", "check", "--db", f"sqlite:///{other}"]) == 2
    assert "has no hollywood-gin tables: nothing to check" in capsys.readouterr().err
    with sqlite3.connect(other) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master")]
    assert tables == ["notes"]


def test_a_file_that_is_not_a_database_is_said_in_the_drivers_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It quoted SQLAlchemy's error, the query it ran with it ("[SQL: SELECT name FROM
    sqlite_master ...]"; a QA pass)."""
    text = tmp_path / "notes.db"
    text.write_text("hello\n")
    for command in ("check", "current"):
        assert main(["db", command, "--db", f"sqlite:///{text}"]) == 2
        err = capsys.readouterr().err
        assert err.strip().endswith("file is not a database") and "SQL" not in err


def test_db_check_says_how_far_it_has_got_on_a_big_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """3,250 matches took 11 s without a word: a line on stderr every so many matches."""
    from hollywood_gin import dbcommands

    monkeypatch.setattr(dbcommands, "CHECK_PROGRESS_EVERY", 2)
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    for seed in range(5):
        store.new_match(rules=Rules(), seed=seed, players=("a", "b"))
    store.close()
    assert main(["db", "check", "--db", url]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == ["hollywood-gin: 2 of 5 saved matches checked",
                                         "hollywood-gin: 4 of 5 saved matches checked"]
    assert "5 of 5 saved matches replay" in captured.out
