"""The history-consistent opponent model (bots/story.py): his picks, passes and throws read
as choices of a player holding a hand, from the public log only (R3.4)."""

from __future__ import annotations

import math
import random

from hollywood_gin.actions import Discard, Knock
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.bots.posterior import metropolis_deals
from hollywood_gin.bots.search import sample_deals
from hollywood_gin.bots.story import (
    DRAW,
    REFUSE,
    TAKE,
    THROW,
    Story,
    StoryModel,
    StoryShares,
    read_story,
    story_loglik,
)
from hollywood_gin.cards import Card
from hollywood_gin.hand import Hand, HandView, Phase
from hollywood_gin.rules import Rules
from hollywood_gin.solve import least_discards_of_mask


def mask(*names: str) -> int:
    out = 0
    for n in names:
        out |= Card.parse(n).bit
    return out


def idx(name: str) -> int:
    return Card.parse(name).index


def positions(count: int, seed: int, opponent: str) -> list[tuple[Hand, HandView]]:
    """(hand, seat 0's view) at seat 0's discards, deep into hands against ``opponent``."""
    rng = random.Random(seed)
    out: list[tuple[Hand, HandView]] = []
    n = 0
    while len(out) < count:
        hand = Hand.deal(rules=Rules.preset("eaai"), dealer=n % 2, seed=rng.getrandbits(63))
        bots = [make_bot("greedy", seed=n), make_bot(opponent, seed=n + 1)]
        n += 1
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if seat == 0 and view.phase is Phase.DISCARD and rng.random() < 0.3:
                out.append((hand.clone(), view))
            hand.apply(bots[seat].choose(view), seat)
    return out[:count]


MODEL = StoryModel(beta=2.0, eps_throw=0.1, eps_take=0.1)


def test_a_throw_is_likelier_from_a_hand_it_leaves_least_deadwood_in() -> None:
    """He threw the 9♠: a hand where it was his highest loose card explains it; a hand
    holding the 9♥ 9♦ (the 9♠ made a set) or a loose K♣ (a better throw) does not."""
    story = Story(((THROW, idx("9s"), -1),), picked=0, discard_taken=False)
    rng = random.Random(1)
    fits = mask("2c", "3c", "4c", "5h", "6h", "7h", "ad", "2d", "3s", "4h")
    breaks_a_set = mask("2c", "3c", "4c", "5h", "6h", "7h", "9h", "9d", "3s", "4h")
    keeps_a_king = mask("2c", "3c", "4c", "5h", "6h", "7h", "ad", "2d", "3s", "kc")
    good = story_loglik(story, fits, rng, MODEL)
    assert good > story_loglik(story, breaks_a_set, rng, MODEL) + 1.0
    assert good > story_loglik(story, keeps_a_king, rng, MODEL) + 1.0


def test_picks_and_passes_are_read_against_his_hand() -> None:
    """He took the 7♥ (it melds with his 7♣ 7♦, or his 6♥ 8♥) and refused the 4♠ (so no
    4♣ 4♦, no 3♠ 5♠)."""
    took = Story(((TAKE, idx("7h"), -1),), picked=mask("7h"), discard_taken=False)
    refused = Story(((REFUSE, idx("4s"), -1), (DRAW, -1, -1)), picked=0,
                    discard_taken=False)
    rng = random.Random(2)
    base = mask("2c", "3c", "ks", "qd", "jh", "9c", "ac", "2h", "td")
    melds = base | mask("7c", "7d", "7h") ^ mask("2h")
    loose = base | mask("7h", "kh")
    assert story_loglik(took, melds, rng, MODEL) > story_loglik(took, loose, rng, MODEL) + 1.0
    wants_it = mask("2c", "3c", "ks", "qd", "jh", "9c", "ac", "4c", "4d", "td")
    does_not = mask("2c", "3c", "ks", "qd", "jh", "9c", "ac", "8c", "8d", "td")
    # The draw walked back takes one of his cards out at random: average over a few.
    lo = sum(story_loglik(refused, wants_it, rng, MODEL) for _ in range(40)) / 40
    hi = sum(story_loglik(refused, does_not, rng, MODEL) for _ in range(40)) / 40
    assert hi > lo + 0.5


def test_read_story_follows_the_public_log() -> None:
    for hand, view in positions(30, seed=3, opponent="basic"):
        story = read_story(view)
        opp = 1 - view.player
        throws = [a.card.index for p, a in view.history
                  if p == opp and isinstance(a, Discard | Knock) and a.card is not None]
        assert [c for k, c, _ in story.events if k == THROW] == throws
        known = sum(c.bit for c in view.opponent_known)
        assert known & ~story.picked == 0
        assert story.picked & hand.hands[view.player] == 0


