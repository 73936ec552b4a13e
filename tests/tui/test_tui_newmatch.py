"""Custom rules in the new-match dialog (issue 11, §7): every option of the rule book §9 can be
set, presets fill the fields in, an invalid value is refused with the reason from the
rules' validation and nothing starts; the rules are saved with the match and shown."""

from __future__ import annotations

import asyncio

from textual.widgets import Input, Select, Static
from tui_helpers import screen_text, settle

from hollywood_gin.rules import OPTIONS, PRESETS, Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HelpScreen, NewMatchScreen, RulesScreen


async def _opened(pilot: object, app: GinApp) -> NewMatchScreen:
    """The new-match dialog, once mounted (its first list has the focus)."""
    for _attempt in range(50):
        await pilot.pause()  # type: ignore[attr-defined]
        screen = app.screen
        if isinstance(screen, NewMatchScreen) and screen.focused is not None:
            return screen
    raise AssertionError("the new-match dialog did not open")


async def _type(pilot: object, screen: NewMatchScreen, name: str, text: str) -> None:
    field = screen.query_one(f"#opt-{name}", Input)
    for _attempt in range(20):  # the dialog focuses its first list when it mounts
        field.focus()
        await pilot.pause()  # type: ignore[attr-defined]
        if screen.focused is field:
            break
    assert screen.focused is field
    await pilot.press("end", *["backspace"] * len(field.value), *text)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


def test_every_option_has_a_field_and_presets_fill_them(store: Store) -> None:
    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _opened(pilot, app)
            assert screen.read_rules() == Rules()
            for option in OPTIONS:
                assert screen.query_one(f"#opt-{option.name}")
            screen.query_one("#preset", Select).value = "eaai"
            for _attempt in range(50):  # the preset fills the fields on its change message
                await pilot.pause()
                if screen.read_rules() == PRESETS["eaai"]:
                    break
            assert screen.read_rules() == PRESETS["eaai"]
            assert screen.query_one("#opt-undercut_bonus", Input).value == "25"
            assert screen.query_one("#opt-next_dealer", Select).value == "alternate"
            await _type(pilot, screen, "undercut_bonus", "20")
            await pilot.pause()
            assert screen.query_one("#preset", Select).value == "custom"

    asyncio.run(run())


def test_an_invalid_value_is_refused_with_its_reason_and_nothing_starts(store: Store) -> None:
    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _opened(pilot, app)
            await _type(pilot, screen, "knock_limit", "12")
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is screen and app.session is None
            error = str(screen.query_one("#error", Static).render())
            assert error.startswith("Not started: rule knock_limit='12' is invalid")
            assert "0 to 10" in error
            assert "knock_limit='12'" in screen_text(app)  # on the screen, by the buttons
            await _type(pilot, screen, "knock_limit", "9")
            await _type(pilot, screen, "game_bonus", "300")  # a combination (R9.2)
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is screen and "is smaller than game_bonus=300" in str(
                screen.query_one("#error", Static).render())
            await _type(pilot, screen, "game_bonus", "100")
            await _type(pilot, screen, "game_target", "")
            await _type(pilot, screen, "knock_limit", "9")
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is screen
            assert ("Not started: rule game_target='' is invalid: it must be a whole number, "
                    "1 or more") in str(
                screen.query_one("#error", Static).render())
        assert store.matches() == []

    asyncio.run(run())


def test_custom_rules_are_played_saved_and_shown_r9(store: Store) -> None:
    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await _opened(pilot, app)
            await _type(pilot, screen, "knock_limit", "7")
            await _type(pilot, screen, "big_gin_bonus", "31")
            await _type(pilot, screen, "box_bonus", "0")
            screen.query_one("#opt-discard_taken_card", Select).value = True
            screen.query_one("#opt-entry_rule", Select).value = "by_count"
            screen.query_one("#level", Select).value = 1
            await pilot.pause()
            await pilot.pause()
            await pilot.press("enter")
            await settle(pilot, app)
            session = app.session
            assert session is not None
            expected = Rules(knock_limit=7, big_gin_bonus=31, box_bonus=0,
                             discard_taken_card=True, entry_rule="by_count")
            assert session.rules == expected and session.level == 1
            stored = store.load(session.id)
            assert stored.rules == expected and stored.meta["preset"] == "custom"
            side = str(app.game.query_one("#rules-line", Static).render())
            assert "custom · knock ≤ 7" in side and "big gin +31" in side
            assert "entry by count" in side
            assert "box" not in str(app.game.query_one("#sheet", Static).render())
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert "Knock with 7 deadwood or less" in screen_text(app)
            await pilot.press("r")  # the help's way to the rule book (r on the table too)
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            text = screen_text(app)
            assert "The rules in force" in text and "at 7 or less" in text
            assert "31" in text  # the big gin bonus in force
            book = " ".join(str(app.screen.query_one("#book").source).split())
            assert book.startswith("# Hollywood Gin: the rule book")
            assert "knock" in book and "7" in book

    asyncio.run(run())


def test_an_n_typed_while_the_game_starts_opens_one_dialog(store: Store) -> None:
    """The first dialog is up before the first frame, and a new match asked for again (an
    n typed ahead) does not stack a second dialog under it (found in a slow terminal)."""

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, NewMatchScreen)
            app.game.action_new_match()
            await _opened(pilot, app)
            assert [type(s) for s in app.screen_stack].count(NewMatchScreen) == 1
            await pilot.press("escape")  # one Escape closes it: nothing started, the game quits
            await pilot.pause()
            assert app.session is None and not isinstance(app.screen, NewMatchScreen)

    asyncio.run(run())


def test_a_new_language_keeps_the_fields_as_typed_even_unfinished(store: Store) -> None:
    """With one field blank, a change of language put every field back to the preset's,
    without a word: the gin bonus typed was lost."""
    from hollywood_gin import i18n

    async def run() -> None:
        app = GinApp(store=store, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _opened(pilot, app)
            await _type(pilot, screen, "gin_bonus", "30")
            await _type(pilot, screen, "knock_limit", "")
            try:
                i18n.set_language("af")
                screen.reword()
                for _ in range(20):
                    await pilot.pause()
                assert screen.query_one("#opt-gin_bonus", Input).value == "30"
                assert screen.query_one("#opt-knock_limit", Input).value == ""
                assert screen.query_one("#preset", Select).value == "custom"
                assert str(screen.query_one("#error", Static).render())  # what is missing
            finally:
                i18n.set_language("en")

    asyncio.run(run())
