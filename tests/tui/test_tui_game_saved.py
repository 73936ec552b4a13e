"""Saved games in the terminal game (issue 11, §2): closing a dialog abandons nothing,
every unfinished match can be chosen at the start and from the game, abandoning is said in
words and counts as a loss; ``play --list``; given flags start a match at once; a rematch at
the match's end.  (The list itself is tested in test_tui_saved.py.)"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text as sql
from textual.widgets import DataTable
from tui_helpers import play_out, screen_text, scripted_action, settle

from hollywood_gin import cli
from hollywood_gin.rules import PRESETS, Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, MatchEndScreen, NewMatchScreen, SavedGamesScreen
from hollywood_gin.tui.saved import ConfirmScreen, print_saved, saved_rows
from hollywood_gin.tui.session import GameSession
from hollywood_gin.tui.stats import gather
from hollywood_gin.tui.widgets import AskScreen


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    store = Store(url)
    yield store
    store.close()


def _match(store: Store, level: int = 2, rules: Rules | None = None, moves: int = 0) -> str:
    session = GameSession.new(store, level=level, rules=rules or Rules(), seed=level,
                              first_dealer=1)
    for _ in range(moves):
        if session.human_to_act:
            session.act(scripted_action(session.view()))
        else:
            session.computer_act(session.computer_choice())
    return session.id


def _status(store: Store, match_id: str) -> str:
    return store.load(match_id).status


def test_escape_on_resume_then_on_new_match_quits_and_abandons_nothing(store: Store) -> None:
    match_id = _match(store, moves=3)

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)
            assert "A new match leaves it saved" in " ".join(screen_text(app).split())
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert app.session is None  # nothing started: the app quits

    asyncio.run(run())
    assert _status(store, match_id) == "playing"
    assert [row.id for row in saved_rows(store, "match")] == [match_id]


def test_several_unfinished_matches_are_listed_and_any_resumed(store: Store) -> None:
    older = _match(store, level=2, moves=2)
    newer = _match(store, level=4, rules=PRESETS["eaai"], moves=4)

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SavedGamesScreen)
            text = screen_text(app)
            assert "Computer, level 4" in text and "Computer, level 2" in text
            assert "EAAI" in text and "Hollywood" in text
            assert text.index("level 4") < text.index("level 2")  # the last played first
            await pilot.press("down", "enter")  # the older one
            await settle(pilot, app)
            assert app.session is not None and app.session.id == older
            await pilot.press("l")  # and from the game: the list again, both still there
            await pilot.pause()
            assert isinstance(app.screen, SavedGamesScreen)
            assert {row.id for row in app.screen.rows} == {older, newer}
            await pilot.press("n")  # a new match from the list: both stay saved
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)

    asyncio.run(run())
    assert {_status(store, older), _status(store, newer)} == {"playing"}


#: Ways a saved match's row can be damaged, as a bad disk or a hand-edited file leaves it:
#: rules cut short, a level that is no number or out of range, a meta or players that are
#: not what they must be (the last three crashed ``play`` and ``play --list``).
DAMAGE = {
    "rules cut short": "rules = '{\"knock_limit\": 10'",
    "a level in words": "meta = '{\"level\": \"abc\", \"human\": 0, \"dealt\": 2}'",
    "a level of 9": "meta = '{\"level\": 9}'",
    "meta a list": "meta = '[1, 2]'",
    "players an object": "players = '{\"a\": 1}'",
}


def _damage(store: Store, match_id: str, how: str = DAMAGE["rules cut short"]) -> None:
    with store.engine.begin() as conn:
        conn.execute(sql(f"UPDATE hg_matches SET {how} WHERE id = :id"), {"id": match_id})


@pytest.mark.parametrize("how", list(DAMAGE.values()), ids=list(DAMAGE))
def test_one_damaged_saved_match_is_left_out_and_said_not_a_crash(store: Store, url: str,
                                                                  how: str) -> None:
    good = _match(store, level=2, moves=2)
    bad = _match(store, level=4, moves=2)
    _damage(store, bad, how)
    damaged: list[str] = []
    assert [row.id for row in saved_rows(store, "match", damaged=damaged)] == [good]
    assert len(damaged) == 1 and bad in damaged[0] and "damaged" in damaged[0]
    with redirect_stdout(io.StringIO()) as printed:
        assert cli.main(["play", "--list", "--db", url]) == 0
    assert good[:8] in printed.getvalue()
    assert f"A saved match is damaged and left out: saved match {bad}" in printed.getvalue()

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)  # the good one is offered
            notices = [n.message for n in app._notifications]
            assert any("damaged and left out" in n and bad[:8] in n for n in notices), notices
            await pilot.press("r")
            await settle(pilot, app)
            assert app.session is not None and app.session.id == good

    asyncio.run(run())


def test_a_wrong_count_of_actions_is_damage_not_another_window(store: Store) -> None:
    """A saved count of actions that is not the log's length refused every move for good,
    as "played on in another window": resuming it now says the match is damaged."""
    bad = _match(store, level=1, moves=2)
    with store.engine.begin() as conn:
        conn.execute(sql("UPDATE hg_matches SET action_count = 99999999999 WHERE id = :id"),
                     {"id": bad})

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("r")  # resume the one saved match
            await settle(pilot, app)
            assert app.session is None or app.session.id != bad
            notices = [n.message for n in app._notifications]
            assert any(f"saved match {bad} is damaged: it counts 99999999999 actions but "
                       "holds" in n for n in notices), notices
            assert "another window" not in screen_text(app)

    asyncio.run(run())


async def _resume_here(pilot: Any, app: GinApp) -> GameSession:
    """Resume the one saved match in this window, at the player's turn."""
    await pilot.pause()
    await pilot.press("r")
    await settle(pilot, app)
    mine = app.session
    assert mine is not None and mine.human_to_act
    return mine


