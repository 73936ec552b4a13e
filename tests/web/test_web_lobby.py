"""The lobby and the match's end in the browser (issue 11 §2, §6, §7): this browser's
unfinished tables to resume or abandon (only with a confirmation in words; closing the
dialog abandons nothing), every rule option in the new-table form with its refusals shown
by the field, and a rematch against the computer and between two friends."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hg_web_support import (
    DESKTOP,
    PHONE,
    SHORT_MATCH,
    Seat,
    Server,
    play_computer,
    play_match,
)


@pytest.fixture()
def contexts(browser: Any) -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for context in made:
        context.close()


def _page(browser: Any, contexts: list[Any], seats: dict[str, str], *,
          viewport: dict[str, int] = DESKTOP) -> Any:
    """A page whose browser holds the seats {table: token}, listed newest first."""
    context = browser.new_context(viewport=viewport, reduced_motion="reduce")
    contexts.append(context)
    listed = [{"table": t, "opponent": "?", "at": 0} for t in seats]
    script = "".join(f"localStorage.setItem('hg.seat.{t}', '{tok}');" for t, tok in seats.items())
    script += f"localStorage.setItem('hg.tables', {json.dumps(json.dumps(listed))});"
    context.add_init_script(f"if (!sessionStorage.getItem('set')) {{ {script} "
                            "sessionStorage.setItem('set', '1'); }")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def _status(web: Server, table: str, token: str) -> str:
    answer = web.post("/api/tables/mine", {"seats": [{"table": table, "token": token}]})
    return str(answer.json()["tables"][0]["status"])


# -- this browser's tables --------------------------------------------------------------------


def test_the_lobby_lists_unfinished_tables_and_abandons_only_when_told(
        browser: Any, web: Server, contexts: list[Any]) -> None:
    computer = web.create(opponent="computer", level=2, name="Ann", preset="classic")
    friend = web.create(opponent="friend", name="Ann")
    web.join(friend["table"], friend["invite"], "Bob Longfellow")
    done = web.create(opponent="computer", level=1, name="Ann", rules=SHORT_MATCH)
    me = Seat(web, done["table"], done["token"])
    play_computer(me)
    me.close()
    page = _page(browser, contexts, {computer["table"]: computer["token"],
                                     friend["table"]: friend["token"],
                                     done["table"]: done["token"]}, viewport=PHONE)
    page.goto(web.base + "/")
    rows = page.locator("li.saved-table")
    rows.nth(1).wait_for()
    assert rows.count() == 2  # the finished match is not offered
    # A player coming back finds his tables before the new-table form.
    assert page.evaluate("() => document.querySelector('.resume').compareDocumentPosition("
                         "document.querySelector('.lobby-form')) "
                         "& Node.DOCUMENT_POSITION_FOLLOWING")
    first, second = rows.nth(0).inner_text(), rows.nth(1).inner_text()
    assert "Computer, level 2" in first and "Classic (one game to 100)" in first
    assert "0 to 0" in first and "hand 1" in first
    assert "Bob Longfellow" in second and "Hollywood" in second
    resume = rows.nth(0).get_by_role("link", name=re.compile("Resume the match"))
    assert resume.get_attribute("href") == f"/t/{computer['table']}"

    row = page.locator(f"li.saved-table[data-table='{computer['table']}']")
    # Escape closes the dialog: nothing is abandoned.
    row.get_by_role("button", name=re.compile("Abandon")).click()
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    assert "It ends for good" in dialog.inner_text()
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    # "Keep it" closes it too.
    row.get_by_role("button", name=re.compile("Abandon")).click()
    page.get_by_role("dialog").get_by_role("button", name="Keep it").click()
    page.get_by_role("dialog").wait_for(state="detached")
    assert row.is_visible()
    assert _status(web, computer["table"], computer["token"]) == "playing"
    page.reload()
    page.locator("li.saved-table").nth(1).wait_for()
    # Only the words do it.
    row.get_by_role("button", name=re.compile("Abandon")).click()
    page.get_by_role("dialog").get_by_role("button", name="Abandon the match").click()
    row.wait_for(state="detached")
    assert _status(web, computer["table"], computer["token"]) == "abandoned"
    assert page.locator("li.saved-table").count() == 1
    # The last one abandoned, the lobby says there is none (the line stayed hidden).
    page.locator("li.saved-table").get_by_role("button", name=re.compile("Abandon")).click()
    page.get_by_role("dialog").get_by_role("button", name="Abandon the match").click()
    page.locator("li.saved-table").wait_for(state="detached")
    assert page.get_by_text("No unfinished tables in this browser.").is_visible()
    assert not page.errors, page.errors


# -- every rule option ----------------------------------------------------------------------------


def test_the_form_sets_every_option_and_shows_a_refusal_by_its_field(
        browser: Any, web: Server, contexts: list[Any]) -> None:
    page = _page(browser, contexts, {})
    page.goto(web.base + "/")
    page.locator("details.custom-rules summary").click()
    described = json.loads(page.evaluate("() => fetch('/api/rules').then(r => r.text())"))
    for option in described["options"]:  # a field for every option of the rules
        assert page.locator(f"#rule-{option['name']}").count() == 1, option["name"]
    preset = page.locator("select[name=preset]")
    preset.select_option("classic")
    assert page.locator("#rule-columns").input_value() == "1"

    knock = page.locator("#rule-knock_limit")
    knock.fill("11")
    knock.dispatch_event("change")
    page.get_by_role("button", name="Play the computer").click()
    error = page.locator("#rule-knock_limit-error")
    error.wait_for()
    assert "from 0 to 10" in error.inner_text()
    assert knock.get_attribute("aria-invalid") == "true"
    assert page.url.endswith("/")

    knock.fill("6")
    knock.dispatch_event("change")
    page.locator("#rule-big_gin_bonus-played").check()
    page.locator("#rule-big_gin_bonus").fill("31")
    page.locator("#rule-big_gin_bonus").dispatch_event("change")
    page.locator("#rule-columns").fill("2")
    page.locator("#rule-columns").dispatch_event("change")
    page.locator("#rule-entry_rule").select_option("by_count")
    assert preset.input_value() == "custom"
    page.get_by_role("button", name="Play the computer").click()
    page.wait_for_selector(".hand .card")
    page.locator(".in-force summary").click()
    page.locator(".in-force dd").first.wait_for()
    rules = page.locator(".in-force dl").inner_text()
    assert "Knock\nat 6 or less" in rules
    assert "Big gin bonus\n31" in rules
    assert "Entry rule\nby count" in rules
    assert "2 games at once" in rules
    assert page.locator(".sheet-table thead th").count() == 4  # name, two games, total
    book = page.get_by_role("link", name="The rule book for these rules")
    assert book.get_attribute("href") == "/rules/" + page.url.rsplit("/", 1)[1] + "?lang=en"
    assert page.locator(".status").inner_text() != ""
    assert not page.errors, page.errors


def test_a_combination_the_rules_refuse_is_shown_by_the_field(
        browser: Any, web: Server, contexts: list[Any]) -> None:
    """The page checks bounds itself, but the server is the judge of the whole (R9.2): its
    refusal, with the rule book's reason, is shown beside the option it names."""
    page = _page(browser, contexts, {})
    page.goto(web.base + "/")
    page.locator("details.custom-rules summary").click()
    page.locator("#rule-oklahoma").check()
    page.locator("#rule-oklahoma").dispatch_event("change")
    page.locator("#rule-knock_limit").fill("7")
    page.locator("#rule-knock_limit").dispatch_event("change")
    page.get_by_role("button", name="Play the computer").click()
    error = page.locator("#rule-oklahoma-error")
    error.wait_for()
    assert "upcard sets the knock limit" in error.inner_text()
    assert page.locator("#rule-oklahoma").get_attribute("aria-invalid") == "true"
    assert page.locator("p.error[role=alert]").inner_text() == error.inner_text()
    assert page.url.endswith("/")
    assert not page.errors, page.errors


