"""``expert``: the greedy heuristic's judgement checked by determinized Monte Carlo.

At each real choice the expert lists a few candidates (the greedy heuristic's
best discards, the knock, taking or refusing the upcard), re-deals the cards it
cannot see many times from its opponent model (:mod:`.search`), plays every
candidate out on every deal with a fast policy (common random numbers, so the
candidates are compared on the same deals), and keeps the candidate whose
results are worth most on the score sheet (:mod:`.equity`): a knock that wins the
match, closes a column or saves a shutout is worth more than its points.

It searches until the answer is clear rather than a fixed number of deals: a
knock that is plainly right is settled in 32 deals, a close call gets up to 256.
More deals on close calls is what made it stronger than 64 fixed deals: +0.45 and
+0.50 points a hand against ``greedy`` on two seeds of 4,000 mirrored hands each,
for 1.4 times the time (192 fixed deals gained about as much for 2.6 times).
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import CARDS, indexes_of_mask
from ..hand import HandView, Phase
from ..i18n import N_
from ..melds import deadwood_of_mask
from ..sheet import ScoreSheet
from .bait import baited
from .base import GIN, ONLY_LEGAL, Bot, Hint, Reason, only_choice
from .cardsense import POINTS, CardSense, free_mask, in_some_meld, read_view
from .equity import SheetValue
from .expert_settings import EXPERT_LIMITS, V1_SETTINGS, ExpertSettings, styled
from .greedy import GreedyBot, GreedySettings, Plan, knock_threshold, plan_discard
from .handvalue import HandValueSettings, rank_discards
from .opponent import KnockStyle, OpponentModel
from .posterior import story_deals
from .search import Deal, Playout, continuation_playout, meld_pressure, play_choice, sample_deals
from .story import Story, StoryModel, StoryShares, read_story

__all__ = ["EXPERT_LIMITS", "V1_SETTINGS", "ExpertBot", "ExpertSettings"]


class ExpertBot(Bot):
    """Determinized Monte Carlo over the greedy heuristic's candidates."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        *,
        settings: ExpertSettings | None = None,
        greedy: GreedySettings | None = None,
    ) -> None:
        super().__init__(seed)
        self.settings = self.plain = settings or ExpertSettings()
        self._own_greedy = greedy is None
        self.greedy = greedy or _greedy_of(self.settings)
        st = self.settings
        self.hand_value = HandValueSettings(
            depth=st.de_depth, knock_bonus=st.de_knock, gin_bonus=st.de_gin,
            danger=st.de_danger, hazard=st.de_hazard, hazard_slope=st.de_slope,
            width=st.de_width, inner=st.de_inner, pile=st.de_pile,
            reach=st.de_reach)
        self._delegate = GreedyBot(settings=self.greedy)  # see _greedy_bot
        self._reason = Reason.of(ONLY_LEGAL)
        self.searched_deals = 0  # deals the last decision was searched on (0: not searched)
        # The last search's per-deal differences from its first candidate (sums, squares, n).
        self._diffs: tuple[list[float], list[float], int] = ([], [], 1)
        self.opponent = OpponentModel(prior=(1.0 - st.opp_mix, st.opp_mix), slip=st.slip)
        self._story: tuple[HandView | None, Story | None] = (None, None)
        self._hand_net: tuple[HandView | None, tuple[list[float], float, CardSense] | None] = (
            None, None)
        share_b = min(st.story_mix, 1.0)
        share_r = min(st.story_random, 1.0 - share_b)
        self.story_shares = StoryShares((1.0 - share_b - share_r, share_b, share_r))

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.opponent.reset()
        self.story_shares.reset()

    def observe(self, view: HandView, sheet: ScoreSheet | None = None) -> None:
        if self.settings.learn and view.phase is Phase.OVER:
            self.opponent.observe(view)
        if self.settings.story and self.settings.story_learn and view.phase is Phase.OVER:
            self.story_shares.observe(view, self.rng, self._story_model())

    def _greedy_bot(self) -> GreedyBot:
        """The greedy player on my heuristic's settings (``self.greedy``, which may change
        between decisions), for the choices I do not search."""
        if self._delegate.settings is not self.greedy:
            self._delegate = GreedyBot(settings=self.greedy)
        return self._delegate

    def cautious_share(self) -> float:
        """The share of deals on which the opponent is played as a cautious knocker."""
        if self.settings.learn:
            return self.opponent.weights()[1]
        return self.settings.opp_mix

    def _restyle(self) -> None:
        """Play by the settings for how this opponent knocks, as learnt so far (the
        ``e_*``/``c_*`` settings, :func:`.expert_settings.styled`)."""
        st = styled(self.plain, self.cautious_share())
        if st is not self.settings and st != self.settings:  # off: the same object
            self.settings = st
            if self._own_greedy:
                self.greedy = _greedy_of(st)

    # -- the decision ---------------------------------------------------------------------

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        self.searched_deals = 0
        self._restyle()
        forced = only_choice(view)
        if forced is not None:
            self._reason = Reason.of(ONLY_LEGAL)
            return forced
        if view.phase is not Phase.DISCARD and not self.settings.search_draws:
            greedy = self._greedy_bot()
            action = greedy.choose(view, sheet)
            self._reason = greedy.explain_last()
            return action
        sense = read_view(view)
        probs = sense.opp_probs()
        if self.settings.hn_danger and self.settings.hand_net:
            chances = self._net_prediction(view, sense)[0]
            probs = [1.0 if sense.opp_known >> i & 1 else p for i, p in enumerate(chances)]
        if view.phase is Phase.DISCARD:
            return self._discard(view, sheet, sense, probs)
        return self._draw(view, sheet, sense, probs)

    def _discard(
        self, view: HandView, sheet: ScoreSheet | None, sense: CardSense, probs: list[float]
    ) -> Action:
        st = self.settings
        mask = view.hand_mask
        legal = view.legal_actions
        allowed = [a.card.index for a in legal if isinstance(a, Discard)]
        knockable = {a.card.index for a in legal if isinstance(a, Knock) and a.card is not None}
        plans = self._plans(view, sense, probs, mask, allowed)
        candidates: list[Action] = []
        if knockable:
            best_knock = min(
                (p for p in plans if p.card in knockable), key=lambda p: (p.deadwood, p.cost)
            )
            if best_knock.deadwood == 0:
                self._reason = Reason.of(GIN)
                return Knock(CARDS[best_knock.card])
            if st.knock_model:
                # The learned rule (knockmodel.py) decides (1), or only vetoes the search (2).
                knocks = self._model_knocks(view, sense, probs, best_knock.card)
                if knocks and st.knock_model == 1:
                    self._reason = self._discard_reason(Knock(CARDS[best_knock.card]), 0.0,
                                                        searched=False)
                    return Knock(CARDS[best_knock.card])
                if not knocks:
                    knockable = set()
            elif not st.search_knocks:
                # The greedy heuristic's knock rule without a search: with search_draws=0
                # the expert is greedy but for its discards (a fast screen of them).
                if self._greedy_bot().should_knock(view, sense, best_knock.deadwood):
                    self._reason = self._discard_reason(Knock(CARDS[best_knock.card]), 0.0,
                                                        searched=False)
                    return Knock(CARDS[best_knock.card])
                knockable = set()
            elif (st.late_veto and st.knock_net < 2 and sense.opp_draws >= st.late_veto
                    and best_knock.deadwood
                    > knock_threshold(sense, view.knock_limit, self.greedy)):
                # Late in a hand the re-deals give him weaker hands than real ones, and
                # the search's knocks there lose (see docs/bots.md): play on instead.
                knockable = set()
        if knockable:
            candidates.append(Knock(CARDS[best_knock.card]))
        top = plans[0].cost
        wide = st.candidates if knockable else max(st.candidates, st.search_discards)
        for p in plans[:wide]:
            if p.cost <= top + st.cost_window:
                candidates.append(Discard(CARDS[p.card]))
        chasing = [False] * len(candidates)
        if knockable and st.chase:
            # Playing on may mean waiting for gin (or his knock, to undercut it), not
            # knocking at the next chance: price that plan too, and play on if either wins.
            candidates.append(candidates[1])
            chasing.append(True)
        if len(candidates) == 1:
            self._reason = self._discard_reason(candidates[0], plans[0].danger, searched=False,
                                                mask=mask)
            return candidates[0]
        budget = st.samples if knockable or not st.discard_samples else st.discard_samples
        fixed = (self._net_knock_value(view, sheet, sense, best_knock.card)
                 if knockable and st.knock_net and sense.opp_draws >= st.kn_from else None)
        bias = st.knock_bias * self.cautious_share() if knockable and st.knock_bias else 0.0
        values = self._search(view, sheet, sense, candidates, budget, chasing, fixed, bias)
        first = 1 if knockable else 0  # the heuristic's best discard
        for k in range(first + 1, len(candidates)):
            if not chasing[k]:
                values[k] -= st.switch_margin
        best = max(range(len(candidates)), key=lambda k: (values[k], -k))
        if best and not knockable and st.switch_z > 0:
            # Noise must not move a discard off the heuristic's: only a clear lead does.
            sums, squares, n = self._diffs
            mean = sums[best] / n
            var = max(0.0, squares[best] / n - mean * mean)
            if mean <= st.switch_z * math.sqrt(var / n):
                best = 0
        choice = candidates[best]
        card = choice.card if isinstance(choice, Discard | Knock) else None
        danger = next((p.danger for p in plans if card and p.card == card.index), 0.0)
        self._reason = self._discard_reason(choice, danger, searched=True, values=values,
                                            candidates=candidates, mask=mask)
        return choice

    def _model_knocks(self, view: HandView, sense: CardSense, probs: list[float], card: int
                      ) -> bool:
        """Does the learned knock rule (fitted on true positions) knock with ``card``?"""
        from .knockmodel import knock_features, load_model

        st = self.settings
        hands = [d.opp for d in self._deals(view, sense, st.knock_deals)]
        features = knock_features(sense, probs, view.hand_mask & ~(1 << card),
                                  self.cautious_share(), hands, view.rules.undercut_bonus)
        return load_model().knocks(features, self.settings.knock_margin)

    def _sheet_value(self, view: HandView, sheet: ScoreSheet | None) -> SheetValue:
        """The price of a hand's result on the sheet, by this expert's sheet settings."""
        st = self.settings
        return SheetValue(sheet, view.player, point_weight=st.sheet_points, share=st.sheet_share)

    def _net_knock_value(self, view: HandView, sheet: ScoreSheet | None, sense: CardSense,
                         card: int) -> float:
        """The sheet value of knocking with ``card`` by the learned distribution of his
        deadwood after lay-offs (:func:`~.knocknet.knock_value`), not the re-deals."""
        from .knocknet import knock_value

        return knock_value(view, sense, card, self.cautious_share(), self._sheet_value(view, sheet))

    def _plans(
        self, view: HandView, sense: CardSense, probs: list[float], mask: int, allowed: list[int]
    ) -> list[Plan]:
        """The discard heuristic's plans, best first.  With ``danger_deals``, the danger of a
        discard is the share of sampled opponent hands it would meld with: the deals carry
        what the no-knock evidence and the meld pressure say of his hand as a whole, which
        the per-card odds of the plain heuristic cannot."""
        st = self.settings
        if st.discard_eval:
            return rank_discards(mask, allowed, sense, probs, view.knock_limit,
                                 view.rules.dead_hand_stock, self.hand_value)
        if st.value_net:
            plans = plan_discard(mask, allowed, sense, probs, self.greedy)
            return self._by_value(plans, sense, probs, view.knock_limit)
        if not st.danger_deals:
            plans = plan_discard(mask, allowed, sense, probs, self.greedy)
            if st.bait:
                plans = baited(plans, sense, probs, view, st.bait)
            return plans
        plans = plan_discard(mask, allowed, sense, probs, replace(self.greedy, danger=0.0))
        deals = self._deals(view, sense, st.danger_deals)
        wants = dict.fromkeys(allowed, 0)
        for deal in deals:
            opp = deal.opp
            for i in allowed:
                if in_some_meld(opp, i):
                    wants[i] += 1
        n = max(1, len(deals))
        out = [Plan(p.card, p.deadwood, p.cost + st.danger * wants[p.card] / n,
                    wants[p.card] / n) for p in plans]
        out.sort(key=lambda p: (p.cost, p.deadwood, p.card))
        return out

    def _by_value(self, plans: list[Plan], sense: CardSense, probs: list[float],
                  knock_limit: int) -> list[Plan]:
        """``plans`` with the one of the heuristic's best few after which the learned value
        (``valuenet.py``) expects the most points moved first, if it beats the heuristic's
        best by ``vn_margin``."""
        from .valuenet import load_net, value_features

        st = self.settings
        net = load_net()
        top = [p for p in plans[:st.vn_top] if p.cost <= plans[0].cost + st.vn_window]
        if len(top) < 2:
            return plans
        values = [net.value(*value_features(sense, probs, p.card, knock_limit)) for p in top]
        best = max(range(len(top)), key=lambda k: (values[k], -k))
        if best == 0 or values[best] <= values[0] + st.vn_margin:
            return plans
        return [top[best]] + [p for p in plans if p is not top[best]]

    def _deals(self, view: HandView, sense: CardSense, count: int) -> list[Deal]:
        """``count`` determinizations from the opponent model (its knock styles mixed)."""
        mixed = round(count * self.cautious_share())
        deals: list[Deal] = []
        for share, (theirs, pressure, steps) in zip((count - mixed, mixed), self._styles(sense),
                                                    strict=True):
            if share:
                _, above = self._model(view, sense, theirs)
                deals += self._sample(view, sense, share, pressure, steps, above)
        return deals

    def _sample(self, view: HandView, sense: CardSense, count: int, pressure: float,
                steps: int, floor: int) -> list[Deal]:
        """:func:`~.search.sample_deals` with my settings (and his story, with ``story``)."""
        st = self.settings
        dead_target = 0.0
        if st.hand_net:
            _, dead_target, sense = self._net_prediction(view, sense)
        if not st.story:
            return sample_deals(view, sense, self.rng, count, pressure=pressure, steps=steps,
                                floor=floor, floor_penalty=st.floor_penalty,
                                dead_target=dead_target,
                                dead_weight=st.hn_dead if st.hand_net else 0.0)
        seen, story = self._story
        if seen is not view or story is None:
            story = read_story(view)
            self._story = (view, story)
        model = self._story_model()
        return story_deals(view, sense, self.rng, count, story, model, pressure=pressure,
                           steps=st.story_steps or steps, floor=floor,
                           floor_penalty=st.floor_penalty, flat=bool(st.story_flat))

    def _net_prediction(self, view: HandView, sense: CardSense
                        ) -> tuple[list[float], float, CardSense]:
        """The learned model's chance of each card being his, its guess of his deadwood,
        and ``sense`` with those chances as its per-card weights (``hand_net``; by their
        odds with 2): read once a view, for the re-deals and the danger alike."""
        seen, got = self._hand_net
        if seen is not view or got is None:
            from .handnet import load_hand_net, with_chances

            chances, dead = load_hand_net().predict(view, sense)
            got = (chances, dead, with_chances(sense, chances, self.settings.hand_net == 2))
            self._hand_net = (view, got)
        return got

    def _story_model(self) -> StoryModel:
        """The model of his choices my settings (and, with ``story_learn``, the match so
        far) give."""
        st = self.settings
        _, mix, rand = self.story_shares.shares()
        return StoryModel(beta=st.story_beta, eps_throw=st.story_eps_throw,
                          eps_take=st.story_eps_take, turns=st.story_turns,
                          weight=st.story_weight, pool=st.story_pool, mix=mix,
                          random_share=rand, exact=st.story_exact, guide=st.story_guide)

    def _draw(
        self, view: HandView, sheet: ScoreSheet | None, sense: CardSense, probs: list[float]
    ) -> Action:
        upcard = view.upcard
        assert upcard is not None
        x = upcard.index
        mask = view.hand_mask
        offer = view.phase is Phase.OFFER
        take: Action = TakeUpcard() if offer else TakeDiscard()
        refuse: Action = Pass() if offer else DrawStock()
        # A card that melds with nothing and lowers nothing is not worth a search.
        now = deadwood_of_mask(mask)
        with_x = mask | (1 << x)
        allowed = indexes_of_mask(mask) + ([x] if view.rules.discard_taken_card else [])
        plans = plan_discard(with_x, allowed, sense, probs, self.greedy)
        melds = in_some_meld(mask, x)
        lowers = plans[0].deadwood < now
        # Translators: hint reasons (the terminal game's h key), shown after the action they
        # explain; {card} is the upcard (like 7♥), {gain} a number of points like +2.5.
        if not melds and (not lowers or now - plans[0].deadwood < 4):
            self._reason = Reason.of(N_("{card} makes no meld"), card=upcard)
            return refuse
        values = self._search(view, sheet, sense, [take, refuse], self.settings.draw_samples)
        if values[0] > values[1]:
            self._reason = Reason.of(
                N_("{card} makes a meld (worth {gain:+.1f} over a blind draw)") if melds
                else N_("{card} lowers the deadwood (worth {gain:+.1f} over a blind draw)"),
                card=upcard, gain=values[0] - values[1])
            return take
        self._reason = Reason.of(N_("{card} is worth less than a blind draw"), card=upcard)
        return refuse

    # -- the search -----------------------------------------------------------------------

    def _search(
        self,
        view: HandView,
        sheet: ScoreSheet | None,
        sense: CardSense,
        candidates: list[Action],
        budget: int = 0,
        chasing: list[bool] | None = None,
        fixed: float | None = None,
        bias: float = 0.0,
    ) -> list[float]:
        """The mean sheet value of each candidate over the same determinizations (at most
        ``budget`` of them, never more than ``samples``); a candidate marked in ``chasing`` is
        played on for gin only (I knock with nothing less in its playouts).  With ``fixed``,
        the first candidate (the knock) is worth that on every deal, not its result on the
        deal: the per-deal differences the stopping rule reads are then the others' values
        less a constant, still paired.  ``bias`` points (``knock_bias`` times his cautious
        share) are added to the first candidate on every deal, in the sheet's value: the mean
        worth of a point of a won hand between 5 and 25 points, where most knocks land."""
        st = self.settings
        samples = min(budget, st.samples) if budget else st.samples
        chase = chasing or [False] * len(candidates)
        styles = self._styles(sense)
        models = [self._model(view, sense, styles[0][0])]
        mix = self.cautious_share()
        if mix > 0:
            models.append(self._model(view, sense, styles[1][0]))
        chasers = [
            self._model(view, sense, theirs, mine=_GIN_ONLY)[0]
            for theirs, _, _ in styles[: len(models)]
        ] if any(chase) else []
        value = self._sheet_value(view, sheet)
        if bias:
            bias *= (value.value(view.player, 25) - value.value(view.player, 5)) / 20
        start = time.perf_counter()
        cap = st.time_cap_ms / 1000.0
        totals = [0.0] * len(candidates)
        # Per-deal differences from the first candidate, for the stopping rule.
        diff_sums = [0.0] * len(candidates)
        diff_squares = [0.0] * len(candidates)
        n = 0
        batch = 8
        while n < samples:
            k = min(batch, samples - n)
            mixed = round(k * mix) if len(models) > 1 else 0
            for m, count in ((0, k - mixed), (1, mixed)):
                if not count:
                    continue
                playout, floor = models[m]
                _, pressure, steps = styles[m]
                deals = self._sample(view, sense, count, pressure, steps, floor)
                for deal in deals:
                    first = 0.0
                    for c, action in enumerate(candidates):
                        if c == 0 and fixed is not None:
                            v = fixed
                        else:
                            winner, points = play_choice(
                                view, sense, chasers[m] if chase[c] else playout, deal, action
                            )
                            v = value.value(winner, points)
                        if c == 0:
                            v += bias
                            first = v
                        else:
                            diff_sums[c] += v - first
                            diff_squares[c] += (v - first) ** 2
                        totals[c] += v
            n += k
            if cap and time.perf_counter() - start > cap:
                break
            if st.min_samples and n >= st.min_samples and _settled(
                totals, diff_sums, diff_squares, n, st.stop_z, st.stop_eps, candidates
            ):
                break
        self.searched_deals = n
        self._diffs = (diff_sums, diff_squares, max(1, n))
        return [t / max(1, n) for t in totals]

    def _styles(self, sense: CardSense) -> tuple[tuple[KnockStyle, float, int], ...]:
        """The opponent's knock styles the search deals him hands for: first how he knocks
        on most deals (``opp_*``), then on the cautious share (``mix_*``), each with the
        meld pressure and the Metropolis steps of his sampled hands."""
        st = self.settings
        return (
            (KnockStyle(st.opp_early, st.opp_slope, st.opp_floor),
             meld_pressure(sense.opp_draws, st.pressure_base, st.pressure_slope,
                           st.pressure_square), st.mcmc_steps),
            (KnockStyle(st.mix_early, st.mix_slope, st.mix_floor),
             meld_pressure(sense.opp_draws, st.pressure_base, st.mix_pressure_slope,
                           st.mix_pressure_square), st.mix_steps),
        )

    def _model(
        self, view: HandView, sense: CardSense, theirs: KnockStyle, mine: KnockStyle | None = None
    ) -> tuple[Playout, int]:
        """:func:`~.search.continuation_playout` on my settings: the opponent knocking by
        ``theirs``, I by ``mine`` (by default my settings' schedule)."""
        st = self.settings
        if mine is None:
            mine = KnockStyle(st.early, st.slope, st.floor)
        return continuation_playout(view, sense, mine, theirs, wary=st.wary,
                                    opp_wary=st.opp_wary, evidence=bool(st.no_knock_evidence))

    # -- reasons --------------------------------------------------------------------------

    def _discard_reason(
        self,
        action: Action,
        danger: float,
        *,
        searched: bool,
        values: list[float] | None = None,
        candidates: list[Action] | None = None,
        mask: int = 0,
    ) -> Reason:
        if isinstance(action, Knock):
            if values is not None and candidates is not None and len(values) > 1:
                others = [v for a, v in zip(candidates, values, strict=True) if a != action]
                # Translators: a hint's reason for a knock; {gain} is a number of points
                # like +2.5.
                return Reason.of(N_("an undercut is unlikely (worth {gain:+.1f} over playing "
                                    "on)"),
                                 gain=values[candidates.index(action)] - max(others))
            # Translators: a hint's reason for a knock.
            return Reason.of(N_("an undercut is unlikely"))
        assert isinstance(action, Discard)
        # Translators: the second half of a hint's reason for a discard ({tail} in "{what},
        # {tail}"): how much the opponent may want the card.
        if danger < 0.1:
            tail = Reason.of(N_("the opponent is unlikely to want it"))
        elif danger < 0.3:
            tail = Reason.of(N_("some risk of helping the opponent"))
        else:
            tail = Reason.of(N_("the opponent may want it, but keeping it costs more"))
        card = action.card
        free = free_mask(mask & ~card.bit | card.bit) if mask else 0
        high = max((POINTS[i] for i in indexes_of_mask(free)), default=0)
        # Translators: the first half of a hint's reason for a discard ({what} in "{what},
        # {tail}"): why this card goes.
        if not free >> card.index & 1:
            what = Reason.of(N_("it breaks the weakest meld"))
        elif card.points >= high:
            what = Reason.of(N_("the highest deadwood card"))
        else:
            what = Reason.of(N_("the deadwood card least likely to meld"))
        if values is not None and candidates and any(isinstance(a, Knock) for a in candidates):
            # Translators: a hint's reason for a discard when a knock was possible; {what}
            # and {tail} are the two halves above.
            return Reason.of(N_("playing on beats knocking now ({what}; {tail})"), what=what,
                             tail=tail)
        # Translators: a hint's reason for a discard: {what} and {tail} are the halves
        # above ("the highest deadwood card", "the opponent is unlikely to want it").
        return Reason.of(N_("{what}, {tail}"), what=what, tail=tail)

    def explain(self, view: HandView, sheet: ScoreSheet | None = None) -> Hint:
        action = self.choose(view, sheet)
        return Hint(action, self._reason)


