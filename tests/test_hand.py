"""One hand as a state machine (the rule book §3–§6, the hand options of §9)."""

from __future__ import annotations

import random

import pytest

from hollywood_gin.actions import (
    ACTION_COUNT,
    ACTIONS,
    Action,
    Discard,
    DrawStock,
    Knock,
    Pass,
    TakeDiscard,
    TakeUpcard,
    action_from_id,
    parse_action,
)
from hollywood_gin.cards import CARDS, Card, mask_of, parse_card, parse_cards
from hollywood_gin.errors import IllegalActionError
from hollywood_gin.hand import Hand, HandView, Phase
from hollywood_gin.match import Match
from hollywood_gin.melds import best_melds, deadwood
from hollywood_gin.rules import Rules
from strategies import make_deck

P0, P1 = 0, 1


def c(text: str) -> Card:
    return parse_card(text)


def cs(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def deal(
    non_dealer: str,
    dealer: str,
    upcard: str,
    stock: str = "",
    *,
    rules: Rules = Rules(),
    dealer_player: int = 0,
) -> Hand:
    deck = make_deck(cs(non_dealer), cs(dealer), c(upcard), cs(stock))
    return Hand.from_deck(deck, rules=rules, dealer=dealer_player)


# The non-dealer (player 1) holds As2s3s 4h5h6h 7s7d7c and 2d: deadwood 2.
ND_KNOCKABLE = "As 2s 3s 4h 5h 6h 7s 7d 7c 2d"
# The dealer (player 0) holds nothing that melds.
D_LOOSE = "Ks Qh Jd 9c 8s 6d 4c Tc 3h 9h"


def assert_illegal(
    hand: Hand, action: Action, match: str | None = None, player: int | None = None
) -> str:
    """The action raises IllegalActionError and leaves the hand exactly as it was."""
    before = hand.clone()
    with pytest.raises(IllegalActionError, match=match) as info:
        hand.apply(action, player=player)
    assert hand == before
    assert not hand.is_legal(action, player)
    with pytest.raises(IllegalActionError):
        hand.check(action, player)
    assert hand == before
    assert str(info.value), "an illegal action must say why"
    return str(info.value)


def all_cards(hand: Hand) -> list[Card]:
    cards = [*hand.cards_of(0), *hand.cards_of(1), *hand.stock_cards, *hand.discard_pile]
    if hand.result is not None and hand.result.knock_discard is not None:
        cards.append(hand.result.knock_discard)
    return cards


# -- R3: dealing ------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_R3_2_deal_alternates_starting_with_the_non_dealer(dealer: int) -> None:
    deck = list(CARDS)
    random.Random(5).shuffle(deck)
    hand = Hand.from_deck(deck, dealer=dealer)
    assert hand.dealer == dealer and hand.non_dealer == 1 - dealer
    assert set(hand.cards_of(1 - dealer)) == set(deck[0:20:2])
    assert set(hand.cards_of(dealer)) == set(deck[1:20:2])
    assert len(hand.cards_of(0)) == len(hand.cards_of(1)) == 10


def test_R3_3_card_21_is_the_upcard_and_the_other_31_the_stock() -> None:
    deck = list(CARDS)
    random.Random(6).shuffle(deck)
    hand = Hand.from_deck(deck)
    assert hand.discard_pile == (deck[20],)
    assert hand.stock_cards == tuple(deck[21:])
    assert len(hand.stock_cards) == 31
    assert hand.view(0).upcard == deck[20]
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())  # the non-dealer draws card 22, the top of the stock
    assert deck[21] in hand.cards_of(hand.non_dealer)
    assert hand.stock_cards == tuple(deck[22:])


def test_R3_2_deal_is_seeded_and_never_uses_the_global_random() -> None:
    random.seed(1)
    a = Hand.deal(seed=42)
    random.seed(2)
    b = Hand.deal(seed=42)
    assert a == b
    assert Hand.deal(seed=random.Random(42)) == a
    assert Hand.deal(seed=43) != a
    assert sorted(all_cards(a)) == list(CARDS)


def test_R3_2_bad_decks_and_dealers_raise() -> None:
    with pytest.raises(IllegalActionError, match="52 cards"):
        Hand.from_deck(list(CARDS[:51]))
    with pytest.raises(IllegalActionError, match="52 cards"):
        Hand.from_deck([*CARDS[:51], CARDS[0]])
    with pytest.raises(IllegalActionError, match="dealer"):
        Hand.from_deck(list(CARDS), dealer=2)


