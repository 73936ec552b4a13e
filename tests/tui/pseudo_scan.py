"""The scan of the terminal screens in the pseudo-locale and in long languages (issue 12),
shared by ``test_tui_pseudo.py`` (the game) and ``test_tui_pseudo_keeper.py`` (the score
keeper, the statistics and the review); its fixtures are in ``conftest.py``."""

from __future__ import annotations

import re
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Button
from tui_helpers import every_text, on_screen

from hollywood_gin import i18n
from hollywood_gin.rules import OPTIONS, PRESETS
from hollywood_gin.tui.game import GameScreen

SIZES = [(80, 24), (120, 40)]

#: Words allowed through untranslated: proper names (the game's, the players' of these
#: tests, each language's own name), and what the player types or the program names as
#: it is (rule option names and values, preset names, in the rule book's code spans).
ALLOW = ("Hollywood Gin", "Alice", "Bob", "alice", "bob", *i18n.LANGUAGES.values(),
         "nonsense",  # what the test types in the keeper, said back in its error
         *(o.name for o in OPTIONS), *PRESETS,
         *(str(c) for o in OPTIONS for c in o.choices), "undercut", "OpenSpiel", "gin_rummy",
         "ID", "FILE")  # a command line to type as it is (stats' --export ID FILE)


#: The languages and sizes the layout is checked in: the pseudo-locale at both sizes (longer
#: than any real one, tests/test_layout_languages.py, so a screen that holds it holds them;
#: and the only one the scan for untranslated words can read); the longest real language
#: (Lithuanian, 1.15 times the English) and Afrikaans (reported: its Help button cut at
#: 80x24) at 80x24, the tightest, where a word that will not wrap shows first.
FIT_LANGUAGES = (i18n.PSEUDO, "lt", "af")
LAYOUTS = [(i18n.PSEUDO, size) for size in SIZES] + [(lang, SIZES[0]) for lang in ("lt", "af")]


def layout_id(case: tuple[str, tuple[int, int]]) -> str:
    return f"{case[0]}-{case[1][0]}x{case[1][1]}"


def leaks(app: App[Any], shown: str | None = None) -> list[str]:
    """The untranslated words on the screen (``shown``: its text, when read already)."""
    shown = every_text(app) if shown is None else shown
    text = re.sub(r"-\n[ │┃]*", "-", shown)  # a command wrapped at its hyphen
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
        shown = every_text(self.app)  # read once: drawing the whole screen is the cost
        words = leaks(self.app, shown) if self.words else []
        if words:
            self.found[at] = words
        if "{" in shown:  # a placeholder the translation left unfilled
            self.found[at + " (unfilled)"] = ["{"]
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