def _settled(
    totals: list[float],
    diff_sums: list[float],
    diff_squares: list[float],
    n: int,
    z: float,
    eps: float = 0.0,
    actions: list[Action] | None = None,
) -> bool:
    """True once the leading candidate beats every other by ``z`` standard errors of the
    paired difference (the deals are shared, so the difference is what is noisy), or
    the rest are known to within ``eps`` of it: a close call is not worth more deals.
    Candidates that are the same action (two plans after it) need not be told apart."""
    best = max(range(len(totals)), key=lambda c: totals[c])

    def diff(c: int) -> tuple[float, float]:
        """Mean and variance of the per-deal value of ``c`` minus that of ``best``."""
        if best == 0:
            mean, square = diff_sums[c] / n, diff_squares[c] / n
        elif c == 0:
            mean, square = -diff_sums[best] / n, diff_squares[best] / n
        else:
            # c - best = (c - 0) - (best - 0); its square is not kept, so bound it.
            mean = (diff_sums[c] - diff_sums[best]) / n
            square = 2 * (diff_squares[c] + diff_squares[best]) / n
        return mean, max(0.0, square - mean * mean)

    for c in range(len(totals)):
        if c == best or (actions is not None and actions[c] == actions[best]):
            continue
        mean, var = diff(c)
        half = z * math.sqrt(var / n)
        if -mean <= half and half >= eps:
            return False
    return True


def _greedy_of(st: ExpertSettings) -> GreedySettings:
    """The greedy heuristic the expert's discards, draws and late veto rest on."""
    return GreedySettings(danger=st.danger, potential=st.potential,
                          knock_early=st.veto_early, knock_slope=st.veto_slope,
                          knock_floor=st.veto_floor)


#: A knock schedule that waits for gin (after the first draw of the other player).
_GIN_ONLY = KnockStyle(early=0, slope=100.0, floor=0, name="gin only")
