"""The table page on a phone (390x844) and a desktop (1366x860), for words, layout and screen
readers: real state frames of chosen positions (``hg_frames``) are served on a routed
WebSocket, so every run shows the same eleven cards and the same hand end.

Issue 11 §6: the drawn card ran off a phone's table, the hand-end labels overlapped, the
move log was hidden below 820 px, a long name clipped the sheet's totals; the result said
"he scores" to the knocker and the log did not name the card taken from the pile; the
opponent's moves and the results were not told to screen readers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import hg_frames
import pytest
from hg_web_support import DESKTOP, PHONE, Server

from hollywood_gin.actions import parse_action

#: A control in an accessibility snapshot without a name ("- button" with no "...").
UNNAMED = re.compile(r"^\s*- (button|link|textbox|checkbox|combobox|radio|spinbutton|slider|"
                     r"switch|searchbox|menuitem|tab)\b(?!\s*\")", re.M)


class FakeTable:
    """The page's WebSocket routed to the test: answers hello with ``first`` and records
    what the page sends."""

    def __init__(self, page: Any, first: dict[str, Any]) -> None:
        self.first = first
        self.sent: list[dict[str, Any]] = []
        self.ws: Any = None
        page.route_web_socket(re.compile(r"/ws/"), self._open)

    def _open(self, ws: Any) -> None:
        self.ws = ws
        ws.on_message(self._message)

    def _message(self, message: str | bytes) -> None:
        data = json.loads(message)
        self.sent.append(data)
        if data["type"] == "hello":
            self.ws.send(json.dumps(self.first))

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame))


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"], scope="module")
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return dict(request.param)


def _new_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    context = browser.new_context(viewport=viewport, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture()
def page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A page at each size (for what depends on the layout)."""
    yield from _new_page(browser, viewport)


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    """A page on a phone only (for words, which do not depend on the size)."""
    yield from _new_page(browser, PHONE)


def _open(page: Any, web: Server, frame: dict[str, Any]) -> FakeTable:
    table = FakeTable(page, frame)
    page.goto(f"{web.base}/t/{hg_frames.TABLE}")
    page.wait_for_selector(f".felt[data-seq='{frame['seq']}']")
    return table


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, locator
    return {"left": box["x"], "top": box["y"], "right": box["x"] + box["width"],
            "bottom": box["y"] + box["height"]}


def _inside(inner: dict[str, float], outer: dict[str, float], what: str) -> None:
    assert inner["left"] >= outer["left"] - 0.5 and inner["right"] <= outer["right"] + 0.5, (
        what, inner, outer)


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5)


def _no_overlaps(locator: Any, what: str) -> None:
    boxes = [_box(locator.nth(i)) for i in range(locator.count())]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not _overlap(a, b), (what, a, b)


def _scroll_width_fits(page: Any, selector: str) -> None:
    fits = page.eval_on_selector(selector, "e => e.scrollWidth <= e.clientWidth + 1")
    assert fits, f"{selector} scrolls sideways"


# -- layout ------------------------------------------------------------------------------------


def test_eleven_cards_labels_log_and_sheet_fit(page: Any, web: Server,
                                                viewport: dict[str, int]) -> None:
    """§6: the eleventh card, the buttons and the group labels stay on the table; the log of
    moves is shown; the sheet's totals are not clipped by a long name."""
    frame = hg_frames.eleven_cards().frame(0)
    _open(page, web, frame)
    page.wait_for_selector(".hand .card >> nth=10")
    felt = _box(page.locator(".felt"))
    screen = {"left": 0, "right": viewport["width"], "top": 0, "bottom": viewport["height"]}
    _inside(felt, screen, "the table")
    cards = page.locator(".hand .card")
    assert cards.count() == 11
    for i in range(11):
        _inside(_box(cards.nth(i)), felt, f"card {i + 1}")
    for part in (".deadwood", ".actions", ".seat.me .nameplate"):
        _inside(_box(page.locator(part)), felt, part)
    _no_overlaps(page.locator(".hand .group-label"), "the hand's group labels")
    # The log is there on every screen, with the opponent's last move in it.
    log = page.locator(".log")
    assert log.is_visible()
    assert page.locator(".log .moves li").first.is_visible()
    assert page.locator(".last-move").inner_text().startswith("Last move: ")
    # The sheet: a long name is cut, the totals are whole and inside the sheet.
    sheet = _box(page.locator(".sheet"))
    _inside(sheet, screen, "the sheet")
    for total in ("th.total", "tr.me td.total", "tr.opp td.total"):
        _inside(_box(page.locator(f".sheet-table {total}")), sheet, total)
    _scroll_width_fits(page, ".sheet")
    _scroll_width_fits(page, "body")


