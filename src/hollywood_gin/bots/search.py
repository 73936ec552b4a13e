"""Determinized Monte Carlo for the expert: re-deal what a player cannot see, consistently
with the opponent model, and play each deal out with a fast policy.

Determinizations start from :meth:`Hand.sample_from_view`; the opponent's unknown
cards are then re-drawn by weight (his picks, passes and discards, see
:mod:`.cardsense`) and nudged by a few Metropolis steps toward hands as melded as
a player's usually is after that many draws, because a uniform re-deal gives the
opponent hands far weaker than real ones and makes every knock look safe.
The playouts run on bare masks, not on :class:`Hand`, for speed; they follow the
rules of the view (knock limit, R4.3, dead hand, bonuses).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import indexes_of_mask
from ..hand import Hand, HandView, Phase
from ..melds import (
    arrangement_of_mask,
    deadwood_of_mask,
    defender_layout_of_masks,
    least_deadwood_discard_of_mask,
)
from ..sheet import ScoreSheet
from .cardsense import CardSense, in_some_meld, read_view
from .equity import SheetValue
from .opponent import KnockStyle

__all__ = [
    "ChoiceSampler",
    "Continuation",
    "Deal",
    "MemoPlayout",
    "Playout",
    "continuation_playout",
    "no_knock_floor",
    "play_choice",
    "sample_deals",
]

OFFER, DRAW, DISCARD = 0, 1, 2
_FLOOR_PENALTY = 1.5  # energy per point of deadwood under the no-knock floor


@dataclass(slots=True)
class Deal:
    """One determinization: the opponent's whole hand and the stock order (top last)."""

    opp: int
    stock: list[int]


def meld_pressure(opp_draws: int, base: float, slope: float, square: float = 0.0) -> float:
    """The Metropolis strength pulling sampled opponent hands toward low deadwood: real
    hands meld faster and faster as the draws go on."""
    return base + slope * opp_draws + square * opp_draws * opp_draws


def sample_deals(
    view: HandView,
    sense: CardSense,
    rng: random.Random,
    count: int,
    *,
    pressure: float,
    steps: int,
    floor: int = -1,
    floor_penalty: float = _FLOOR_PENALTY,
    flat: bool = False,
    extra_energy: Callable[[int], float] | None = None,
    dead_target: float = 0.0,
    dead_weight: float = 0.0,
) -> list[Deal]:
    """``count`` determinizations of ``view`` drawn from the opponent model.

    ``floor``: the opponent, who could have knocked at his last discard and did not,
    is held to have more deadwood than this (-1: no such evidence).  ``flat``: draw the
    hands to start from uniformly, not by the per-card weights of his picks and passes.
    ``extra_energy``: a costly further energy of his hand (:mod:`.posterior`'s story),
    read only for the trial hands that pass the cheap part (delayed acceptance,
    Christen and Fox 2005: the same target, most of the reading saved).
    ``dead_weight``: energy per point of his deadwood away from ``dead_target`` (a guess
    of it, :mod:`.handnet`'s; 0: none).
    """
    template = Hand.sample_from_view(view, rng)  # the consistent skeleton of every deal
    live = sense.unseen & ~sense.opp_known
    live_cards = indexes_of_mask(live)
    weights = [1.0 if flat else max(1e-6, sense.weight[i]) for i in live_cards]
    need = view.opponent_card_count - len(view.opponent_known)
    known = sense.opp_known
    deals = []
    stock_size = len(template.stock)
    assert stock_size + need == len(live_cards)
    for _ in range(count):
        # Weighted sampling without replacement (exponential keys), then Metropolis swaps.
        keys = [math.log(rng.random() + 1e-300) / w for w in weights]
        keyed = sorted(range(len(live_cards)), key=keys.__getitem__, reverse=True)
        chosen = keyed[:need]
        rest = keyed[need:]
        hand = known
        for k in chosen:
            hand |= 1 << live_cards[k]
        if need and rest and (pressure > 0 or floor >= 0 or extra_energy is not None
                              or dead_weight > 0):
            dead = deadwood_of_mask(hand)
            energy = pressure * dead + floor_penalty * max(0, floor + 1 - dead)
            if dead_weight:
                energy += dead_weight * abs(dead - dead_target)
            extra = 0.0 if extra_energy is None else extra_energy(hand)
            for _ in range(steps):
                a = rng.randrange(need)
                b = rng.randrange(len(rest))
                ca, cb = live_cards[chosen[a]], live_cards[rest[b]]
                trial = hand ^ (1 << ca) ^ (1 << cb)
                tdead = deadwood_of_mask(trial)
                tenergy = pressure * tdead + floor_penalty * max(0, floor + 1 - tdead)
                if dead_weight:
                    tenergy += dead_weight * abs(tdead - dead_target)
                ratio = weights[rest[b]] / weights[chosen[a]]
                if not ((tenergy <= energy and ratio >= 1)
                        or rng.random() < ratio * math.exp(energy - tenergy)):
                    continue
                if extra_energy is not None:
                    textra = extra_energy(trial)
                    if not (textra <= extra or rng.random() < math.exp(extra - textra)):
                        continue
                    extra = textra
                hand, dead, energy = trial, tdead, tenergy
                chosen[a], rest[b] = rest[b], chosen[a]
        stock = [live_cards[k] for k in rest]
        rng.shuffle(stock)
        deals.append(Deal(hand, stock))
    return deals


