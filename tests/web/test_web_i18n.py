"""The web app in the player's language (issue 12), with Playwright and Debian's Chromium.

- Every view in the pseudo-locale (``qps``: every catalogue message accented and wrapped,
  about 1.4 times as long as the English): the lobby, the rules page, the invite, the join
  page and its refusal, the table in each phase, a chosen card, the hand's end, the match's
  end, the review panel and page and a stranger's refusal, the offline banner.  Any plain
  word in the page's text, its ``aria-label``/``title``/``placeholder``/``alt`` attributes,
  its SVG titles or its document title that did not come through the catalogue fails.  On
  a 390x844 phone each view also fits: the page does not scroll sideways and every button
  lies inside the window's width (the layout test for the longest language: see LONGEST).
- Two friends at one table each in his own language.
- A whole hand in each of the six languages, one match going on after each language chosen
  from the switcher; the choice is kept in the browser and said in the seat's hello.
- The Lao font: Noto Sans Lao, shipped, loads and draws Lao.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hg_frames
import httpx2
import pytest
from hg_web_support import DESKTOP, PHONE, SHORT_MATCH, Seat, Server, hold_seat, play_computer

from hollywood_gin import i18n
from hollywood_gin.rules import OPTIONS, PRESETS, Rules

#: The language the layout checks use: the pseudo-locale grows every message about 1.4
#: times, more than any real catalogue (Hausa and Afrikaans run about 1.2 times the English
#: in characters, see docs/i18n/README.md).  Once every catalogue is complete, set it to
#: the longest real language (``tests/test_layout_languages.py`` measures which) to check
#: real words instead; the scan for untranslated words needs the pseudo-locale.
LONGEST = i18n.PSEUDO

#: HG_SCREENSHOTS=docs/screenshots: the README's pictures of the table in Lao and in
#: Lithuanian (web-table-lo.png, web-table-lt.png), taken as the hands in each language go.
SHOTS = os.environ.get("HG_SCREENSHOTS")
SHOT_LANGUAGES = ("lo", "lt")

#: Proper names and what is no word: the game's name and its monogram on the card backs,
#: the players' names of these tests, each language's own name in the language list (and
#: the pseudo-locale's code there), and what the rule book names as the program does (rule
#: option names and values, preset names, in its code spans).
ALLOW = ("Hollywood Gin", "HG", "Ann", "Bob", *i18n.LANGUAGES.values(), i18n.PSEUDO,
         *(o.name for o in OPTIONS), *PRESETS, *(str(c) for o in OPTIONS for c in o.choices))

VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
#: Short hands (a hand in each language, kept fast): a knock at 10 or less, and the hand
#: is dead when 20 cards are left in the stock (about six draws each at most).
QUICK = {"knock_limit": 10, "dead_hand_stock": 20}

#: Everything a person or a screen reader meets on the page.
PAGE_TEXT = """() => {
  const parts = [document.title, document.body.innerText];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = node.getAttribute(name);
      if (value) parts.push(value);
    }
  }
  for (const node of document.querySelectorAll("svg title, svg desc")) {
    parts.push(node.textContent);
  }
  return parts.join("\\n");
}"""

#: What sticks out of the window sideways: the page's own scroll width, and any button or
#: link drawn past the right edge (screen-reader-only text aside).
OVERFLOW = """() => {
  const width = window.innerWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) {
    out.push("the page scrolls sideways: " + document.documentElement.scrollWidth);
  }
  for (const node of document.querySelectorAll("button, .btn, a, select, input")) {
    if (node.closest(".sr-only, .hidden") || node.offsetParent === null) continue;
    const box = node.getBoundingClientRect();
    if (box.width === 0) continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      out.push(node.outerHTML.slice(0, 90) + " " + Math.round(box.left) + ".." +
               Math.round(box.right));
    }
  }
  // A hand-end row whose name, count and tag ran past the panel (Lithuanian's tag did).
  for (const node of document.querySelectorAll(".layout-row, .layout-head")) {
    if (node.scrollWidth > node.clientWidth + 1) {
      out.push(node.className + " overflows: " + node.scrollWidth + " > " + node.clientWidth);
    }
  }
  return out;
}"""

#: Controls a thumb must hit that are less than 24 px high (WCAG 2.5.8); links in running
#: text, and boxes and dots beside their labels, are the rule's own exceptions.
TOO_SMALL = """() => {
  const out = [];
  const controls = "button, .btn, summary, select, a, input:not([type=radio]):not([type=checkbox])";
  for (const node of document.querySelectorAll(controls)) {
    if (node.closest(".sr-only, .hidden, p, li, td, dd, main.rulebook, label")
        || node.offsetParent === null) continue;
    const box = node.getBoundingClientRect();
    if (box.width > 0 && box.height < 23.5) {
      out.push(node.outerHTML.slice(0, 80) + " " + Math.round(box.height) + " px high");
    }
  }
  return out;
}"""


#: The rules in force on the sheet say these words, in order.
IN_FORCE_SAYS = """words => JSON.stringify([...document.querySelectorAll(
  ".in-force dt, .in-force dd")].map(e => e.textContent)) === JSON.stringify(words)"""


class Views:
    """The views seen, and what leaked or overflowed on each."""

    def __init__(self) -> None:
        self.leaks: dict[str, list[str]] = {}
        self.overflow: dict[str, list[str]] = {}
        self.seen: list[str] = []

    def scan(self, page: Any, where: str, *, fits: bool = True) -> None:
        page.wait_for_timeout(50)
        text = page.evaluate(PAGE_TEXT)
        assert "⟦" in text, f"{where}: the page does not speak the pseudo-locale"
        words = sorted(set(i18n.pseudo_leaks(text, allow=ALLOW)))
        if words:
            self.leaks[where] = words
        if fits and page.viewport_size["width"] <= PHONE["width"]:
            out = page.evaluate(OVERFLOW) + page.evaluate(TOO_SMALL)
            if out:
                self.overflow[where] = out
        self.seen.append(where)

    def check(self) -> None:
        assert self.leaks == {}, "\n".join(f"{k}: {v}" for k, v in self.leaks.items())
        assert self.overflow == {}, "\n".join(f"{k}: {v}" for k, v in self.overflow.items())


def _context(browser: Any, viewport: dict[str, int], lang: str) -> Any:
    """A browser whose player chose ``lang`` before (kept in localStorage)."""
    context = browser.new_context(viewport=viewport, reduced_motion="reduce")
    context.add_init_script(f"localStorage.setItem('hg.lang', '{lang}')")
    return context


def _act(page: Any, phase: str | None, turn: int = 0) -> None:
    """One action by key or click, no words read (any language): pass the upcard, draw from
    the stock, then gin, a knock, or the highest card not in a meld."""
    if phase == "offer":
        page.keyboard.press("p")
    elif phase == "draw":
        page.keyboard.press("d") if turn % 2 else page.locator(".stock").click()
    else:
        finish = page.locator(".actions .btn.gin, .actions .btn.knock")
        if finish.count():
            finish.first.click()
        else:
            read = "els => els.map(e => e.dataset.card)"
            names = page.locator(".hand .group.dead .card:not(.locked)").evaluate_all(read)
            if not names:
                names = page.locator(".hand .card:not(.locked)").evaluate_all(read)
            card = max(names, key=lambda c: VALUES.get(c[0]) or int(c[0]))
            page.locator(f'.hand .card[data-card="{card}"]').focus()
            page.keyboard.press("Enter")  # choose it
            page.keyboard.press("Enter")  # throw it


def _move(page: Any, turn: int = 0) -> bool:
    """One action if it is this seat's turn, waiting until the table has taken it."""
    felt = page.locator(".felt")
    if felt.get_attribute("data-turn") != "me":
        return False
    seq = felt.get_attribute("data-seq")
    _act(page, felt.get_attribute("data-phase"), turn)
    page.wait_for_function("s => document.querySelector('.felt').dataset.seq !== s", arg=seq,
                           timeout=10_000)
    return True


