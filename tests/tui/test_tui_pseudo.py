"""No English hides in the terminal apps: every screen, rendered in the pseudo-locale (every
message accented and wrapped, i18n.PSEUDO), holds no plain word that skipped the catalogue;
and every screen fits in a long language (issue 12): rendered in the pseudo-locale, in
Lithuanian (the longest real one) and in Afrikaans, no button is cut or scrolled out of
sight and the table's counts, stock, pile and sheet are whole on screen.

Each screen of the game and of the score keeper is visited at 80x24 and 120x40 with the
pilot, in one app per size: the new-match dialog, the language list, the table in each
phase (with a hint and a refusal), help, rules, the pile, the saved games and the abandon
question, the hand's end, the match's end, the resume question; the keeper's new-sheet
dialog, its sheet with hands and an error, its question, help and list.  What the screens
build from data (the hand's end for every way a hand ends) is scanned without a screen in
``test_every_hand_end_and_sheet_said_in_the_catalogue``.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Button, Input
from tui_helpers import every_text, human_turn, on_screen, play_out, settle

from hollywood_gin import i18n
from hollywood_gin.hand import Phase
from hollywood_gin.rules import OPTIONS, PRESETS, Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HandEndScreen, MatchEndScreen
from hollywood_gin.tui.dialogs import HelpScreen, PileScreen, RulesScreen
from hollywood_gin.tui.game import GameScreen
from hollywood_gin.tui.keeper import KeeperApp
from hollywood_gin.tui.keeper_screens import KeeperHelp, NewSheetScreen, QuestionScreen
from hollywood_gin.tui.language import LanguageScreen
from hollywood_gin.tui.newmatch import NewMatchScreen
from hollywood_gin.tui.saved import ConfirmScreen, SavedGamesScreen
from hollywood_gin.tui.session import COMPUTER, GameSession
from hollywood_gin.tui.widgets import AskScreen

SIZES = [(80, 24), (120, 40)]

#: Words allowed through untranslated: proper names (the game's, the players' of these
#: tests, each language's own name), and what the player types or the program names as
#: it is (rule option names and values, preset names, in the rule book's code spans).
ALLOW = ("Hollywood Gin", "Alice", "Bob", "alice", "bob", *i18n.LANGUAGES.values(),
         "nonsense",  # what the test types in the keeper, said back in its error
         *(o.name for o in OPTIONS), *PRESETS,
         *(str(c) for o in OPTIONS for c in o.choices), "undercut", "OpenSpiel", "gin_rummy",
         "ID", "FILE")  # a command line to type as it is (stats' --export ID FILE)


#: The languages the layout is checked in: the pseudo-locale (longer than any real one, and
#: the only one the scan for untranslated words can read), the longest real language
#: (Lithuanian, 1.15 times the English: tests/test_layout_languages.py) and Afrikaans
#: (reported: its Help button cut at 80x24).
FIT_LANGUAGES = (i18n.PSEUDO, "lt", "af")
LAYOUTS = [(lang, size) for lang in FIT_LANGUAGES for size in SIZES]


def _layout_id(case: tuple[str, tuple[int, int]]) -> str:
    return f"{case[0]}-{case[1][0]}x{case[1][1]}"


def leaks(app: App[Any]) -> list[str]:
    text = re.sub(r"-\n[ │┃]*", "-", every_text(app))  # a command wrapped at its hyphen
    return sorted(set(i18n.pseudo_leaks(text, allow=ALLOW)))


async def until(pilot: Pilot[Any], app: App[Any], kind: type, tries: int = 200) -> None:
    for _ in range(tries):
        if isinstance(app.screen, kind):
            await pilot.pause()
            return
        await pilot.pause()
    raise AssertionError(f"{kind.__name__} never showed (at {type(app.screen).__name__})")


class Scan:
    """The screens scanned, and what leaked on each."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.found: dict[str, list[str]] = {}
        self.words = i18n.language() == i18n.PSEUDO  # the leak scan reads only it

    async def __call__(self, pilot: Pilot[Any], where: str) -> None:
        await pilot.pause()
        at = f"{where} at {self.app.size.width}x{self.app.size.height}"
        words = leaks(self.app) if self.words else []
        if words:
            self.found[at] = words
        # The layout in a long language (the pseudo-locale is longer than any real one:
        # test_layout_languages; and the longest real ones): every button shown is whole on
        # the screen (none cut, none scrolled away), and on the table its cards' counts, the
        # stock, the pile and the whole sheet are in sight.
        cut = [str(b.label) for b in self.app.screen.query(Button).results(Button)
               if b.display and b.styles.visibility != "hidden" and not on_screen(self.app, b)]
        if isinstance(self.app.screen, GameScreen):
            cut += [f"#{ident}" for ident in ("hand-label", "opp-label", "stock-label",
                                              "pile-label", "sheet")
                    if not on_screen(self.app, self.app.screen.query_one(f"#{ident}"))]
        if cut:
            self.found[at + " (cut or off screen)"] = sorted(set(cut))