def take_plan(mask: int, card: int, discard_taken: bool, now: int = -1
              ) -> tuple[int, int] | None:
    """The discard after taking ``card`` from the pile onto ``mask``, and the deadwood it
    leaves, if the card is worth taking: only if it melds and that discard leaves less than
    the ``now`` deadwood of the hand (-1: not known yet); None otherwise.  The playouts'
    rule, and the one :mod:`.story` reads his picks and refusals by."""
    if not in_some_meld(mask, card):
        return None
    with_card = mask | (1 << card)
    plan = least_deadwood_discard_of_mask(with_card, with_card if discard_taken else mask)
    if now < 0:
        now = deadwood_of_mask(mask)
    return plan if plan[1] < now else None


@dataclass(slots=True)
class PlayoutRules:
    """The rule options a playout needs, read once per decision."""

    limit: int
    discard_taken: bool
    dead_stock: int
    gin_bonus: int
    undercut_bonus: int
    knock: tuple[KnockStyle, KnockStyle]  # knock schedule by seat (its gin hunt unused)
    wary: tuple[float, float] = (-1.0, -1.0)  # by seat: keep a card the other hand would
    # meld for at most this much more deadwood (-1: never; see Playout.run)


class Playout:
    """Plays a determinized hand to its end with a fast, sensible policy for both seats.

    The policy: take the upcard only if it melds and lowers the deadwood; discard the
    card leaving the least deadwood (the higher card on ties); knock with gin always,
    otherwise when the count is within a limit that tightens as the opponent draws.
    """

    __slots__ = ("r",)

    def __init__(self, r: PlayoutRules) -> None:
        self.r = r

    def best_discard(self, mask: int, taken: int) -> tuple[int, int]:
        """(card, deadwood left) of the least-deadwood discard, higher card on ties."""
        allowed = mask
        if taken >= 0 and not self.r.discard_taken:
            allowed &= ~(1 << taken)
        return least_deadwood_discard_of_mask(mask, allowed)

    def safe_discard(self, mask: int, taken: int, avoid: int) -> tuple[int, int]:
        """(card, deadwood left) of the least-deadwood discard other than ``avoid``."""
        allowed = mask & ~(1 << avoid)
        if taken >= 0 and not self.r.discard_taken:
            allowed &= ~(1 << taken)
        if not allowed:
            return avoid, 1000
        return least_deadwood_discard_of_mask(mask, allowed)

    def take_plan(self, mask: int, card: int, now: int) -> tuple[int, int] | None:
        """:func:`take_plan` under these rules."""
        return take_plan(mask, card, self.r.discard_taken, now)

    def arrangement(self, kmask: int) -> tuple[int, ...]:
        """The melds a knocker with ``kmask`` shows (R8.1)."""
        return arrangement_of_mask(kmask)

    def knock_limit_for(self, seat: int, opp_draws: int) -> float:
        """The highest count ``seat`` knocks with after ``opp_draws`` of the other's."""
        return self.r.knock[seat].threshold(self.r.limit, opp_draws)

    def score(self, knocker: int, kmask: int, dmask: int) -> tuple[int, int]:
        """(winner, points) of a knock (R5.5–R5.7)."""
        k = deadwood_of_mask(kmask)
        if k == 0:
            return knocker, self.r.gin_bonus + deadwood_of_mask(dmask)
        melds = self.arrangement(kmask)
        d, _ = defender_layout_of_masks(melds, kmask, dmask)
        if k < d:
            return knocker, d - k
        return 1 - knocker, self.r.undercut_bonus + k - d

    def run(
        self,
        hands: list[int],
        stock: list[int],
        pile: list[int],
        to_act: int,
        phase: int,
        taken: int,
        passes: int,
        refused: bool,
        draws: list[int],
    ) -> tuple[int | None, int]:
        """Play on from the given state (lists are changed); (winner or None, points)."""
        r = self.r
        deads = [-1, -1]  # each hand's deadwood after its last discard (-1: not known)
        plan: tuple[int, int] | None = None  # the discard planned when the upcard was taken
        while True:
            p = to_act
            mask = hands[p]
            if phase == DISCARD:
                card, dead = plan if plan is not None else self.best_discard(mask, taken)
                plan = None
                if dead <= r.limit and (
                    dead == 0 or dead <= r.knock[p].threshold(r.limit, draws[1 - p])
                ):
                    return self.score(p, mask & ~(1 << card), hands[1 - p])
                slack = r.wary[p]
                if slack >= 0 and in_some_meld(hands[1 - p], card):
                    # A wary player does not feed the other hand a meld if a safe discard
                    # costs little more: without it, a search of discards sees every card
                    # it keeps back thrown at the next turn, and danger is worth nothing.
                    other = self.safe_discard(mask, taken, card)
                    if other[1] <= dead + slack and not in_some_meld(hands[1 - p], other[0]):
                        card, dead = other
                hands[p] = mask & ~(1 << card)
                deads[p] = dead
                pile.append(card)
                taken = -1
                if len(stock) <= r.dead_stock:
                    return None, 0
                to_act = 1 - p
                phase = DRAW
            elif phase == DRAW:
                draws[p] += 1
                if not refused and pile:
                    plan = self.take_plan(mask, pile[-1], deads[p])
                if plan is not None:
                    taken = pile.pop()
                    hands[p] = mask | (1 << taken)
                else:
                    hands[p] = mask | (1 << stock.pop())
                    taken = -1
                refused = False
                phase = DISCARD
            else:  # the opening offer (R4.1)
                plan = self.take_plan(mask, pile[-1], -1)
                if plan is not None:
                    draws[p] += 1
                    taken = pile.pop()
                    hands[p] = mask | (1 << taken)
                    phase = DISCARD
                else:
                    passes += 1
                    if passes == 1:
                        to_act = 1 - p
                    else:
                        # Both passed: the non-dealer draws from the stock (R4.1), and
                        # that is the player who was offered the card first.
                        to_act = 1 - p
                        phase = DRAW
                        refused = True


