"""Playwright drives Debian's Chromium: a whole hand against the computer, and two browsers
playing each other (one desktop-sized, one phone-sized), by click, drag and keyboard.

Chromium comes from ``.ci/browser.sh`` (``apt-get install chromium``; Playwright's own
browser download is never used).  Without it the tests fail (``make test`` installs it).
Set ``HG_SCREENSHOTS=docs/screenshots`` to write the screenshots of the docs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hg_web_support import DESKTOP, PHONE, Server

VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
SHOTS = os.environ.get("HG_SCREENSHOTS")


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(400)  # let the animations finish
        page.screenshot(path=str(Path(SHOTS) / f"web-{name}.png"))


def _value(card: str) -> int:
    return VALUES.get(card[0]) or int(card[0])


def _move(page: Any, turn: int) -> bool:
    """Play one action in the page if it is this seat's turn; cycle through the ways to act."""
    felt = page.locator(".felt")
    if felt.get_attribute("data-turn") != "me":
        return False
    seq = felt.get_attribute("data-seq")
    phase = felt.get_attribute("data-phase")
    if phase == "offer":
        page.locator(".actions .btn", has_text="Pass").click()
    elif phase == "draw":
        if turn % 3 == 2:
            page.keyboard.press("d")
        else:
            page.locator(".stock").click()
    else:
        finish = page.locator(".actions .btn.gin, .actions .btn.knock")
        if finish.count():
            finish.first.click()
        else:
            # Read the names in one go: the hand may be re-rendered between two reads.
            read = "els => els.map(e => e.dataset.card)"
            names = page.locator(".hand .group.dead .card:not(.locked)").evaluate_all(read)
            if not names:  # everything melded but no knock offered: any discardable card
                names = page.locator(".hand .card:not(.locked)").evaluate_all(read)
            card = max(names, key=lambda c: _value(c or "2s"))
            target = page.locator(f'.hand .card[data-card="{card}"]')
            # Cards overlap: a player touches the strip of a card that shows, its left edge.
            edge = {"x": 6, "y": 30}
            if turn % 3 == 0:
                target.click(position=edge)
                target.click(position=edge)
            elif turn % 3 == 1:
                target.drag_to(page.locator(".pile"), source_position=edge)
            else:
                target.focus()
                page.keyboard.press("Enter")
                page.keyboard.press("Enter")
    page.wait_for_function("s => document.querySelector('.felt').dataset.seq !== s", arg=seq,
                           timeout=10_000)
    return True


def test_a_whole_hand_against_the_computer(browser: Any, web: Server) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.base + "/")
    _shot(page, "lobby")
    page.fill("input[name=name]", "Ann")
    page.locator("label.level", has_text="Beginner").click()
    page.locator("button", has_text="Play the computer").click()
    page.wait_for_selector(".hand .card")
    assert page.locator(".sheet-table").is_visible()
    turn = 0
    shot_taken = False
    for _ in range(400):
        page.wait_for_selector(".felt[data-turn=me], .felt[data-phase=over]", timeout=15_000)
        if page.locator(".felt").get_attribute("data-phase") == "over":
            break
        if not shot_taken and page.locator(".felt").get_attribute("data-phase") == "discard":
            page.locator(".hand .group.dead .card:not(.locked)").last.click()
            _shot(page, "table-desktop")
            page.locator(".hand .card.selected").click()  # unselect
            shot_taken = True
        if _move(page, turn):
            turn += 1
    else:
        pytest.fail("the hand did not end")
    result = page.locator(".overlay .panel.result")
    result.wait_for()
    assert result.locator(".layout-row").count() == 2
    assert page.locator(".sheet-table").is_visible()
    _shot(page, "hand-end-desktop")
    # A reload comes back to the same table at the same point.
    seq = page.locator(".felt").get_attribute("data-seq")
    page.reload()
    page.wait_for_selector(".overlay .panel.result")
    assert page.locator(".felt").get_attribute("data-seq") == seq
    result = page.locator(".overlay .panel.result")
    result.locator("button", has_text="Next hand").click()
    page.wait_for_selector(".felt[data-hand='2']")
    assert page.locator(".hand .card").count() in (10, 11)
    assert not errors, errors
    context.close()


def test_two_browsers_play_each_other(browser: Any, web: Server) -> None:
    host_ctx = browser.new_context(viewport=DESKTOP)
    guest_ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(web.base + "/")
    host.fill("input[name=name]", "Ann")
    host.locator("button", has_text="Invite a friend").click()
    link = host.locator("input.invite-link")
    link.wait_for()
    # the invite panel takes the focus (it was left on the page's body, unannounced)
    host.wait_for_function("() => document.activeElement?.closest('.panel.invite') "
                           "&& document.activeElement.classList.contains('primary')")
    _shot(host, "invite-desktop")
    guest.goto(link.input_value())
    guest.fill("input", "Bob")
    guest.locator("button", has_text="Join the table").click()
    guest.wait_for_selector(".hand .card")
    host.wait_for_selector(".overlay.hidden", state="attached")
    assert host.locator(".opp .who").inner_text() == "Bob"
    assert guest.locator(".opp .who").inner_text() == "Ann"
    turn = 0
    reloaded = shot = False
    for _ in range(600):
        if host.locator(".felt").get_attribute("data-phase") == "over":
            break
        moved = False
        for page in (host, guest):
            if page.locator(".felt").get_attribute("data-phase") == "over":
                continue
            if _move(page, turn):
                turn += 1
                moved = True
        if turn >= 6 and not reloaded:  # a reload mid-hand resumes the same seat and cards
            cards = sorted(guest.locator(".hand .card").evaluate_all(
                "els => els.map(e => e.dataset.card)"))
            guest.reload()
            guest.wait_for_selector(".hand .card")
            assert sorted(guest.locator(".hand .card").evaluate_all(
                "els => els.map(e => e.dataset.card)")) == cards
            reloaded = True
        if turn >= 9 and not shot:
            _shot(guest, "table-phone")
            shot = True
        if not moved:
            host.wait_for_timeout(50)
    else:
        pytest.fail("the hand did not end")
    for page in (host, guest):
        page.wait_for_selector(".overlay .panel.result")
    _shot(guest, "hand-end-phone")
    host.locator(".overlay .panel.result button", has_text="Next hand").click()
    host.wait_for_selector(".overlay .panel.result .waiting")
    guest.locator(".overlay .panel.result button", has_text="Next hand").click()
    for page in (host, guest):
        page.wait_for_selector(".felt[data-hand='2']")
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()