@pytest.fixture
def qps() -> Iterator[None]:
    i18n.set_language(i18n.PSEUDO)
    yield
    i18n.set_language("en")


@pytest.fixture(params=LAYOUTS, ids=_layout_id)
def layout(request: pytest.FixtureRequest) -> Iterator[tuple[int, int]]:
    """A language the screens must fit in (issue 12), and a size: the size."""
    lang, size = request.param
    i18n.set_language(lang)
    yield size
    i18n.set_language("en")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield store
    store.close()


def test_every_screen_of_the_game_speaks_only_through_the_catalogue_and_fits(
        store: Store, layout: tuple[int, int]) -> None:
    """In the pseudo-locale, no untranslated word; in it, in Lithuanian and in Afrikaans, at
    80x24 and 120x40, no button cut or scrolled away and the table's numbers in sight."""
    size = layout
    # A second match, finished but for its last hand's end, for the match's end.
    short = Rules(columns=1, game_target=10)
    done = GameSession.new(store, level=1, rules=short, seed=5, first_dealer=COMPUTER)
    play_out(done, until_finished=True)

    async def run() -> None:
        app = GinApp(store=store, level=1, rules=Rules(), seed=7, first_dealer=COMPUTER,
                     delay=0, new=True)
        async with app.run_test(size=size) as pilot:
            scan = Scan(app)
            await until(pilot, app, NewMatchScreen)
            await scan(pilot, "the new-match dialog")
            await pilot.press("f2")
            await until(pilot, app, LanguageScreen)
            await scan(pilot, "the language list")
            await pilot.press("escape")
            await until(pilot, app, NewMatchScreen)
            await pilot.press("enter")
            await settle(pilot, app)
            session = app.session
            assert session is not None
            seen: set[Phase] = set()
            for _turn in range(60):  # every phase of a hand, a refusal and a hint in each
                await settle(pilot, app)
                if isinstance(app.screen, HandEndScreen):
                    break
                phase = session.hand.phase
                if phase not in seen:
                    seen.add(phase)
                    await scan(pilot, f"the table ({phase.value})")
                    await pilot.press("g" if phase is not Phase.DISCARD else "t")
                    await scan(pilot, f"a refusal ({phase.value})")
                    await pilot.press("h")
                    await settle(pilot, app)
                    await scan(pilot, f"a hint ({phase.value})")
                if phase is Phase.DISCARD and "chosen" not in str(seen):
                    await pilot.press("1")
                    await scan(pilot, "a card chosen")
                    seen.add("chosen")  # type: ignore[arg-type]
                    await pilot.press("escape")
                await human_turn(pilot, app)
            for key, kind, name in (("question_mark", HelpScreen, "help"),
                                    ("r", RulesScreen, "the rules"),
                                    ("p", PileScreen, "the pile")):
                if isinstance(app.screen, HandEndScreen):
                    break
                await pilot.press(key)
                await until(pilot, app, kind)
                await scan(pilot, name)
                await pilot.press("escape")
            if not isinstance(app.screen, HandEndScreen):
                await pilot.press("l")
                await until(pilot, app, SavedGamesScreen)
                await scan(pilot, "the saved games")
                await pilot.press("delete")
                await until(pilot, app, ConfirmScreen)
                await scan(pilot, "the abandon question")
                await pilot.press("n")
                await pilot.press("escape")
            for _turn in range(200):
                await settle(pilot, app)
                if isinstance(app.screen, HandEndScreen):
                    break
                await human_turn(pilot, app)
            await until(pilot, app, HandEndScreen)
            await scan(pilot, "the hand's end")
            app.resume(done.id)  # its last hand's end, then the match's end
            await until(pilot, app, HandEndScreen)
            await pilot.press("enter")
            await until(pilot, app, MatchEndScreen)
            await scan(pilot, "the match's end")
            assert scan.found == {}, '\n'.join(f'{k}: {v}' for k, v in scan.found.items())

        # Starting with one unfinished match asks whether to resume it.
        app = GinApp(store=store, level=1, rules=Rules(), delay=0)
        async with app.run_test(size=size) as pilot:
            scan = Scan(app)
            await until(pilot, app, AskScreen)
            await scan(pilot, "the resume question")
            assert scan.found == {}, '\n'.join(f'{k}: {v}' for k, v in scan.found.items())

    asyncio.run(run())