def test_a_match_played_on_in_another_window_is_reloaded_not_a_crash(store: Store) -> None:
    match_id = _match(store, level=1)

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("r")  # resume it here ...
            await settle(pilot, app)
            mine = app.session
            assert mine is not None and mine.human_to_act
            # ... while another window plays on in the same match.
            other = GameSession.resume(store, match_id)
            other.act(scripted_action(other.view()))
            while other.computer_to_act:
                other.computer_act(other.computer_choice())
            await pilot.press("x" if mine.view().phase.value == "offer" else "s")
            await settle(pilot, app)
            assert app.session is not None and app.session is not mine  # reloaded
            assert app.session.match.hand.history == other.match.hand.history
            assert "played on in another window" in screen_text(app)

    asyncio.run(run())
    assert _status(store, match_id) == "playing"


def test_a_match_abandoned_in_another_window_stays_abandoned(store: Store) -> None:
    """Abandoned in another window (a loss in the statistics), a move here turned it back
    into a match in play; now the move is refused, the player told, and a new match
    offered."""
    from hollywood_gin.tui.saved import abandon

    match_id = _match(store, level=1)

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            mine = await _resume_here(pilot, app)
            count = mine.pm.action_count
            assert abandon(store, match_id)  # the other window's "Abandon"
            await pilot.press("x" if mine.view().phase.value == "offer" else "s")
            await settle(pilot, app)
            assert app.session is None or app.session.id != match_id
            assert isinstance(app.screen, NewMatchScreen)
            notices = [n.message for n in app._notifications]
            assert any(f"saved match {match_id[:8]} cannot be resumed: it was abandoned" in n
                       for n in notices), notices
            assert len(store.load(match_id).actions) == count

    asyncio.run(run())
    assert _status(store, match_id) == "abandoned"


def test_an_abandoned_match_cannot_be_resumed_by_its_id(store: Store) -> None:
    from hollywood_gin.store import StoreError
    from hollywood_gin.tui.saved import abandon

    match_id = _match(store, level=1, moves=2)
    assert abandon(store, match_id)
    with pytest.raises(StoreError, match="it was abandoned"):
        GameSession.resume(store, match_id)