def test_R3_4_views_hide_the_opponents_cards_and_the_stock() -> None:
    hand = Hand.deal(seed=7)
    for p in (0, 1):
        view = hand.view(p)
        assert view.hand == hand.cards_of(p)
        assert view.opponent_card_count == 10
        assert view.opponent_known == ()
        assert view.stock_count == 31
        shown = set(view.hand) | set(view.discard_pile)
        assert shown.isdisjoint(hand.cards_of(1 - p))
        assert shown.isdisjoint(hand.stock_cards)
        assert view.unseen_mask == mask_of([*hand.cards_of(1 - p), *hand.stock_cards])
    with pytest.raises(IllegalActionError, match="no player 2"):
        hand.view(2)


# -- R4.1: the opening -------------------------------------------------------------


def test_R4_1_non_dealer_is_offered_the_upcard_first_then_the_dealer() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    assert hand.phase is Phase.OFFER and hand.to_act == P1
    assert set(hand.legal_actions()) == {Pass(), TakeUpcard()}
    hand.apply(Pass(), player=P1)
    assert hand.phase is Phase.OFFER and hand.to_act == P0
    assert set(hand.legal_actions()) == {Pass(), TakeUpcard()}


def test_R4_1_both_pass_non_dealer_draws_from_the_stock_and_may_not_take_the_upcard() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Ah")
    hand.apply(Pass())
    hand.apply(Pass())
    assert hand.phase is Phase.DRAW and hand.to_act == P1
    assert hand.legal_actions() == (DrawStock(),)
    assert hand.view(P1).upcard_refused
    message = assert_illegal(hand, TakeDiscard(), "both players passed")
    assert "R4.1" in message
    hand.apply(DrawStock())
    assert c("Ah") in hand.cards_of(P1)
    assert hand.phase is Phase.DISCARD
    hand.apply(Discard(c("Ah")))
    # the dealer's normal turn: now the pile may be taken again
    assert hand.to_act == P0 and set(hand.legal_actions()) == {DrawStock(), TakeDiscard()}
    assert not hand.view(P0).upcard_refused


def test_R4_1_non_dealer_takes_the_upcard_discards_then_the_dealer_has_a_normal_turn() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    hand.apply(TakeUpcard(), player=P1)
    assert hand.phase is Phase.DISCARD and hand.to_act == P1
    assert c("Kd") in hand.cards_of(P1) and hand.discard_pile == ()
    assert len(hand.cards_of(P1)) == 11
    assert_illegal(hand, DrawStock(), "you have drawn")
    assert_illegal(hand, TakeUpcard(), "only in the opening")
    hand.apply(Discard(c("2d")), player=P1)
    assert hand.phase is Phase.DRAW and hand.to_act == P0
    assert set(hand.legal_actions()) == {DrawStock(), TakeDiscard()}
    hand.apply(TakeDiscard(), player=P0)
    assert c("2d") in hand.cards_of(P0)


def test_R4_1_dealer_takes_after_the_non_dealer_passes_then_the_non_dealer_plays() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    hand.apply(Pass(), player=P1)
    hand.apply(TakeUpcard(), player=P0)
    assert hand.to_act == P0 and hand.phase is Phase.DISCARD
    hand.apply(Discard(c("Ks")), player=P0)
    assert hand.to_act == P1 and hand.phase is Phase.DRAW
    assert set(hand.legal_actions()) == {DrawStock(), TakeDiscard()}


def test_R4_1_the_opening_offers_only_take_or_pass() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    assert_illegal(hand, DrawStock(), "opening")
    assert_illegal(hand, TakeDiscard(), "opening")
    assert_illegal(hand, Discard(c("2d")), "opening")
    assert_illegal(hand, Knock(c("2d")), "opening")


# -- R4.2 - R4.4 -----------------------------------------------------------------------


def test_R4_2_a_normal_turn_takes_one_card_then_discards_one() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Ah 5c")
    hand.apply(Pass())
    hand.apply(Pass())
    assert_illegal(hand, Discard(c("2d")), "first draw")
    hand.apply(DrawStock())
    assert_illegal(hand, DrawStock(), "now discard or knock")
    assert_illegal(hand, TakeDiscard(), "now discard or knock")
    hand.apply(Discard(c("Ah")))
    assert hand.discard_pile == cs("Kd Ah")
    hand.apply(TakeDiscard())  # dealer takes Ah
    assert c("Ah") in hand.cards_of(P0) and hand.discard_pile == cs("Kd")
    hand.apply(Discard(c("Ks")))
    assert hand.discard_pile == cs("Kd Ks") and hand.to_act == P1


def test_R4_2_discarding_a_card_not_held_is_illegal() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    hand.apply(TakeUpcard())
    message = assert_illegal(hand, Discard(c("Ks")), "not in your hand")
    assert "Ks" in message
    assert_illegal(hand, Knock(c("Ks")), "not in your hand")


def test_R4_3_taken_card_cannot_be_discarded() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "7h")
    hand.apply(TakeUpcard())
    message = assert_illegal(hand, Discard(c("7h")))
    assert message.startswith("cannot discard 7h: ")
    assert "taken from the discard pile this turn" in message
    assert Discard(c("7h")) not in hand.legal_actions()
    assert hand.view(P1).taken_card == c("7h")


