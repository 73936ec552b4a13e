"""A keyboard and screen-reader player at the table (Playwright, Debian's Chromium): the focus
stays on the table from move to move, the status line is one live region updated in place,
and a draw from the stock says which card it brought."""

from __future__ import annotations

from typing import Any

from hg_web_support import DESKTOP, Seat, Server, hold_seat, play_computer

#: Where the focus is: on the table's controls, or lost to <body>.
FOCUS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "body";
  if (a.closest('.overlay')) return "dialog";
  if (a.closest('.felt')) return a.dataset.card ? "card" : a.className.split(" ")[0];
  return "elsewhere";
}"""


def test_the_focus_stays_on_the_table_and_the_drawn_card_is_announced(
        browser: Any, web: Server) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.base + "/")
    page.locator("label.level", has_text="Beginner").click()
    page.locator("button", has_text="Play the computer").click()
    page.wait_for_selector(".hand .card")
    page.wait_for_function(f"({FOCUS})() !== 'body'")  # the table takes the focus on opening
    assert page.evaluate(FOCUS) in ("card", "stock", "btn")
    page.evaluate("document.querySelector('.middle .status').dataset.kept = 'yes'")
    felt = page.locator(".felt")
    draws = 0
    for turn in range(60):
        page.wait_for_selector(".felt[data-turn=me], .felt[data-phase=over]", timeout=15_000)
        phase = felt.get_attribute("data-phase")
        if draws >= 4:
            break
        seq = felt.get_attribute("data-seq")
        if phase == "over":  # the computer ended the hand early (a random deal): the next
            page.keyboard.press("n")  # hand, by its key
            page.wait_for_function("() => document.querySelector('.felt').dataset.phase"
                                   " !== 'over'", timeout=10_000)
            continue
        if phase == "offer":
            page.keyboard.press("p")
        elif phase == "draw":
            if turn % 2:  # by the stock's button, reached from the focus it was left on
                page.locator(".stock").focus()
                page.keyboard.press("Enter")
            else:
                page.keyboard.press("d")
            draws += 1
        else:  # by arrow keys and Space twice on a card (select, then throw)
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Space")
            page.keyboard.press("Space")
        page.wait_for_function("s => document.querySelector('.felt').dataset.seq !== s",
                               arg=seq, timeout=10_000)
        where = page.evaluate(FOCUS)
        assert where in ("card", "stock", "pile", "btn", "dialog"), (turn, phase, where)
        if phase == "draw" and felt.get_attribute("data-phase") == "discard":
            # Having drawn, the next move is in the hand: the focus is on a card there.
            assert where == "card", where
    assert draws >= 2
    said = page.locator(".announcer p").all_inner_texts()
    assert any(line.startswith("You drew ") for line in said), said
    # The status line is one element, changed in place (a new live region is never read).
    assert page.evaluate("document.querySelector('.middle .status').dataset.kept") == "yes"
    assert not errors, errors
    context.close()


def test_next_hand_by_key_leaves_the_focus_on_the_first_move(browser: Any, web: Server) -> None:
    """The hand's end had the focus (its Next hand button); N closed it, the panel was
    emptied, and where the person moves first the focus fell to <body>: Tab started again
    from the top bar (a QA pass saw it every other hand).  Now it goes to his first move."""
    created = web.create(opponent="computer", level=1, preset="eaai")
    seat = Seat(web, created["table"], created["token"])
    try:  # a hand the person dealt, over: in eaai the next is dealt by the computer (R3.1)
        play_computer(seat, until=lambda s: s["hand"]["phase"] == "over"
                      and s["hand"]["dealer"] == 0 and not s["finished"])
    finally:
        seat.close()
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    hold_seat(page, web, created)
    page.goto(f"{web.base}/t/{created['table']}")
    page.wait_for_selector(".felt[data-phase=over]")
    page.wait_for_function(f"({FOCUS})() === 'dialog'")  # the hand's end has it
    page.keyboard.press("n")
    page.wait_for_selector(".felt[data-turn=me][data-phase=offer]", timeout=10_000)
    page.wait_for_function(f"({FOCUS})() !== 'body'", timeout=5_000)
    assert page.evaluate(FOCUS) == "btn"  # Take or Pass, his first move
    page.keyboard.press("Enter")  # and Enter plays it
    page.wait_for_selector(".felt:not([data-phase=offer]), .felt[data-turn=them]")
    assert not errors, errors
    context.close()
