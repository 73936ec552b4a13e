"""The game against the computer, driven headless through Textual's pilot (seeded)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from textual.pilot import Pilot
from tui_helpers import SIZE, human_turn, play_out, play_to_hand_end, screen_text, settle

from hollywood_gin.actions import Action, Discard, Knock, TakeDiscard
from hollywood_gin.bots import Reason
from hollywood_gin.hand import HandView, Phase
from hollywood_gin.melds import discard_choices
from hollywood_gin.rules import Rules
from hollywood_gin.sheet import ScoreSheet
from hollywood_gin.store import Store
from hollywood_gin.tui.app import KEY_NAMES, GinApp, HandEndScreen, HelpScreen, MatchEndScreen
from hollywood_gin.tui.session import COMPUTER, default_hint


def make_app(store: Store, *, seed: int = 11, level: int = 1, rules: Rules | None = None,
             first_dealer: int | None = 1) -> GinApp:
    return GinApp(store=store, level=level, rules=rules or Rules(), seed=seed,
                  first_dealer=first_dealer, new=True, ask=False, delay=0)


def hidden_cards_shown(app: GinApp) -> list[str]:
    """The computer's unknown cards that appear anywhere on the screen (R3.4)."""
    session = app.session
    assert session is not None
    hand = session.hand
    if hand.is_over:
        return []
    known = set(hand.view(COMPUTER).known_to_opponent)
    text = screen_text(app)
    return [c.pretty for c in hand.cards_of(COMPUTER) if c not in known and c.pretty in text]


def test_whole_hand_r3_to_r5_with_hidden_information(store: Store) -> None:
    """A whole hand by keys: the computer's cards never show before the end (R3.4), the end
    shows both layouts, the points, and the sheet entry (R5, R7.2); all of it is saved."""

    async def run() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            leaks: list[str] = []
            await play_to_hand_end(pilot, app, each=lambda: leaks.extend(hidden_cards_shown(app)))
            assert leaks == []
            assert isinstance(app.screen, HandEndScreen)
            session = app.session
            assert session is not None
            result = session.hand.result
            assert result is not None
            text = screen_text(app)
            assert "Hand 1 · " in text
            if result.winner is not None:
                assert f"{result.points} point" in text
                assert "deadwood" in text and "(R7.2)" in text
                assert session.sheet.entries[-1].points == result.points
                # both hands are laid out now, the computer's included
                for card in result.hands[COMPUTER]:
                    if card is not result.knock_discard:
                        assert card.pretty in text
            stored = store.load(session.id)
            assert len(stored.actions) == len(session.hand.history)
            await pilot.press("enter")
            await settle(pilot, app)
            assert session.hand_number == 2 and not session.hand.is_over

    asyncio.run(run())


def test_whole_match_to_the_end_r7_5(store: Store) -> None:
    """A whole (short) match: three columns close, the result shows, the store says finished.
    The first hand is played by keys and goes on to the next by Enter; the rest are played
    without the screen (a whole hand by keys: the test above), and the last hand's end goes
    on by Enter to the match's end."""

    async def run() -> None:
        app = make_app(store, seed=5, rules=Rules(game_target=5))
        async with app.run_test(size=SIZE) as pilot:
            await play_to_hand_end(pilot, app)
            assert isinstance(app.screen, HandEndScreen)
            assert not app.session.match.finished
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.session.hand_number == 2 and not isinstance(app.screen, HandEndScreen)
            play_out(app.session, until_finished=True)
            assert app.session.match.finished and len(app.session.match.hands) > 2
            app.game.proceed()
            await settle(pilot, app)
            assert isinstance(app.screen, HandEndScreen)
            await pilot.press("enter")
            await settle(pilot, app)
            assert isinstance(app.screen, MatchEndScreen)
            session = app.session
            sheet = session.sheet
            assert sheet.finished
            text = screen_text(app)
            assert "wins the match" in text or "win the match" in text or "drawn" in text
            assert f"{sheet.totals[0]}" in text and f"{sheet.totals[1]}" in text
            row = store.load(session.id)
            assert row.status == "finished" and row.totals == sheet.totals
            assert row.winner == sheet.winner
            await pilot.press("q")

    asyncio.run(run())


