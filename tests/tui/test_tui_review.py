"""The game review in the terminal (issue 13): from the hand's end and the match's end, on a
worker thread with a progress bar, stepping through the person's decisions with the hand
as he saw it, the choice, the better one, the loss and its grade; left at any time."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console
from textual.widgets import OptionList
from tui_helpers import play_out, screen_text, settle

from hollywood_gin.review import ReviewSettings
from hollywood_gin.review.text import describe_action
from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HandEndScreen, MatchEndScreen
from hollywood_gin.tui.review import GRADE_MARKS, ReviewScreen

FAST = ReviewSettings(min_deals=2, max_deals=4, batch=2)
#: One game to one point: the first won hand ends the match.
SHORT = Rules(columns=1, game_target=1)


def make_app(store: Store, *, seed: int, rules: Rules | None = None) -> GinApp:
    return GinApp(store=store, level=1, rules=rules or Rules(), seed=seed, first_dealer=1,
                  new=True, ask=False, delay=0, review_settings=FAST)


def _text(renderable: object) -> str:
    console = Console(width=40, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text()


async def to_hand_end(pilot: object, app: GinApp, *, until_finished: bool = False) -> None:
    """Play the hand (or the match) out without the screen, then show its end as the game
    does (the screens' own play is tested in test_tui_game)."""
    await settle(pilot, app)  # type: ignore[arg-type]
    assert app.session is not None
    play_out(app.session, until_finished=until_finished)
    app.game.proceed()
    await settle(pilot, app)  # type: ignore[arg-type]


async def reviewed(pilot: object, app: GinApp) -> ReviewScreen:
    """Wait until the review screen has every hand it asked for."""
    for _ in range(2000):
        await pilot.pause()  # type: ignore[attr-defined]
        screen = app.screen
        if isinstance(screen, ReviewScreen) and screen.done:
            await pilot.pause()  # type: ignore[attr-defined]
            return screen
    raise AssertionError("the review never finished")


KEY = "?! inaccuracy · ? mistake · ?? blunder"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_review_a_hand_from_its_end(store: Store, size: tuple[int, int]) -> None:
    """v at the hand's end: the decisions with the grade, the loss, the choice made and the
    better one on screen; Esc comes back to the hand's end, which goes on as before."""

    async def run() -> None:
        app = make_app(store, seed=11)
        async with app.run_test(size=size) as pilot:
            await to_hand_end(pilot, app)
            assert isinstance(app.screen, HandEndScreen)
            assert "Review (v)" in screen_text(app)
            session = app.session
            assert session is not None
            number, actions = session.hand_number, session.pm.action_count
            await pilot.press("v")
            screen = await reviewed(pilot, app)
            review = screen._hands[number]
            assert review.decisions, "the person had decisions"
            text = screen_text(app)
            assert f"Review of hand {number}" in text and "accuracy" in text
            assert KEY in text  # the marks' key in sight (it was last in the detail)
            first = review.decisions[0]
            assert describe_action(first.chosen_action, first.view.hand) in text
            assert first.grade.label in text
            # the first decision that was not the best: both choices, the loss, the grade
            wrong = next((i for i, d in enumerate(review.decisions)
                          if d.chosen != d.best and d.loss >= 0.05), None)
            if wrong is not None:
                for _ in range(wrong):
                    await pilot.press("right")
                await pilot.pause()
                d = review.decisions[wrong]
                text = screen_text(app)
                assert describe_action(d.chosen_action, d.view.hand) in text
                assert describe_action(d.best_action, d.view.hand) in text
                assert f"You lost {d.loss:.1f} expected points" in text, text
                assert KEY in text
                assert d.grade.label in text
                for card in d.view.hand:  # his cards as he held them
                    assert card.pretty in text
            # mistakes are marked in the move list, the computer's moves are not choosable
            moves = screen.query_one("#rv-moves", OptionList)
            prompts = [_text(moves.get_option_at_index(i).prompt)
                       for i in range(moves.option_count)]
            enabled = [i for i in range(moves.option_count)
                       if not moves.get_option_at_index(i).disabled]
            assert len(enabled) == len(review.decisions)
            for i, d in zip(enabled, review.decisions, strict=True):
                assert prompts[i].startswith(GRADE_MARKS[d.grade.value])
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, HandEndScreen)
            assert session.pm.action_count == actions and session.hand_number == number
            await pilot.press("enter")
            await settle(pilot, app)
            assert session.hand_number == number + 1 and not session.hand.is_over

    asyncio.run(run())


def test_leaving_at_once_loses_nothing_and_a_second_look_is_kept(store: Store) -> None:
    """Closing the review while it works returns to the hand's end at once; the hand's review
    is kept in the store, so opening it again is not made twice."""

    async def run() -> None:
        app = make_app(store, seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_hand_end(pilot, app)
            session = app.session
            assert session is not None
            await pilot.press("v")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, HandEndScreen)
            await app.workers.wait_for_complete()
            await pilot.press("v")
            screen = await reviewed(pilot, app)
            assert screen._hands
            kept = store.review_rows([session.id])
            assert [r.hand_number for r in kept] == [session.hand_number]
            await pilot.press("v")  # v closes it too
            await pilot.pause()
            assert isinstance(app.screen, HandEndScreen)

    asyncio.run(run())


def test_review_the_match_from_its_end(store: Store) -> None:
    """At the match's end, Review covers every hand; ] goes to the next hand's decisions,
    m to the next marked one; closing comes back to the match's end."""

    async def run() -> None:
        app = make_app(store, seed=5, rules=SHORT)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_hand_end(pilot, app, until_finished=True)
            assert isinstance(app.screen, HandEndScreen)
            await pilot.press("enter")
            await settle(pilot, app)
            assert isinstance(app.screen, MatchEndScreen)
            session = app.session
            assert session is not None
            assert "Review (v)" in screen_text(app)
            await pilot.click("#review")
            screen = await reviewed(pilot, app)
            assert sorted(screen._hands) == list(range(1, len(session.match.hands) + 1))
            assert "Review of your match" in screen_text(app)
            if len(screen._hands) > 1:
                await pilot.press("right_square_bracket")
                await pilot.pause()
                assert "Hand 2 · decision 1" in screen_text(app)
            await pilot.press("m")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MatchEndScreen)
            rows = store.review_rows([session.id])
            assert len(rows) == len(session.match.hands)

    asyncio.run(run())


def test_review_this_match_from_the_statistics(store: Store) -> None:
    """a opens the statistics (the accuracy per level among them) with the finished matches;
    Enter reviews the one chosen; closing the review comes back to the statistics, where
    the match now has its accuracy."""
    from hollywood_gin.tui.session import GameSession
    from hollywood_gin.tui.statsscreen import StatsScreen

    old = GameSession.new(store, level=2, rules=SHORT, seed=8, first_dealer=0)
    play_out(old, until_finished=True)
    assert old.match.finished

    async def run() -> None:
        app = make_app(store, seed=9)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, StatsScreen)
            text = screen_text(app)
            assert "Finished matches" in text and old.id[:8] in text
            assert "not reviewed" in text
            await pilot.press("enter")
            screen = await reviewed(pilot, app)
            assert sorted(screen._hands) == list(range(1, len(old.match.hands) + 1))
            assert "Review of your match" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, StatsScreen)
            text = screen_text(app)
            assert "accuracy" in text.split(old.id[:8])[-1].splitlines()[0], text
            body = str(app.screen.query_one("#st-text").render())
            assert "Accuracy of your decisions" in body and "level 2" in body
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, StatsScreen)

    asyncio.run(run())