def test_R4_3_taken_card_cannot_be_the_knock_discard() -> None:
    # With Kd taken, knocking with Kd face down would leave deadwood 2, but Kd was taken.
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    hand.apply(TakeUpcard())
    assert_illegal(hand, Knock(c("Kd")), "taken from the discard pile this turn")
    assert Knock(c("Kd")) not in hand.legal_actions()
    assert Knock(c("2d")) in hand.legal_actions()  # keeping Kd leaves 10: still a knock


def test_R4_3_taken_card_after_a_normal_pick_cannot_be_discarded() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Ah")
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    hand.apply(Discard(c("Ah")))
    hand.apply(TakeDiscard())
    assert_illegal(hand, Discard(c("Ah")), "cannot discard Ah: Ah was taken")


def test_R4_3_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Qs")
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    assert hand.taken_card is None
    assert Discard(c("Qs")) in hand.legal_actions()
    assert Knock(c("Qs")) in hand.legal_actions()
    hand.apply(Discard(c("Qs")))


def test_R3_4_the_card_drawn_from_the_stock_is_known_to_its_drawer_only() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Qs")
    assert hand.view(0).drawn_card is None and hand.view(1).drawn_card is None
    hand.apply(Pass())
    hand.apply(Pass())
    drawer = hand.to_act
    hand.apply(DrawStock())
    assert hand.view(drawer).drawn_card == c("Qs")
    assert c("Qs") in hand.view(drawer).hand
    assert hand.view(1 - drawer).drawn_card is None  # R3.4: a stock card is hidden
    hand.apply(Discard(c("Qs")))
    assert hand.view(0).drawn_card is None and hand.view(1).drawn_card is None
    hand.apply(TakeDiscard())  # a pile card is no stock draw
    assert hand.view(hand.to_act).drawn_card is None


@pytest.mark.parametrize("seed", range(4))
def test_R3_4_drawn_card_is_the_card_the_stock_gave_on_every_turn(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        hand = Hand.deal(seed=rng.getrandbits(32), dealer=rng.randrange(2))
        while not hand.is_over:
            p = hand.to_act
            top = hand.stock_cards[0] if hand.stock_cards else None
            action = rng.choice(hand.legal_actions())
            hand.apply(action)
            if hand.is_over:
                break
            drawn = hand.view(p).drawn_card
            assert drawn == (top if isinstance(action, DrawStock) else None)
            assert hand.view(1 - p).drawn_card is None


def test_R4_3_option_discard_taken_card_allows_it() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", rules=Rules(discard_taken_card=True))
    hand.apply(TakeUpcard())
    assert Discard(c("Kd")) in hand.legal_actions()
    assert Knock(c("Kd")) in hand.legal_actions()
    hand.apply(Knock(c("Kd")))
    assert hand.result is not None and hand.result.knock_discard == c("Kd")


def test_R4_4_the_discard_pile_and_pile_takes_are_public() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Ah")
    hand.apply(TakeUpcard())  # P1 takes Kd: P0 knows it
    assert hand.view(P0).opponent_known == cs("Kd")
    assert hand.view(P1).known_to_opponent == cs("Kd")
    assert hand.view(P1).opponent_known == ()
    hand.apply(Discard(c("2d")))
    assert hand.view(P0).discard_pile == cs("2d")
    assert hand.view(P1).discard_pile == cs("2d")
    hand.apply(TakeDiscard())  # P0 takes 2d
    assert hand.view(P1).opponent_known == cs("2d")
    hand.apply(Discard(c("Ks")))
    hand.apply(DrawStock())  # P1 draws Ah: nobody else learns which card
    view = hand.view(P0)
    assert c("Ah") not in view.hand and all(c("Ah") not in _cards_in(a) for _, a in view.history)
    hand.apply(Discard(c("Kd")))  # P1 lets the known Kd go: no longer known to be held
    assert hand.view(P0).opponent_known == ()
    assert hand.view(P1).opponent_known == cs("2d")


def _cards_in(action: Action) -> tuple[Card, ...]:
    if isinstance(action, Discard):
        return (action.card,)
    if isinstance(action, Knock):
        melds = tuple(x for meld in action.melds or () for x in meld)
        return melds if action.card is None else (action.card, *melds)
    return ()


# -- R5.1, R5.2: knocking -------------------------------------------------------------


def test_R5_1_knocking_on_the_opening_is_allowed() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    hand.apply(TakeUpcard())
    hand.apply(Knock(c("2d")))
    result = hand.result
    assert result is not None and hand.phase is Phase.OVER
    assert result.knocker == P1 and result.knock_discard == c("2d")
    assert result.score is not None and result.score.knocker_deadwood == 10
    assert sorted(all_cards(hand)) == list(CARDS)


def test_R5_1_dealer_may_knock_on_the_opening_after_a_pass() -> None:
    hand = deal(D_LOOSE, ND_KNOCKABLE, "Ah")
    hand.apply(Pass(), player=P1)
    hand.apply(TakeUpcard(), player=P0)
    hand.apply(Knock(c("2d")), player=P0)
    assert hand.result is not None
    assert hand.result.knocker == P0
    assert hand.result.score is not None and hand.result.score.knocker_deadwood == 1


def test_R5_1_knock_limit_and_knocking_is_never_required() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Ah")
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())  # 11 cards: As2s3s 4h5h6h 7s7d7c 2d Ah
    assert Knock(c("2d")) in hand.legal_actions()  # leaves 1
    assert Knock(c("Ah")) in hand.legal_actions()  # leaves 2
    assert Discard(c("Ah")) in hand.legal_actions()  # knocking is not required
    assert Discard(c("5h")) in hand.legal_actions()
    # discarding 5h leaves 4h 6h 2d Ah = 13
    message = assert_illegal(hand, Knock(c("5h")), "leaves 13 deadwood, over the knock limit of 10")
    assert "R5.1" in message


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 10])
def test_R5_1_knock_limit_option(limit: int) -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Ah", rules=Rules(knock_limit=limit))
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    assert hand.knock_limit == limit
    for card in cs("2d Ah"):  # discarding 2d leaves 1, discarding Ah leaves 2
        left = 1 if card == c("2d") else 2
        if left <= limit:
            assert Knock(card) in hand.legal_actions()
        else:
            assert_illegal(hand, Knock(card), f"knock limit of {limit}")


