"""The expert's settings: its search budget, its model of the opponent and its discard
evaluator, each settable by name from a bot spec (``expert:samples=128``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .base import settings_with

__all__ = ["EXPERT_LIMITS", "STYLED", "V1_SETTINGS", "ExpertSettings", "styled"]

#: The settings that may differ by how the opponent knocks: ``e_<name>`` is used against
#: an eager knocker (his learnt cautious share at most ``eager_below``), ``c_<name>``
#: against a cautious one (at least ``cautious_above``); -1 keeps the plain setting.
STYLED = ("potential", "danger", "chase", "early", "slope", "floor", "late_veto",
          "veto_early", "veto_slope")


#: What each expert setting may be set to from a bot spec.
EXPERT_LIMITS: dict[str, tuple[float, float]] = {
    "samples": (1, 10_000), "min_samples": (0, 10_000), "stop_z": (0, 10), "stop_eps": (0, 100),
    "candidates": (1, 11), "discard_samples": (0, 10_000), "draw_samples": (0, 10_000),
    "switch_margin": (-100, 100), "cost_window": (0, 100), "pressure_base": (0, 10),
    "pressure_slope": (0, 10), "mcmc_steps": (0, 10_000), "pressure_square": (0, 1),
    "floor_penalty": (0, 100), "mix_pressure_slope": (0, 10), "mix_pressure_square": (0, 1),
    "mix_steps": (0, 10_000), "danger_deals": (0, 10_000), "early": (0, 60), "slope": (0, 10),
    "floor": (0, 10), "opp_early": (0, 60), "opp_slope": (0, 10), "opp_floor": (0, 10),
    "opp_mix": (0, 1), "mix_early": (0, 60), "mix_slope": (0, 10), "mix_floor": (0, 10),
    "search_draws": (0, 1), "no_knock_evidence": (0, 1), "time_cap_ms": (0, 60_000),
    "learn": (0, 1), "slip": (0.001, 1), "chase": (0, 1), "danger": (0, 100),
    "potential": (0, 10), "search_discards": (0, 11), "switch_z": (0, 10),
    "wary": (-1, 100), "opp_wary": (-1, 100), "late_veto": (0, 60),
    "discard_eval": (0, 1), "de_depth": (0, 2), "de_knock": (0, 100), "de_gin": (0, 100),
    "de_danger": (0, 100), "de_hazard": (0, 1), "de_slope": (0, 1), "de_width": (0, 11),
    "de_inner": (1, 11), "de_pile": (0, 1), "search_knocks": (0, 1),
    "de_reach": (0, 20), "veto_early": (0, 60), "veto_slope": (0, 10),
    "veto_floor": (0, 10),
    "eager_below": (0, 1), "cautious_above": (0, 1),
    "knock_model": (0, 2), "knock_margin": (-50, 50), "knock_deals": (1, 1000),
    "knock_net": (0, 2), "kn_from": (0, 60), "knock_bias": (-50, 50),
    "value_net": (0, 1), "vn_top": (1, 11), "vn_margin": (-100, 100), "vn_window": (0, 100),
    "story": (0, 1), "story_beta": (0, 20), "story_eps_throw": (0.001, 1),
    "story_eps_take": (0.001, 0.999), "story_turns": (0, 60), "story_weight": (0, 10),
    "story_steps": (0, 10_000), "story_flat": (0, 1), "story_pool": (0, 64),
    "story_mix": (0, 1), "story_random": (0, 1), "story_exact": (0, 3), "story_guide": (0, 1),
    "story_learn": (0, 1), "hand_net": (0, 2), "hn_dead": (0, 10),
    "hn_danger": (0, 1), "sheet_points": (0, 10), "sheet_share": (0.05, 0.95),
    "bait": (0, 100),
}
for _name in STYLED:
    EXPERT_LIMITS["e_" + _name] = EXPERT_LIMITS["c_" + _name] = (
        -1, EXPERT_LIMITS[_name][1])


@dataclass(frozen=True, slots=True)
class ExpertSettings:
    """The expert's search budget and model knobs."""

    samples: int = 256  # determinizations per decision searched, at most ...
    min_samples: int = 32  # ... and at least (0: always ``samples``), stopping between
    stop_z: float = 2.0  # once the best candidate leads each other by this many std errors
    stop_eps: float = 0.0  # ... or they are known to within this many points of it
    candidates: int = 1  # discards searched besides the knock (1: the heuristic's best)
    discard_samples: int = 0  # deals at most for a choice between discards alone (0: samples)
    draw_samples: int = 96  # deals at most for taking or refusing the upcard (0: samples):
    # 96 played as well as 256 on 1,000 mirrored hands against greedy (+0.09 +- 0.47
    # points a hand) and cut the slowest decisions (p99 631 to 402 ms)
    switch_margin: float = 0.0  # a searched discard must beat the heuristic's by this much
    search_discards: int = 2  # discards searched when no knock is possible (0, 1: none):
    # the heuristic's best and the next within cost_window, played out on the same re-deals
    # (the default from 2026-12-05, issue 14; expert-v1 and the default before it: 0)
    switch_z: float = 0.0  # ... and a searched discard replaces the heuristic's only when it
    # leads it by this many standard errors of their paired difference
    late_veto: int = 8  # from this many opponent draws on, knock only within the greedy
    # heuristic's tightened limit (0: the search alone decides); judged from the true
    # positions, the search's knocks beyond it lost against greedy (docs/bots.md)
    knock_model: int = 0  # 1: knock by the learned rule (knockmodel.py), not the search;
    # 2: the search decides, but only knocks the rule would make
    knock_margin: float = 0.0  # the rule knocks when it predicts more than this gain
    knock_deals: int = 16  # opponent hands it re-deals (its features sampled_knock...)
    knock_net: int = 1  # 1: value the knock in the search by the learned distribution of
    # his deadwood after lay-offs (knocknet.py), not by the re-deals; 2: and lift late_veto;
    # 0: by the re-deals (before the session of 2026-12-03, and expert-v1)
    knock_bias: float = 0.0  # points added to the searched knock's value times his learnt
    # cautious share: the playouts overvalue playing on (docs/bots.md), which costs
    # against a cautious knocker; against an eager one knocking more lost
    kn_from: int = 3  # ... from his this-many-th draw on; before it by the re-deals, which
    # are unbiased that early, where the network saw few knocks and underrates his
    # deadwood (by 6 to 14 points at his first turn, 4 to 5 at his second; docs/bots.md)
    value_net: int = 0  # 1: throw, of the heuristic's best discards, the one after which the
    # learned value (valuenet.py) expects the most points (docs/bots.md)
    vn_top: int = 3  # ... among this many of the heuristic's best,
    vn_window: float = 6.0  # within this heuristic cost of its best,
    vn_margin: float = 0.0  # and only if it expects this many points more than the best
    story: int = 0  # 1: weigh his sampled hands by how likely his picks, passes and throws
    # were with them (the history-consistent model, story.py; docs/bots.md)
    story_beta: float = 1.5  # ... a throw's softmax per point of deadwood left,
    story_eps_throw: float = 0.03  # the share of his throws made at random,
    story_eps_take: float = 0.07  # of his picks and refusals against the rule,
    story_mix: float = 0.0  # the share of a basic-like player (StoryModel's second),
    story_random: float = 0.0  # and of a player choosing at random,
    story_turns: int = 0  # his last this many turns read (0: all),
    story_weight: float = 1.0  # the log-likelihood's weight in the Metropolis energy,
    story_steps: int = 0  # the Metropolis steps with it on (0: mcmc_steps, mix_steps)
    story_exact: int = 0  # his last this many stock draws walked back every way,
    story_guide: int = 0  # 1: the others by how well his throw before fits (story.py)
    story_learn: int = 0  # 1: learn the three players' shares from the hands the match
    # reveals, story_mix and story_random the prior (story.StoryShares)
    story_flat: int = 0  # 1: leave the per-card weights out (his story reads the same
    # picks and passes; with both they count twice)
    hand_net: int = 1  # 1: re-deal his hand from the learned model's chances (handnet.py)
    # instead of the hand-set per-card weights; 2: from their odds; 0: by the hand-set
    # weights alone (before the session of 2026-12-03, and expert-v1; docs/bots.md)
    hn_dead: float = 0.0  # with hand_net, energy per point of his sampled deadwood away
    # from the model's guess of it (0: none)
    hn_danger: int = 1  # 1: with hand_net, the discard heuristic's danger reads the learned
    # model's chances too, not the hand-set weights
    story_pool: int = 0  # k: resample the deals by it from k times as many drawn without
    # it (importance resampling) instead of a Metropolis energy (0)
    wary: float = -1.0  # in playouts I keep a card his sampled hand melds for at most this
    opp_wary: float = -1.0  # much more deadwood, and he one mine melds (-1: never)
    cost_window: float = 6.0  # only discards within this heuristic cost of the best
    pressure_base: float = 0.0  # pull of sampled opponent hands toward melds ...
    pressure_slope: float = 0.035  # ... growing with his draws
    pressure_square: float = 0.0  # ... and with their square
    mix_pressure_slope: float = 0.035  # the same for a cautious knocker, who holds on to
    mix_pressure_square: float = 0.0  # a lower count than an eager one ever shows
    mix_steps: int = 32  # Metropolis steps for his hands
    floor_penalty: float = 1.5  # how hard the no-knock evidence holds (per point under it)
    mcmc_steps: int = 32
    early: int = 4  # my playout knock schedule: opponent draws before it tightens,
    slope: float = 0.8  # points per draw after that,
    floor: int = 2  # and the lowest it goes
    opp_early: int = 0  # the opponent's, as I model him: by default he knocks at once,
    opp_slope: float = 0.0  # the cautious assumption (and the truth of ``basic``)
    opp_floor: int = 10
    opp_mix: float = 0.3  # share of deals where he knocks by the schedule below instead
    # (a hedge: against greedy 0.3 won 60.9% of matches, not 58.8%; against basic 75.7%)
    mix_early: int = 4
    mix_slope: float = 0.8
    mix_floor: int = 2
    danger: float = 6.0  # the discard heuristic's (greedy's) cost of feeding the opponent
    potential: float = 0.2  # and its weight of the deadwood live cards could soak up
    learn: int = 1  # 1: learn how this opponent knocks from the hands the match reveals,
    # with ``opp_mix`` as the prior weight of the cautious style (0: the fixed hedge)
    slip: float = 0.1  # the chance a knock style gives a decision it would not make
    chase: int = 1  # 1: when a knock is possible, also price playing on for gin only (on
    # since 2026-12-05 with hn_danger and 32 Metropolis steps: docs/bots.md)
    danger_deals: int = 0  # judge a discard's danger on this many sampled hands (0: odds)
    bait: float = 0.0  # weight of how much a discard lowers his fear of the cards my hand
    # then waits for, as a player who reads my throws would judge it (bait.py)
    sheet_points: float = 0.25  # equity.SheetValue's price of a point of the totals, and
    sheet_share: float = 0.5  # my share of the hands in its match-equity table (0.5: even;
    # a favourite's 0.56 or 0.62 won no more matches, docs/bots.md)
    search_draws: int = 1  # 0: take or refuse the upcard by the heuristic alone
    search_knocks: int = 1  # 0: knock by the heuristic's rule alone
    no_knock_evidence: int = 1  # an opponent who did not knock is held above his knock limit
    time_cap_ms: float = 450.0  # stop sampling past this (0: never); keeps the p99 bounded
    discard_eval: int = 0  # 1: rank discards by the hand-strength evaluator (handvalue.py)
    de_depth: int = 2  # ... looking this many of my draws ahead,
    de_knock: float = 10.0  # its bonus for a hand I could knock with, and for gin,
    de_gin: float = 20.0
    de_danger: float = 6.0  # its cost of a discard he surely melds,
    de_hazard: float = 0.05  # the chance the hand ends before my next draw,
    de_slope: float = 0.02  # growing with each of his draws,
    de_width: int = 4  # discards looked at two draws deep,
    de_inner: int = 2  # and second discards tried (of those leaving the least deadwood),
    de_pile: float = 0.0  # and the weight of taking his next discard instead of a draw;
    de_reach: float = 1.0  # the look-ahead's gain is counted this many times
    veto_early: int = 4  # the greedy heuristic's knock limit (late_veto, search_knocks=0):
    veto_slope: float = 0.8  # opponent draws before it tightens, points a draw after
    veto_floor: int = 2  # and the lowest count it asks for
    # Opponent-style-conditional settings (see STYLED; -1: the plain setting).
    eager_below: float = 0.0  # his cautious share at or under which e_* apply
    cautious_above: float = 1.0  # ... and at or over which c_* apply (1: only if certain)
    e_potential: float = -1.0
    e_danger: float = -1.0
    e_chase: int = -1
    e_early: int = -1
    e_slope: float = -1.0
    e_floor: int = -1
    e_late_veto: int = -1
    e_veto_early: int = -1
    e_veto_slope: float = -1.0
    c_potential: float = -1.0
    c_danger: float = -1.0
    c_chase: int = -1
    c_early: int = -1
    c_slope: float = -1.0
    c_floor: int = -1
    c_late_veto: int = -1
    c_veto_early: int = -1
    c_veto_slope: float = -1.0

    @classmethod
    def from_overrides(
        cls, values: dict[str, float], spec: str, base: ExpertSettings | None = None
    ) -> ExpertSettings:
        """These settings (or ``base``) with some fields changed by name (from a bot spec)."""
        return settings_with(base or cls(), values, spec, EXPERT_LIMITS)


def styled(st: ExpertSettings, cautious: float) -> ExpertSettings:
    """The settings to play by against an opponent whose cautious share is ``cautious``:
    the ``e_*`` ones for an eager knocker, the ``c_*`` ones for a cautious one, else
    ``st`` itself (and ``st`` whenever no styled setting is given)."""
    if cautious <= st.eager_below and cautious < st.cautious_above:
        prefix = "e_"
    elif cautious >= st.cautious_above and cautious > st.eager_below:
        prefix = "c_"
    else:
        return st
    changes = {name: value for name in STYLED
               if (value := getattr(st, prefix + name)) != -1}
    return replace(st, **changes) if changes else st


#: The expert as issue 3 left it (``expert-v1``): a fixed hedge on how the opponent knocks.
V1_SETTINGS = ExpertSettings(learn=0, draw_samples=0, late_veto=0, hand_net=0, knock_net=0,
                             chase=0, hn_danger=0, mcmc_steps=16, mix_steps=16,
                             search_discards=0)