def test_an_undo_in_a_window_behind_the_saved_match_takes_nothing_back(store: Store) -> None:
    """Regression: an undo in a stale window deleted the moves another window had saved."""
    match_id = _match(store, level=1)

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            mine = await _resume_here(pilot, app)
            await pilot.press("x" if mine.view().phase.value == "offer" else "s")
            await settle(pilot, app)
            assert mine.can_undo
            other = GameSession.resume(store, match_id)  # another window plays on
            # ... to a point where the person is to act (the reloaded window then waits)
            while not other.match.hand.is_over and (len(other.match.hand.history) < 8
                                                    or not other.human_to_act):
                if other.human_to_act:
                    other.act(scripted_action(other.view()))
                else:
                    other.computer_act(other.computer_choice())
            saved = [a.action for a in store.load(match_id).actions]
            await pilot.press("u")
            await settle(pilot, app)
            assert [a.action for a in store.load(match_id).actions] == saved
            assert app.session is not None and app.session is not mine  # reloaded, as saved
            assert app.session.match.hand.history == other.match.hand.history
            assert "played on in another window" in screen_text(app)
            assert not store.load(match_id).meta.get("assisted")  # nothing was undone

    asyncio.run(run())


def test_one_click_on_a_saved_match_opens_it(store: Store) -> None:
    """Regression: a saved match in the list opened only on a second click."""
    older = _match(store, level=2, moves=2)
    _match(store, level=4, moves=4)

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SavedGamesScreen)
            table = app.screen.query_one(DataTable)
            await pilot.click(table, offset=(2, 2))  # the header, the newest, then the older
            await settle(pilot, app)
            assert not isinstance(app.screen, SavedGamesScreen)
            assert app.session is not None and app.session.id == older

    asyncio.run(run())


def test_a_double_click_on_a_saved_match_opens_it_and_presses_nothing_on_its_table(
        store: Store) -> None:
    """Regression: one click opens a saved match, so the second click of a double-click
    landed on the game table, where it could pick a card or press Draw.  The terminal's
    presses are sent as the driver sends them (to the app, which makes the click)."""
    from textual import events

    from hollywood_gin.tui.game import GameScreen

    older = _match(store, level=2, moves=2)
    _match(store, level=4, moves=4)

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SavedGamesScreen)
            table = app.screen.query_one(DataTable)
            x, y = table.region.x + 2, table.region.y + 2  # the older match's row
            game = app.screen_stack[0]
            assert isinstance(game, GameScreen)
            reached: list[str] = []
            forward = game._forward_event

            def spy(event: events.Event) -> None:
                reached.append(type(event).__name__)
                forward(event)

            game._forward_event = spy  # type: ignore[method-assign]

            def press(kind: type[events.MouseDown | events.MouseUp], at: float | None
                      ) -> events.MouseEvent:
                event = kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x,
                             screen_y=y)
                if at is not None:
                    event.time = at
                app.post_message(event)
                return event

            first = press(events.MouseDown, None)
            press(events.MouseUp, first.time + 0.05)
            await settle(pilot, app)
            assert app.screen is game and app.session is not None
            assert app.session.id == older
            before = app.session.view()
            shown = len(reached)
            press(events.MouseDown, first.time + 0.2)  # a quick second click, same place
            press(events.MouseUp, first.time + 0.25)
            await settle(pilot, app)
            assert reached[shown:] == []  # neither the press, its release nor a click
            assert app.session.view() == before
            # A press later on is a press again.
            press(events.MouseDown, None)
            press(events.MouseUp, None)
            await settle(pilot, app)
            assert reached[shown:][:2] == ["MouseDown", "MouseUp"]

    asyncio.run(run())


def test_abandoning_is_asked_in_words_and_counts_as_a_loss(store: Store) -> None:
    keep = _match(store, level=2)
    lose = _match(store, level=3)

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            saved = app.screen
            assert isinstance(saved, SavedGamesScreen)
            assert saved.query_one(DataTable).cursor_row == 0  # the newest: level 3
            await pilot.press("delete")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert "Abandon this match? It will count as a loss." in screen_text(app)
            await pilot.press("enter")  # Enter keeps it: only the word abandons
            await pilot.pause()
            assert app.screen is saved and _status(store, lose) == "playing"
            await pilot.press("delete")
            await pilot.pause()
            await pilot.press("escape")  # and closing the question keeps it too
            await pilot.pause()
            assert _status(store, lose) == "playing"
            await pilot.press("delete")
            await pilot.pause()
            await pilot.press("y")  # yes, abandon it
            await pilot.pause()
            assert _status(store, lose) == "abandoned"
            assert [r.id for r in saved.rows] == [keep]
            await pilot.press("escape")  # closing the list: no choice, nothing abandoned
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)

    asyncio.run(run())
    assert _status(store, keep) == "playing"
    level = gather(store).levels[3]
    assert level.abandoned == 1 and level.won == 0


