"""Two browsers at a friend table while the server is SIGKILLed and started again on the same
database (issue 11 §6): the pages say they are reconnecting and disable every control
until the table is back; a "Next hand" clicked before the kill is not lost."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hg_web_support import DESKTOP, PHONE, Seat, Server, step_friend


@pytest.fixture()
def friends(browser: Any, tmp_path: Path) -> Iterator[tuple[Server, Any, Any, Seat, Seat]]:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", cli=False).start()
    created = server.create(opponent="friend", name="Ann")
    joined = server.join(created["table"], created["invite"], "Bob")
    table = created["table"]
    pages = []
    contexts = []
    for token, viewport in ((created["token"], DESKTOP), (joined["token"], PHONE)):
        context = browser.new_context(viewport=viewport, reduced_motion="reduce")
        context.add_init_script(f"localStorage.setItem('hg.seat.{table}', '{token}')")
        page = context.new_page()
        page.goto(f"{server.base}/t/{table}")
        page.wait_for_selector(".felt[data-online=yes] .hand .card")
        pages.append(page)
        contexts.append(context)
    a = Seat(server, table, created["token"])
    b = Seat(server, table, joined["token"])
    try:
        yield server, pages[0], pages[1], a, b
    finally:
        for context in contexts:
            context.close()
        server.stop()


def _restart(server: Server) -> None:
    server.kill()
    server.start()  # the same port and database


def _offline(page: Any) -> None:
    page.wait_for_selector(".felt[data-online=no]")
    assert page.locator(".offline-banner").is_visible()
    assert "Reconnecting" in page.locator(".offline-banner").inner_text()
    assert "Reconnecting" in page.locator(".middle .status").inner_text()
    for control in (".stock", ".pile", ".hand .card", ".actions .btn", ".overlay .btn"):
        buttons = page.locator(control)
        for i in range(buttons.count()):
            assert buttons.nth(i).is_disabled(), control


def _online(page: Any) -> None:
    page.wait_for_selector(".felt[data-online=yes]", timeout=20_000)
    assert not page.locator(".offline-banner").is_visible()
    assert page.locator(".stock").is_enabled()


def test_offline_controls_are_disabled_and_readiness_survives_a_restart(friends: Any) -> None:
    server, ann, bob, a, b = friends
    # Mid-hand: whoever's turn it is sees their buttons; both go offline with the server.
    assert a.state is not None
    actor = ann if a.state["hand"]["to_act"] == 0 else bob
    actor.wait_for_selector(".actions .btn")
    server.kill()
    for page in (ann, bob):
        _offline(page)
    seq = actor.locator(".felt").get_attribute("data-seq")
    actor.locator(".stock").click(force=True)  # a click while offline does nothing
    assert actor.locator(".felt").get_attribute("data-seq") == seq
    server.start()
    for page in (ann, bob):
        _online(page)
    actor.wait_for_selector(".actions .btn:not([disabled])")

    # Play the hand out over the tests' own sockets; the pages follow.
    a.close()
    b.close()
    a, b = (Seat(server, a.table, a.token), Seat(server, b.table, b.token))
    while True:
        assert a.state is not None
        if a.state["hand"]["phase"] == "over":
            break
        step_friend(a, b)
    hand = a.state["hand_number"]
    for page in (ann, bob):
        page.wait_for_selector(".overlay .panel.result")
    ann.locator(".overlay .panel.result button", has_text="Next hand").click()
    ann.wait_for_selector(".overlay .panel.result .waiting")
    b.wait(lambda f: f["type"] == "state" and f["ready"][0])

    _restart(server)
    for page in (ann, bob):
        page.wait_for_selector(".felt[data-online=yes]", timeout=20_000)
    # Ann's "Next hand" was kept: she still waits, Bob's one click deals.
    assert ann.locator(".overlay .panel.result .waiting").is_visible()
    assert ann.locator(".overlay .panel.result button", has_text="Next hand").count() == 0
    bob.locator(".overlay .panel.result button", has_text="Next hand").click()
    for page in (ann, bob):
        page.wait_for_selector(f".felt[data-hand='{hand + 1}']", timeout=20_000)
        page.wait_for_selector(".overlay.hidden", state="attached")
    a.close()
    b.close()
