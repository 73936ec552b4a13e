"""Every screen of the game is usable at 80x24 (the standard terminal), 100x30 and 120x40:
its numbers and its buttons are on the screen, whole, or one scroll away in a body that
scrolls while the buttons stay in sight (issue 11, §3)."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Button, Input, Select, Static
from tui_helpers import on_screen, play_out, rendered, screen_text, scripted_action, settle

from hollywood_gin.actions import Action, Discard
from hollywood_gin.bots import Reason
from hollywood_gin.hand import HandView, Phase
from hollywood_gin.melds import best_melds, discard_choices
from hollywood_gin.rules import OPTIONS, Rules
from hollywood_gin.sheet import ScoreSheet
from hollywood_gin.store import Store
from hollywood_gin.tui.app import (
    GinApp,
    HandEndScreen,
    HelpScreen,
    MatchEndScreen,
    NewMatchScreen,
    PileScreen,
    SavedGamesScreen,
)
from hollywood_gin.tui.look import Flow
from hollywood_gin.tui.session import COMPUTER, GameSession

SIZES = [(80, 24), (100, 30), (120, 40)]


def long_hint(view: HandView, sheet: ScoreSheet) -> tuple[Action, Reason]:
    """A hint with a long reason naming a card (which the screen shows with its symbol)."""
    card = next(c.card for c in discard_choices(view.hand) if c.card != view.taken_card)
    return Discard(card), Reason.of("the highest deadwood card, the opponent is unlikely "
                                    "to want it, and {card} melds with nothing you hold",
                                    card=card)


def to_my_discard(session: GameSession) -> None:
    """Play on (by the session, not the screen) until the person is to discard."""
    while not (session.human_to_act and session.hand.phase is Phase.DISCARD):
        if session.human_to_act:
            view = session.view()
            from hollywood_gin.actions import DrawStock, Pass

            session.act(Pass() if view.phase is Phase.OFFER else DrawStock())
        else:
            session.computer_act(session.computer_choice())


def app_for(store: Store, match_id: str, **kw: object) -> GinApp:
    return GinApp(store=store, level=1, rules=Rules(), resume=match_id, delay=0,
                  hinter=long_hint, **kw)  # type: ignore[arg-type]


def shown(app: GinApp, ident: str) -> str:
    """The whole text of a widget of the table, asserting it is drawn whole on the screen."""
    widget = app.game.query_one(f"#{ident}", Static)
    assert on_screen(app, widget), (ident, app.size)
    content = widget.content  # the melds line is a Flow (it wraps between melds only)
    return " ".join((content.plain if isinstance(content, Flow) else str(widget.render()))
                    .split())


def shown_buttons(app: GinApp) -> list[Button]:
    return [b for b in app.screen.query(Button).results(Button) if b.display]


def assert_buttons_on_screen(app: GinApp) -> None:
    buttons = shown_buttons(app)
    assert buttons
    off = [str(b.label) for b in buttons if not on_screen(app, b)]
    assert off == [], f"buttons cut or off screen at {app.size}: {off}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_and_its_dialogs_fit(store: Store, size: tuple[int, int]) -> None:
    """The table while discarding, with a hint shown; then help, the new-match dialog, the
    pile and the saved games, each with every number and button in sight."""
    session = GameSession.new(store, level=1, rules=Rules(), seed=4, first_dealer=COMPUTER)
    to_my_discard(session)

    async def run() -> None:
        app = app_for(store, session.id)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            game = app.game
            live = app.session
            assert live is not None
            await pilot.press("h")
            await settle(pilot, app)
            view = live.view()
            text = screen_text(app)
            layout = best_melds(view.hand)
            # the hand's deadwood, on the label and at the end of the melds line, each
            # widget whole on the screen (their height follows their text: nothing is cut)
            assert f"deadwood {layout.deadwood}" in shown(app, "hand-label")
            assert shown(app, "melds").endswith(f"= {layout.deadwood}")
            assert f"{view.stock_count} cards" in shown(app, "stock-label")
            # the hint names the card with its symbol, never in the letter form
            assert game.selected is not None
            hint = shown(app, "message")
            assert hint.startswith("Hint: discard " + game.selected.pretty), hint
            assert str(game.selected) not in hint and game.selected.pretty in hint
            assert hint.endswith("melds with nothing you hold")
            after = best_melds([c for c in view.hand if c != game.selected]).deadwood
            assert f"leaves deadwood {after}" in shown(app, "prompt")
            for ident in ("opp-label", "pile-label", "sheet", "rules-line"):
                assert on_screen(app, game.query_one(f"#{ident}")), (ident, size)
            assert_buttons_on_screen(app)
            for total in live.sheet.totals:
                assert str(total) in text
            # the buttons follow what they answer, and the sheet's caption is not broken up
            message = game.query_one("#message").region
            assert game.query_one("#play-buttons").region.y <= message.bottom + 2
            assert "to 100 · game +100 · box +20" in text

            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert_buttons_on_screen(app)
            body = app.screen.query_one("#help-body")
            body.scroll_end(animate=False)
            await pilot.pause()
            assert "quit (the match is saved)" in screen_text(app)
            await pilot.press("escape")

            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)
            assert_buttons_on_screen(app)
            for option in OPTIONS:  # every option's field can be brought into sight
                field = app.screen.query_one(f"#opt-{option.name}")
                assert isinstance(field, (Input, Select)) or field.display
                field.scroll_visible(animate=False, immediate=True)
                await pilot.pause()
                assert on_screen(app, field), (option.name, size)
            assert_buttons_on_screen(app)
            await pilot.press("escape")
            await pilot.pause()

            await pilot.press("p")
            await pilot.pause()
            assert isinstance(app.screen, PileScreen)
            text = screen_text(app)
            for card in view.discard_pile:
                assert card.pretty in text
            assert_buttons_on_screen(app)
            await pilot.press("escape")
            await pilot.pause()
            await pilot.click("#pile-label")  # the pile's text opens it too (R4.4)
            await pilot.pause()
            assert isinstance(app.screen, PileScreen)
            await pilot.press("escape")
            await pilot.pause()

            await pilot.press("question_mark")  # the help is the menu: saved games from it
            await pilot.pause()
            await pilot.press("l")
            await pilot.pause()
            assert isinstance(app.screen, SavedGamesScreen)
            assert "Computer, level 1 (open now)" in screen_text(app)  # this match
            assert_buttons_on_screen(app)
            await pilot.press("escape")

    asyncio.run(run())


def _won_hand(store: Store, rules: Rules) -> GameSession:
    """A match whose first hand was won (not dead), played by the session alone."""
    for seed in range(1, 60):
        session = GameSession.new(store, level=1, rules=rules, seed=seed, first_dealer=0)
        play_out(session)
        result = session.hand.result
        if result is not None and result.winner is not None and result.score is not None \
                and result.score.layoffs:
            return session
    raise AssertionError("no seed gave a won hand with lay-offs")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hand_end_and_match_end_fit(store: Store, size: tuple[int, int]) -> None:
    """The hand-end dialog of a hand that closes a game (sheet with bonus rows, the sum,
    the entry and closing words, Next hand) and the match end, whole at every size."""
    session = _won_hand(store, Rules(game_target=5))

    async def run() -> None:
        app = app_for(store, session.id)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, HandEndScreen)
            live = app.session
            assert live is not None
            result = live.hand.result
            assert result is not None and result.score is not None
            dialog = app.screen
            layout, points, sheet = (dialog.query_one(f"#{ident}", Static)
                                     for ident in ("layout", "points", "end-sheet"))
            for widget in (layout, points, sheet):
                assert on_screen(app, widget), (widget.id, size)
            text = rendered(layout)
            assert f"= {result.score.knocker_deadwood}" in text
            assert f"= {result.score.defender_deadwood}" in text
            assert "lays off" in text
            text = rendered(points)
            assert f"= {result.points} to " in text and "Game 1 closes at" in text
            text = rendered(sheet)
            assert "won by" in text and ("open" in text or " – " in text)
            for column in live.sheet.columns:
                for value in (*column.points, *column.total):
                    assert str(value) in text
            assert "to 5 · game +100 · box +20" in text
            assert_buttons_on_screen(app)
            assert app.screen.query_one("#next", Button).display
            await pilot.press("escape")  # closing nothing: escape is not bound here
            assert isinstance(app.screen, HandEndScreen)

    asyncio.run(run())
    play_out(session, until_finished=True)

    async def end() -> None:
        app = app_for(store, session.id)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")
            await settle(pilot, app)
            assert isinstance(app.screen, MatchEndScreen)
            sheet = app.session.sheet  # type: ignore[union-attr]
            text = " ".join(screen_text(app).split())
            for total in sheet.totals:
                assert str(total) in text
            assert "Rematch (r)" in text
            assert_buttons_on_screen(app)

    asyncio.run(end())


def _long_hand(store: Store, moves: int) -> GameSession:
    """A hand at least ``moves`` actions long, stopped on the person's turn."""
    for seed in range(1, 40):
        session = GameSession.new(store, level=1, rules=Rules(), seed=seed,
                                  first_dealer=COMPUTER)
        while not session.hand.is_over:
            if session.human_to_act:
                if len(session.hand.history) >= moves:
                    return session
                view = session.view()
                if view.phase is Phase.DISCARD:  # play on without knocking
                    session.act(Discard(next(c.card for c in discard_choices(view.hand)
                                             if Discard(c.card) in view.legal_actions)))
                else:
                    session.act(scripted_action(view))
            else:
                session.computer_act(session.computer_choice())
    raise AssertionError("no seed gave a long hand")


def test_a_resumed_hand_shows_its_latest_move(store: Store) -> None:
    """At 80x24 a long hand's move list scrolls, and on resuming it shows the latest move,
    not the first ones (found playing: it opened at the top)."""
    session = _long_hand(store, moves=16)

    async def run() -> None:
        app = app_for(store, session.id)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            box = app.game.query_one("#log-box")
            assert box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y
            live = app.session
            assert live is not None
            last = live.moves()[-1]
            from hollywood_gin.tui.look import action_words

            words = action_words(live.names[last.player], last.action, last.taken)
            bottom = " ".join(" ".join(screen_text(app).split("\n")[-4:-1]).split())
            assert " ".join(words.split()[-2:]) in bottom, (words, bottom)

    asyncio.run(run())
