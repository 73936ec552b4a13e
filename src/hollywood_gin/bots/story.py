"""The opponent's story: how likely his visible decisions are for a candidate hand of his.

The per-card weights of :mod:`.cardsense` read each pick, pass and throw on its own.  This
reads them as choices of a player with a hand: for a candidate current hand, walk his
turns back (a throw puts the card back, a pick from the pile takes it out, a stock draw
takes out one of the cards he could have drawn, chosen at random: his hand at that time is
not known), and at each choice ask how likely a near-deterministic player would have made
it with the hand he then held (Francis, Just and Neller, "Opponent Hand Estimation in the
Game of Gin Rummy", EAAI-21, for the picks and passes; here also the throws).  The models:

- a throw: a softmax over the deadwood each allowed discard leaves (``beta`` per point),
  as ``basic`` throws a card leaving the least and ``greedy`` nearly so;
- a pick from the pile or a refusal: he takes a card that melds with his hand and leaves
  less deadwood after his best discard (``basic`` and the playouts' rule), refuses it
  otherwise.

Each choice is mixed with a share ``eps`` of a choice at random, and the whole story is
read by a mixture of three players (greedy-like, basic-like, at random; their shares
learnt during the match by :class:`StoryShares`), so that an opponent unlike the models (a
person) is read more softly than one who is exactly one of them.  The log-likelihood is an
energy for the Metropolis steps of :mod:`.posterior`, or its importance weights.  Only the
view is read: the history is public (R3.4), and a stock draw carries no card.

Measured in issue 14 (docs/bots.md): it lowers the log loss of the re-deals against his
true hand by 0.003 at best, and gained nothing the intervals show in play; off by default.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

from ..actions import Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import indexes_of_mask
from ..hand import HandView
from ..solve import deadwoods_after_discards_of_mask
from .search import take_plan

__all__ = ["DRAW", "REFUSE", "TAKE", "THROW", "Story", "StoryModel", "StoryShares",
           "read_story", "story_loglik"]

REFUSE, DRAW, TAKE, THROW = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class StoryModel:
    """How the opponent is modelled to choose (see the module docstring): a mixture of two
    near-deterministic players and one who chooses at random, each reading his whole
    story.  The defaults: the first as ``greedy`` plays (on 150 hands, 89% of its throws
    left the least deadwood, 5% one point more, 3% two, 2% more; 91% of the cards the
    rule takes it took, and 6.5% of the others), the second as ``basic`` does (every throw
    the least deadwood, every pick by the rule but 1%)."""

    beta: float = 1.5  # a throw's softmax: log-odds per point of deadwood it leaves more
    eps_throw: float = 0.03  # share of throws made at random
    eps_take: float = 0.07  # share of picks and refusals against the rule
    mix: float = 0.0  # the second player's share, and his
    beta_b: float = 4.0
    eps_throw_b: float = 0.005
    eps_take_b: float = 0.01
    random_share: float = 0.0  # the share of a player choosing at random (a person unlike
    # either: his story then says little)
    turns: int = 0  # his last this many turns are read (0: all)
    exact: int = 0  # his last this many stock draws are walked back every way (not one)
    guide: int = 0  # 1: the others drawn in proportion to how well his throw before fits
    weight: float = 1.0  # the log-likelihood's weight in the sampler's energy
    pool: int = 0  # k: resample deals from k times as many drawn without it (posterior.py)


@dataclass(frozen=True, slots=True)
class Story:
    """The opponent's choices in order: ``(kind, card, barred)``; ``card`` is -1 where it
    is not known (a draw, the first upcard gone unseen), ``barred`` the card he took from
    the pile that turn (he may not throw it back, R4.3), else -1.  ``picked`` are every
    card he took from the pile."""

    events: tuple[tuple[int, int, int], ...]
    picked: int
    discard_taken: bool
    # The probability of each choice already met under each of a model's three players,
    # by model, then by the hand it was made from and the choice's place in ``events`` (a
    # decision's re-deals meet the same ones often).
    seen: dict[StoryModel, dict[int, tuple[float, float, float]]] = field(
        default_factory=dict, compare=False, repr=False)

    @property
    def choices(self) -> int:
        """How many of his choices carry evidence."""
        return sum(1 for k, c, _ in self.events if k != DRAW and c >= 0)


def read_story(view: HandView) -> Story:
    """The opponent's choices from the public log of ``view`` (no hidden card is read)."""
    opp = 1 - view.player
    pile_cards = [c.index for c in view.discard_pile]
    unknown = -1
    stack = [unknown]  # the pile replayed; its bottom (the first upcard) found at the end
    events: list[list[int]] = []
    passes = 0
    draws = 0
    taken = -1
    picked = 0
    first_taken_by_him = False
    for player, action in view.history:
        top = stack[-1] if stack else unknown
        if isinstance(action, Pass):
            passes += 1
            if player == opp:
                events.append([REFUSE, top, -1])
        elif isinstance(action, TakeUpcard | TakeDiscard):
            draws += 1
            card = stack.pop() if stack else unknown
            if player == opp:
                events.append([TAKE, card, -1])
                taken = card
                if card >= 0:
                    picked |= 1 << card
                else:
                    first_taken_by_him = True
        elif isinstance(action, DrawStock):
            draws += 1
            forced = passes >= 2 and draws == 1
            if player == opp:
                if not forced and top >= 0:
                    events.append([REFUSE, top, -1])
                events.append([DRAW, -1, -1])
                taken = -1
        elif isinstance(action, Discard | Knock) and action.card is not None:
            i = action.card.index
            if player == opp:
                events.append([THROW, i, taken])
                taken = -1
            if isinstance(action, Discard):
                stack.append(i)
    # The first upcard: still at the bottom of the pile, or the one of his known cards no
    # later pick explains (as in read_view); otherwise its choices carry no evidence.
    first = unknown
    if stack and stack[0] == unknown and pile_cards and len(stack) == len(pile_cards):
        first = pile_cards[0]
    elif first_taken_by_him:
        known = sum(c.bit for c in view.opponent_known)
        rest = known & ~picked
        if rest.bit_count() == 1:
            first = rest.bit_length() - 1
            picked |= rest
    if first >= 0:
        for e in events:
            if e[0] in (REFUSE, TAKE) and e[1] == unknown:
                e[1] = first
            if e[0] == THROW and e[2] == unknown:
                e[2] = first
            if e[0] in (THROW, DRAW):
                break
    return Story(tuple((k, c, b) for k, c, b in events), picked,
                 view.rules.discard_taken_card)