def test_hand_end_labels_never_overlap(page: Any, web: Server, viewport: dict[str, int]) -> None:
    """§6: "LAID OFDEADWOOD": the hand-end groups' labels ran into each other on a phone."""
    game = hg_frames.knock_with_layoffs()
    _open(page, web, game.frame(0))
    panel = page.locator(".overlay .panel.result")
    panel.wait_for()
    labels = panel.locator(".mini-label")
    assert labels.count() >= 2  # laid off, deadwood
    _no_overlaps(labels, "the hand-end labels")
    groups = panel.locator(".mini-group")
    _no_overlaps(groups, "the hand-end groups")
    box = _box(panel)
    screen = {"left": 0, "right": viewport["width"], "top": 0, "bottom": viewport["height"]}
    _inside(box, screen, "the result panel")
    for i in range(groups.count()):
        _inside(_box(groups.nth(i)), box, "a hand-end group")
    for i in range(labels.count()):
        label = labels.nth(i)
        fits = label.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        assert fits, label.inner_text()
    button = panel.get_by_role("button", name=re.compile("Next hand"))
    button.scroll_into_view_if_needed()
    _inside(_box(button), screen, "the Next hand button")
    # Keyboard: the button has the focus, and Tab does not walk into the cards behind.
    page.wait_for_function("() => document.activeElement?.textContent.startsWith('Next hand')")
    for key in ("Shift+Tab", "Shift+Tab", "Tab", "Tab", "Tab"):
        page.keyboard.press(key)
        inside = page.evaluate("() => Boolean(document.activeElement.closest('.seat, .middle'))")
        assert not inside, f"{key} reached the cards under the hand-end panel"


# -- words ---------------------------------------------------------------------------------------


def test_the_result_speaks_to_each_seat_in_its_own_person(phone: Any, web: Server) -> None:
    """§6: "he scores the difference" was shown to the knocker himself."""
    game = hg_frames.knock_with_layoffs()
    result = game.match.hand.result
    assert result is not None and result.winner is not None
    winner = result.winner
    table = _open(phone, web, game.frame(winner))
    explain = phone.locator(".overlay .explain")
    text = explain.inner_text()
    assert "you score" in text and " he " not in f" {text} "
    assert re.search(r"\d+ − \d+ = \d+|\d+ \+ \(\d+ − \d+\) = \d+", text), text
    assert text.split()[0] == "You" or "your deadwood" in text
    # The loser reads the winner's name, not "you".
    table.send(game.frame(1 - winner, seq=game.seq + 1))
    phone.wait_for_function("() => !document.querySelector('.overlay .explain')"
                           ".textContent.includes('you score')")
    text = explain.inner_text()
    name = hg_frames.LONG[winner][:24]
    assert f"{name} scores" in text and " he " not in f" {text} "


def test_the_log_names_the_card_taken_from_the_pile(phone: Any, web: Server) -> None:
    """§6 and R4.4: "Computer took the discard" did not say which card."""
    game = hg_frames.eleven_cards()
    frame = game.frame(0)
    taken = frame["hand"]["opponent_known"][0]
    entry = next(e for e in frame["hand"]["history"] if e[0] == 1 and e[1] in ("take", "pick"))
    assert entry[2] == taken
    _open(phone, web, frame)
    pretty = {"T": "10"}.get(taken[0], taken[0]) + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[
        taken[1]]
    log = phone.locator(".log .moves").inner_text()
    assert re.search(rf"took (the upcard )?{re.escape(pretty)}", log), log


