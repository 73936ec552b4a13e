"""The terminal game when its games file stops taking writes (a full disk, a file made
read-only under it): each step that cannot be saved is refused in words and changes
nothing, and the game goes on once the file takes writes again.  It used to end the
program with SQLAlchemy's traceback (found by hand: ``play`` on a read-only file)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from tui_helpers import human_turn, play_to_hand_end, screen_text, settle

from hollywood_gin.rules import PRESETS
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HandEndScreen
from hollywood_gin.tui.session import GameSession


def _query_only(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.execute("PRAGMA query_only=ON")


class ReadOnly:
    """Turns the store's file read-only for SQLite (every write: 'attempt to write a
    readonly database'), and back."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def __enter__(self) -> None:
        event.listen(self.store.engine, "connect", _query_only)
        self.store.engine.dispose()

    def __exit__(self, *exc: object) -> None:
        event.remove(self.store.engine, "connect", _query_only)
        self.store.engine.dispose()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield store
    store.close()


def _game(store: Store, seed: int, preset: str) -> GinApp:
    """A match against level 1 started at once, the person to act first."""
    return GinApp(store=store, delay=0, ask=False, seed=seed, first_dealer=1, level=1,
                  rules=PRESETS[preset])


def _said(app: GinApp) -> str:
    return " ".join(screen_text(app).split())


def test_a_move_that_cannot_be_saved_is_refused_and_the_game_goes_on(store: Store) -> None:
    async def run() -> None:
        app = _game(store, 5, "eaai")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            session = app.session
            assert session is not None and session.human_to_act
            before = (session.pm.action_count, session.hand.history, session.view())
            with ReadOnly(store):
                await human_turn(pilot, app)
                await pilot.pause()
                assert "Not saved, so nothing changed" in _said(app)
                assert "readonly" in _said(app)
                assert app.session is session and app.is_running
                assert (session.pm.action_count, session.hand.history,
                        session.view()) == before
            await human_turn(pilot, app)  # the file takes writes again: the same move plays
            await settle(pilot, app)
            assert session.pm.action_count > before[0]
            assert len(store.load(session.id).actions) == session.pm.action_count

    asyncio.run(run())


def test_the_next_hand_is_not_dealt_when_it_cannot_be_saved(store: Store) -> None:
    async def run() -> None:
        app = _game(store, 4, "hollywood")  # a short first hand
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_hand_end(pilot, app)
            session = app.session
            assert session is not None and not session.match.finished
            with ReadOnly(store):
                await pilot.press("enter")  # the hand end's "Next hand"
                await settle(pilot, app)
                assert session.hand_number == 1 and session.hand.is_over
                assert isinstance(app.screen, HandEndScreen)  # its end is shown again,
                assert "Not saved, so nothing changed" in _said(app)  # saying why,
                assert "Next hand (Enter)" in _said(app)  # its buttons in sight at 80x24
            assert store.load(session.id).meta.get("dealt", 1) == 1
            await pilot.press("enter")
            await settle(pilot, app)
            assert session.hand_number == 2 and not session.hand.is_over
            assert store.load(session.id).meta["dealt"] == 2

    asyncio.run(run())


def test_a_match_that_cannot_be_started_is_said_not_a_traceback(store: Store) -> None:
    async def run() -> None:
        app = GinApp(store=store, delay=0, ask=False, seed=5, level=1)
        with ReadOnly(store):
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                assert app.session is None and app.is_running
                assert "The match could not be started" in _said(app)

    asyncio.run(run())
    assert store.matches(kind="computer") == []


def test_a_hint_that_cannot_be_counted_is_not_shown(store: Store) -> None:
    session = GameSession.new(store, level=1, rules=PRESETS["eaai"], seed=5, first_dealer=1)
    position = session.hint_position()[0]
    with ReadOnly(store), pytest.raises(Exception, match="readonly"):
        session.give_hint(position)
    assert not session.assisted and store.load(session.id).meta["hints"] == 0
    assert session.give_hint(position) and store.load(session.id).meta["hints"] == 1


def test_an_abandon_that_cannot_be_saved_leaves_the_match_listed(store: Store) -> None:
    from textual.app import App

    from hollywood_gin.tui.saved import ConfirmScreen, SavedGamesScreen, saved_rows

    session = GameSession.new(store, level=2, rules=PRESETS["eaai"], seed=5, first_dealer=1)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(SavedGamesScreen(saved_rows(store), store=store))

    async def run() -> None:
        app = Host()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("delete")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            with ReadOnly(store):
                await pilot.click("#yes")
                await pilot.pause()
                assert isinstance(app.screen, SavedGamesScreen) and app.is_running
                said = [n.message for n in app._notifications]
                assert any("Not abandoned" in m and "readonly" in m for m in said), said
                assert "Computer" in _said(app)  # its row is still listed
                assert app.screen.abandoned == []

    asyncio.run(run())
    assert store.load(session.id).status == "playing"


def test_an_undo_that_cannot_be_saved_says_so(store: Store) -> None:
    async def run() -> None:
        app = _game(store, 5, "eaai")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            session = app.session
            assert session is not None
            while not session.can_undo:
                await human_turn(pilot, app)
                await settle(pilot, app)
            count = session.pm.action_count
            with ReadOnly(store):
                await pilot.press("u")
                await pilot.pause()
                assert "Not saved, so nothing changed" in _said(app)
            assert session.pm.action_count == count and not session.assisted

    asyncio.run(run())