# -- every choice of a decision on the same deals (for the game review) -----------------------


@dataclass(frozen=True, slots=True)
class Continuation:
    """How a hand goes on after a choice in :class:`ChoiceSampler`'s playouts, and how the
    opponent's unseen cards are modelled.  The defaults are the expert's own model
    (:class:`~hollywood_gin.bots.expert.ExpertSettings`): my seat knocks by a schedule
    that tightens as the opponent draws; the opponent knocks as soon as he can on most
    deals, and by the same schedule on ``opp_mix`` of them."""

    early: int = 4
    slope: float = 0.8
    floor: int = 2
    opp_early: int = 0
    opp_slope: float = 0.0
    opp_floor: int = 10
    opp_mix: float = 0.3
    mix_early: int = 4
    mix_slope: float = 0.8
    mix_floor: int = 2
    pressure_base: float = 0.0
    pressure_slope: float = 0.035
    mcmc_steps: int = 16
    no_knock_evidence: bool = True
    hand_net: bool = True  # re-deal his hand from the learned model's chances (handnet.py)
    knock_net: bool = True  # value a knock (not gin) by the learned distribution of his
    # deadwood after lay-offs (knocknet.py), the same on every deal, not by the re-deals,
    kn_from: int = 3  # from his this-many-th draw on (the expert's kn_from)

    @property
    def my_style(self) -> KnockStyle:
        """My seat's knock schedule."""
        return KnockStyle(self.early, self.slope, self.floor)

    @property
    def opp_style(self) -> KnockStyle:
        """The opponent's on most deals (at once, by default)."""
        return KnockStyle(self.opp_early, self.opp_slope, self.opp_floor)

    @property
    def mix_style(self) -> KnockStyle:
        """The opponent's on ``opp_mix`` of the deals."""
        return KnockStyle(self.mix_early, self.mix_slope, self.mix_floor)