# -- rematch --------------------------------------------------------------------------------------


def test_rematch_against_the_computer(browser: Any, web: Server, contexts: list[Any]) -> None:
    created = web.create(opponent="computer", level=4, name="Ann", rules=SHORT_MATCH)
    me = Seat(web, created["table"], created["token"])
    play_computer(me)
    me.close()
    page = _page(browser, contexts, {created["table"]: created["token"]})
    page.goto(f"{web.base}/t/{created['table']}")
    page.locator(".match-over").wait_for()
    page.get_by_role("button", name=re.compile("^Rematch")).click()
    page.wait_for_url(re.compile(r"/t/(?!" + created["table"] + r")[0-9a-f]{32}$"))
    page.wait_for_selector(".felt[data-online=yes][data-hand='1']")
    assert page.locator(".opp .level-tag").inner_text() == "level 4"
    assert page.locator(".me .who").inner_text() == "Ann (you)"
    page.locator(".in-force summary").click()
    page.locator(".in-force dd").first.wait_for()
    assert "Scoring\none game to 1\n" in page.locator(".in-force dl").inner_text()
    rematch = page.url
    # Back to the old table: it offers the way to the rematch instead of jumping there again.
    page.go_back()
    page.locator(".match-over").wait_for()
    go = page.get_by_role("button", name="Go to the rematch")
    go.wait_for()
    assert page.url.endswith(created["table"])
    go.click()
    page.wait_for_url(rematch)
    assert not page.errors, page.errors


