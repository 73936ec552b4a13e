"""Every key in every phase (issue 11, §3 "contradictions"): a key whose action is not legal
changes nothing and says why, naming only actions that are legal now; an illegal choice is
never offered, neither by a button nor by the prompt (R4.1–R4.3, R5.1)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest
from textual.widgets import Button, Static
from tui_helpers import play_out, settle

from hollywood_gin.actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from hollywood_gin.cards import Card
from hollywood_gin.errors import IllegalActionError
from hollywood_gin.hand import HandView, Phase
from hollywood_gin.rules import Rules
from hollywood_gin.store import Store
from hollywood_gin.tui.app import GinApp, HandEndScreen
from hollywood_gin.tui.session import COMPUTER, HUMAN, GameSession
from hollywood_gin.tui.words import gin_allowed, knock_options

KEYS = ["t", "x", "s", "enter", "d", "space", "k", "g", "1", "5", "0", "minus", "left",
        "right"]
LETTER_CARD = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9TJQKA])[shdc](?!\w)")


def legal_keys(view: HandView) -> set[str]:
    keys = set()
    for action in view.legal_actions:
        if isinstance(action, (TakeUpcard, TakeDiscard)):
            keys.add("t")
        elif isinstance(action, Pass):
            keys.add("x")
        elif isinstance(action, DrawStock):
            keys.add("s")
        elif isinstance(action, Knock) and action.card is not None:
            keys.add("k")
    if gin_allowed(view):
        keys.add("g")
    return keys


def key_action(key: str, view: HandView) -> Action | None:
    """The action a key would apply at once (None: it only chooses a card, or says why)."""
    if key == "t":
        return TakeUpcard() if view.phase is Phase.OFFER else TakeDiscard()
    return {"x": Pass(), "s": DrawStock()}.get(key)


def _computer_until(session: GameSession, done: Callable[[GameSession], bool]) -> None:
    while not done(session):
        assert session.computer_to_act, "the position was not reached"
        session.computer_act(session.computer_choice())


def at_offer(store: Store) -> GameSession:
    return GameSession.new(store, level=1, rules=Rules(), seed=21, first_dealer=COMPUTER)


def at_taken_discard(store: Store) -> GameSession:
    session = at_offer(store)
    session.act(TakeUpcard())
    return session


def at_refused_draw(store: Store) -> GameSession:
    for seed in range(1, 80):
        session = GameSession.new(store, level=1, rules=Rules(), seed=seed,
                                  first_dealer=COMPUTER)
        session.act(Pass())
        _computer_until(session, lambda s: s.human_to_act or s.hand.phase is not Phase.OFFER)
        if session.human_to_act and session.view().upcard_refused:
            return session
    raise AssertionError("no seed where both pass the upcard")


def at_normal_draw(store: Store) -> GameSession:
    session = at_offer(store)
    session.act(Pass())
    _computer_until(session, lambda s: s.human_to_act)
    if session.hand.phase is Phase.DRAW and not session.view().upcard_refused:
        return session
    session.act(DrawStock())
    view = session.view()
    session.act(Discard(next(c for c in view.hand if Discard(c) in view.legal_actions)))
    _computer_until(session, lambda s: s.human_to_act)
    return session


@pytest.mark.parametrize("position", [at_offer, at_refused_draw, at_normal_draw,
                                      at_taken_discard], ids=lambda f: f.__name__)
def test_every_key_in_every_phase(store: Store, position: Callable[[Store], GameSession]) \
        -> None:
    session = position(store)

    async def run() -> None:
        app = GinApp(store=store, level=1, resume=session.id, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            live = app.session
            assert live is not None and live.human_to_act
            game = app.game
            for key in KEYS:
                view = live.view()
                action = key_action(key, view)
                if action is not None and action in view.legal_actions:
                    continue  # a legal action: it would play, which is not what is tested
                before = live.pm.action_count
                await pilot.press(key)
                await settle(pilot, app)
                assert live.pm.action_count == before, key  # nothing was played
                message = game.query_one("#message", Static)
                words = str(message.render())
                if message.has_class("-error"):
                    named = set(re.findall(r"\(([txskg])\)", words))
                    assert named <= legal_keys(view), (key, words)
                    assert not LETTER_CARD.search(words), words
                # what is offered is legal: the buttons shown, and the chosen card (R4.3)
                shown = {str(b.id)[2:] for b in game.query(".buttons Button").results(Button)
                         if b.display}
                legal = view.legal_actions
                assert ("take" in shown) == (TakeUpcard() in legal)
                assert ("pick" in shown) == (TakeDiscard() in legal)
                assert ("pass" in shown) == (Pass() in legal)
                assert ("draw" in shown) == (DrawStock() in legal)
                assert ("knock" in shown) == any(d > 0 for _c, d in knock_options(view))
                assert ("gin" in shown) == gin_allowed(view)
                if game.selected is not None:
                    assert Discard(game.selected) in legal
                if view.taken_card is not None:
                    prompt = str(game.query_one("#prompt", Static).render())
                    assert f"Discard {view.taken_card.pretty}?" not in prompt
                    label = str(game.query_one("#b-discard", Button).label)
                    assert view.taken_card.pretty not in label

    asyncio.run(run())


def test_every_key_while_the_computer_moves_waits(store: Store) -> None:
    """On the computer's turn (it pauses before moving) every play key says to wait."""
    session = GameSession.new(store, level=1, rules=Rules(), seed=21, first_dealer=HUMAN)

    async def run() -> None:
        app = GinApp(store=store, level=1, resume=session.id, delay=60)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(5):
                await pilot.pause()
            assert app.game.thinking
            for key in ("t", "x", "s", "enter", "k", "g", "1"):
                await pilot.press(key)
                await pilot.pause()
                assert "Wait: it is the computer's turn." in str(
                    app.game.query_one("#message", Static).render()), key
            assert session.pm.action_count == 0

    asyncio.run(run())


