"""The expert's weighted re-deals: every deal is consistent with the view (R3.4, R4.4), and
the evidence the opponent gave (his picks, and the knock he did not make) shapes them."""

from __future__ import annotations

import random

from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import RELATED, read_view
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.bots.search import meld_pressure, sample_deals
from hollywood_gin.hand import Hand, HandView, Phase
from hollywood_gin.melds import deadwood_of_mask
from hollywood_gin.rules import Rules


def positions(count: int, seed: int, opponent: str = "greedy") -> list[tuple[Hand, HandView]]:
    """Views of seat 0 at its discards, deep into hands against ``opponent``."""
    rng = random.Random(seed)
    out = []
    n = 0
    while len(out) < count:
        rules = Rules.preset("eaai" if n % 2 else "hollywood")
        hand = Hand.deal(rules=rules, dealer=n % 2, seed=rng.getrandbits(63))
        bots = [make_bot("greedy", seed=n), make_bot(opponent, seed=n + 1)]
        n += 1
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if seat == 0 and view.phase is Phase.DISCARD and rng.random() < 0.3:
                out.append((hand.clone(), view))
            hand.apply(bots[seat].choose(view), seat)
    return out[:count]


def test_R3_4_every_deal_agrees_with_the_view() -> None:
    rng = random.Random(1)
    for _hand, view in positions(40, seed=2):
        sense = read_view(view)
        seen = view.hand_mask
        for c in view.discard_pile:
            seen |= c.bit
        known = sum(c.bit for c in view.opponent_known)
        for floor in (-1, 10):
            for deal in sample_deals(view, sense, rng, 6, pressure=0.3, steps=16, floor=floor,
                                     floor_penalty=6.0):
                assert deal.opp.bit_count() == view.opponent_card_count
                assert deal.opp & known == known  # his pile picks stay his
                assert not deal.opp & seen
                stock = 0
                for i in deal.stock:
                    stock |= 1 << i
                assert len(deal.stock) == view.stock_count == stock.bit_count()
                assert not stock & (seen | deal.opp)
                assert (stock | deal.opp | seen) == (1 << 52) - 1 or view.result is not None


def test_picks_pull_related_cards_into_his_hand() -> None:
    """A card next to one he took from the pile is sampled in his hand more often than a
    card with no link to anything he did."""
    rng = random.Random(3)
    near = far = total = 0
    for _hand, view in positions(60, seed=4):
        sense = read_view(view)
        live = sense.unseen & ~sense.opp_known
        others = sense.opp_refused | sense.opp_discards
        linked = [c for c in range(52) if live >> c & 1 and RELATED[c] & sense.opp_taken
                  and not RELATED[c] & others]
        loose = [c for c in range(52) if live >> c & 1
                 and not RELATED[c] & (sense.opp_taken | others)]
        if not linked or not loose:
            continue
        for deal in sample_deals(view, sense, rng, 20, pressure=0.0, steps=0):
            near += sum(deal.opp >> c & 1 for c in linked) / len(linked)
            far += sum(deal.opp >> c & 1 for c in loose) / len(loose)
            total += 1
    assert total > 100
    assert near / total > 1.3 * far / total


def test_a_declined_knock_holds_his_sampled_hands_above_the_limit() -> None:
    """Against a player who knocks at once, the hand he kept playing must be over the knock
    limit; the hard floor (``floor_penalty=6``) keeps nearly every deal there, as real
    ``basic`` hands are, where the old soft one let many through."""
    expert = make_bot("expert:floor_penalty=6,opp_mix=0", seed=1)
    assert isinstance(expert, ExpertBot)
    over = under = 0
    for hand, view in positions(80, seed=6, opponent="basic"):
        sense = read_view(view)
        if sense.opp_draws < 6:
            continue
        assert deadwood_of_mask(hand.hands[1]) > view.knock_limit  # basic would have knocked
        for deal in expert._deals(view, sense, 8):
            if deadwood_of_mask(deal.opp) > view.knock_limit:
                over += 1
            else:
                under += 1
    assert over + under > 100
    assert under <= 0.02 * (over + under)


def test_meld_pressure_grows_faster_late() -> None:
    assert meld_pressure(0, 0.0, 0.02, 0.006) == 0.0
    early = meld_pressure(3, 0.0, 0.02, 0.006) - meld_pressure(2, 0.0, 0.02, 0.006)
    late = meld_pressure(11, 0.0, 0.02, 0.006) - meld_pressure(10, 0.0, 0.02, 0.006)
    assert late > 2 * early
