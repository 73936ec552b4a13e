"""The bots' reasons are data (a message id and its values) that the front end words: every
reason a bot gives is in the catalogue, and comes out whole in the language in force."""

from __future__ import annotations

import random

from hollywood_gin import i18n
from hollywood_gin.bots import Reason, make_bot
from hollywood_gin.hand import Hand
from hollywood_gin.rules import Rules
from hollywood_gin.tui.words import hint_words


def reasons_given() -> list[tuple[object, Reason, object]]:
    """(action, reason, view) of every decision of a few seeded hands, per bot kind."""
    out = []
    for spec in ("basic", "greedy", "expert:samples=8,time_cap_ms=0", "expert:search_draws=0"):
        for seed in range(4):
            rng = random.Random(seed)
            bot = make_bot(spec, seed=seed)
            hand = Hand.deal(rules=Rules.preset("hollywood"), dealer=seed % 2, seed=seed)
            while not hand.is_over:
                view = hand.view(hand.to_act)
                got = bot.explain(view)
                out.append((got.action, got.reason, view))
                hand.apply(got.action if rng.random() < 0.7 else rng.choice(view.legal_actions))
    return out


def test_every_reason_comes_through_the_catalogue_whole() -> None:
    given = reasons_given()
    kinds = {r.message for _a, r, _v in given}
    assert len(kinds) >= 8  # knocks, discards, takes, passes, draws of three bots
    with i18n.using(i18n.PSEUDO):
        for action, reason, view in given:
            words = hint_words(action, reason, view)  # type: ignore[arg-type]
            assert i18n.pseudo_leaks(words) == [], (reason, words)
            assert "{" not in words


def test_a_reason_says_cards_with_their_suit_symbols() -> None:
    from hollywood_gin.cards import Card

    card = Card.parse("Th")
    reason = Reason.of("{card} makes no meld", card=card)
    assert reason.english() == "10♥ makes no meld" == reason.words()
    pair = ("{n} draw", "{n} draws")
    assert Reason.of(pair, n=1).english() == "1 draw"
    assert Reason.of(pair, n=3).english() == "3 draws"
