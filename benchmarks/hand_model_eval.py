"""How well the expert's re-deals guess the opponent's hand (issue 14): a fast proxy for
tuning the hand model without playing matches.

Positions come from seeded ``eaai`` hands (greedy in seat 0 against an opponent); at each
of seat 0's discards the sampler draws deals from the view only, and is scored against the
opponent's true hand: the log loss of each unseen card's chance of being his, and of each
of my cards' chance of melding with his hand (the danger of a discard), lower is better.

    PYTHONPATH=src python3 benchmarks/hand_model_eval.py --hands 80 --opponent greedy \\
        "steps=0,slope=0" "steps=16" "steps=64"

A variant that is an expert spec (``expert:opp_mix=1``) is judged on the deadwood of the
hands its own model deals (its knock styles mixed, the no-knock floor applied): the mean
sampled less the true deadwood, by the opponent's draws so far (positive: his hands
dealt weaker than they are, which makes knocks look safe); every other variant prints
the same bias of its deals.  ``net=1`` starts the deals from the learned model of his hand
(``bots/handnet.py``) instead of the hand-set weights, ``direct=1`` scores the per-card
chances themselves without drawing deals.  ``throw=1`` weighs each deal by whether the
opponent's policy (``--opponent``, e.g. greedy), holding that deal's hand and the card he
last threw, would have thrown that card (weight 1, else ``throw_eps``, 0.05): his exact
last choice as evidence, where the story (``story=1``) models his choices.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from hollywood_gin.actions import Discard, Pass, TakeDiscard, TakeUpcard
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.base import Bot
from hollywood_gin.bots.cardsense import in_some_meld, read_view
from hollywood_gin.bots.handnet import net_sense
from hollywood_gin.bots.posterior import story_deals
from hollywood_gin.bots.search import meld_pressure, sample_deals
from hollywood_gin.bots.story import StoryModel, read_story
from hollywood_gin.cards import indexes_of_mask
from hollywood_gin.hand import Hand, HandView, Phase
from hollywood_gin.melds import deadwood_of_mask
from hollywood_gin.rules import Rules


def positions(hands: int, opponent: str, seed: int) -> list[tuple[HandView, int]]:
    rules = Rules.preset("eaai")
    out = []
    for k in range(hands):
        hand = Hand.deal(rules=rules, dealer=k % 2, seed=seed * 100_003 + k)
        bots = [make_bot("greedy", seed=k), make_bot(opponent, seed=k + 1)]
        while not hand.is_over:
            seat = hand.to_act
            view = hand.view(seat)
            if seat == 0 and view.phase is Phase.DISCARD and len(view.legal_actions) > 1:
                opp = sum(1 << c.index for c in hand.cards_of(1))
                out.append((view, opp))
            hand.apply(bots[seat].choose(view, None), seat)
    return out


def last_throw(view: HandView) -> int:
    """The card the opponent threw on his last turn, if the view is my discard right after
    it (his throw, then my draw), else -1."""
    h = view.history
    if (view.phase is Phase.DISCARD and len(h) >= 3 and h[-2][0] != view.player
            and isinstance(h[-2][1], Discard)):
        return h[-2][1].card.index
    return -1


def his_throw_view(view: HandView, his_hand: int) -> HandView:
    """The opponent's view just before his last throw (``last_throw(view)``), had he
    held ``his_hand`` now: his cards and that throw, the pile and log as they then were."""
    me, opp = view.player, 1 - view.player
    throw = last_throw(view)
    mine_now = view.hand_mask
    pile = [c.index for c in view.discard_pile]
    took_it = isinstance(view.history[-1][1], TakeDiscard | TakeUpcard)
    if took_it:
        mine_then = mine_now & ~(1 << throw)
    else:
        assert view.drawn_card is not None
        mine_then = mine_now & ~view.drawn_card.bit
        pile = pile[:-1]
    hand = object.__new__(Hand)
    hand.rules, hand.dealer, hand.deck = view.rules, view.dealer, None
    hands = [0, 0]
    hands[me], hands[opp] = mine_then, his_hand | 1 << throw
    hand.hands = hands
    hand.stock = [0] * (view.stock_count + (0 if took_it else 1))  # only its length is read
    hand.pile = pile
    known = [0, 0]
    known[opp] = sum(c.bit for c in view.opponent_known)
    if any(who == opp and isinstance(a, TakeDiscard) and view.history[j - 1][1] == Discard(
            view.history[-2][1].card) for j, (who, a) in enumerate(view.history[:-2])):
        known[opp] |= 1 << throw  # he threw a card he had taken from the pile
    known[me] = sum(c.bit for c in view.known_to_opponent) & ~(1 << throw)
    hand.known = known
    hand.phase, hand.to_act = Phase.DISCARD, opp
    hand.history = list(view.history[:-2])
    hand.knock_limit = view.knock_limit
    his_draw = view.history[-3][1]
    hand._taken = -1  # the card he took from the pile this turn (R4.4: he may not throw it)
    if isinstance(his_draw, TakeDiscard):  # the card I threw just before
        hand._taken = view.history[-4][1].card.index
    elif isinstance(his_draw, TakeUpcard):  # the opening: the upcard is all he is known to hold
        hand._taken = view.opponent_known[0].index
    hand._drawn = -1
    hand._upcard_refused = view.upcard_refused
    hand._passes = sum(1 for _p, a in hand.history if isinstance(a, Pass))
    hand._result = None
    return hand.view(opp)


def throws_it(policy: Bot, view: HandView, his_hand: int) -> bool:
    """Whether ``policy``, holding ``his_hand`` and his last throw, throws that card."""
    action = policy.choose(his_throw_view(view, his_hand), None)
    return isinstance(action, Discard) and action.card.index == last_throw(view)


def score(pos: list[tuple[HandView, int]], ev: dict[str, float], deals: int,
          opponent: str = "greedy") -> tuple[float, float, list[list[float]]]:
    """(card log loss, danger log loss, by his draws 0-4 / 5-8 / 9+ the count and sum of
    the sampled less true deadwood: with ``direct``, the learned guess less the truth)."""
    rng = random.Random(5)
    policy = make_bot(opponent, seed=0)
    bias = [[0, 0.0] for _ in range(3)]
    card_loss = danger_loss = 0.0
    nc = nd = 0
    for view, opp in pos:
        sense = read_view(view)
        dead_target = 0.0
        if ev.get("net", 0):
            sense, dead_target = net_sense(view, sense, odds=ev["net"] == 2)
        row = bias[0 if sense.opp_draws <= 4 else 1 if sense.opp_draws <= 8 else 2]
        if ev.get("direct", 0):
            if ev.get("net", 0):
                row[0] += 1
                row[1] += dead_target - deadwood_of_mask(opp)
            # The per-card chances themselves, no deals drawn (the odds read back).
            for i in indexes_of_mask(sense.unseen & ~sense.opp_known):
                w = sense.weight[i]
                w = w / (1 + w) if ev.get("net", 0) == 2 else w
                p = min(max(w, 0.01), 0.99)
                card_loss -= math.log(p if opp >> i & 1 else 1 - p)
                nc += 1
            continue
        pressure = meld_pressure(sense.opp_draws, 0.0, ev.get("slope", 0.035), ev.get("square", 0))
        model = None
        if ev.get("story", 0):
            fields = {f.name: f.type for f in dataclasses.fields(StoryModel)}
            model = StoryModel(**{k: int(x) if fields[k] in ("int", int) else x
                                  for k, x in ev.items() if k in fields})
        if model:
            got = story_deals(view, sense, rng, deals, read_story(view), model,
                              pressure=pressure, steps=int(ev.get("steps", 16)), floor=-1,
                              floor_penalty=0.0, flat=bool(ev.get("flat", 0)))
        else:
            got = sample_deals(view, sense, rng, deals, pressure=pressure,
                               steps=int(ev.get("steps", 16)), flat=bool(ev.get("flat", 0)),
                               dead_target=dead_target, dead_weight=ev.get("hn_dead", 0.0))
        weights = [1.0] * len(got)
        if ev.get("throw", 0) and last_throw(view) >= 0:
            weights = [1.0 if throws_it(policy, view, d.opp) else ev.get("throw_eps", 0.05)
                       for d in got]
        total = sum(weights)
        row[0] += 1
        row[1] += (sum(w * deadwood_of_mask(d.opp) for w, d in zip(weights, got, strict=True))
                   / total - deadwood_of_mask(opp))
        counts = [0.0] * 52
        melds = dict.fromkeys(indexes_of_mask(sense.mine), 0.0)
        for w, d in zip(weights, got, strict=True):
            for i in indexes_of_mask(d.opp & ~sense.opp_known):
                counts[i] += w
            for i in melds:
                if in_some_meld(d.opp, i):
                    melds[i] += w
        for i in indexes_of_mask(sense.unseen & ~sense.opp_known):
            p = min(max(counts[i] / total, 0.01), 0.99)
            card_loss -= math.log(p if opp >> i & 1 else 1 - p)
            nc += 1
        for i, c in melds.items():
            p = min(max(c / total, 0.01), 0.99)
            danger_loss -= math.log(p if in_some_meld(opp, i) else 1 - p)
            nd += 1
    return card_loss / nc, danger_loss / max(1, nd), bias


def deadwood_bias(pos: list[tuple[HandView, int]], spec: str, deals: int) -> str:
    """Mean sampled less true opponent deadwood by his draws (0-4, 5-8, 9+)."""
    from hollywood_gin.bots.expert import ExpertBot

    bot = make_bot(spec, seed=3)
    assert isinstance(bot, ExpertBot)
    sums = [[0, 0.0] for _ in range(3)]
    for view, opp in pos:
        sense = read_view(view)
        got = bot._deals(view, sense, deals)
        mean = sum(deadwood_of_mask(d.opp) for d in got) / len(got)
        row = sums[0 if sense.opp_draws <= 4 else 1 if sense.opp_draws <= 8 else 2]
        row[0] += 1
        row[1] += mean - deadwood_of_mask(opp)
    return "   ".join(f"draws {name}: {b / n:+.2f} (n={n})" for name, (n, b)
                       in zip(("0-4", "5-8", "9+"), sums, strict=True) if n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("variants", nargs="+", help="name=value,... (steps, slope, square: the "
                    "Metropolis steps and meld pressure; flat=1: start from uniform re-deals, "
                    "not the per-card weights; net=1: start from the learned model's chances "
                    "(bots/handnet.py), net=2 from their odds, hn_dead=W pulls the sampled "
                    "deadwood to its guess; direct=1: score the per-card chances "
                    "themselves, no deals; story=1 adds the likelihood of his choices, "
                    "bots/story.py, with any field of its StoryModel: beta, eps_throw, ...; "
                    "throw=1 weighs each deal by whether --opponent would have made his last "
                    "throw with it, throw_eps=W for a deal where it would not)")
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=64)
    args = ap.parse_args()
    pos = positions(args.hands, args.opponent, args.seed)
    print(f"{len(pos)} positions from {args.hands} hands against {args.opponent}")
    for v in args.variants:
        if v.startswith("expert"):
            print(f"{v:40s} deadwood bias {deadwood_bias(pos, v, args.deals)}")
            continue
        ev = {k: float(x) for k, _, x in (p.partition("=") for p in v.split(",") if p)}
        t0 = time.perf_counter()
        c, d, bias = score(pos, ev, args.deals, args.opponent)
        ms = 1000 * (time.perf_counter() - t0) / max(1, len(pos))
        by = " / ".join(f"{b / n:+.2f}" if n else "-" for n, b in bias)
        print(f"{v:40s} card log loss {c:.4f}   danger log loss {d:.4f}   "
              f"deadwood bias {by}   {ms:.0f} ms a position", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