def _play_hand(page: Any, views: Views | None = None, where: str = "") -> None:
    """Play the hand to its end; with ``views``, scan the table once in each phase and with
    a card chosen."""
    seen: set[str] = set()
    for turn in range(400):
        page.wait_for_selector(".felt[data-turn=me], .felt[data-phase=over]", timeout=15_000)
        phase = page.locator(".felt").get_attribute("data-phase")
        if phase == "over":
            break
        if views is not None and phase not in seen:
            seen.add(phase or "")
            views.scan(page, f"{where}the table ({phase})")
            if phase == "discard":
                page.locator(".hand .card:not(.locked)").last.click(position={"x": 6, "y": 30})
                views.scan(page, f"{where}a card chosen")
                page.locator(".hand .card.selected").click(position={"x": 6, "y": 30})
        _move(page, turn)
    else:
        pytest.fail("the hand did not end")
    page.locator(".overlay .panel.result").wait_for()


@pytest.fixture(scope="module")
def finished(web: Server) -> Iterator[dict[str, Any]]:
    """A finished one-hand match against the computer, played by the tests' client."""
    created = web.create(opponent="computer", level=1, name="Ann", rules=SHORT_MATCH)
    me = Seat(web, created["table"], created["token"])
    play_computer(me)
    me.close()
    yield created