def test_the_sampler_never_reads_hidden_cards() -> None:
    """Two deals that differ only in cards seat 0 cannot see (his unknown cards and the
    stock swapped) give the same view, and the same re-deals from the same seed."""
    expert = make_bot("expert:story=1,time_cap_ms=0", seed=5)
    assert isinstance(expert, ExpertBot)
    checked = 0
    for hand, view in positions(12, seed=4, opponent="greedy"):
        other = hand.clone()
        known = sum(c.bit for c in view.opponent_known)
        theirs = [i for i in range(52) if other.hands[1] >> i & 1 and not known >> i & 1]
        if not theirs or not other.stock:
            continue
        a, b = theirs[0], other.stock[0]
        other.hands[1] ^= (1 << a) | (1 << b)
        other.stock[0] = a
        twin = other.view(0)
        assert twin == view
        expert.reset(9)
        got = [d.opp for d in expert._deals(twin, read_view(twin), 4)]
        expert.reset(9)
        want = [d.opp for d in expert._deals(view, read_view(view), 4)]
        assert got == want
        checked += 1
    assert checked >= 8


def test_the_story_moves_his_sampled_hands_toward_his_throws() -> None:
    """Against ``basic``, who always throws a card leaving the least deadwood, his real
    hand always explains his last throw; re-deals weighed by his story explain it more
    often than the per-card weights alone do, and every deal still agrees with the view."""
    rng = random.Random(6)
    model = StoryModel(beta=3.0, eps_throw=0.05, eps_take=0.1, turns=1)
    plain = told = total = 0
    for hand, view in positions(40, seed=7, opponent="basic"):
        story = read_story(view)
        last = [(c, b) for k, c, b in story.events if k == THROW]
        if not last or story.events[-1][0] != THROW:
            continue
        card, barred = last[-1]

        def explains(opp: int, card: int = card, barred: int = barred) -> bool:
            before = opp | 1 << card
            allowed = before & ~(1 << barred) if barred >= 0 else before
            return bool(least_discards_of_mask(before, allowed)[1] >> card & 1)

        assert explains(hand.hands[1])
        sense = read_view(view)
        for deal in sample_deals(view, sense, rng, 8, pressure=0.3, steps=48):
            plain += explains(deal.opp)
        for deal in metropolis_deals(view, sense, rng, 8, story, model, pressure=0.3,
                                     steps=48, floor=-1, floor_penalty=0.0, flat=False):
            told += explains(deal.opp)
            assert deal.opp.bit_count() == view.opponent_card_count
        total += 8
    assert total >= 100
    assert told > plain + 0.05 * total


def test_a_player_at_random_reads_nothing_and_exact_draws_need_no_dice() -> None:
    """With all the weight on a player choosing at random, every hand explains his story
    equally (the model degrades to the plain re-deals); with his last turn read and its
    draw walked back every way, the likelihood is the same whatever the dice."""
    anyone = StoryModel(random_share=1.0)
    last_turn = StoryModel(turns=1, exact=1)
    checked = 0
    for hand, view in positions(20, seed=8, opponent="greedy"):
        story = read_story(view)
        if story.choices < 3:
            continue
        theirs = hand.hands[1]
        other = sample_deals(view, read_view(view), random.Random(1), 1, pressure=0.0,
                             steps=0)[0].opp
        assert story_loglik(story, theirs, random.Random(1), anyone) == story_loglik(
            story, other, random.Random(2), anyone)
        assert story_loglik(story, theirs, random.Random(3), last_turn) == story_loglik(
            story, theirs, random.Random(4), last_turn)
        checked += 1
    assert checked >= 10


def test_a_guided_walk_back_estimates_the_same_likelihood() -> None:
    """Drawing which card came last by how well his throw before fits (and correcting for
    it) estimates the same likelihood as drawing it blindly: their means over many draws
    agree with the exact average over every card of his last two draws."""
    checked = 0
    for hand, view in positions(6, seed=9, opponent="greedy"):
        story = read_story(view)
        if sum(1 for k, _, _ in story.events if k == DRAW) < 1:
            continue
        theirs = hand.hands[1]
        exact = story_loglik(story, theirs, random.Random(0), StoryModel(turns=2, exact=2))
        rng = random.Random(10)
        guided = StoryModel(turns=2, guide=1)
        mean = sum(math.exp(story_loglik(story, theirs, rng, guided)) for _ in range(400)) / 400
        assert abs(math.log(mean) - exact) < 0.15
        checked += 1
    assert checked >= 4


def learnt_shares(opponent: str, hands: int) -> tuple[float, float, float]:
    """The shares a match's ended hands teach, seat 0 watching ``opponent``."""
    shares = StoryShares((0.6, 0.3, 0.1))
    rng = random.Random(11)
    for n in range(hands):
        hand = Hand.deal(rules=Rules.preset("eaai"), dealer=n % 2, seed=1000 + n)
        bots = [make_bot("greedy", seed=n), make_bot(opponent, seed=n + 1)]
        while not hand.is_over:
            seat = hand.to_act
            hand.apply(bots[seat].choose(hand.view(seat)), seat)
        shares.observe(hand.view(0), rng, StoryModel())
    return shares.shares()


def test_the_match_teaches_which_player_he_is() -> None:
    """Ended hands show his cards: ``basic`` comes out the basic-like player, ``random``
    the one choosing at random, ``greedy`` the first, each within a few hands."""
    assert learnt_shares("basic", 6)[1] > 0.8
    assert learnt_shares("random", 4)[2] > 0.9
    assert learnt_shares("greedy", 6)[0] > 0.8
