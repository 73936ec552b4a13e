"""No English hides in the terminal game: every screen, rendered in the pseudo-locale (every
message accented and wrapped, i18n.PSEUDO), holds no plain word that skipped the catalogue;
and every screen fits in a long language (issue 12): rendered in the pseudo-locale, in
Lithuanian (the longest real one) and in Afrikaans, no button is cut or scrolled out of
sight and the table's counts, stock, pile and sheet are whole on screen (the languages and
sizes: ``pseudo_scan.LAYOUTS``).

Each screen of the game is visited with the pilot, in one app per layout: the new-match
dialog, the language list, the table in each phase (with a hint and a refusal), help,
rules, the pile, the saved games and the abandon question, the hand's end, the match's
end, the resume question.  What the screens build from data (the hand's end for every way
a hand ends) is scanned without a screen in
``test_every_hand_end_and_sheet_said_in_the_catalogue``.  The score keeper, the statistics
and the review: ``test_tui_pseudo_keeper.py``.
"""

from __future__ import annotations

import asyncio
import random

from pseudo_scan import ALLOW, Scan, until
from tui_helpers import human_turn, play_out, settle

from hollywood_gin import i18n
from hollywood_gin.hand import Phase
from hollywood_gin.rules import PRESETS, Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HandEndScreen, MatchEndScreen
from hollywood_gin.tui.dialogs import HelpScreen, PileScreen, RulesScreen
from hollywood_gin.tui.language import LanguageScreen
from hollywood_gin.tui.newmatch import NewMatchScreen
from hollywood_gin.tui.saved import ConfirmScreen, SavedGamesScreen
from hollywood_gin.tui.session import COMPUTER, GameSession
from hollywood_gin.tui.widgets import AskScreen


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
                if {Phase.OFFER, Phase.DRAW, Phase.DISCARD, "chosen"} <= seen:
                    break  # every phase scanned: the dialogs next, the hand still on
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
            await settle(pilot, app)
            if not isinstance(app.screen, HandEndScreen):  # the rest without the screen
                play_out(session)
                app.game.proceed()
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


def test_points_won_by_the_person_say_to_you_in_the_object_form(store: Store) -> None:
    """Afrikaans read "Klop: 64 − 8 = 56 vir jy": the subject's "you" in the place of
    "to you" (a QA pass). The sentence takes its own word for it."""
    from rich.console import Console

    from hollywood_gin.tui.handend import hand_end_points
    from hollywood_gin.tui.session import HUMAN

    for seed in range(60):
        session = GameSession.new(store, level=1, rules=Rules(), seed=seed)
        play_out(session)
        result = session.hand.result
        if result is not None and result.winner == HUMAN and result.kind == "knock":
            break
    else:
        raise AssertionError("no knock won by the person in 60 seeded hands")
    i18n.set_language("af")
    try:
        console = Console(width=100, record=True, file=__import__("io").StringIO())
        console.print(hand_end_points(session))
        text = " ".join(console.export_text().split())
    finally:
        i18n.set_language("en")
    assert f"= {result.points} vir jou (R5.5)." in text and "vir jy" not in text, text