def test_every_view_speaks_only_through_the_catalogue_and_fits_a_phone(
        browser: Any, web: Server, finished: dict[str, Any]) -> None:
    views = Views()
    errors: list[str] = []
    context = _context(browser, PHONE, LONGEST)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))

    # The lobby, the rule book's page, the invite.
    page.goto(web.base + "/")
    page.wait_for_selector(".lobby form")
    assert page.evaluate("document.documentElement.lang") == LONGEST
    views.scan(page, "the lobby")
    page.locator("a.read-rules").click()
    page.wait_for_selector("main.rulebook")
    views.scan(page, "the rules page")
    page.goto(web.base + "/")
    page.fill("input[name=name]", "Ann")
    page.locator(".lobby-buttons .btn").nth(1).click()  # invite a friend
    link = page.locator("input.invite-link")
    link.wait_for()
    views.scan(page, "the invite")
    invite = link.input_value()

    # The friend's join page, and its refusal of a wrong invite (a server error, in words).
    friend = _context(browser, PHONE, LONGEST)
    guest = friend.new_page()
    guest.on("pageerror", lambda e: errors.append(str(e)))
    guest.goto(invite.split("#")[0] + "#" + "x" * 22)
    guest.wait_for_selector("form input")
    views.scan(guest, "the join page")
    guest.fill("form input", "Bob")
    guest.locator("form .btn").first.click()
    guest.wait_for_selector("[role=alert]:not(.hidden):not(:empty)")
    views.scan(guest, "a refused join")
    friend.close()

    # A table against the computer (short hands): every phase, the hand's end; then offline.
    quick = web.create(opponent="computer", level=1, name="Ann", rules=QUICK)
    hold_seat(page, web, quick, "computer")
    page.goto(f"{web.base}/t/{quick['table']}")
    page.wait_for_selector(".hand .card")
    _play_hand(page, views)
    views.scan(page, "the hand's end")
    web.kill()
    try:
        page.wait_for_selector(".felt[data-online=no]")
        views.scan(page, "the offline banner")
    finally:
        web.start()
    page.wait_for_selector(".felt[data-online=yes]", timeout=20_000)

    # The match's end, the review panel, the review page, and a stranger's refusal.
    hold_seat(page, web, finished, "computer")
    page.goto(f"{web.base}/t/{finished['table']}")
    page.wait_for_selector(".overlay .panel.result .match-over")
    views.scan(page, "the match's end")
    page.keyboard.press("w")
    page.wait_for_selector(".panel.review[data-done=yes]", timeout=60_000)
    views.scan(page, "the review panel")
    page.keyboard.press("ArrowRight")
    views.scan(page, "the review panel, a second decision")
    page.goto(f"{web.base}/review/{finished['table']}")
    page.wait_for_selector(".panel.review[data-done=yes]", timeout=60_000)
    views.scan(page, "the review page")
    page.goto(web.base + "/")
    page.wait_for_selector(".finished-tables .finished-table")
    views.scan(page, "the lobby with a finished match")
    stranger = _context(browser, PHONE, LONGEST)
    other = stranger.new_page()
    other.goto(f"{web.base}/review/{finished['table']}")
    other.wait_for_selector(".review-slot *")
    views.scan(other, "a stranger's review page")
    stranger.close()

    # The wide screen's lobby and table (the language list's label shows there).
    wide = _context(browser, DESKTOP, LONGEST)
    desk = wide.new_page()
    desk.goto(web.base + "/")
    desk.wait_for_selector(".lobby form")
    views.scan(desk, "the lobby (desktop)")
    hold_seat(desk, web, finished, "computer")
    desk.goto(f"{web.base}/t/{finished['table']}")
    desk.wait_for_selector(".overlay .panel.result .match-over")
    views.scan(desk, "the match's end (desktop)")
    wide.close()

    views.check()
    assert not errors, errors
    context.close()


