"""``basic`` follows the published rules of the EAAI SimpleGinRummyPlayer on crafted hands:
take the face-up card only if it then belongs to some meld; discard a random card among
those leaving the least deadwood, never the face-up card just taken; knock at once."""

from __future__ import annotations

from hollywood_gin.actions import Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from hollywood_gin.bots import make_bot
from hollywood_gin.cards import CARDS, parse_card, parse_cards
from hollywood_gin.hand import Hand
from hollywood_gin.melds import deadwood
from hollywood_gin.rules import Rules

EAAI = Rules.preset("eaai")


FILLER = parse_cards("Jh 2c 4d Tc 6d 8c Qc 3c Kc 5d Jc 2d 8h Qh")


def deal(non_dealer: str, dealer: str | None, upcard: str, stock: str = "",
         rules: Rules = EAAI) -> Hand:
    """Player 0 deals; player 1 (the non-dealer) is offered the upcard first (R4.1).
    With ``dealer`` None the dealer gets ten filler cards the others do not use."""
    nd, up, st = parse_cards(non_dealer), parse_card(upcard), parse_cards(stock)
    used = {*nd, up, *st}
    dl = parse_cards(dealer) if dealer else tuple([c for c in FILLER if c not in used][:10])
    deck = []
    for a, b in zip(nd, dl, strict=True):
        deck += [a, b]
    deck.append(up)
    deck += st
    deck += [c for c in CARDS if c not in deck]
    return Hand.from_deck(deck, rules=rules, dealer=0)


def opening_choice(non_dealer: str, upcard: str) -> object:
    hand = deal(non_dealer, None, upcard)
    bot = make_bot("basic", seed=0)
    return bot.choose(hand.view(1))


def test_takes_the_upcard_that_makes_a_set() -> None:
    assert opening_choice("7h 7d As 3s Jd Kh 9h 2h Td 4c", "7s") == TakeUpcard()


def test_takes_the_upcard_that_ends_or_fills_a_run() -> None:
    assert opening_choice("5s 6s Ah 3h Jd Kh 9h 2h Td 4c", "7s") == TakeUpcard()
    assert opening_choice("6s 8s Ah 3h Jd Kh 9h 2h Td 4c", "7s") == TakeUpcard()


def test_passes_on_an_upcard_that_melds_with_nothing() -> None:
    # 7s has a 7h and a 6s near it, but no two cards to make a meld with.
    assert opening_choice("7h 6s 9s Ah 3h Jd Kh 2h Td 4c", "7s") == Pass()


def test_takes_a_card_that_melds_even_outside_the_best_arrangement() -> None:
    """Faithful, not clever: 8d makes 8s 8h 8d, though the best melds keep 7s–Ts as a run."""
    assert opening_choice("7s 8s 9s Ts 8h Ah 3h Kd Qc 2c", "8d") == TakeUpcard()


def test_draws_from_the_stock_unless_the_discard_makes_a_meld() -> None:
    # Both pass; the non-dealer draws Kh and throws 9d; the dealer (basic) decides.
    for dealer_cards, expected in (
        ("9h 9c As 3s 5h Jc Qd 2d 4h 6c", TakeDiscard()),
        ("7d 8d As 3s 5h Jc Qd 2d 4h 6c", TakeDiscard()),
        ("9h 8c As 3s 5h Jc Qd 2d 4h 6c", DrawStock()),
    ):
        hand = deal("Ac 2s 4s 6s 8s Ts Qs Ks 9d 3c", dealer_cards, "7c", stock="Kh")
        hand.apply(Pass(), 1)
        hand.apply(Pass(), 0)
        hand.apply(DrawStock(), 1)
        hand.apply(Discard(parse_card("9d")), 1)
        bot = make_bot("basic", seed=0)
        assert bot.choose(hand.view(0)) == expected, dealer_cards


def test_discards_at_random_among_the_least_deadwood_cards() -> None:
    # After taking 9s: Kh, Kd and Qs tie for the least deadwood; only they are thrown.
    hand = deal("9h 9d Kh Kd As 2s 3s 5h 6h Qs", None, "9s")
    hand.apply(TakeUpcard(), 1)
    mask_cards = hand.cards_of(1)
    best = min(deadwood([c for c in mask_cards if c != x]) for x in mask_cards)
    view = hand.view(1)
    seen = {make_bot("basic", seed=seed).choose(view) for seed in range(40)}
    assert seen == {Discard(parse_card(t)) for t in ("Kh", "Kd", "Qs")}
    for action in seen:
        assert isinstance(action, Discard)
        assert deadwood([c for c in mask_cards if c != action.card]) == best


def test_never_discards_the_card_just_taken_even_where_the_rules_allow_it() -> None:
    rules = Rules(discard_taken_card=True)
    # The Java player skips the face-up card it just took when it picks a discard.
    hand = deal("Qs Qh 2s 3d 4h 6c 8d 9s Th Js", None, "Qd", rules=rules)
    hand.apply(TakeUpcard(), 1)
    view = hand.view(1)
    assert Discard(parse_card("Qd")) in view.legal_actions
    for seed in range(30):
        choice = make_bot("basic", seed=seed).choose(view)
        assert isinstance(choice, Discard | Knock)
        assert choice.card != parse_card("Qd")


def test_knocks_as_soon_as_it_can() -> None:
    # After taking 4h: As 2s 3s, 4h 5h 6h, 7d 7c 7s melded, Kd thrown, deadwood 2 (2h).
    hand = deal("As 2s 3s 5h 6h 7d 7c 7s Kd 2h", None, "4h")
    hand.apply(TakeUpcard(), 1)
    assert make_bot("basic", seed=1).choose(hand.view(1)) == Knock(parse_card("Kd"))


def test_does_not_knock_over_the_limit() -> None:
    hand = deal("As 2s 3s 5h 6h 7d 7s Qs Kd Js", None, "4h")
    hand.apply(TakeUpcard(), 1)
    choice = make_bot("basic", seed=1).choose(hand.view(1))
    assert isinstance(choice, Discard)