def test_illegal_attempts_say_why_and_change_nothing(store: Store) -> None:
    """Wrong keys in each phase give the rule's reason; nothing is saved or changed."""

    async def run() -> None:
        app = make_app(store, seed=21, first_dealer=1)  # the person is the non-dealer
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            session = app.session
            assert session is not None and session.hand.phase is Phase.OFFER

            async def refused(key: str, words: str) -> None:
                before = (session.pm.action_count, session.view())
                await pilot.press(key)
                await settle(pilot, app)
                message = str(app.game.query_one("#message").render())
                assert words in message, message
                assert app.game.query_one("#message").has_class("-error")
                assert (session.pm.action_count, session.view()) == before
                assert len(store.load(session.id).actions) == before[0]

            await refused("s", "R4.1")  # stock in the opening
            await refused("k", "in the opening, take the upcard")  # knock before taking
            await refused("1", "R4.1")  # discard in the opening
            await pilot.press("t")  # take the upcard
            await settle(pilot, app)
            taken = session.view().taken_card
            assert taken is not None
            index = app.game.order.index(taken)
            # the card just taken from the pile is not even offered for discarding (R4.3)
            await refused(KEY_NAMES[index], "R4.3")
            assert app.game.selected is None
            await refused("enter", "Choose the card to discard first")
            view = session.view()
            over = [c for c in discard_choices(view.hand)
                    if c.deadwood > view.knock_limit and c.card != taken]
            if over:  # a knock that leaves too much deadwood
                await pilot.press(KEY_NAMES[app.game.order.index(over[0].card)])
                await refused("k", "R5.1")
            if not any(isinstance(a, Knock) for a in view.legal_actions):
                assert not app.game.query_one("#b-knock").display
            await refused("t", "You have taken a card this turn (R4.2)")  # a second take
            await refused("s", "You have taken a card this turn (R4.2)")

    asyncio.run(run())


def test_mouse_plays_and_buttons_follow_legality(store: Store) -> None:
    """Clicks do what keys do; knock and gin are offered only when legal (R5.1)."""

    async def run() -> None:
        app = make_app(store, seed=4)  # a short hand that ends in the person's knock
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(24):
                await settle(pilot, app)
                if isinstance(app.screen, HandEndScreen):
                    break
                session = app.session
                view = session.view()
                knocks = [a for a in view.legal_actions if isinstance(a, Knock) and a.card]
                game = app.game
                assert game.query_one("#b-knock").display == any(
                    view.legal_actions and _leaves(view, a) > 0 for a in knocks)
                assert game.query_one("#b-gin").display == any(
                    _leaves(view, a) == 0 for a in knocks)
                assert game.query_one("#b-pick").display == (TakeDiscard() in view.legal_actions)
                before = app.session.pm.action_count
                await human_turn(pilot, app, mouse=True)
                await settle(pilot, app)
                assert app.session.pm.action_count > before or app.session.hand_number > 1
            assert isinstance(app.screen, HandEndScreen)
            await pilot.click("#next")
            await settle(pilot, app)
            assert app.session.hand_number == 2

    asyncio.run(run())


def _leaves(view: object, knock: Knock) -> int:
    from hollywood_gin.melds import deadwood

    assert knock.card is not None
    return deadwood(c for c in view.hand if c != knock.card)  # type: ignore[attr-defined]


def test_hint_and_undo_mark_the_match_assisted(store: Store) -> None:
    """A hint names an action with a reason; undo takes back the person's move and the
    computer's answer, in the store too; both mark the match assisted."""

    async def run() -> None:
        app = make_app(store, seed=8, first_dealer=1)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            session = app.session
            assert session is not None and not session.assisted
            await pilot.press("h")
            await settle(pilot, app)
            message = str(app.game.query_one("#message").render())
            assert message.startswith("Hint: ") and " — " in message
            assert session.assisted
            start = session.view()
            await human_turn(pilot, app)  # pass or take in the opening
            await settle(pilot, app)
            while not session.human_to_act:
                await settle(pilot, app)
            assert session.pm.action_count >= 1
            await pilot.press("u")
            await settle(pilot, app)
            assert session.view().hand == start.hand
            assert session.view().phase == start.phase
            assert session.pm.action_count == 0
            assert len(store.load(session.id).actions) == 0
            meta = store.load(session.id).meta
            assert meta["assisted"] is True and meta["hints"] == 1 and meta["undos"] == 1

    asyncio.run(run())