def test_two_friends_at_one_table_each_in_his_own_language(browser: Any, web: Server) -> None:
    """Ann reads Lithuanian, Bob Norwegian: each page speaks its own, and the server's
    words for each seat come in that seat's language."""
    created = web.create(opponent="friend", name="Ann")
    joined = web.join(created["table"], created["invite"], name="Bob")
    pages = {}
    for lang, seat, token in (("lt", created, created["token"]),
                              ("nb", joined, joined["token"])):
        context = _context(browser, PHONE, lang)
        page = context.new_page()
        hold_seat(page, web, {"table": created["table"], "token": token}, "friend")
        page.goto(f"{web.base}/t/{created['table']}")
        page.wait_for_selector(".hand .card")
        pages[lang] = page
        del seat
    for lang, page in pages.items():
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator(".lang-switch select").input_value() == lang
        with i18n.using(lang):
            words = i18n.catalogue_json(lang)["messages"]
        # the page's own words in its language where the catalogue has them
        shown = page.evaluate(PAGE_TEXT)
        translated = [v for k, v in words.items() if isinstance(v, str) and k.startswith("app.")]
        assert any(v in shown for v in translated) or not translated, lang
    # The server words each seat's rules in force in its own language.
    for lang in ("lt", "nb"):
        answer = httpx2.get(f"{web.base}/api/rules?table={created['table']}",
                           headers={"accept-language": lang}, trust_env=False).json()
        with i18n.using(lang):
            from hollywood_gin.rulebook import rules_in_force
            from hollywood_gin.rules import Rules
            expected = [list(line) for line in rules_in_force(Rules())]
        assert [list(line) for line in answer["in_force"]] == expected
    for page in pages.values():
        page.context.close()


FELT = "() => { const f = document.querySelector('.felt'); return f ? [f.dataset.phase, " \
    "f.dataset.turn, f.dataset.seq] : [null, null, null]; }"


SHEET_FITS = ("() => { const s = document.querySelector('.sheet');"
              " return s.scrollWidth <= s.clientWidth + 1; }")