def test_rematch_between_friends_once_both_accept(browser: Any, web: Server,
                                                  contexts: list[Any]) -> None:
    created = web.create(opponent="friend", name="Ann", rules=SHORT_MATCH)
    joined = web.join(created["table"], created["invite"], "Bob")
    a, b = Seat(web, created["table"], created["token"]), Seat(web, created["table"],
                                                                 joined["token"])
    play_match(a, b)
    a.close()
    b.close()
    table = created["table"]
    ann = _page(browser, contexts, {table: created["token"]})
    bob = _page(browser, contexts, {table: joined["token"]}, viewport=PHONE)
    for page in (ann, bob):
        page.goto(f"{web.base}/t/{table}")
        page.locator(".match-over").wait_for()
    ann.get_by_role("button", name=re.compile("^Rematch")).click()
    ann.locator(".match-over .waiting", has_text="Waiting for Bob to accept").wait_for()
    bob.locator(".match-over .offer", has_text="Ann wants a rematch").wait_for()
    bob.get_by_role("button", name=re.compile("Accept the rematch")).click()
    new = re.compile(r"/t/(?!" + table + r")[0-9a-f]{32}$")
    for page in (ann, bob):
        page.wait_for_url(new)
        page.wait_for_selector(".felt[data-online=yes][data-hand='1']")
        assert page.locator(".overlay.hidden").count() == 1  # no invite to send
    assert ann.url == bob.url
    assert ann.locator(".me .who").inner_text() == "Ann (you)"
    assert bob.locator(".me .who").inner_text() == "Bob (you)"
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


def test_a_31st_table_never_drops_a_seat_at_a_match_in_play(browser: Any, web: Server) -> None:
    """With 30 unfinished tables held, starting another removed the oldest one's seat token
    unseen: its match, still in play, could be neither resumed nor abandoned (a QA pass).
    Unfinished seats are all kept, only the oldest finished ones past 30 are forgotten, and
    the lobby asks the server about them 30 at a time (its limit per request)."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    asked: list[int] = []

    def answer(route: Any) -> None:
        seats = json.loads(route.request.post_data or "{}")["seats"]
        asked.append(len(seats))
        route.fulfill(json={"tables": [{"table": s["table"], "gone": True} for s in seats]})

    page.route("**/api/tables/mine", answer)
    page.goto(web.base + "/rules")
    kept = page.evaluate("""async () => {
      const seats = await import('/static/js/seats.js');
      for (let i = 0; i < 31; i++) seats.saveSeat('t' + i, 'k' + i, 'computer');
      for (let i = 0; i < 35; i++) { seats.saveSeat('f' + i, 'x' + i, 'computer');
                                     seats.markFinished('f' + i); }
      const held = seats.savedTables();
      const open = held.filter((t) => !t.finished).map((t) => t.table);
      const tokens = open.filter((t) => seats.tokenOf(t) !== null).length;
      const answered = await seats.myTables(held.map((t) => ({table: t.table,
                                                               token: seats.tokenOf(t.table)})));
      return [open.length, tokens, held.filter((t) => t.finished).length,
              seats.tokenOf('f0'), answered.tables.length];
    }""")
    assert kept == [31, 31, 31, None, 62], kept  # (the last marked finished after its save)
    assert asked == [30, 30, 2]
    context.close()