# -- screen readers ------------------------------------------------------------------------------


def _unnamed(snapshot: str) -> list[str]:
    return [m.group(0).strip() for m in UNNAMED.finditer(snapshot)]


def test_screen_readers_hear_the_opponent_and_the_results(page: Any, web: Server) -> None:
    """§6: the opponent's moves and the hand's result go to a live region; the opponent's
    hand (its count and the known cards) is in the accessibility tree; every control is
    named."""
    game = hg_frames.eleven_cards()
    frame = game.frame(0)
    table = _open(page, web, frame)
    snapshot = page.locator("body").aria_snapshot()
    opp = hg_frames.LONG[1][:24]
    known = frame["hand"]["opponent_known"]
    assert f'img "{opp} holds 10 cards;' in snapshot, snapshot
    assert "taken from the discard pile" in snapshot
    assert len(known) == 1
    assert not _unnamed(snapshot), _unnamed(snapshot)
    live = page.locator("[aria-live=polite][role=log]")
    assert live.count() == 1

    # Seat 0 discards; the opponent plays on; each of its moves is told.
    hint = next(h for h in frame["hand"]["hints"] if h["discard"])
    game.match.apply(parse_action(f"discard {hint['card']}"), 0)
    game.seq += 1
    while game.match.hand.to_act == 1 and not game.match.hand.is_over:
        game.step()
    table.send(game.frame(0))
    page.wait_for_function("s => document.querySelector('.felt').dataset.seq === s",
                           arg=str(game.seq))
    told = live.inner_text()
    assert re.search(rf"{opp} (drew from the stock|took)", told), told
    # Cards are told by name: some screen readers say ♥ as "black heart suit".
    assert re.search(r"discarded (an? )?\w+ of (spades|hearts|diamonds|clubs)", told), told
    assert not re.search("[♠♥♦♣]", told), told
    # The status line shows the suits' signs and says their names.
    status = page.locator(".middle .status")
    assert not re.search("[♠♥♦♣]", status.aria_snapshot()), status.aria_snapshot()
    assert re.search("[♠♥♦♣]", status.inner_text()), status.inner_text()
    # Play on to the hand's end: the result is told too.
    game.until(lambda m: m.hand.is_over, limit=400)
    table.send(game.frame(0))
    page.locator(".overlay .panel.result").wait_for()
    page.wait_for_function("() => document.querySelector('[role=log][aria-live]')"
                           ".textContent.includes('The hand is over.')")
    snapshot = page.locator("body").aria_snapshot()
    assert "The hand is over." in snapshot
    assert not _unnamed(snapshot), _unnamed(snapshot)


def test_every_lobby_control_has_a_name(phone: Any, web: Server) -> None:
    phone.goto(web.base + "/")
    phone.locator("details.custom-rules summary").click()
    phone.locator("#rule-knock_limit").wait_for()
    snapshot = phone.locator("body").aria_snapshot()
    assert not _unnamed(snapshot), _unnamed(snapshot)
    assert 'spinbutton "Knock limit' in snapshot
    assert 'combobox "Rules"' in snapshot


# -- found by playing -----------------------------------------------------------------------------


def test_a_friend_back_within_the_grace_is_never_said_to_have_left(phone: Any,
                                                                      web: Server) -> None:
    """A table opened on one server process hears a few milliseconds later that another
    process holds the friend's socket: the first frame says he is away, the next that he
    is here, and the live status line must not tell a screen reader he left meanwhile."""
    game = hg_frames.eleven_cards()
    hint = next(h for h in game.frame(0)["hand"]["hints"] if h["discard"])
    game.match.apply(parse_action(f"discard {hint['card']}"), 0)
    game.seq += 1
    phone.add_init_script("""
      window.__said = [];
      new MutationObserver(() => {
        const status = document.querySelector('.middle .status');
        if (status) window.__said.push(status.textContent);
      }).observe(document, {subtree: true, childList: true, characterData: true});
    """)
    table = _open(phone, web, game.frame(0, connected=(True, False)))
    table.send(game.frame(0, connected=(True, True), seq=game.seq + 1))
    phone.wait_for_selector(f".felt[data-seq='{game.seq + 1}']")
    phone.wait_for_timeout(2500)  # past the grace: nothing is pending any more
    said = phone.evaluate("window.__said")
    assert said and not [s for s in said if "has left the table" in s], said
    assert not phone.locator(".opp .away").count()