def test_undo_from_the_hand_end_is_not_offered_it_would_show_his_cards(store: Store) -> None:
    """The hand-end dialog has shown the computer's hand (R5.1, R5.2): an undo from there
    would let the person replay the hand knowing it, so it offers none and u does nothing
    (issue 11, section 3, offered one; a QA pass saw it was a peek)."""

    stored = GameSession.new(store, level=1, rules=Rules(), seed=11, first_dealer=1)
    play_out(stored)  # to the end of the first hand, by the session alone
    assert stored.hand.result is not None and stored.hand.result.knocker is not None
    count = stored.pm.action_count

    async def run() -> None:
        app = GinApp(store=store, level=1, resume=stored.id, delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, HandEndScreen)
            assert not app.screen.query("#undo")
            await pilot.press("u")
            await pilot.pause()
            assert isinstance(app.screen, HandEndScreen)
            session = app.session
            assert session is not None and session.hand.is_over
            assert session.pm.action_count == count == len(store.load(stored.id).actions)
            assert not session.assisted

    asyncio.run(run())


def test_undo_never_takes_back_a_draw_from_the_stock(store: Store) -> None:
    """The person saw the drawn card: taking the draw back would show him the stock's top
    before he chooses between the stock and the pile.  The discard after it may be taken
    back, the draw may not, and the refusal changes nothing."""
    session = GameSession.new(store, level=1, rules=Rules(), seed=7, first_dealer=1)
    while session.view().phase is not Phase.DRAW or not session.human_to_act:
        if session.human_to_act:
            session.act(Pass())
        else:
            session.computer_act(session.computer_choice())
    session.act(DrawStock())
    drawn = session.view().hand
    count = session.pm.action_count
    assert not session.can_undo
    with pytest.raises(IllegalActionError, match="your draw from the stock showed you its "
                                                  "card: it cannot be taken back"):
        session.undo()
    assert session.view().hand == drawn and session.pm.action_count == count
    assert not session.assisted
    # His discard after the draw is taken back (with the computer's turn after it); the
    # draw stays, and so does the card it brought.
    session.act(Discard(max(c for c in drawn if Discard(c) in session.view().legal_actions)))
    assert session.can_undo
    session.undo()
    assert session.view().phase is Phase.DISCARD and session.view().hand == drawn
    assert session.pm.action_count == count and session.assisted
    assert not session.can_undo


def test_undo_never_shows_a_card_of_his_hand(store: Store) -> None:
    """R3.4: his hand is his secret.  The person passed, the computer took the upcard and
    threw K♥: taking the pass back would let him play the hand again knowing K♥ was the
    computer's (a QA pass found it).  The refusal names the card and changes nothing."""
    s = GameSession.new(store, level=3, rules=Rules(), seed=5, first_dealer=COMPUTER)
    s.act(Pass())
    _computer_until(s, lambda g: g.human_to_act)
    assert list(s.hand.history[1:]) == [(COMPUTER, TakeUpcard()),
                                        (COMPUTER, Discard(Card.parse("Kh")))]
    count, view = s.pm.action_count, s.view()
    assert not s.can_undo
    with pytest.raises(IllegalActionError, match="the computer has since thrown K♥ from its "
                                                 "hand, which showed it held it"):
        s.undo()
    assert s.pm.action_count == count and s.view() == view and not s.assisted