@pytest.mark.parametrize(
    "upcard,limit", [("Kd", 10), ("Qs", 10), ("Td", 10), ("7h", 7), ("2c", 2), ("Ac", 0)]
)
def test_R9_oklahoma_upcard_sets_the_knock_limit(upcard: str, limit: int) -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, upcard, "Ah", rules=Rules(oklahoma=True))
    assert hand.knock_limit == limit
    assert hand.view(0).knock_limit == limit
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())  # Ah: discarding 2d leaves 1, discarding Ah leaves 2
    assert (Knock(c("2d")) in hand.legal_actions()) == (limit >= 1)
    assert (Knock(c("Ah")) in hand.legal_actions()) == (limit >= 2)
    if limit < 2:
        assert_illegal(hand, Knock(c("Ah")), f"over the knock limit of {limit}")


def test_R9_oklahoma_ace_means_gin_only() -> None:
    rules = Rules(oklahoma=True)
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Ad", "3d", rules=rules)
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())  # 3d: 2d 3d loose, no knock at all
    assert hand.knock_limit == 0
    assert not any(isinstance(a, Knock) for a in hand.legal_actions())
    assert_illegal(hand, Knock(c("2d")), "leaves 3 deadwood, over the knock limit of 0")
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Ad", "4s", rules=rules)
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())  # 4s: As2s3s4s, discarding 2d is gin
    assert [a for a in hand.legal_actions() if isinstance(a, Knock)] == [Knock(c("2d"))]
    hand.apply(Knock(c("2d")))
    assert hand.result is not None and hand.result.kind == "gin"


def test_R5_2_defender_lays_out_after_the_knock() -> None:
    # The defender's 4s would go on As2s3s, but he keeps it in 4s4d4c; 7h goes on 7s7d7c.
    hand = deal(ND_KNOCKABLE, "8s 9s 4d 4s 4c 7h 2h Ad 5d Kh", "Kd")
    hand.apply(TakeUpcard())
    hand.apply(Knock(c("2d")))
    result = hand.result
    assert result is not None and result.score is not None
    score = result.score
    assert score.knocker_deadwood == 10
    assert {" ".join(map(str, m)) for m in score.defender_melds} == {"4s 4d 4c"}
    assert score.layoff_cards == cs("7h")
    assert score.defender_deadwood == 8 + 9 + 2 + 1 + 5 + 10
    assert (result.kind, result.winner, result.points) == ("knock", P1, 35 - 10)
    assert result.hands[P0] == hand.cards_of(P0)
    assert result.winner in (P0, P1)
    assert (result.kind, result.points) == (score.kind, score.points)


def test_R5_1_knock_with_shown_melds_is_checked() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    hand.apply(TakeUpcard())
    bad = Knock(c("2d"), (cs("As 2s 3s"), cs("4h 5h 6h 7s")))
    assert_illegal(hand, bad, "not a meld")
    assert_illegal(hand, Knock(c("2d"), (cs("As 2s 3s"), cs("4h 5h 6h"))), "least is 10")
    assert_illegal(hand, Knock(c("2d"), (cs("As 2s 3s 4s"),)), "does not hold")
    shown = Knock(c("2d"), (cs("As 2s 3s"), cs("4h 5h 6h"), cs("7s 7d 7c")))
    hand.apply(shown)
    assert hand.history[-1] == (P1, shown)
    assert hand.result is not None and hand.result.score is not None
    assert len(hand.result.score.knocker_melds) == 3


