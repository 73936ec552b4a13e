"""Several writers on one PostgreSQL database (issue 15), at the store's level: two stores
(two processes' connections) committing the same step at once land exactly once, a
stale action leaves the rest of its batch to commit, every commit is announced on the
channel in its own transaction, and bot leases are held by one holder until released or
expired."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from hg_db_support import pg_url, plain, with_schema

from hollywood_gin import Rules
from hollywood_gin.actions import action_from_id, parse_action
from hollywood_gin.store import (
    CHANNEL,
    PendingAction,
    PersistentMatch,
    Store,
    StoreConflict,
    parse_announcement,
)


@pytest.fixture()
def url() -> Iterator[str]:
    """An empty schema of the test database of its own (dropped afterwards)."""
    base, name = pg_url(), f"hg_race_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(plain(base), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield with_schema(base, name)
    finally:
        with psycopg.connect(plain(base), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def _next(pm: PersistentMatch) -> str:
    hand = pm.match.hand
    if hand.is_over:
        pm.match.next_hand()
        hand = pm.match.hand
    return str(hand.legal_actions()[0])


def _at_once(commits: list[tuple[Store, PendingAction]]) -> list[set[str] | Exception]:
    """``commit_actions`` of each store at the same moment (a thread each): the results."""
    start = threading.Barrier(len(commits))
    results: list[set[str] | Exception] = []

    def commit(store: Store, item: PendingAction) -> None:
        start.wait()
        try:
            results.append(store.commit_actions([item]))
        except Exception as exc:  # a race the store did not handle
            results.append(exc)

    threads = [threading.Thread(target=commit, args=pair) for pair in commits]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_two_writers_racing_on_one_step_land_exactly_once(url: str) -> None:
    first, second = Store(url), Store(url)
    try:
        pm = first.new_match(rules=Rules(), seed=11, players=("a", "b"))
        other = second.open_match(pm.id)
        for _ in range(40):
            action = parse_action(_next(pm))
            _next(other)
            mine, theirs = pm.prepare(action), other.prepare(action)
            assert mine == theirs
            results = _at_once([(first, mine), (second, theirs)])
            landed = sorted(len(r) if isinstance(r, set) else -1 for r in results)
            assert landed == [0, 1], results  # exactly one lands, the other is stale
            pm.applied(mine, action)
            other.applied(theirs, action)
        stored = first.load(pm.id)
        assert [a.seq for a in stored.actions] == list(range(40))
    finally:
        first.close()
        second.close()


def test_an_undo_by_a_writer_that_is_behind_forgets_nothing(url: str) -> None:
    """Undo (``truncate``) checks the count it was given under the row's lock: a window that
    is behind the saved match never deletes the moves another one saved."""
    first, second = Store(url), Store(url)
    try:
        pm = first.new_match(rules=Rules(), seed=12, players=("a", "b"))
        for _ in range(4):
            pm.act(parse_action(_next(pm)))
        other = second.open_match(pm.id)
        other.act(parse_action(_next(other)))
        with pytest.raises(StoreConflict, match="has 5 actions saved, not 4"):
            pm.undo_to(2)
        assert [a.seq for a in first.load(pm.id).actions] == list(range(5))
        other.undo_to(2)  # the writer that is up to date may
        assert [a.seq for a in first.load(pm.id).actions] == [0, 1]
    finally:
        first.close()
        second.close()


def test_meta_set_by_many_servers_at_once_keeps_every_change(url: str) -> None:
    """Eight stores (servers) each set a field of one match's meta at the same moment,
    ten times: a read outside the row lock lost some of them to a later write."""
    stores = [Store(url) for _ in range(8)]
    try:
        pm = stores[0].new_match(rules=Rules(), seed=12, players=("a", "b"))
        errors: list[BaseException] = []

        def set_one(i: int, store: Store, r: int, start: threading.Barrier) -> None:
            start.wait()
            try:
                store.set_meta(pm.id, **{f"s{i}": r})
            except BaseException as exc:  # reported below
                errors.append(exc)

        for round_ in range(10):
            start = threading.Barrier(len(stores))
            threads = [threading.Thread(target=set_one, args=(i, s, round_, start))
                       for i, s in enumerate(stores)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert errors == []
            meta = stores[0].load(pm.id).meta
            assert {k: meta.get(k) for k in (f"s{i}" for i in range(8))} == {
                f"s{i}": round_ for i in range(8)}
    finally:
        for store in stores:
            store.close()


def test_a_stale_action_leaves_the_rest_of_its_batch_to_commit(url: str) -> None:
    store = Store(url)
    try:
        one = store.new_match(rules=Rules(), seed=1, players=("a", "b"))
        two = store.new_match(rules=Rules(), seed=2, players=("c", "d"))
        behind = store.open_match(one.id)
        one.act(parse_action(_next(one)))  # another writer took step 0 of match one
        stale = store.commit_actions([behind.prepare(parse_action(_next(behind))),
                                      two.prepare(parse_action(_next(two)))])
        assert stale == {one.id}
        assert len(store.load(one.id).actions) == 1
        assert len(store.load(two.id).actions) == 1
        # Caught up from the log, the late copy goes on.
        behind.catch_up(store.load_since(one.id, behind.action_count))
        assert behind.action_count == 1 and behind.match.hand == one.match.hand
    finally:
        store.close()


def test_commits_are_announced_when_they_commit(url: str) -> None:
    store = Store(url)
    store.announce = "tester"
    listener = psycopg.connect(plain(pg_url()), autocommit=True)
    try:
        listener.execute(f"LISTEN {CHANNEL}")
        pm = store.new_match(rules=Rules(), seed=3, players=("a", "b"))
        action = parse_action(_next(pm))
        item = pm.prepare(action)
        assert store.commit_actions([item]) == set()
        store.update_meta(pm.id, lambda meta: meta.update(ready=1))
        heard = []
        deadline = time.monotonic() + 10
        while len(heard) < 2 and time.monotonic() < deadline:
            for note in listener.notifies(timeout=1, stop_after=1):
                sender, lines = parse_announcement(note.payload)
                heard += [(sender, line) for line in lines if line.match_id == pm.id]
        kinds = [(sender, line.kind, line.seq, line.action) for sender, line in heard]
        assert kinds == [("tester", "a", 0, str(action)), ("tester", "m", -1, "")]
    finally:
        listener.close()
        store.close()


def test_the_store_announces_its_changes_after_they_commit_in_no_writing_transaction(
        url: str) -> None:
    """A transaction that NOTIFYs holds PostgreSQL's NOTIFY lock from its commit until its
    flush is on the disk: a change (an action, a seat's meta, a status, a lease) that
    announced itself inside its own transaction would make every announcing commit of
    every process wait for its flush.  Each pg_notify the store sends is the whole of its
    transaction, and comes after the change it announces has committed."""
    from sqlalchemy import event

    store = Store(url)
    store.announce = "tester"
    since_begin: dict[int, list[str]] = {}
    committed: list[str] = []
    notifies: list[tuple[list[str], list[str]]] = []

    def on_execute(conn, cursor, statement, params, context, many):  # type: ignore[no-untyped-def]
        key = id(conn.connection.dbapi_connection)
        if "pg_notify" in statement:
            notifies.append((list(since_begin.get(key, [])), list(committed)))
        since_begin.setdefault(key, []).append(statement.split()[0].upper())

    def on_end(conn):  # type: ignore[no-untyped-def]
        done = since_begin.pop(id(conn.connection.dbapi_connection), [])
        committed.extend(w for w in done if w in ("INSERT", "UPDATE", "DELETE", "WITH"))

    event.listen(store.engine, "before_cursor_execute", on_execute)
    event.listen(store.engine, "commit", on_end)
    event.listen(store.engine, "rollback", on_end)
    try:
        pm = store.new_match(rules=Rules(), seed=3, players=("a", "b"))
        assert store.commit_actions([pm.prepare(parse_action(_next(pm)))]) == set()
        store.update_meta(pm.id, lambda meta: meta.update(ready=1))
        store.set_status(pm.id, "playing")
        store.add_seat(pm.id, 0, "a")
        assert store.acquire_lease(pm.id, "tester", 30)
        store.release_lease(pm.id, "tester")
        assert len(notifies) == 5  # the action, the meta, the status, the seat, the lease
        assert all(before == [] for before, _ in notifies)  # alone in its transaction
        # ... and each came after its change had committed: the k-th announcement after
        # at least k committed writes.
        assert all(len(done) >= k + 1 for k, (_, done) in enumerate(notifies))
    finally:
        store.close()


def test_the_web_writer_commits_without_notify_and_announces_right_after(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group commit's statement holds no NOTIFY (PostgreSQL serialises the commits of
    transactions that NOTIFY, disk flush by disk flush, across every process); the batch
    is announced after it lands, once, with the sender, and is saved by then."""
    import asyncio

    from hollywood_gin.web.commit import StoreRunner

    store = Store(url)
    store.announce = "writer"
    asked: list[bool] = []
    statement = store.commit_statement

    def spy(items: list[PendingAction], now: float | None = None, *,
            announce: bool = True) -> tuple[str, dict[str, object]]:
        asked.append(announce)
        sql, params = statement(items, now, announce=announce)
        assert ("pg_notify" in sql) == announce
        return sql, params

    monkeypatch.setattr(store, "commit_statement", spy)
    listener = psycopg.connect(plain(pg_url()), autocommit=True)
    runner = StoreRunner(store)
    try:
        listener.execute(f"LISTEN {CHANNEL}")
        one = store.new_match(rules=Rules(), seed=5, players=("a", "b"))
        two = store.new_match(rules=Rules(), seed=6, players=("c", "d"))
        items = [pm.prepare(parse_action(_next(pm))) for pm in (one, two)]

        async def commit() -> None:
            await asyncio.gather(*(runner.commit(item) for item in items))
            await runner.close_writer()

        asyncio.run(commit())
        assert asked == [False]  # one batch, committed quietly
        heard = []
        deadline = time.monotonic() + 10
        while len(heard) < 2 and time.monotonic() < deadline:
            for note in listener.notifies(timeout=1, stop_after=1):
                sender, lines = parse_announcement(note.payload)
                heard += [(sender, line.match_id, line.seq, line.action) for line in lines
                          if line.match_id in (one.id, two.id)]
                for line in lines:  # saved before it was announced
                    if line.match_id in (one.id, two.id):
                        assert len(store.load(line.match_id).actions) == line.seq + 1
        assert sorted(heard) == sorted(("writer", item.match_id, 0, item.action)
                                       for item in items)
    finally:
        runner.close()
        listener.close()
        store.close()


def test_the_web_writer_tells_its_callers_before_it_announces(url: str) -> None:
    """A seat on this process (both seats, with routing by table) sees its action once
    it has committed: it does not wait for the announcement to the other processes,
    which goes out after (and before the next batch, so announcements stay in order)."""
    import asyncio

    from hollywood_gin.web.commit import StoreRunner

    store = Store(url)
    store.announce = "writer"
    runner = StoreRunner(store)
    try:
        pm = store.new_match(rules=Rules(), seed=5, players=("a", "b"))
        item = pm.prepare(parse_action(_next(pm)))

        async def commit() -> list[str]:
            gate, order = asyncio.Event(), []

            async def held_announcement(landed: list[PendingAction]) -> None:
                order.append("announcing")
                await gate.wait()
                order.append("announced")

            runner._announce = held_announcement  # type: ignore[method-assign]
            await asyncio.wait_for(runner.commit(item), 10)
            order.append("caller told")
            gate.set()
            await runner.close_writer()  # waits for the announcement it started
            return order

        assert asyncio.run(commit()) == ["announcing", "caller told", "announced"]
        assert len(store.load(pm.id).actions) == 1
    finally:
        runner.close()
        store.close()


def test_a_bot_lease_has_one_holder_until_released_or_expired(url: str) -> None:
    store = Store(url)
    try:
        match_id = store.new_match(rules=Rules(), seed=4, players=("a", "b")).id
        assert store.acquire_lease(match_id, "p1", 30)
        assert not store.acquire_lease(match_id, "p2", 30)
        assert store.acquire_lease(match_id, "p1", 30)  # its own: renewed
        assert store.renew_leases("p1", [match_id], 30) == {match_id}
        assert store.renew_leases("p2", [match_id], 30) == set()
        store.release_lease(match_id, "p1")
        assert store.acquire_lease(match_id, "p2", 0.2)
        time.sleep(0.5)  # p2 stopped renewing (killed): its lease lapses
        assert store.acquire_lease(match_id, "p3", 30)
        assert store.renew_leases("p2", [match_id], 30) == set()  # p2 learns it lost it
        holder = store.lease_of(match_id)
        assert holder is not None and holder[0] == "p3"
    finally:
        store.close()


def test_a_whole_match_committed_in_batches_stores_what_one_by_one_stores(
        url: str, tmp_path: Path) -> None:
    """The one-statement commit of PostgreSQL saves the hands' results and the match's end
    exactly as the transaction of SQLite does."""
    rules = Rules(game_target=25, columns=1)
    saved = []
    for store in (Store(url), Store(f"sqlite:///{tmp_path / 'games.db'}")):
        try:
            pm = store.new_match(rules=rules, seed=21, first_dealer=0, players=("a", "b"))
            rng = random.Random(5)
            while not pm.match.finished:
                hand = pm.match.hand
                if hand.is_over:
                    pm.match.next_hand()
                    continue
                ids = hand.legal_action_ids()
                knocks = [i for i in ids if i >= 56]
                action = action_from_id(knocks[0] if knocks else rng.choice(ids))
                item = pm.prepare(action)
                assert store.commit_actions([item]) == set()
                pm.applied(item, action)
            row = store.load(pm.id)
            hands = [{k: v for k, v in h.items() if k != "match_id"} for h in store.hands(pm.id)]
            saved.append((row.status, row.winner, row.totals, len(row.actions), hands))
        finally:
            store.close()
    assert saved[0] == saved[1]
    assert saved[0][0] == "finished" and saved[0][4]


def test_an_abandoned_match_is_left_out_of_a_batch_and_refuses_an_undo(url: str) -> None:
    """PostgreSQL's one-statement commit, as SQLite's (tests/test_store.py): a move to an
    abandoned match does not land, and an undo is refused; the rest of the batch lands."""
    from hollywood_gin.store import MatchAbandoned

    store = Store(url)
    try:
        one = store.new_match(rules=Rules(), seed=1, players=("a", "b"))
        two = store.new_match(rules=Rules(), seed=2, players=("c", "d"))
        one.act(parse_action(_next(one)))
        store.set_status(one.id, "abandoned")
        assert store.commit_actions([one.prepare(parse_action(_next(one))),
                                     two.prepare(parse_action(_next(two)))]) == {one.id}
        with pytest.raises(MatchAbandoned):
            one.undo_to(0)
        with pytest.raises(MatchAbandoned):
            one.act(parse_action(_next(one)))
        saved = store.load(one.id)
        assert (saved.status, len(saved.actions)) == ("abandoned", 1)
        assert len(store.load(two.id).actions) == 1
    finally:
        store.close()