class SlowHints:
    """A hinter that waits at a gate (the expert thinking), and the views it was asked
    about, by how many actions each had seen."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.asked: list[int] = []

    def __call__(self, view: HandView, sheet: ScoreSheet) -> tuple[Action, Reason]:
        self.asked.append(len(view.history))
        self.gate.wait(10)
        return default_hint(view, sheet)

    def app(self, store: Store) -> GinApp:
        return GinApp(store=store, level=1, rules=Rules(), seed=8, first_dealer=1, new=True,
                      ask=False, delay=0, hinter=self)

    async def ask(self, pilot: Pilot[Any], times: int) -> None:
        """Press ``h`` and wait until the hinter has been asked ``times`` times in all."""
        await pilot.press("h")
        for _ in range(50):
            await pilot.pause()
            if len(self.asked) >= times:
                break
        assert len(self.asked) == times


def test_a_hint_thinks_off_the_screen_thread_and_a_stale_one_is_dropped(store: Store) -> None:
    """While the expert thinks the table stays live; if the person moves first, the hint
    is for a position that is gone: it is not shown and the match is not assisted."""

    async def run() -> None:
        hints = SlowHints()
        app = hints.app(store)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            session = app.session
            assert session is not None and session.human_to_act
            count = session.pm.action_count
            await hints.ask(pilot, 1)
            assert app.game.hinting
            assert "Thinking about a hint" in str(app.game.query_one("#message").render())
            await human_turn(pilot, app)  # the keys still play while the expert thinks
            await pilot.pause()
            assert session.pm.action_count > count
            hints.gate.set()
            await settle(pilot, app)
            assert not app.game.hinting
            assert not str(app.game.query_one("#message").render()).startswith("Hint: ")
            assert not session.assisted
            assert store.load(session.id).meta["hints"] == 0

    asyncio.run(run())


def test_a_hint_still_thought_out_for_a_past_position_does_not_block_the_next(
        store: Store) -> None:
    """``h`` on a new turn while the expert still thinks about a turn the person has
    played: the stale hint is given up and the new one is thought out and shown (it used
    to be ignored until the stale one ended)."""

    async def run() -> None:
        hints = SlowHints()
        app = hints.app(store)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            session = app.session
            assert session is not None and session.human_to_act
            await hints.ask(pilot, 1)
            assert app.game.hinting
            await human_turn(pilot, app)
            for _ in range(200):
                await pilot.pause()
                if session.human_to_act and not app.game.thinking:
                    break
            assert session.human_to_act and app.game.hinting  # the first still thinks
            await hints.ask(pilot, 2)
            assert hints.asked[1] > hints.asked[0]
            hints.gate.set()
            await settle(pilot, app)
            assert not app.game.hinting
            assert str(app.game.query_one("#message").render()).startswith("Hint: ")
            assert store.load(session.id).meta["hints"] == 1

    asyncio.run(run())


def test_help_and_four_colours(store: Store) -> None:
    async def run() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            for _ in range(20):
                await pilot.pause()
                svg = app.export_screenshot()
                if "R4.1" in svg:
                    break
            assert isinstance(app.screen, HelpScreen)
            assert "R4.1" in svg and "Keys&#160;and&#160;mouse" in svg
            await pilot.press("escape")
            await pilot.press("c")
            assert app.four_colour

    asyncio.run(run())


def test_discard_key_works_on_the_computers_discard_too(store: Store) -> None:
    """Discarding by the person applies the engine's Discard action (R4.2)."""

    async def run() -> None:
        app = make_app(store, seed=13, first_dealer=0)  # the computer is the non-dealer
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            session = app.session
            while session.hand.phase is not Phase.DISCARD:
                await human_turn(pilot, app)
                await settle(pilot, app)
            card = app.game.order[-1]
            if card == session.view().taken_card:
                card = app.game.order[0]
            index = app.game.order.index(card)
            await pilot.press(KEY_NAMES[index], "enter")
            await settle(pilot, app)
            mine = [a for p, a in session.hand.history if p == 0]
            assert Discard(card) in mine

    asyncio.run(run())