# -- big gin ------------------------------------------------------------------------------

# Player 1 holds 2s3s4s 4h5h6h 7s7d7c and 5s; 6s makes 2s3s4s5s6s: eleven cards melded.
BIG = "2s 3s 4s 4h 5h 6h 7s 7d 7c 5s"


def test_R9_big_gin_knocks_with_all_eleven_cards_melded() -> None:
    hand = deal(BIG, D_LOOSE, "Kd", "6s", rules=Rules(big_gin_bonus=31))
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    assert Knock(None) in hand.legal_actions()
    assert Knock(c("2s")) in hand.legal_actions()  # a plain gin is still allowed
    hand.apply(Knock(None))
    result = hand.result
    assert result is not None and result.score is not None
    assert (result.kind, result.winner) == ("big_gin", P1)
    assert result.points == 31 + deadwood(cs(D_LOOSE))
    assert result.knock_discard is None
    assert len(result.hands[P1]) == 11
    assert sorted(all_cards(hand)) == list(CARDS)


def test_R9_big_gin_allowed_with_the_taken_card() -> None:
    hand = deal(BIG, D_LOOSE, "6s", rules=Rules(big_gin_bonus=31))
    hand.apply(TakeUpcard())
    assert Knock(None) in hand.legal_actions()  # nothing is discarded, so R4.3 is kept


def test_R9_big_gin_only_with_the_option() -> None:
    hand = deal(BIG, D_LOOSE, "Kd", "6s")
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    assert Knock(None) not in hand.legal_actions()
    assert_illegal(hand, Knock(None), "big gin is not played")


def test_R9_big_gin_needs_all_eleven_melded() -> None:
    hand = deal(BIG, D_LOOSE, "Kd", "8d", rules=Rules(big_gin_bonus=31))
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    assert Knock(None) not in hand.legal_actions()
    assert_illegal(hand, Knock(None), "eleven cards leave 8 deadwood")


# -- R6.1: dead hand -----------------------------------------------------------------------


def _draw_and_discard_until(hand: Hand, stock_left: int) -> None:
    """Both pass, then each player draws and discards the drawn card."""
    hand.apply(Pass())
    hand.apply(Pass())
    while len(hand.stock) > stock_left:
        top = hand.stock_cards[0]
        hand.apply(DrawStock())
        if len(hand.stock) == stock_left:
            return
        hand.apply(Discard(top))


def test_R6_1_dead_hand_after_a_discard_leaves_two_cards_in_the_stock() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    _draw_and_discard_until(hand, 2)
    assert hand.phase is Phase.DISCARD and len(hand.stock) == 2
    assert 52 - len(hand.stock) == 50  # the 50th card has just been drawn
    drawn = [a for _, a in hand.history if isinstance(a, DrawStock)]
    assert len(drawn) == 29
    top_was = hand.cards_of(hand.to_act)
    hand.apply(Discard(max(top_was, key=lambda x: x.points)))
    result = hand.result
    assert hand.phase is Phase.OVER and result is not None
    assert (result.kind, result.winner, result.points, result.knocker) == ("dead", None, 0, None)
    assert result.score is None
    assert sorted(all_cards(hand)) == list(CARDS)
    assert_illegal(hand, DrawStock(), "the hand is over")


def test_R6_1_knocking_on_the_50th_card_is_still_allowed() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    _draw_and_discard_until(hand, 2)
    assert hand.to_act == P1  # the 29th draw is the non-dealer's
    assert any(isinstance(a, Knock) for a in hand.legal_actions())
    hand.apply(next(a for a in hand.legal_actions() if isinstance(a, Knock)))
    assert hand.result is not None and hand.result.kind in ("knock", "gin", "undercut")


def test_R6_1_taking_the_discard_does_not_use_the_stock() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    _draw_and_discard_until(hand, 3)
    hand.apply(Discard(hand.cards_of(hand.to_act)[0]))
    assert len(hand.stock) == 3 and not hand.is_over
    hand.apply(TakeDiscard())
    hand.apply(Discard(next(x for x in hand.cards_of(hand.to_act) if x != hand.taken_card)))
    assert len(hand.stock) == 3 and not hand.is_over


@pytest.mark.parametrize("left", [0, 5])
def test_R9_dead_hand_stock_option(left: int) -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", rules=Rules(dead_hand_stock=left))
    _draw_and_discard_until(hand, left)
    assert not hand.is_over
    hand.apply(Discard(hand.cards_of(hand.to_act)[-1]))
    assert hand.result is not None and hand.result.kind == "dead" and len(hand.stock) == left