class MemoPlayout(Playout):
    """A :class:`Playout` that remembers its discards: playing many choices out on the same
    deal, the opponent's hands repeat (he draws the same stock cards whatever I threw, unless
    he takes my throw), and so do many of mine.  The same decisions, fewer meld searches."""

    __slots__ = ("memo", "shown")

    def __init__(self, r: PlayoutRules) -> None:
        super().__init__(r)
        self.memo: dict[int, tuple[int, int]] = {}
        self.shown: dict[int, tuple[int, ...]] = {}  # a knock choice shows the same melds
        # on every deal

    def best_discard(self, mask: int, taken: int) -> tuple[int, int]:
        key = mask | (taken + 1) << 52
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = Playout.best_discard(self, mask, taken)
        return found

    def arrangement(self, kmask: int) -> tuple[int, ...]:
        found = self.shown.get(kmask)
        if found is None:
            found = self.shown[kmask] = arrangement_of_mask(kmask)
        return found


def opponent_discarded(view: HandView) -> bool:
    """True if the opponent's last action was a plain discard (a knock was his to make)."""
    opp = 1 - view.player
    for player, action in reversed(view.history):
        if player == opp:
            return isinstance(action, Discard)
    return False


def continuation_playout(
    view: HandView,
    sense: CardSense,
    mine: KnockStyle,
    theirs: KnockStyle,
    *,
    wary: float = -1.0,
    opp_wary: float = -1.0,
    evidence: bool = True,
) -> tuple[MemoPlayout, int]:
    """A playout with my seat knocking by ``mine`` and the opponent by ``theirs`` (each
    keeping back a card the other melds for ``wary``, ``opp_wary`` more deadwood, see
    :meth:`Playout.run`), and, with ``evidence``, :func:`no_knock_floor` (else -1)."""
    rules = view.rules
    mine_first = view.player == 0
    playout = MemoPlayout(
        PlayoutRules(
            limit=view.knock_limit,
            discard_taken=rules.discard_taken_card,
            dead_stock=rules.dead_hand_stock,
            gin_bonus=rules.gin_bonus,
            undercut_bonus=rules.undercut_bonus,
            knock=(mine, theirs) if mine_first else (theirs, mine),
            wary=(wary, opp_wary) if mine_first else (opp_wary, wary),
        )
    )
    return playout, no_knock_floor(view, sense, theirs) if evidence else -1


def no_knock_floor(view: HandView, sense: CardSense, theirs: KnockStyle) -> int:
    """The deadwood the opponent's hand must exceed now if he could have knocked at his
    last discard and did not, knocking by ``theirs`` (-1: no such evidence)."""
    if not opponent_discarded(view):
        return -1
    drawn = sense.my_draws - (1 if view.phase is Phase.DISCARD else 0)
    return int(theirs.threshold(view.knock_limit, drawn))


def play_choice(
    view: HandView, sense: CardSense, playout: Playout, deal: Deal, action: Action
) -> tuple[int | None, int]:
    """(winner or None, points) of ``action`` in ``view`` on one deal, both seats then
    following ``playout``'s policy to the end of the hand."""
    me = view.player
    opp = 1 - me
    rules = view.rules
    hands = [0, 0]
    hands[me] = sense.mine
    hands[opp] = deal.opp
    stock = deal.stock[:]
    pile = [c.index for c in view.discard_pile]
    draws = [0, 0]
    draws[me] = sense.my_draws
    draws[opp] = sense.opp_draws
    passes = sum(1 for _, a in view.history if isinstance(a, Pass))
    if isinstance(action, Knock):
        if action.card is None:  # big gin (R5.7 option): all eleven cards melded
            return me, (rules.big_gin_bonus or 0) + deadwood_of_mask(deal.opp)
        return playout.score(me, sense.mine & ~action.card.bit, deal.opp)
    if isinstance(action, Discard):
        hands[me] = sense.mine & ~action.card.bit
        pile.append(action.card.index)
        if len(stock) <= rules.dead_hand_stock:  # R6.1
            return None, 0
        return playout.run(hands, stock, pile, opp, DRAW, -1, passes, False, draws)
    if isinstance(action, TakeUpcard | TakeDiscard):
        taken = pile.pop()
        hands[me] = sense.mine | (1 << taken)
        draws[me] += 1
        return playout.run(hands, stock, pile, me, DISCARD, taken, passes, False, draws)
    if isinstance(action, DrawStock):
        hands[me] = sense.mine | (1 << stock.pop())
        draws[me] += 1
        return playout.run(hands, stock, pile, me, DISCARD, -1, passes, False, draws)
    passes += 1  # a pass in the opening (R4.1)
    if passes == 1:
        return playout.run(hands, stock, pile, opp, OFFER, -1, passes, False, draws)
    return playout.run(hands, stock, pile, opp, DRAW, -1, passes, True, draws)


