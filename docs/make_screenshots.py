"""Make the SVG screenshots of the terminal game, docs/screenshots/tui-*.svg (headless, seeded).

Run from the repository root:  python docs/make_screenshots.py

It plays a seeded match against the computer with Textual's test pilot, the
person's side scripted (draw, knock when allowed, else the least-deadwood
discard), and saves: the game, the new-match dialog, the end of a hand and its
review, the finished match with its sheet, the help screen and the score keeper on the
the rule book R7.6 example; and the game in Afrikaans (tui-game-af.svg, the same match
with the language set: it looks right once the Afrikaans catalogue is complete).  A
temporary database is used, never your saved games.

    python docs/make_screenshots.py            # every shot
    python docs/make_screenshots.py --lang af  # the Afrikaans game only

The web app's pictures, in English and in Lao and Lithuanian (web-table-lo.png,
web-table-lt.png), are taken by its browser tests:
HG_SCREENSHOTS=docs/screenshots pytest tests/web/test_web_browser.py
tests/web/test_web_review_browser.py tests/web/test_web_i18n.py
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from hollywood_gin import i18n  # noqa: E402
from hollywood_gin.actions import Knock  # noqa: E402
from hollywood_gin.hand import Phase  # noqa: E402
from hollywood_gin.melds import best_melds, discard_choices  # noqa: E402
from hollywood_gin.rules import Rules  # noqa: E402
from hollywood_gin.store import Store  # noqa: E402
from hollywood_gin.tui.app import (  # noqa: E402
    KEY_NAMES,
    GinApp,
    HandEndScreen,
    MatchEndScreen,
    NewMatchScreen,
)
from hollywood_gin.tui.keeper import KeeperApp  # noqa: E402
from hollywood_gin.tui.review import ReviewScreen  # noqa: E402

OUT = HERE / "screenshots"
SIZE = (112, 34)
SEED = 2024


async def settle(pilot: object, app: GinApp) -> None:
    for _ in range(2000):
        await pilot.pause()  # type: ignore[attr-defined]
        if not app.busy:
            await app.workers.wait_for_complete()
            await pilot.pause()  # type: ignore[attr-defined]
            if not app.busy:
                return


async def person(pilot: object, app: GinApp) -> None:
    """One scripted action of the person: draw, knock if allowed, else the best discard."""
    session = app.session
    assert session is not None
    view = session.view()
    if view.phase is Phase.OFFER:
        await pilot.press("x")  # type: ignore[attr-defined]
    elif view.phase is Phase.DRAW:
        await pilot.press("s")  # type: ignore[attr-defined]
    elif any(isinstance(a, Knock) for a in view.legal_actions):
        await pilot.press("k")  # type: ignore[attr-defined]
    else:
        card = next(c.card for c in discard_choices(view.hand) if c.card != view.taken_card)
        key = KEY_NAMES[app.game.order.index(card)]
        await pilot.press(key, key)  # type: ignore[attr-defined]


async def review(pilot: object, app: GinApp) -> None:
    """The game review of the hand just ended (v), at its first marked decision."""
    await pilot.press("v")  # type: ignore[attr-defined]
    for _ in range(5000):
        await pilot.pause()  # type: ignore[attr-defined]
        if isinstance(app.screen, ReviewScreen) and app.screen.done:
            break
    await pilot.press("m")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    shot(app, "review")
    await pilot.press("escape")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


#: The language of the shots being taken ("" English: tui-game.svg; "af": tui-game-af.svg).
SUFFIX = ""


def shot(app: object, name: str) -> None:
    name = f"{name}-{SUFFIX}" if SUFFIX else name
    app.save_screenshot(f"tui-{name}.svg", path=str(OUT))  # type: ignore[attr-defined]
    print("wrote", OUT / f"tui-{name}.svg")


async def game(db: str, *, only_game: bool = False) -> None:
    """The seeded match and its shots; ``only_game``: the game screen alone (a language's)."""
    store = Store(db)
    app = GinApp(store=store, level=3, rules=Rules(), seed=SEED, first_dealer=1, ask=True,
                 new=True, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):  # the dialog opens once the first screen is drawn
            await pilot.pause()
            if isinstance(app.screen, NewMatchScreen) and app.screen.focused is not None:
                break
        if not only_game:
            shot(app, "new-match")
        await pilot.press("enter")
        await settle(pilot, app)
        game_shot = hand_shot = review_shot = False
        while True:
            await settle(pilot, app)
            session = app.session
            assert session is not None
            if only_game and isinstance(app.screen, (HandEndScreen, MatchEndScreen)):
                await pilot.press("enter")
                continue
            if isinstance(app.screen, MatchEndScreen):
                shot(app, "match-end")
                break
            if isinstance(app.screen, HandEndScreen):
                result = session.hand.result
                if not hand_shot and result is not None and result.score is not None \
                        and result.score.layoffs:
                    shot(app, "hand-end")
                    hand_shot = True
                mine = sum(1 for p, _a in session.hand.history if p == 0)
                if not review_shot and mine >= 14:  # a hand with decisions to step through
                    await review(pilot, app)
                    review_shot = True
                await pilot.press("enter")
                continue
            view = session.view()
            # the game screen: a discard to choose, melds in hand, a card known in his
            if (not game_shot and session.hand_number >= 2 and view.phase is Phase.DISCARD
                    and len(best_melds(view.hand).melds) >= 2 and view.opponent_known
                    and not any(isinstance(a, Knock) for a in view.legal_actions)):
                card = discard_choices(view.hand)[0].card
                if card != view.taken_card:
                    await pilot.press(KEY_NAMES[app.game.order.index(card)])
                    await pilot.pause()
                    shot(app, "game")
                    game_shot = True
                    if only_game:
                        break
                    await pilot.press("question_mark")
                    await pilot.pause()
                    shot(app, "help")
                    await pilot.press("escape")
                    await pilot.pause()
            await person(pilot, app)
    store.close()


async def keeper(db: str) -> None:
    store = Store(db)
    app = KeeperApp(store=store, names=("Alexandra", "Bob"), new=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if app.screen.query("#start"):  # names given: the sheet may start at once
            await pilot.click("#start")
        for line in ("bob 10", "alex 18", "bob 30", "bob 4", "alex knock 4 9"):
            app.query_one("#quick").value = line  # type: ignore[attr-defined]
            await pilot.press("enter")
        app.query_one("#quick").value = "bob gin 14"  # type: ignore[attr-defined]
        await pilot.pause()
        shot(app, "score-keeper")
    store.close()


def in_language(lang: str) -> None:
    """The game screen in ``lang`` (tui-game-LANG.svg), the same seeded match."""
    global SUFFIX
    i18n.set_language(lang)
    SUFFIX = lang
    try:
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(game(f"sqlite:///{tmp}/games.db", only_game=True))
    finally:
        i18n.set_language("en")
        SUFFIX = ""


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", help="only the game screen in this language (af, lt, ...)")
    options = parser.parse_args(argv)  # --help, or a wrong option, writes nothing
    OUT.mkdir(exist_ok=True)
    if options.lang:
        in_language(options.lang)
        return
    i18n.set_language("en")
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(game(f"sqlite:///{tmp}/games.db"))
        asyncio.run(keeper(f"sqlite:///{tmp}/keeper.db"))
    in_language("af")  # README: the game in Afrikaans


if __name__ == "__main__":
    main(sys.argv[1:])