# -- illegal actions, out of turn, the hand left unchanged -------------------------------


def _random_states(seed: int, rules: Rules = Rules(), count: int = 60) -> list[Hand]:
    """States along a random hand (knocking sometimes), clones taken before each action."""
    rng = random.Random(seed)
    hand = Hand.deal(rules=rules, seed=seed, dealer=seed % 2)
    states = []
    while not hand.is_over and len(states) < count:
        states.append(hand.clone())
        ids = hand.legal_action_ids()
        knocks = [i for i in ids if i >= 56]
        hand.apply_id(rng.choice(knocks) if knocks and rng.random() < 0.3 else rng.choice(ids))
    states.append(hand)
    return states


EXTRA_ACTIONS: list[Action] = [
    Knock(c("As"), ((c("As"), c("2s")),)),
    Knock(c("Kc"), ()),
    Knock(None, ()),
]


@pytest.mark.parametrize("seed", range(6))
def test_every_illegal_action_raises_and_leaves_the_hand_unchanged(seed: int) -> None:
    rules = Rules(big_gin_bonus=31) if seed % 2 else Rules()
    for hand in _random_states(seed, rules)[::3]:
        legal = set(hand.legal_actions())
        assert len(legal) == len(hand.legal_actions())
        for action in (*ACTIONS, *EXTRA_ACTIONS):
            if action in legal:
                assert hand.is_legal(action)
                hand.check(action)
                continue
            message = assert_illegal(hand, action)
            assert message.startswith("cannot ") or "not an action" in message
        for action in legal:
            clone = hand.clone()
            clone.apply(action)
            assert clone != hand


def test_acting_out_of_turn_raises() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    message = assert_illegal(hand, Pass(), player=P0)
    assert message == "cannot pass: it is player 1's turn, not player 0's"
    hand.apply(Pass(), player=P1)
    assert_illegal(hand, TakeUpcard(), "player 0's turn, not player 1's", player=P1)
    hand.apply(TakeUpcard(), player=P0)
    assert_illegal(hand, Discard(c("Ks")), "player 0's turn", player=P1)
    hand.apply(Discard(c("Ks")), player=P0)
    assert_illegal(hand, DrawStock(), "player 1's turn", player=P0)


def test_a_finished_hand_takes_no_action() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    hand.apply(TakeUpcard())
    hand.apply(Knock(c("2d")))
    assert hand.legal_actions() == () and hand.legal_action_ids() == []
    for action in (*ACTIONS[:5], Knock(c("2d"))):
        assert_illegal(hand, action, "the hand is over")
    assert hand.view(0).legal_actions == () and not hand.view(1).my_turn


def test_non_actions_are_rejected() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    hand.apply(TakeUpcard())
    assert_illegal(hand, "discard 2d", "not an action")  # type: ignore[arg-type]
    assert_illegal(hand, Discard("2d"), "not a card")  # type: ignore[arg-type]
    # Only a knock may name no card (big gin, R5.7); a discard always throws one (R4.2).
    assert_illegal(hand, Discard(None), "not a card")  # type: ignore[arg-type]


@pytest.mark.parametrize("player", [True, 1.0, "1", 2, -1])
def test_a_player_that_is_not_0_or_1_is_refused_by_name(player: object) -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd")
    assert_illegal(hand, Pass(), "no player", player=player)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="no player"):
        hand.view(player)  # type: ignore[arg-type]


@pytest.mark.parametrize("dealer", [True, 1.0, "0", None])
def test_R3_1_a_dealer_that_is_not_a_player_number_is_refused(dealer: object) -> None:
    with pytest.raises(IllegalActionError, match="dealer must be player 0 or 1"):
        Hand.deal(dealer=dealer, seed=1)  # type: ignore[arg-type]


def test_deal_refuses_a_seed_or_rules_of_the_wrong_type() -> None:
    for seed in ("abc", 1.5, True):
        with pytest.raises(IllegalActionError, match="seed must be a whole number"):
            Hand.deal(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="rules must be a Rules"):
        Hand.deal(rules="classic", seed=1)  # type: ignore[arg-type]
    assert Hand.deal(seed=random.Random(3)) == Hand.deal(seed=3)


@pytest.mark.parametrize("seed", [-1, -5, -(1 << 70)])
def test_R3_2_a_negative_seed_is_refused_as_it_would_deal_as_its_absolute_value(
    seed: int,
) -> None:
    # random.Random seeds by the absolute value: -5 dealt what 5 deals, so two records
    # with different seeds held the same cards.
    with pytest.raises(IllegalActionError, match=f"a seed must be 0 or more, not {seed}"):
        Hand.deal(seed=seed)
    with pytest.raises(IllegalActionError, match=f"a match seed must be 0 or more, not {seed}"):
        Match(seed=seed)
    assert Hand.deal(seed=0) != Hand.deal(seed=1)


