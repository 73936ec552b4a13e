"""Whole hands between bots, for the tests of this folder that read how hands end."""

from __future__ import annotations

import random

from hollywood_gin.actions import Knock
from hollywood_gin.bots import make_bot
from hollywood_gin.cards import CARDS, parse_cards
from hollywood_gin.hand import Hand, HandView, Phase
from hollywood_gin.rules import Rules


def eaai_deal(me: str, opp: str, up: str, stock: str) -> Hand:
    """An ``eaai`` hand dealt by player 1 with these ten cards to each, this upcard and
    these cards on top of the stock (the rest in the deck's order)."""
    mine, his, upcard, top = (parse_cards(t) for t in (me, opp, up, stock))
    used = {c.index for c in mine + his + upcard + top}
    deck = [c for pair in zip(mine, his, strict=True) for c in pair]
    deck += [*upcard, *top, *(c for c in CARDS if c.index not in used)]
    return Hand.from_deck(deck, rules=Rules.preset("eaai"), dealer=1)


def play_hands(a: str, b: str, count: int, seed: int) -> list[Hand]:
    rules = Rules.preset("eaai")
    rng = random.Random(seed)
    bots = [make_bot(a, seed=seed), make_bot(b, seed=seed + 1)]
    out = []
    for n in range(count):
        hand = Hand.deal(rules=rules, dealer=n % 2, seed=rng.getrandbits(63))
        while not hand.is_over:
            seat = hand.to_act
            hand.apply(bots[seat].choose(hand.view(seat)), seat)
        out.append(hand)
    return out


def greedy_discards(hands: int, seed: int) -> list[Hand]:
    """Either seat's discards with no knock legal (each a copy of the hand there), from
    seeded greedy-against-greedy ``eaai`` hands."""
    rules = Rules.preset("eaai")
    out = []
    for k in range(hands):
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=seed + k)
        bots = [make_bot("greedy", seed=k), make_bot("greedy", seed=k + 1)]
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if view.phase is Phase.DISCARD and not any(
                    isinstance(a, Knock) for a in view.legal_actions):
                out.append(hand.clone())
            hand.apply(bots[seat].choose(view), seat)
    return out


def greedy_knock_views(hands: int) -> list[HandView]:
    """Seat 0's discards where a knock is legal, from seeded greedy-against-greedy ``eaai``
    hands."""
    rules = Rules.preset("eaai")
    out = []
    for k in range(hands):
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=9_000 + k)
        bots = [make_bot("greedy", seed=k), make_bot("greedy", seed=k + 1)]
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if (seat == 0 and view.phase is Phase.DISCARD
                    and any(isinstance(a, Knock) for a in view.legal_actions)):
                out.append(view)
            hand.apply(bots[seat].choose(view), seat)
    return out