def _throw_ps(hand: int, card: int, barred: int, m: StoryModel) -> tuple[float, float, float]:
    """P(he throws ``card`` from the eleven cards ``hand``) for each of ``m``'s players: a
    softmax over the deadwood each allowed card leaves, mixed with random throws."""
    left = deadwoods_after_discards_of_mask(hand)
    allowed = hand if barred < 0 else hand & ~(1 << barred)
    values = [left[i] for i in indexes_of_mask(allowed)]
    n = len(values)
    if not allowed >> card & 1:
        return m.eps_throw / 11, m.eps_throw_b / 11, 1 / 11
    best = min(values)
    mine = left[card] - best
    out = [0.0, 0.0]
    for k, beta, eps in ((0, m.beta, m.eps_throw), (1, m.beta_b, m.eps_throw_b)):
        if k and not m.mix:
            break  # the second player has no share
        scale = _scale(beta)
        total = 0.0
        for v in values:
            total += scale[v - best]
        out[k] = (1 - eps) * scale[mine] / total + eps / n
    return out[0], out[1], 1 / n


_SCALES: dict[float, list[float]] = {}


def _scale(beta: float) -> list[float]:
    found = _SCALES.get(beta)
    if found is None:
        found = _SCALES[beta] = [math.exp(-beta * d) for d in range(200)]
    return found


def story_loglik(story: Story, hand: int, rng: random.Random, m: StoryModel) -> float:
    """log P(his choices | his current cards are ``hand``).  Walked back, each stock draw
    takes out one of his cards not known to come from the pile: for his last ``m.exact``
    draws every such card in turn (the likelihood averaged over them: exact), for the
    earlier ones one at random (an unbiased estimate of the likelihood, as a
    pseudo-marginal Metropolis step needs)."""
    events = story.events
    start = 0
    if m.turns:
        # Keep his last ``turns`` throws and what came after the first of them.
        throws = 0
        start = len(events)
        while start > 0 and throws < m.turns:
            start -= 1
            if events[start][0] == THROW:
                throws += 1
        while start > 0 and events[start - 1][0] != THROW:
            start -= 1
    like = _walk(story, m, rng, len(events) - 1, start, hand, hand & ~story.picked,
                 1.0, 1.0, 1.0, m.exact)
    return math.log(like) if like > 1e-300 else -690.0