def test_the_status_says_a_friend_has_left_and_who_is_ready(phone: Any, web: Server) -> None:
    game = hg_frames.eleven_cards()
    frame = game.frame(0)
    hint = next(h for h in frame["hand"]["hints"] if h["discard"])
    game.match.apply(parse_action(f"discard {hint['card']}"), 0)
    game.seq += 1
    table = _open(phone, web, game.frame(0, connected=(True, False)))
    opp = hg_frames.LONG[1][:24]
    status = phone.locator(".middle .status")
    # Said once he has been away for a while as this page saw it (1.5 s), not at once.
    assert "has left the table" not in status.inner_text(), status.inner_text()
    phone.wait_for_function("() => document.querySelector('.middle .status').textContent"
                            ".includes('has left the table')", timeout=5000)
    assert f"{opp} has left the table" in status.inner_text(), status.inner_text()
    assert phone.locator(".opp .away").is_visible()
    ended = hg_frames.knock_with_layoffs()
    table.send(ended.frame(0, ready=(False, True), seq=ended.seq + 1000))
    note = phone.locator(".overlay .ready-note")
    note.wait_for()
    assert note.inner_text() == f"{opp} is ready for the next hand."


@pytest.mark.parametrize("columns", [1, 2, 5])
def test_every_number_of_games_fits_the_sheet(page: Any, web: Server, columns: int) -> None:
    """The sheet's totals are whole with any number of games (up to 5, R7.1) and the longest
    names; with fewer games the names have room to be read whole."""
    game = hg_frames.Game(5, hg_frames.Rules(columns=columns))
    game.until(lambda m: len(m.sheet.entries) >= 2)
    table = _open(page, web, game.frame(0))  # 24 characters, the longest name there is
    sheet = _box(page.locator(".sheet"))
    for total in ("th.total", "tr.me td.total", "tr.opp td.total"):
        _inside(_box(page.locator(f".sheet-table {total}")), sheet, total)
    _scroll_width_fits(page, ".sheet")
    if columns == 1:
        table.send(game.frame(0, names=("Ann", "Maximilian Longbottom"), seq=game.seq + 1))
        name = page.locator(".sheet-table tr.opp th.name span", has_text="Maximilian")
        assert name.inner_text() == "Maximilian Longbottom"
        # (a name too long wraps inside its one shown line: cut below, or past its right)
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= "
                             "e.clientHeight + 1"), "the name is cut"


def test_the_whole_discard_pile_is_listed_under_the_log(page: Any, web: Server) -> None:
    """The pile is public (R4.4), and the table shows its top three cards: the whole of it,
    bottom to top, was only to be pieced together from the move log (a QA pass; the
    terminal game has it on p).  It is listed under the log, seen and heard."""
    game = hg_frames.Game(3)
    assert game.until(lambda m: len(m.hand.discard_pile) >= 6)
    frame = game.frame(0)
    pile = frame["hand"]["pile"]
    _open(page, web, frame)
    whole = page.locator(".log .whole-pile")
    seen = whole.locator("span[aria-hidden=true]").inner_text()
    assert seen.startswith(f"Discard pile, bottom to top ({len(pile)} cards): "), seen
    shown = seen.split(": ", 1)[1].split(" ")
    values = {"T": "10"}
    assert [s[:-1] for s in shown] == [values.get(c[0], c[0]) for c in pile], (shown, pile)
    heard = whole.locator(".sr-only").inner_text()
    assert heard.count(" of ") == len(pile)  # "ten of hearts", each card by its name
    _scroll_width_fits(page, ".log")