# -- views (R3.4, R4.4) -----------------------------------------------------------------


def _view_cards(view: HandView) -> set[Card]:
    cards = {*view.hand, *view.discard_pile, *view.opponent_known, *view.known_to_opponent}
    if view.taken_card is not None:
        cards.add(view.taken_card)
    if view.drawn_card is not None:
        cards.add(view.drawn_card)
    for _, action in view.history:
        cards.update(_cards_in(action))
    for action in view.legal_actions:
        cards.update(_cards_in(action))
    return cards


@pytest.mark.parametrize("seed", range(8))
def test_R3_4_a_view_never_shows_the_opponents_hidden_cards_or_the_stock(seed: int) -> None:
    for hand in _random_states(seed, count=200):
        for p in (0, 1):
            view = hand.view(p)
            assert view.player == p and view.dealer == hand.dealer
            assert view.hand == hand.cards_of(p)
            assert view.discard_pile == hand.discard_pile
            assert view.stock_count == len(hand.stock_cards)
            assert view.opponent_card_count == len(hand.cards_of(1 - p))
            assert view.to_act == hand.to_act and view.phase is hand.phase
            assert view.history == tuple(hand.history)
            assert set(view.opponent_known) <= set(hand.cards_of(1 - p))
            assert set(view.known_to_opponent) <= set(view.hand)
            if hand.is_over:
                continue
            hidden = (set(hand.cards_of(1 - p)) - set(view.opponent_known)) | set(
                hand.stock_cards
            )
            assert _view_cards(view).isdisjoint(hidden)
            assert view.unseen_mask == mask_of(hidden)


