"""The expert's fast playout against a slow reference written from its docstring.

The playout runs on bare masks with its own bookkeeping (the deadwood after each
discard, the discard planned when the upcard is taken); this plays the same policy
with the checked core API and must reach the same end on every deal.
"""

from __future__ import annotations

import random

import pytest

from hollywood_gin.bots.opponent import KnockStyle
from hollywood_gin.bots.search import OFFER, Playout, PlayoutRules
from hollywood_gin.cards import cards_from_mask
from hollywood_gin.melds import deadwood, melds_in_mask
from hollywood_gin.rules import Rules
from hollywood_gin.scoring import score_hand_masks


def _dead(mask: int) -> int:
    return deadwood(cards_from_mask(mask))


def _best_discard(mask: int, forbidden: int) -> tuple[int, int]:
    """Least deadwood left; on ties the card worth more points, then the lower index."""
    options = [c for c in cards_from_mask(mask) if c.index != forbidden]
    best = min(options, key=lambda c: (_dead(mask & ~c.bit), -c.points, c.index))
    return best.index, _dead(mask & ~best.bit)


def _melds_with(mask: int, card: int) -> bool:
    return any(m >> card & 1 for m in melds_in_mask(mask | 1 << card))


def _reference(
    rules: Rules, r: PlayoutRules, hands: list[int], stock: list[int], up: int, first: int
) -> tuple[int | None, int]:
    """From the opening offer (R4.1) to the end of the hand, one rule at a time."""
    pile = [up]
    draws = [0, 0]

    def wants(p: int, card: int) -> bool:
        if not _melds_with(hands[p], card):
            return False
        forbidden = -1 if r.discard_taken else card
        return _best_discard(hands[p] | 1 << card, forbidden)[1] < _dead(hands[p])

    def limit(p: int) -> float:
        style = r.knock[p]
        late = max(0, draws[1 - p] - style.early)
        return max(min(float(style.floor), float(r.limit)), r.limit - style.slope * late)

    def turn(p: int, taken: int) -> tuple[int | None, int] | None:
        card, dead = _best_discard(hands[p], -1 if r.discard_taken else taken)
        if dead <= r.limit and (dead == 0 or dead <= limit(p)):
            score = score_hand_masks(
                hands[p] & ~(1 << card), hands[1 - p], rules=rules, knock_limit=r.limit
            )
            return (p if score.winner == "knocker" else 1 - p), score.points
        hands[p] &= ~(1 << card)
        pile.append(card)
        if len(stock) <= r.dead_stock:
            return (None, 0)
        return None

    p = first
    offered = 0
    while offered < 2:  # the opening: each may take the upcard, the non-dealer first
        if wants(p, pile[-1]):
            draws[p] += 1
            taken = pile.pop()
            hands[p] |= 1 << taken
            end = turn(p, taken)
            if end is not None:
                return end
            p = 1 - p
            break
        offered += 1
        p = 1 - p
    else:  # both passed: the non-dealer draws from the stock
        draws[p] += 1
        hands[p] |= 1 << stock.pop()
        end = turn(p, -1)
        if end is not None:
            return end
        p = 1 - p
    while True:
        draws[p] += 1
        taken = -1
        if wants(p, pile[-1]):
            taken = pile.pop()
            hands[p] |= 1 << taken
        else:
            hands[p] |= 1 << stock.pop()
        end = turn(p, taken)
        if end is not None:
            return end
        p = 1 - p


@pytest.mark.parametrize("preset", ["eaai", "hollywood"])
def test_R4_R5_playout_ends_every_deal_as_the_reference_does(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    for n in range(150):
        r = PlayoutRules(
            limit=rules.knock_limit,
            discard_taken=rules.discard_taken_card,
            dead_stock=rules.dead_hand_stock,
            gin_bonus=rules.gin_bonus,
            undercut_bonus=rules.undercut_bonus,
            knock=(KnockStyle(n % 5, 0.0 if n % 3 == 0 else 1.0, n % 4), KnockStyle(3, 0.5, 2)),
        )
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[:10]), sum(1 << c for c in deck[10:20])]
        up, stock = deck[20], deck[21:]
        first = n % 2
        expected = _reference(rules, r, hands[:], stock[:], up, first)
        pile = [up]
        got = Playout(r).run(hands[:], stock[:], pile, first, OFFER, -1, 0, False, [0, 0])
        assert got == expected, f"deal {n}"