class ChoiceSampler:
    """Plays each of some choices out on the same determinizations of a view, so that two
    choices are compared deal by deal (paired) and their difference is measured with far
    less noise than their values.

    Deal ``i`` is drawn once, when a choice first needs it, and shared by every choice
    evaluated on it; its opponent model (knocking at once, or by the schedule, see
    :class:`Continuation`) is fixed by ``i`` alone.  ``points[c]`` holds choice ``c``'s
    result on deals ``0 .. len(points[c]) - 1``, from the viewer's side (+ won, - lost,
    0 dead); ``equity[c]`` the same priced on the sheet (:class:`SheetValue`), or is
    empty without a sheet.  Only the view is read: never a hidden card.
    """

    def __init__(
        self,
        view: HandView,
        actions: list[Action],
        rng: random.Random,
        *,
        sheet: ScoreSheet | None = None,
        continuation: Continuation = Continuation(),  # frozen
    ) -> None:
        self.view = view
        self.actions = actions
        self.rng = rng
        self.cont = continuation
        self.sense = read_view(view)
        c = continuation
        self.deal_sense: CardSense | None = None  # what the deals are drawn by (when needed)
        self.fixed: dict[int, tuple[float, float]] = {}  # knock choices valued by knock_net
        self.models = [
            continuation_playout(view, self.sense, c.my_style, theirs,
                                 evidence=c.no_knock_evidence)
            for theirs in (c.opp_style, c.mix_style)
        ]
        self.pressure = meld_pressure(self.sense.opp_draws, c.pressure_base, c.pressure_slope)
        self.deals: list[tuple[int, Deal]] = []
        self.points: list[list[float]] = [[] for _ in actions]
        self.priced = sheet is not None and not sheet.finished
        self.value = SheetValue(sheet, view.player)
        self.equity: list[list[float]] = [[] for _ in actions]

    def model_of(self, i: int) -> int:
        """Deal ``i``'s opponent model: 1 (the schedule) on an ``opp_mix`` share of deals,
        spread evenly, else 0."""
        mix = self.cont.opp_mix
        return 1 if math.floor((i + 1) * mix) > math.floor(i * mix) else 0

    def _draw_deals(self, upto: int) -> None:
        start = len(self.deals)
        if upto <= start:
            return
        wanted = [self.model_of(i) for i in range(start, upto)]
        if self.deal_sense is None:
            self.deal_sense = self.sense
            if self.cont.hand_net:
                from .handnet import net_sense

                self.deal_sense = net_sense(self.view, self.sense)[0]
        drawn: dict[int, list[Deal]] = {}
        for m in (0, 1):
            count = wanted.count(m)
            if count:
                floor = self.models[m][1]
                drawn[m] = sample_deals(self.view, self.deal_sense, self.rng, count,
                                        pressure=self.pressure, steps=self.cont.mcmc_steps,
                                        floor=floor)
        for m in wanted:
            self.deals.append((m, drawn[m].pop(0)))

    def _knock_value(self, c: int) -> tuple[float, float] | None:
        """Choice ``c``'s points and sheet value by the knock network if it is a knock
        short of gin and the continuation asks for it (the same on every deal), else None."""
        action = self.actions[c]
        if (not self.cont.knock_net or not isinstance(action, Knock) or action.card is None
                or self.sense.opp_draws < self.cont.kn_from):
            return None  # (a knock with no discard is a big gin, R5.7 option: played out)
        card = action.card.index
        if deadwood_of_mask(self.view.hand_mask & ~(1 << card)) == 0:
            return None  # gin: the playout is exact
        if c not in self.fixed:
            from .knocknet import knock_outcomes, priced

            outcomes = knock_outcomes(self.view, self.sense, card, self.cont.opp_mix)
            self.fixed[c] = (priced(outcomes, SheetValue(None, self.view.player)),
                             priced(outcomes, self.value))
        return self.fixed[c]

    def run(self, choices: list[int], upto: int) -> None:
        """Evaluate each choice (an index into ``actions``) on every deal below ``upto``."""
        self._draw_deals(upto)
        me = self.view.player
        for c in choices:
            action = self.actions[c]
            points = self.points[c]
            equity = self.equity[c]
            fixed = self._knock_value(c)
            if fixed is not None:
                points.extend([fixed[0]] * (upto - len(points)))
                if self.priced:
                    equity.extend([fixed[1]] * (upto - len(equity)))
                continue
            for i in range(len(points), upto):
                m, deal = self.deals[i]
                winner, won = play_choice(self.view, self.sense, self.models[m][0], deal, action)
                points.append(0.0 if winner is None else float(won if winner == me else -won))
                if self.priced:
                    equity.append(self.value.value(winner, won))
