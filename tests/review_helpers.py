"""Positions with a known answer for the review, and twin hands that differ only in what a
player could not see.  Cards are dealt from scripted decks (conftest's ``make_deck``)."""

from __future__ import annotations

import random

from hollywood_gin.actions import Action, Discard, Knock, Pass, TakeUpcard, parse_action
from hollywood_gin.cards import CARDS, parse_card, parse_cards
from hollywood_gin.errors import IllegalActionError
from hollywood_gin.hand import Hand
from hollywood_gin.match import Match
from hollywood_gin.rules import Rules
from strategies import make_deck


def scripted(non_dealer: str, dealer: str, upcard: str, stock: str, actions: str) -> Hand:
    """A hand dealt by player 1 from these cards, played through ``actions``."""
    deck = make_deck(parse_cards(non_dealer), parse_cards(dealer), parse_card(upcard),
                     parse_cards(stock) if stock else ())
    hand = Hand.from_deck(deck, rules=Rules(), dealer=1)
    for text in filter(None, (a.strip() for a in actions.split(","))):
        hand.apply(parse_action(text))
    return hand


def gin_upcard() -> tuple[Hand, Action, Action]:
    """Player 0 is offered 4♠: with it A♠-4♠, 4♥5♥6♥ and 8♦8♣8♥, throwing K♣, is gin (R5.7)."""
    hand = scripted("As 2s 3s 4h 5h 6h 8d 8c 8h Kc", "Kh Qd Jd 9c 7s 2d 5c Th Td 6d", "4s", "",
                    "")
    return hand, TakeUpcard(), Pass()


def meld_or_king() -> tuple[Hand, Action, Action]:
    """Player 0 has drawn: 7♠7♥7♦ and 2♣3♣4♣ made, a lone K♦, and 3♥4♥, 2♠2♦ (no knock
    yet).  Throw the king, never a seven of the made set."""
    hand = scripted("7s 7h 7d 2c 3c 4c Kd 3h 4h 2s", "Ks Qh Jd 9c 8s Jc 5c Th Td 6d", "Qc",
                    "2d", "pass, pass, draw")
    return hand, Discard(parse_card("Kd")), Discard(parse_card("7s"))


def knock_first_turn() -> tuple[Hand, Action, Action]:
    """Player 0 draws A♥ on the first turn: 5♠6♠7♠, 9♥9♦9♣, J♣Q♣K♣ and 4♦ A♥; the fourth
    nine is the refused upcard.  Knock now with 1 (discarding 4♦) rather than wait."""
    hand = scripted("5s 6s 7s 9h 9d 9c Jc Qc Kc 4d", "Ks Qh Jd 2c 8d 3c 5c Th Td 6d", "9s",
                    "Ah", "pass, pass, draw")
    return hand, Knock(parse_card("4d")), Discard(parse_card("4d"))


def feed_or_safe() -> tuple[Hand, Action, Action]:
    """The opponent took 8♥ and 9♥ from the pile and passed Q♦; player 0 holds T♥ (it
    makes the opponent's 8♥9♥ a run) and Q♠, both lone ten-pointers.  Throw the queen."""
    hand = scripted(
        "2c 3c 4c 9s 9d 9c 9h 8h Qd As", "Ks Kh 7s 6d 5h 5c Jd Ts 4s 3s", "Kc",
        "Ad Th 2d 2h Qs",
        "pass, pass, draw, discard 8h, pick, discard Ks, draw, discard 9h, pick, discard Kh, "
        "draw, discard Qd, draw, discard 7s, draw")
    return hand, Discard(parse_card("Qs")), Discard(parse_card("Th"))


KNOWN = {
    "gin_upcard": gin_upcard,
    "meld_or_king": meld_or_king,
    "knock_first_turn": knock_first_turn,
    "feed_or_safe": feed_or_safe,
}


def play_hand(specs: tuple[str, str], seed: int, rules: Rules = Rules()) -> Match:
    """A one-hand match between two bots (a finished first hand)."""
    from hollywood_gin.bots import make_bot

    match = Match(rules=rules, seed=seed)
    bots = [make_bot(specs[0], seed=seed), make_bot(specs[1], seed=seed + 1)]
    hand = match.hand
    while not hand.is_over:
        seat = hand.to_act
        match.apply(bots[seat].choose(hand.view(seat), match.sheet), seat)
    return match


def unseen_by(hand: Hand, player: int) -> set[int]:
    """Card indexes ``player`` never saw while the hand was on: the opponent's cards never
    shown and the stock below what was drawn (the end's reveal does not count)."""
    assert hand.deck is not None
    replay = Hand.from_deck(hand.deck, rules=hand.rules, dealer=hand.dealer)
    seen = 0
    for p, action in hand.history:
        view = replay.view(player)
        seen |= view.hand_mask | sum(c.bit for c in view.discard_pile)
        seen |= sum(c.bit for c in view.opponent_known)
        replay.apply(action, p)
    seen |= sum(c.bit for c in replay.discard_pile)  # the last discard
    if replay.result is not None and replay.result.knocker == player:
        seen |= sum(c.bit for c in replay.result.hands[player])
    return {i for i in range(52) if not seen >> i & 1}


def twin(match: Match, player: int, rng: random.Random, tries: int = 50) -> Match | None:
    """The same first hand with the cards ``player`` never saw dealt afresh among their
    places in the deck (the opponent's hidden cards and the unseen stock); the same
    actions must still be legal (a knock by the opponent may not be).  None if no such
    deal was found, or nothing could change."""
    hand = match.hands[0]
    assert hand.deck is not None
    hidden = sorted(unseen_by(hand, player))
    places = [k for k, c in enumerate(hand.deck) if c.index in hidden]
    if len(places) < 2:
        return None
    for _ in range(tries):
        cards = [hand.deck[k] for k in places]
        rng.shuffle(cards)
        deck = list(hand.deck)
        for k, c in zip(places, cards, strict=True):
            deck[k] = c
        if deck == list(hand.deck):
            continue
        other = Match(rules=match.rules, seed=0, first_dealer=hand.dealer, decks=[deck])
        try:
            for p, action in hand.history:
                other.apply(action, p)
        except IllegalActionError:
            continue
        if other.hands[0].cards_of(1 - player) != hand.cards_of(1 - player) or \
                other.hands[0].stock != hand.stock:
            return other
    return None


__all__ = ["CARDS", "KNOWN", "play_hand", "twin", "unseen_by"]