def test_undo_may_cross_a_throw_of_a_card_known_his(store: Store) -> None:
    """The card he threw after the person's move was one he had taken from the pile: it
    was known his (R4.4), the throw showed nothing, and the undo takes both back."""
    s = GameSession.new(store, level=1, rules=Rules(), seed=0, first_dealer=COMPUTER)
    script: list[Action] = [Pass(), DrawStock()]
    while True:
        if s.computer_to_act:
            s.computer_act(s.computer_choice())
            continue
        view = s.view()
        if view.phase is Phase.OFFER:
            s.act(Pass())
        elif view.phase is Phase.DRAW:
            s.act(TakeDiscard() if TakeDiscard() in view.legal_actions and len(script) % 3 == 0
                  else DrawStock())
            script.append(DrawStock())
        else:
            mark = s.pm.action_count
            s.act([a for a in view.legal_actions if isinstance(a, Discard)][-1])
            _computer_until(s, lambda g: g.human_to_act or g.hand.is_over)
            assert not s.hand.is_over, "the position was not reached"
            after = s.hand.history[len(s.hand.history) - (s.pm.action_count - mark - 1):]
            picked = {m.taken for m in s.moves()[:mark] if m.player == COMPUTER}
            if [type(a) for _p, a in after] == [TakeDiscard, Discard] and \
                    after[1][1].card in picked:
                break
    assert s.can_undo
    s.undo()
    assert s.pm.action_count == mark and s.view().phase is Phase.DISCARD


def test_undo_never_crosses_a_stock_card_the_computer_threw(store: Store) -> None:
    """The computer drew from the stock and threw that card: the person has seen the
    stock's top of that moment, so taking the moves back to before it (his discard, his
    pick) would let him draw a card he knows.  A leak check found it; the refusal changes
    nothing.  The deal's stock is the deck from its 22nd card on (R3.3): checked too."""
    found = 0
    for seed in range(120):
        s = GameSession.new(store, level=3, rules=Rules(), seed=seed, first_dealer=1)
        _computer_until(s, lambda g: g.human_to_act or g.hand.is_over)
        if s.hand.is_over:
            continue
        if s.view().phase is Phase.OFFER:
            s.act(Pass())
            _computer_until(s, lambda g: g.human_to_act or g.hand.is_over)
        view = s.view()
        if s.hand.is_over or TakeDiscard() not in view.legal_actions:
            continue
        s.act(TakeDiscard())
        s.act(next(a for a in s.view().legal_actions if isinstance(a, Discard)))
        mark = len(s.hand.history)
        _computer_until(s, lambda g: g.human_to_act or g.hand.is_over)
        moves = s.hand.history[mark:]
        if s.hand.is_over or len(moves) < 2 or not isinstance(moves[0][1], DrawStock):
            continue
        assert s.hand.deck is not None
        draws = sum(isinstance(a, DrawStock) for _p, a in s.hand.history[:mark])
        brought = s.hand.deck[21 + draws]
        assert brought in s.hand.cards_of(COMPUTER) or moves[1][1] == Discard(brought)
        if moves[1][1] != Discard(brought):
            # the stock card he kept is not shown; the card he threw instead blocks the
            # undo unless it was known his (test_undo_never_shows_a_card_of_his_hand)
            picked = {m.taken for m in s.moves()[:mark] if m.player == COMPUTER}
            assert s.can_undo == (moves[1][1].card in picked)
            continue
        found += 1
        count, hand = s.pm.action_count, s.view().hand
        assert not s.can_undo
        with pytest.raises(IllegalActionError, match="the computer threw the card it drew "
                                                     "from the stock"):
            s.undo()
        assert s.pm.action_count == count and s.view().hand == hand and not s.assisted
        # His own draw, like the computer's, is the deck's next card.
        s.act(DrawStock())
        assert s.view().drawn_card == s.hand.deck[22 + draws]
        if found >= 2:
            break
    assert found, "no deal in 120 had the computer throw its stock card"


def test_the_computers_seed_does_not_give_away_the_matchs(store: Store) -> None:
    """A leak check turned the computer's seed back into the match's (it was seed times an
    odd number plus the hand's number) and re-dealt the person's cards.  It is now a hash:
    the same for a resumed hand, and no multiple of the match's seed."""
    session = GameSession.new(store, level=1, rules=Rules(), seed=12345, first_dealer=1)
    first = session._bot_seed()
    assert first == GameSession.resume(store, session.id)._bot_seed()  # R3.1: replays alike
    inverse = pow(1_000_003, -1, 1 << 63)  # the old formula, turned back: no longer the seed
    assert ((first - session.hand_number) * inverse) % (1 << 63) != 12345
    assert 0 <= first < 1 << 63