@pytest.mark.parametrize("seed", range(4))
def test_R4_4_opponent_known_tracks_pile_takes_and_drops_discards(seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand.deal(seed=seed)
    known: list[set[Card]] = [set(), set()]
    while not hand.is_over:
        p = hand.to_act
        ids = hand.legal_action_ids()
        action_id = rng.choice([i for i in ids if i < 56] or ids)
        if action_id == TakeDiscard.id or action_id == TakeUpcard.id:
            known[p].add(hand.discard_pile[-1])
        hand.apply_id(action_id)
        action = hand.history[-1][1]
        if isinstance(action, Discard):
            known[p].discard(action.card)
        for q in (0, 1):
            assert set(hand.view(1 - q).opponent_known) == known[q]
            assert set(hand.view(q).known_to_opponent) == known[q]


def test_R4_4_a_known_card_used_as_the_knock_discard_is_no_longer_held() -> None:
    hand = deal(ND_KNOCKABLE, D_LOOSE, "Kd", "Ah")
    hand.apply(TakeUpcard())  # P1 takes Kd
    hand.apply(Discard(c("2d")))
    hand.apply(DrawStock())  # P0 draws Ah
    hand.apply(Discard(c("Ah")))
    hand.apply(DrawStock())  # P1 draws the next card
    hand.apply(Knock(c("Kd")))  # Kd, known to P0, goes face down
    assert c("Kd") not in hand.cards_of(P1)
    assert hand.view(P0).opponent_known == ()


@pytest.mark.parametrize("seed", range(6))
def test_view_legal_actions_equal_the_hands(seed: int) -> None:
    for hand in _random_states(seed, count=200):
        if hand.is_over:
            continue
        assert hand.view(hand.to_act).legal_actions == hand.legal_actions()
        assert hand.view(hand.to_act).my_turn
        assert hand.view(1 - hand.to_act).legal_actions == ()
        assert not hand.view(1 - hand.to_act).my_turn
        assert hand.legal_actions() == tuple(action_from_id(i) for i in hand.legal_action_ids())


# -- clones, determinization, the fast path ------------------------------------------------


def test_clone_is_independent() -> None:
    hand = Hand.deal(seed=3)
    clone = hand.clone()
    assert clone == hand and clone is not hand
    clone.apply(Pass())
    clone.apply(Pass())
    clone.apply(DrawStock())
    assert clone != hand
    assert hand.phase is Phase.OFFER and len(hand.stock_cards) == 31 and hand.history == []
    assert len(hand.cards_of(hand.non_dealer)) == 10
    again = hand.clone()
    hand.apply(TakeUpcard())
    assert again.phase is Phase.OFFER and len(again.discard_pile) == 1
    assert again != hand


def test_hands_are_not_hashable() -> None:
    with pytest.raises(TypeError):
        hash(Hand.deal(seed=1))
    assert Hand.deal(seed=1).__eq__(object()) is NotImplemented


@pytest.mark.parametrize("seed", range(10))
def test_sample_from_view_is_consistent_with_the_view(seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules(big_gin_bonus=31) if seed % 3 == 0 else Rules()
    for hand in _random_states(seed, rules, count=200)[::7]:
        for p in (0, 1):
            view = hand.view(p)
            sampled = Hand.sample_from_view(view, rng)
            assert sampled.view(p) == view
            cards = all_cards(sampled)
            assert sorted(cards) == list(CARDS)
            assert set(view.opponent_known) <= set(sampled.cards_of(1 - p))
            assert len(sampled.cards_of(1 - p)) == len(hand.cards_of(1 - p))
            if not hand.is_over:  # the sample plays on
                assert sampled.legal_action_ids()
                sampled.apply_id(rng.choice(sampled.legal_action_ids()))


def test_sample_from_view_varies_the_unseen_cards() -> None:
    hand = Hand.deal(seed=9)
    view = hand.view(0)
    rng = random.Random(1)
    opponents = {Hand.sample_from_view(view, rng).cards_of(1) for _ in range(10)}
    assert len(opponents) > 1


@pytest.mark.parametrize("seed", range(10))
def test_apply_id_fast_path_agrees_with_apply(seed: int) -> None:
    rng = random.Random(seed)
    rules = [Rules(), Rules(big_gin_bonus=31), Rules(oklahoma=True),
             Rules(discard_taken_card=True)][seed % 4]
    checked = Hand.deal(rules=rules, seed=seed)
    fast = checked.clone()
    while not checked.is_over:
        ids = checked.legal_action_ids()
        assert ids == fast.legal_action_ids()
        knocks = [i for i in ids if i >= 56]
        action_id = rng.choice(knocks) if knocks and rng.random() < 0.2 else rng.choice(ids)
        checked.apply(action_from_id(action_id))
        fast.apply_id(action_id)
        assert checked == fast
    assert checked.result == fast.result


# -- actions ----------------------------------------------------------------------------------


def test_action_ids_and_text_round_trip() -> None:
    assert len(ACTIONS) == ACTION_COUNT == 109
    for i, action in enumerate(ACTIONS):
        assert action.id == i
        assert action_from_id(i) == action
        assert parse_action(str(action)) == action
    shown = Knock(c("3d"), (cs("5s 6s 7s"), cs("9h 9d 9c")))
    assert str(shown) == "knock 3d 5s/6s/7s 9h/9d/9c"
    assert parse_action(str(shown)) == shown
    assert parse_action("  DISCARD 10h ") == Discard(c("Th"))
    assert parse_action("gin 2d") == Knock(c("2d"))


@pytest.mark.parametrize("text", ["", "fold", "discard", "discard Xx", "draw 7h", "knock", None,
                                  7])
def test_bad_action_text_raises(text: str) -> None:
    with pytest.raises(IllegalActionError, match="action"):
        parse_action(text)


@pytest.mark.parametrize("bad", [-1, 109, True, "3", 2.0])
def test_bad_action_ids_raise(bad: object) -> None:
    with pytest.raises(IllegalActionError, match="no action has id"):
        action_from_id(bad)  # type: ignore[arg-type]


def _knock_ready() -> tuple[Hand, Knock]:
    """A hand where the player to act may knock, and one such knock."""
    rng = random.Random(5)
    for seed in range(400):
        hand = Hand.deal(seed=seed)
        while not hand.is_over:
            knocks = [a for a in hand.legal_actions() if isinstance(a, Knock)]
            if knocks:
                return hand, knocks[0]
            hand.apply(rng.choice([a for a in hand.legal_actions() if not isinstance(a, Knock)]))
    raise AssertionError("no knock found")


@pytest.mark.parametrize("melds", ["x", 5, (("x",),), ((1, 2, 3),), ((None,),), b"ab",
                                   ("7h",)])
def test_r5_1_a_knock_whose_melds_are_not_groups_of_cards_is_refused_in_words(
        melds: object) -> None:
    hand, knock = _knock_ready()
    before = hand.clone()
    bad = Knock(knock.card, melds)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=r"the melds shown must be groups of cards"):
        hand.apply(bad)
    assert hand.is_legal(bad) is False
    assert hand == before and hand.history == before.history


def test_r5_1_melds_given_as_lists_or_a_generator_are_kept_as_shown() -> None:
    """The history keeps its own copy: a caller's list changed later, or a generator the
    check has read, must not change or empty the recorded knock."""
    hand, knock = _knock_ready()
    good = best_melds([c for c in hand.cards_of(hand.to_act) if c != knock.card]).melds
    other = hand.clone()
    lists = [list(group) for group in good]
    hand.apply(Knock(knock.card, lists))  # type: ignore[arg-type]
    lists[0].clear()
    other.apply(Knock(knock.card, (tuple(group) for group in good)))  # type: ignore[arg-type]
    shown = hand.history[-1][1]
    assert isinstance(shown, Knock) and shown.melds == good
    assert other.history[-1][1] == shown
