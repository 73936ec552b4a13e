"""Saved games: each action committed before it is applied; replay on load; conflicts; undo."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hollywood_gin import IllegalActionError, Rules
from hollywood_gin.actions import action_from_id
from hollywood_gin.store import DB_ENV, Store, StoreConflict, StoreError, default_url


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    s = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield s
    s.close()


def play(pm, moves: int, seed: int = 0) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    for _ in range(moves):
        hand = pm.match.hand
        if hand.is_over:
            if pm.match.finished:
                return
            pm.match.next_hand()
            hand = pm.match.hand
        pm.act(action_from_id(rng.choice(hand.legal_action_ids())))


def test_every_action_is_saved_and_replays(store: Store) -> None:
    pm = store.new_match(rules=Rules(), seed=7, players=("me", "computer"))
    play(pm, 150)
    again = store.open_match(pm.id)
    assert again.match.hand == pm.match.hand
    assert again.match.sheet == pm.match.sheet
    assert len(store.load(pm.id).actions) == pm.action_count == 150


def test_row_states_read_counts_meta_and_seats_in_one_call(store: Store) -> None:
    """What a server compares its live tables with to notice a lost announcement of a
    change that adds no action (a friend joining, a readiness, an abandon)."""
    first = store.new_match(rules=Rules(), seed=3, players=("a", "b"), meta={"web": 1})
    second = store.new_match(rules=Rules(), seed=4, players=("a", "b"))
    play(first, 3)
    store.add_seat(first.id, 0, "a")
    store.add_seat(first.id, 1, "b")
    store.set_meta(second.id, ready={"hand": 1, "seats": [0]})
    assert store.row_states([first.id, second.id, "nosuch"]) == {
        first.id: (3, {"web": 1}, 2), second.id: (0, {"ready": {"hand": 1, "seats": [0]}}, 0)}
    assert store.row_states([]) == {}


def test_announcements_of_presence_parse_and_garbage_is_skipped() -> None:
    from hollywood_gin.announce import presence_line
    from hollywood_gin.store import Announcement, parse_announcement

    payload = "\n".join(["me", presence_line("t1", 1, 2), "q t1", "p t1 0 0", "p t1 2 1",
                          "p t1 0 x", "p t1 0 -1", "p t1 0", "p t1 0 1 9", "q", "z t1",
                          "a t1 0 1 0 pass"])
    sender, items = parse_announcement(payload)
    assert sender == "me"
    assert items == [Announcement("p", "t1", player=1, count=2), Announcement("q", "t1"),
                     Announcement("p", "t1", player=0, count=0),
                     Announcement("a", "t1", 0, 1, 0, "pass")]


def test_illegal_action_saves_nothing(store: Store) -> None:
    pm = store.new_match(rules=Rules(), seed=1, players=("a", "b"))
    before = pm.match.hand.clone()
    with pytest.raises(IllegalActionError):
        pm.act(action_from_id(2))  # draw during the opening offer
    assert pm.match.hand == before
    assert store.load(pm.id).actions == ()


def test_second_writer_gets_a_conflict(store: Store) -> None:
    pm = store.new_match(rules=Rules(), seed=2, players=("a", "b"))
    other = store.open_match(pm.id)
    pm.act(action_from_id(0))
    with pytest.raises(StoreConflict):
        other.act(action_from_id(1))
    assert [a.action for a in store.load(pm.id).actions] == ["pass"]


def test_undo_goes_back_and_forgets(store: Store) -> None:
    pm = store.new_match(rules=Rules(), seed=3, players=("a", "b"))
    play(pm, 10)
    snapshot = store.open_match(pm.id)
    play(snapshot, 6, seed=9)
    snapshot.undo_to(10)
    assert snapshot.match.hand == pm.match.hand
    assert len(store.load(pm.id).actions) == 10


def test_hand_results_and_match_end_are_stored(store: Store) -> None:
    pm = store.new_match(rules=Rules(game_target=20, columns=1), seed=4, players=("a", "b"))
    rng = random.Random(0)
    while not pm.match.finished:
        hand = pm.match.hand
        if hand.is_over:
            pm.match.next_hand()
            continue
        ids = hand.legal_action_ids()
        knocks = [i for i in ids if i >= 56]
        pm.act(action_from_id(knocks[0] if knocks else rng.choice(ids)))
    row = store.load(pm.id)
    assert row.status == "finished" and row.winner == pm.match.winner
    assert row.totals == pm.match.sheet.totals
    results = [h.result for h in pm.match.hands if h.result is not None]
    assert [(h["kind"], h["winner"], h["points"]) for h in store.hands(pm.id)] == [
        (r.kind, r.winner, r.points) for r in results]


def test_seat_tokens(store: Store) -> None:
    pm = store.new_match(rules=Rules(), seed=5, players=("a", "b"), kind="friend")
    other = store.new_match(rules=Rules(), seed=6, players=("c", "d"), kind="friend")
    t0, t1 = store.add_seat(pm.id, 0, "a"), store.add_seat(pm.id, 1, "b")
    assert len(t0) >= 32 and t0 != t1
    assert store.seat_of_token(pm.id, t0) == 0 and store.seat_of_token(pm.id, t1) == 1
    assert store.seat_of_token(other.id, t0) is None
    assert store.seat_of_token(pm.id, "guess") is None
    assert store.seats(pm.id) == {0: "a", 1: "b"}


def test_missing_and_damaged_matches_are_clear_errors(store: Store) -> None:
    with pytest.raises(StoreError, match="no saved match"):
        store.open_match("nope")
    pm = store.new_match(rules=Rules(), seed=8, players=("a", "b"))
    pm.act(action_from_id(0))
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE hg_actions SET action = 'discard As'")
    with pytest.raises(StoreError, match="does not replay at action 0"):
        store.open_match(pm.id)


def test_unusable_database_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open the database"):
        Store(f"sqlite:///{tmp_path / 'missing-dir' / 'x.db'}")


def test_default_url_reads_the_environment(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    monkeypatch.setenv(DB_ENV, "sqlite:///" + str(tmp_path / "env.db"))
    assert default_url().endswith("env.db")
    monkeypatch.delenv(DB_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert str(tmp_path / "data") in default_url()


def test_undo_into_a_new_hand_keeps_the_finished_hands_result(store: Store) -> None:
    """Undoing the first action of hand 2 must not forget how hand 1 ended."""
    pm = store.new_match(rules=Rules(), seed=12, players=("a", "b"))
    rng = random.Random(1)
    while pm.match.hand.result is None:
        ids = pm.match.hand.legal_action_ids()
        knocks = [i for i in ids if i >= 56]
        pm.act(action_from_id(knocks[0] if knocks else rng.choice(ids)))
    end_of_hand_1 = pm.action_count
    assert len(store.hands(pm.id)) == 1
    pm.act(action_from_id(0))  # the first action of hand 2 deals it
    pm.undo_to(end_of_hand_1)
    assert len(store.hands(pm.id)) == 1
    pm.undo_to(end_of_hand_1 - 1)  # undoing the action that ended hand 1 forgets it
    assert store.hands(pm.id) == []
    pm.undo_to(pm.action_count)  # undoing nothing changes nothing
    assert pm.action_count == end_of_hand_1 - 1


def test_an_abandoned_match_takes_no_move_and_no_undo(store: Store) -> None:
    """Abandoned in one window (a loss in the statistics), a match played on or undone in
    another became a match in play again, or even a win: now each is refused, and the
    match stays as it was abandoned."""
    from hollywood_gin.actions import parse_action
    from hollywood_gin.store import MatchAbandoned

    pm = store.new_match(rules=Rules(), seed=3, players=("You", "Computer"))
    other = store.new_match(rules=Rules(), seed=4, players=("You", "Computer"))
    play(pm, 6)
    store.set_status(pm.id, "abandoned")
    hand = pm.match.hand.clone()
    with pytest.raises(MatchAbandoned, match=f"match {pm.id} was abandoned"):
        pm.act(action_from_id(pm.match.hand.legal_action_ids()[0]))
    assert pm.match.hand == hand
    with pytest.raises(MatchAbandoned):
        pm.undo_to(4)
    with pytest.raises(MatchAbandoned):
        store.append_actions([pm.prepare(parse_action(str(hand.legal_actions()[0])))])
    # in a batch with another match, the abandoned one is left out and the other lands
    assert store.commit_actions([pm.prepare(parse_action(str(hand.legal_actions()[0]))),
                                 other.prepare(parse_action("pass"))]) == {pm.id}
    saved = store.load(pm.id)
    assert (saved.status, len(saved.actions), saved.winner) == ("abandoned", 6, None)
    assert len(store.load(other.id).actions) == 1


def test_a_damaged_file_is_a_store_error_naming_the_database(tmp_path: Path) -> None:
    """"database disk image is malformed" came out of the store as SQLAlchemy's own
    error, which the terminal game does not expect: it crashed with a traceback."""
    path = tmp_path / "games.db"
    url = f"sqlite:///{path}"
    store = Store(url)
    for seed in range(12):
        pm = store.new_match(rules=Rules(), seed=seed, players=("a", "b"))
        play(pm, 60, seed=seed)
    store.close()
    whole = path.read_bytes()
    failed = []
    for tenth in range(1, 10):
        data = bytearray(whole)
        start = len(data) * tenth // 10
        data[start:start + 2000] = bytes(b ^ 0x5A for b in data[start:start + 2000])
        path.write_bytes(bytes(data))
        try:
            damaged = Store(url)
            for row in damaged.matches(damaged=[]):
                damaged.open_match(row.id)
            damaged.close()
        except StoreError as exc:  # never SQLAlchemy's error
            failed.append(str(exc))
    assert any(f"the database {url} failed: database disk image is malformed" in e
               for e in failed), failed