def _walk(story: Story, m: StoryModel, rng: random.Random, at: int, start: int, g: int,
          free: int, like_a: float, like_b: float, flat: float, exact: int) -> float:
    """The likelihood of his choices ``start`` .. ``at`` (walked back from ``at``, his hand
    after it ``g``, ``free`` the cards of it that may have come from the stock or the
    deal), times the likelihoods met so far (``like_a``, ``like_b``: the two players',
    ``flat``: the random one's), mixed."""
    events = story.events
    seen = story.seen.get(m)
    if seen is None:
        seen = story.seen[m] = {}
    while at >= start:
        kind, card, barred = events[at]
        if kind == THROW:
            before = g | 1 << card
            key = before | at << 52
            ps = seen.get(key)
            if ps is None:
                ps = seen[key] = _throw_ps(before, card, barred, m)
            like_a *= ps[0]
            like_b *= ps[1]
            flat *= ps[2]
            g = before
            if not story.picked >> card & 1:
                free |= 1 << card
        elif kind == DRAW:
            if free and exact > 0:
                total = 0.0
                f = free
                while f:
                    low = f & -f
                    f ^= low
                    total += _walk(story, m, rng, at - 1, start, g & ~low, free & ~low,
                                   like_a, like_b, flat, exact - 1)
                return total / free.bit_count()
            if free and m.guide:
                low, fix = _guided_draw(story, m, seen, rng, at, start, g, free)
                g &= ~low
                free &= ~low
                like_a *= fix
                like_b *= fix
                flat *= fix
            elif free:
                k = rng.randrange(free.bit_count())
                f = free
                for _ in range(k):
                    f &= f - 1
                low = f & -f
                g &= ~low
                free &= ~low
        elif card >= 0:
            if kind == TAKE:
                g &= ~(1 << card)
            key = g | at << 52
            ps = seen.get(key)
            if ps is None:
                wants = take_plan(g, card, story.discard_taken) is not None
                agrees = wants == (kind == TAKE)
                ps = seen[key] = ((1 - m.eps_take, 1 - m.eps_take_b, 0.5) if agrees
                                  else (m.eps_take, m.eps_take_b, 0.5))
            like_a *= ps[0]
            like_b *= ps[1]
            flat *= ps[2]
        at -= 1
    return (1 - m.mix - m.random_share) * like_a + m.mix * like_b + m.random_share * flat


def _guided_draw(story: Story, m: StoryModel, seen: dict[int, tuple[float, float, float]],
                 rng: random.Random, at: int, start: int, g: int, free: int
                 ) -> tuple[int, float]:
    """Which of the ``free`` cards of ``g`` the draw ``at`` brought, walked back: drawn in
    proportion to how well his throw before it fits the hand without it (the first
    player's probability), and the factor that keeps the estimate unbiased (the mean of
    those fits over the card they were drawn in proportion to)."""
    events = story.events
    j = at - 1
    while j >= start and events[j][0] != THROW:
        j -= 1
    cards = []
    f = free
    while f:
        low = f & -f
        f ^= low
        cards.append(low)
    if j < start:
        return cards[rng.randrange(len(cards))], 1.0
    _, card, barred = events[j]
    fits = []
    for low in cards:
        before = (g & ~low) | 1 << card
        key = before | j << 52
        ps = seen.get(key)
        if ps is None:
            ps = seen[key] = _throw_ps(before, card, barred, m)
        fits.append(ps[0])
    total = sum(fits)
    pick = rng.random() * total
    for low, fit in zip(cards, fits, strict=True):
        pick -= fit
        if pick <= 0:
            return low, total / len(cards) / fit
    return cards[-1], total / len(cards) / fits[-1]


class StoryShares:
    """Which of a :class:`StoryModel`'s three players this opponent is, learnt during the
    match: every ended hand shows his last hand (R5.2), and Bayes' rule weighs each player
    by how likely he made that hand's picks, passes and throws with it (its draws walked
    back at random, ``samples`` times), so that the model reads a person unlike both
    near-deterministic players more softly as the match goes on."""

    def __init__(self, prior: tuple[float, float, float], samples: int = 8) -> None:
        self.prior = prior
        self.samples = samples
        self._log = [math.log(max(p, 1e-9)) for p in prior]

    def reset(self) -> None:
        self._log = [math.log(max(p, 1e-9)) for p in self.prior]

    def observe(self, view: HandView, rng: random.Random, model: StoryModel) -> None:
        """Learn from an ended hand, seen from ``view``'s seat (only what it reveals), the
        players as in ``model`` (its whole story read)."""
        result = view.result
        if result is None or not result.hands[1 - view.player]:
            return
        story = read_story(view)
        if story.choices < 2:
            return
        hand = sum(c.bit for c in result.hands[1 - view.player])
        m = replace(model, turns=0, exact=1, guide=1)
        players = (replace(m, mix=0.0, random_share=0.0), replace(m, mix=1.0, random_share=0.0),
                   replace(m, mix=0.0, random_share=1.0))
        for k, m in enumerate(players):
            mean = sum(math.exp(story_loglik(story, hand, rng, m))
                       for _ in range(self.samples)) / self.samples
            self._log[k] += math.log(max(mean, 1e-300))

    def shares(self) -> tuple[float, float, float]:
        """The posterior share of each player (the first, the basic-like, the random)."""
        top = max(self._log)
        raw = [math.exp(v - top) for v in self._log]
        total = sum(raw)
        return raw[0] / total, raw[1] / total, raw[2] / total