def test_abandoning_the_match_being_played_clears_the_table(store: Store) -> None:
    match_id = _match(store, level=1, moves=2)

    async def run() -> None:
        app = GinApp(store=store, resume=match_id, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("l")
            await pilot.pause()
            await pilot.press("delete")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert app.session is None and isinstance(app.screen, NewMatchScreen)
            await pilot.press("escape")  # no match left on the table: the game quits
            await pilot.pause()

    asyncio.run(run())
    assert _status(store, match_id) == "abandoned"


def test_play_list_prints_every_unfinished_match_and_sheet(store: Store, url: str) -> None:
    match_id = _match(store, level=5, moves=2)
    sheet_id = store.create_match(rules=PRESETS["classic"], seed=0, first_dealer=0,
                                  players=("alice", "bob"), kind="keeper",
                                  meta={"preset": "classic", "hows": {}})
    store.append_action(sheet_id, 0, hand_number=1, player=1, action="1 12")
    finished = _match(store, level=1)
    store.set_status(finished, "abandoned")
    out = io.StringIO()
    print_saved(store, out)
    text = out.getvalue()
    assert match_id[:8] in text and "Computer, level 5" in text and "Hollywood" in text
    assert sheet_id[:8] in text and "alice vs bob" in text and "classic" in text
    assert "1 hand ·" in text and "1 hands" not in text
    assert finished[:8] not in text
    with redirect_stdout(io.StringIO()) as printed:
        assert cli.main(["play", "--list", "--db", url]) == 0
    assert printed.getvalue() == text


def _run_play(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> Any:
    """Run ``play`` with these flags and return the app it would have run."""
    seen: list[GinApp] = []
    monkeypatch.setattr(GinApp, "run", lambda self, *a, **k: seen.append(self))
    assert cli.main(["play", *argv]) == 0
    return seen[0]


def test_given_flags_start_a_match_at_once(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    app = _run_play(monkeypatch, ["--level", "3", "--rules", "eaai", "--db", url])
    assert not app.ask and app.new and app.rules == PRESETS["eaai"] and app.level == 3
    for flags in (["--seed", "5"], ["--first", "1"], ["--level", "1"]):
        app = _run_play(monkeypatch, [*flags, "--db", url])
        assert not app.ask and app.new
    app = _run_play(monkeypatch, ["--db", url])
    assert app.ask and not app.new and app.level == 3 and app.rules == PRESETS["hollywood"]
    help_text = io.StringIO()
    with redirect_stdout(help_text), pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    assert "starts at once" in " ".join(help_text.getvalue().split())


def test_a_new_match_from_flags_leaves_the_unfinished_one_saved(store: Store) -> None:
    old = _match(store, moves=2)

    async def run() -> None:
        app = GinApp(store=store, level=1, rules=PRESETS["eaai"], new=True, ask=False,
                     delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert app.session is not None and app.session.id != old
            assert app.session.rules == PRESETS["eaai"]
            assert "stay saved" in screen_text(app)

    asyncio.run(run())
    assert _status(store, old) == "playing"


def test_rematch_starts_the_same_opponent_under_the_same_rules_r7_5(store: Store) -> None:
    rules = Rules(game_target=5, gin_bonus=30)
    session = GameSession.new(store, level=2, rules=rules, seed=3, first_dealer=0)
    play_out(session, until_finished=True)

    async def run() -> None:
        app = GinApp(store=store, level=4, resume=session.id, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")  # the last hand's end, then the match's
            await pilot.pause()
            assert isinstance(app.screen, MatchEndScreen)
            await pilot.press("r")
            await settle(pilot, app)
            new = app.session
            assert new is not None and new.id != session.id
            assert new.level == 2 and new.rules == rules and new.hand_number == 1
            assert store.load(new.id).rules == rules

    asyncio.run(run())