def test_every_screen_of_the_keeper_speaks_only_through_the_catalogue_and_fits(
        store: Store, layout: tuple[int, int]) -> None:
    """In the pseudo-locale, no untranslated word; in it, in Lithuanian and in Afrikaans, at
    80x24 and 120x40, no button cut or scrolled away and the table's numbers in sight."""
    size = layout
    async def run() -> None:
        app = KeeperApp(store=store, new=True)
        async with app.run_test(size=size) as pilot:
            scan = Scan(app)
            await until(pilot, app, NewSheetScreen)
            await scan(pilot, "the new-sheet dialog")
            await pilot.press(*"Alice", "enter", *"Bob", "enter")
            for _ in range(50):
                await pilot.pause()
                if not isinstance(app.screen, NewSheetScreen):
                    break
            await scan(pilot, "an empty sheet")
            for line in ("alice 25", "bob knocks 3 10", "alice nonsense"):
                await pilot.press(*line, "enter")
            await scan(pilot, "a sheet with hands and an error")
            app.query_one("#quick", Input).value = ""  # the refused line stays to be fixed
            await pilot.press(*"bob undercut 8 5", "enter")
            await until(pilot, app, QuestionScreen)
            await scan(pilot, "a question")
            await pilot.press("escape")
            await pilot.press("f1")
            await until(pilot, app, KeeperHelp)
            await scan(pilot, "the keeper's help")
            await pilot.press("escape")
            await pilot.press("ctrl+o")
            await until(pilot, app, SavedGamesScreen)
            await scan(pilot, "the unfinished sheets")
            await pilot.press("escape")
            assert scan.found == {}, '\n'.join(f'{k}: {v}' for k, v in scan.found.items())
            if not scan.words:
                return
            # The scan sees what it should: the footer's key hints, a word said in English.
            assert i18n.pseudo("undo") in every_text(app)
            app.notify("Plain English")
            await pilot.pause()
            assert "Plain" in leaks(app)

    asyncio.run(run())


def test_every_hand_end_and_sheet_said_in_the_catalogue(store: Store, qps: None) -> None:
    """The hand's end (layouts, points, how they entered the sheet) for every way a hand
    ends, over seeded matches: knock, undercut, gin, a dead hand, a closed game."""
    from rich.console import Console

    from hollywood_gin.tui.handend import hand_end_layout, hand_end_points
    from hollywood_gin.tui.look import sheet_table
    from hollywood_gin.tui.rulewords import help_rules, rules_summary, sheet_title

    console = Console(width=100, record=True, file=__import__("io").StringIO())
    kinds: set[str] = set()
    rng = random.Random(3)
    for seed in range(40):
        if {"knock", "undercut", "gin", "dead"} <= kinds and seed > 6:
            break
        rules = Rules(dead_hand_stock=rng.choice([2, 8]), big_gin_bonus=31,
                      columns=rng.choice([1, 3]), game_target=rng.choice([10, 100]))
        session = GameSession.new(store, level=rng.choice([1, 5]), rules=rules, seed=seed)
        play_out(session)
        result = session.hand.result
        assert result is not None
        kinds.add(result.kind)
        console.print(hand_end_layout(session, False), hand_end_points(session),
                      sheet_table(session.sheet, session.names, title=sheet_title(rules)))
    for rules in (*PRESETS.values(), Rules(oklahoma=True, next_dealer="alternate",
                                            entry_rule="by_count", discard_taken_card=True)):
        console.print(help_rules(rules), rules_summary(rules))
    assert {"knock", "gin"} <= kinds
    assert i18n.pseudo_leaks(console.export_text(), allow=ALLOW) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_statistics_and_the_review_speak_only_through_the_catalogue(
        store: Store, qps: None, size: tuple[int, int]) -> None:
    """The statistics screen (a) before and after a review, and the review screen of a
    finished match stepped through its decisions (issue 13's screens)."""
    from hollywood_gin.review import ReviewSettings
    from hollywood_gin.tui.review import ReviewScreen
    from hollywood_gin.tui.statsscreen import StatsScreen

    old = GameSession.new(store, level=2, rules=Rules(columns=1, game_target=1), seed=8,
                          first_dealer=0)
    play_out(old, until_finished=True)

    async def run() -> None:
        app = GinApp(store=store, level=1, rules=Rules(), seed=9, first_dealer=1, new=True,
                     ask=False, delay=0,
                     review_settings=ReviewSettings(min_deals=2, max_deals=4, batch=2))
        async with app.run_test(size=size) as pilot:
            scan = Scan(app)
            await settle(pilot, app)
            await pilot.press("a")
            await until(pilot, app, StatsScreen)
            await scan(pilot, "the statistics")
            await pilot.press("enter")
            for _ in range(2000):
                await pilot.pause()
                screen = app.screen
                if isinstance(screen, ReviewScreen) and screen.done:
                    break
            await scan(pilot, "the review")
            for step in range(6):
                await pilot.press("right")
                await scan(pilot, f"the review, decision {step + 2}")
            await pilot.press("escape")
            await until(pilot, app, StatsScreen)
            await scan(pilot, "the statistics after a review")
            assert scan.found == {}, '\n'.join(f'{k}: {v}' for k, v in scan.found.items())

    asyncio.run(run())