#: Every word or number of the sheet (its column headings, names, points and totals) that is
#: drawn broken: over two lines, or past its cell (a word that may not break and does not
#: fit).  Words hidden from the eye (the screen readers' whole words) are not drawn, and a
#: long name and the short note of a closed game, cut with an ellipsis by design (their
#: title has them whole), are not looked at.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll(".sheet-table th, .sheet-table td")) {
    const cell = th.getBoundingClientRect();
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const host = node.parentElement;
      if (host.closest(".sr-only") || host.getClientRects().length === 0
          || getComputedStyle(host).overflowX !== "visible") continue;
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const lines = new Set(rects.map((r) => Math.round(r.top))).size;
        const out = rects.some(
          (r) => r.left < cell.left - 0.5 || r.right > cell.right + 0.5);
        if (lines > 1 || out) broken.push(`${m[0]} (${lines} lines${out ? ", too wide" : ""})`);
      }
    }
  }
  return broken;
}"""


def _sheet_frames() -> list[dict[str, object]]:
    """A frame for each number of games (R7.1: 1 to 5), the first game closed (its short
    note shown), with the longest names there are."""
    frames = []
    for columns in range(1, 6):
        game = hg_frames.Game(7, Rules(columns=columns, game_target=25))
        assert game.until(lambda m: any(c.closed for c in m.sheet.columns), limit=4000)
        frames.append(game.frame(0, seq=1000 + columns))
    return frames


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_sheet_headings_never_break_a_word(browser: Any, web: Server,
                                           viewport: dict[str, int]) -> None:
    """Regression: on a 390 px phone the headings broke inside a word, "Žaidim/as 1" in
    Lithuanian and "Jiml/a" in Hausa (every cell of the sheet could break anywhere), and
    words kept whole must not push the sheet wider than its panel (Afrikaans did): for each
    language and each number of games, no heading word over two lines or past its cell, the
    whole sheet in sight, and screen readers still read each heading whole."""
    frames = _sheet_frames()
    errors: list[str] = []
    sockets: list[Any] = []  # the page's WebSocket, routed here: hello gets the first frame

    def serve(ws: Any) -> None:
        sockets.append(ws)
        ws.on_message(lambda m: ws.send(json.dumps(frames[0]))
                      if json.loads(m)["type"] == "hello" else None)

    for lang in i18n.LANGUAGES:
        context = _context(browser, viewport, lang)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route_web_socket(re.compile(r"/ws/"), serve)
        page.goto(f"{web.base}/t/{hg_frames.TABLE}")
        for columns, frame in enumerate(frames, 1):
            if columns > 1:
                sockets[-1].send(json.dumps(frame))
            page.wait_for_selector(f".felt[data-seq='{frame['seq']}']")
            where = (lang, columns, viewport["width"])
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.evaluate(BROKEN_WORDS) == [], where
            assert page.evaluate(SHEET_FITS), where
            # Screen readers read each game's heading in words (shown so, or by its number).
            game = i18n.catalogue_json(lang)["messages"].get("sheet.game", "Game {n}")
            heard = page.locator(".sheet-table thead").aria_snapshot()
            for n in range(1, columns + 1):
                assert f'columnheader "{str(game).format(n=n)}' in heard, (where, heard)
        context.close()
    assert not errors, errors


def test_the_computers_name_is_whole_on_a_phones_hollywood_sheet(browser: Any,
                                                                  web: Server) -> None:
    """On a 390 px phone the three games' sheet cut the computer's name ("Comput…",
    "Komp…", "Datam…", "Kwam…"): a closed game's "3 boxes +260" on one line widened its
    column and the name had 5.5 em (a QA pass).  The bonus has its own line now, and the
    name the server gives the computer is whole in every language, the sheet in sight."""
    game = hg_frames.Game(7, Rules(columns=3, game_target=25))
    assert game.until(lambda m: any(c.closed for c in m.sheet.columns), limit=4000)
    frame = game.frame(0, names=("You", "Computer"), opponent="computer", seq=77)
    assert any(c["bonuses"][0] or c["bonuses"][1] for c in frame["sheet"]["columns"])
    errors: list[str] = []

    def serve(ws: Any) -> None:
        ws.on_message(lambda m: ws.send(json.dumps(frame))
                      if json.loads(m)["type"] == "hello" else None)

    for lang in i18n.LANGUAGES:
        context = _context(browser, PHONE, lang)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route_web_socket(re.compile(r"/ws/"), serve)
        page.goto(f"{web.base}/t/{hg_frames.TABLE}")
        page.wait_for_selector(".felt[data-seq='77']")
        name = page.locator(".sheet-table tr.opp th.name span")
        said = i18n.catalogue_json(lang)["messages"].get("name.computer", "Computer")
        assert name.inner_text() == said, lang
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= "
                             "e.clientHeight + 1"), (lang, said, "the name is cut")
        assert page.evaluate(SHEET_FITS), lang
        assert page.evaluate(BROKEN_WORDS) == [], lang
        assert page.locator(".sheet-table td .bonus").count() >= 1
        context.close()
    assert not errors, errors


def test_a_whole_hand_in_each_language(browser: Any, web: Server) -> None:
    """A hand in each of the six languages, each chosen from the page's language list (the
    page loads its words, keeps the choice in the browser and says it in the hello); the six
    tables are played side by side, so the computer's turns overlap (kept fast)."""
    pages: dict[str, Any] = {}
    errors: list[str] = []
    for lang in i18n.LANGUAGES:
        context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        created = web.create(opponent="computer", level=1, name="Ann", rules=QUICK)
        hold_seat(page, web, created, "computer")
        page.goto(f"{web.base}/t/{created['table']}")
        page.wait_for_selector(".hand .card")
        page.wait_for_selector(".in-force dd", state="attached")  # the rules, read in English
        page.locator(".lang-switch select").select_option(lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        # The rules in force are read again in the new language (they stayed in English).
        in_force = httpx2.get(f"{web.base}/api/rules?table={created['table']}",
                              headers={"accept-language": lang}, trust_env=False).json()
        page.wait_for_function(IN_FORCE_SAYS, arg=[w for line in in_force["in_force"]
                                                   for w in line])
        page.wait_for_selector(".felt[data-hand='1']")
        assert page.evaluate("localStorage.getItem('hg.lang')") == lang
        # The whole sheet, its Total column too, is in sight in every language (Lithuanian's
        # "Žaidimas 1" headings pushed Total out of the panel, behind a sideways scroll).
        assert page.evaluate(SHEET_FITS), lang
        pages[lang] = page
    acted: dict[str, str | None] = dict.fromkeys(pages)
    turns = dict.fromkeys(pages, 0)
    playing = set(pages)
    shot: set[str] = set()
    for _round in range(3000):
        for lang in sorted(playing):
            page = pages[lang]
            phase, turn, seq = page.evaluate(FELT)
            if phase == "over":
                playing.discard(lang)
            elif turn == "me" and seq != acted[lang]:
                if (SHOTS and lang in SHOT_LANGUAGES and lang not in shot and phase == "discard"
                        and turns[lang] >= 3):
                    page.wait_for_timeout(400)  # the animations finished
                    Path(SHOTS).mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(Path(SHOTS) / f"web-table-{lang}.png"))
                    shot.add(lang)
                acted[lang] = seq  # act once per state: the answer makes a new seq
                _act(page, phase, turns[lang])
                turns[lang] += 1
        if not playing:
            break
        pages["en"].wait_for_timeout(20)
    else:
        pytest.fail(f"the hands in {sorted(playing)} did not end")
    for lang, page in pages.items():
        panel = page.locator(".overlay .panel.result")
        panel.wait_for()
        assert panel.locator(".layout-row").count() == 2
        assert page.evaluate("document.documentElement.lang") == lang
        with i18n.using(lang):
            messages = i18n.catalogue_json(lang)["messages"]
        next_hand = messages.get("btn.next")
        if isinstance(next_hand, str):  # the page's words in its language once translated
            assert next_hand in panel.inner_text(), lang
        page.keyboard.press("n")
        page.wait_for_selector(".felt[data-hand='2']")
        page.context.close()
    assert not errors, errors


def test_lao_is_drawn_with_the_shipped_font(browser: Any, web: Server) -> None:
    context = _context(browser, PHONE, "lo")
    page = context.new_page()
    page.goto(web.base + "/")
    page.wait_for_selector(".lobby form")
    assert page.evaluate("document.documentElement.lang") == "lo"
    faces = page.evaluate("document.fonts.load(\"16px 'Noto Sans Lao'\", 'ລາວ')"
                          ".then(f => f.length)")
    assert faces == 1
    assert page.evaluate("[...document.fonts].some(f => f.family.replace(/\"/g, '') === "
                         "'Noto Sans Lao' && f.status === 'loaded')")
    context.close()
