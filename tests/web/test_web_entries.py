"""The hand's end says how the won hand entered the sheet (R7.2), in the page's language.
Under ``entry_rule=by_count`` a win whose games have all closed enters none: the page
said "11 points entered in ." (a QA pass)."""

from __future__ import annotations

from typing import Any

import pytest
from hg_web_support import DESKTOP, Server

ENTERED = """async ([lang, entry]) => {
  const i18n = await import('/static/js/i18n.js');
  const log = await import('/static/js/log.js');
  await i18n.useLanguage(lang);
  return log.enteredText({sheet: {entries: [entry]}, hand: {result: {kind: 'knock'}}});
}"""


@pytest.mark.parametrize(("lang", "none", "some"), [
    ("en", "11 points enter no game: the games it would enter have closed.",
     "11 points entered in game 2 and game 3. It closes game 2!"),
    ("lt", "11 taškų neįrašoma į jokį žaidimą: žaidimai, į kuriuos būtų įrašyta, uždaryti.",
     "11 taškų įrašyta: žaidimas 2 ir žaidimas 3. Uždaromas: žaidimas 2!"),
])
def test_a_win_that_enters_no_game_says_so(browser: Any, web: Server, lang: str, none: str,
                                           some: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(web.base + "/rules")
    assert page.evaluate(ENTERED, [lang, [1, 11, [], []]]) == none
    assert page.evaluate(ENTERED, [lang, [1, 11, [1, 2], [1]]]) == some
    context.close()
