"""The arena: two bots play mirrored deals, in parallel, and the results come with intervals.

Every deal is played twice with the seats swapped, so the luck of the cards
cancels out of the comparison.  Every game is seeded from ``(seed, pair, seat
order)`` alone, so a report reproduces from its seed whatever the number of
processes; only the decision times vary from run to run.

``hollywood-gin arena BOT BOT [--rules PRESET] [--matches N | --hands N] [--seed S]
[--jobs J] [--json] [--plot FILE] [--engine ours|openspiel]``
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO

from .actions import ACTIONS
from .errors import HollywoodGinError
from .hand import Hand, Phase
from .i18n import _
from .match import Match
from .rules import Rules
from .sheet import ScoreSheet

__all__ = [
    "ArenaError",
    "ArenaReport",
    "BotReport",
    "GameResult",
    "HandOutcome",
    "register",
    "run",
    "run_arena",
    "wilson",
]

ENGINES = ("ours", "openspiel")
OPENSPIEL_SIMPLE = "openspiel-simple"
MAX_HANDS_PER_MATCH = 300  # a match of bots that never knock ends unfinished here

BotSpec = Any  # a bot name for make_bot, or a Bot (copied into each worker)


#: The engine's own action values by identity, to their ids (they live as long as the module).
_ENGINE_ACTION: dict[int, int] = {id(action): i for i, action in enumerate(ACTIONS)}


class ArenaError(HollywoodGinError):
    """The arena cannot run as asked: bad counts, an unknown engine, a missing extra."""


# -- statistics ---------------------------------------------------------------------------


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion; (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def mean_ci(values: Sequence[float], z: float = 1.959964) -> tuple[float, tuple[float, float]]:
    """A mean and its normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = math.fsum(values) / n
    if n == 1:
        return m, (m, m)
    from statistics import stdev  # imported when needed: start-up counts in every run

    sd = stdev(values)
    half = z * sd / math.sqrt(n)
    return m, (m - half, m + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0–1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    k = (len(s) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from some parts, the same on every machine and process."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)


# -- one game -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One hand, by seat: how it ended, who won, how much, who knocked."""

    kind: str  # knock, undercut, gin, big_gin, dead (or tie: OpenSpiel's equal counts)
    winner: int | None
    points: int
    knocker: int | None


@dataclass(slots=True)
class GameResult:
    """One game of a mirrored pair (a match, or a single hand), by seat."""

    pair: int
    swapped: bool  # True when bot B sits in seat 0
    hands: list[HandOutcome]
    match_winner: int | None  # seat; None for single hands, drawn or unfinished matches
    finished: bool
    times_ms: tuple[list[float], list[float]]  # decision times by seat
    first_deal: tuple[str, str, str] = ("", "", "")  # seat 0's, seat 1's cards, the upcard

    def bot_of_seat(self, seat: int) -> int:
        """0 for bot A, 1 for bot B."""
        return seat ^ int(self.swapped)


_WORKER_BOTS: dict[tuple[str, int], Any] = {}


def _bot(spec: BotSpec, seed: int, seat: int) -> Any:
    """A bot of ``spec`` for one seat of one game, reset with ``seed``: named bots are
    built once per process and seat, bot objects copied afresh for every game."""
    if isinstance(spec, str):
        if spec == OPENSPIEL_SIMPLE:
            raise ArenaError(f"{OPENSPIEL_SIMPLE} plays only with --engine openspiel")
        bot = _WORKER_BOTS.get((spec, seat))
        if bot is None:
            from .bots import make_bot

            bot = _WORKER_BOTS[spec, seat] = make_bot(spec)
    else:
        from copy import deepcopy

        bot = deepcopy(spec)
    bot.reset(seed)
    return bot


def _play_ours(task: _Task) -> GameResult:
    rules = task.rules
    deal_seed = derive_seed(task.seed, "deal", task.pair)
    specs = (task.specs[1], task.specs[0]) if task.swapped else task.specs
    tag = "ba" if task.swapped else "ab"
    bots = [
        _bot(specs[seat], derive_seed(task.seed, "bot", task.pair, tag, seat), seat)
        for seat in (0, 1)
    ]
    times: tuple[list[float], list[float]] = ([], [])
    hands: list[HandOutcome] = []
    clock = time.perf_counter
    choose = [bots[0].choose, bots[1].choose]
    over = Phase.OVER

    def play_hand(hand: Hand, sheet: ScoreSheet | None, match: Match | None) -> None:
        """Ask the bots until the hand ends, timing each real decision.

        The fast path of the engine where it gives the same game: the legal actions are
        worked out once for the view, and an answer that is one of the engine's own action
        values, legal here, is played unchecked; any other answer goes through the checked
        path, which refuses an illegal one as it always has.
        """
        while hand.phase is not over:
            seat = hand.to_act
            ids = hand.legal_action_ids()
            view = hand._view(seat, ids)
            t0 = clock()
            action = choose[seat](view, sheet)
            t1 = clock()
            if len(ids) > 1:
                times[seat].append((t1 - t0) * 1000.0)
            action_id = _ENGINE_ACTION.get(id(action))
            if action_id is not None and action_id in ids:
                if match is None:
                    hand.apply_id(action_id)
                else:
                    match.apply_id(action_id)
            elif match is None:
                hand.apply(action, seat)
            else:
                match.apply(action, seat)

    if task.mode == "hands":
        hand = Hand.deal(rules=rules, dealer=task.pair % 2, seed=deal_seed)
        first = _first_deal(hand)
        play_hand(hand, None, None)
        hands.append(_outcome(hand))
        _observe(bots, hand, None)
        return GameResult(task.pair, task.swapped, hands, None, True, times, first)
    match = Match(rules=rules, seed=deal_seed)
    first = _first_deal(match.hand)
    while True:
        hand = match.hand
        play_hand(hand, match.sheet.copy(), match)
        hands.append(_outcome(hand))
        _observe(bots, hand, match.sheet)
        if match.finished or len(match.hands) >= MAX_HANDS_PER_MATCH:
            break
        match.next_hand()
    return GameResult(task.pair, task.swapped, hands, match.winner, match.finished, times, first)


def _observe(bots: Sequence[Any], hand: Hand, sheet: ScoreSheet | None) -> None:
    """Show each bot the ended hand from its own seat: what the rules reveal, no more."""
    for seat in (0, 1):
        observe = getattr(bots[seat], "observe", None)
        if observe is not None:
            observe(hand.view(seat), None if sheet is None else sheet.copy())


def _first_deal(hand: Hand) -> tuple[str, str, str]:
    pile = hand.discard_pile
    return (
        " ".join(c.text for c in hand.cards_of(0)),
        " ".join(c.text for c in hand.cards_of(1)),
        pile[-1].text if pile else "",
    )


def _outcome(hand: Hand) -> HandOutcome:
    result = hand.result
    assert result is not None
    return HandOutcome(result.kind, result.winner, result.points, result.knocker)


@dataclass(frozen=True, slots=True)
class _Task:
    specs: tuple[BotSpec, BotSpec]
    rules: Rules
    mode: str  # "matches" or "hands"
    engine: str
    seed: int
    pair: int
    swapped: bool


def _play_openspiel(task: _Task) -> GameResult:
    """One hand inside OpenSpiel's gin_rummy; player 0 has the first offer there."""
    from .bots.openspiel_seat import (
        SimpleSeat,
        deck_from_seed,
        from_openspiel,
        play_openspiel_hand,
    )
    from .cards import CARDS

    deck = deck_from_seed(derive_seed(task.seed, "deal", task.pair))
    specs = (task.specs[1], task.specs[0]) if task.swapped else task.specs
    tag = "ba" if task.swapped else "ab"
    seats: list[Any] = []
    for seat in (0, 1):
        spec = specs[seat]
        if spec == OPENSPIEL_SIMPLE:
            seats.append(SimpleSeat(seat))
        else:
            seats.append(_bot(spec, derive_seed(task.seed, "bot", task.pair, tag, seat), seat))
    (kind, winner, points, knocker), times = play_openspiel_hand(seats, deck)
    hands = [HandOutcome(kind, winner, points, knocker)]
    first = (
        " ".join(CARDS[i].text for i in sorted(from_openspiel(c) for c in deck[:10])),
        " ".join(CARDS[i].text for i in sorted(from_openspiel(c) for c in deck[10:20])),
        CARDS[from_openspiel(deck[20])].text,
    )
    return GameResult(task.pair, task.swapped, hands, None, True, times, first)


def _play(task: _Task) -> GameResult:
    if task.engine == "openspiel":
        return _play_openspiel(task)
    return _play_ours(task)


def _play_pair(args: tuple[_Task, _Task]) -> tuple[GameResult, GameResult]:
    return _play(args[0]), _play(args[1])


# -- the report ---------------------------------------------------------------------------


@dataclass(slots=True)
class BotReport:
    """One bot's results: wins with Wilson intervals, points, endings, decision times."""

    name: str
    matches: int
    match_wins: int
    match_win_rate: float | None
    match_win_ci: tuple[float, float] | None
    hands: int
    hand_wins: int
    hand_win_rate: float
    hand_win_ci: tuple[float, float]
    points_per_hand: float  # points this bot scored, averaged over all hands
    net_points_per_hand: float  # scored minus conceded
    net_points_ci: tuple[float, float]
    knock_wins: int  # won by knocking
    gins: int
    big_gins: int
    undercuts_given: int  # undercut the opponent's knock
    undercuts_suffered: int  # knocked and was undercut
    ties: int  # OpenSpiel only: knocked with equal counts, no score
    dead: int
    decisions: int
    decision_ms_median: float
    decision_ms_p99: float
    decision_ms_max: float


@dataclass(slots=True)
class ArenaReport:
    """The whole arena result; :meth:`to_dict` is the ``--json`` object."""

    engine: str
    rules: str
    mode: str
    games: int
    pairs: int
    seed: int
    jobs: int
    seconds: float
    bots: list[BotReport]
    margin_per_hand: float  # bot A's net points per hand
    margin_ci: tuple[float, float]
    pair_sweeps: tuple[int, int, int]  # pairs won twice by A, split, won twice by B
    unfinished: int
    results: list[GameResult] = field(default_factory=list, repr=False)
    ray_nodes: dict[str, int] | None = None  # chunks each Ray node computed (--ray only)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the per-game results, as JSON-ready values."""
        out: dict[str, Any] = {
            "engine": self.engine,
            "rules": self.rules,
            "mode": self.mode,
            "games": self.games,
            "pairs": self.pairs,
            "seed": self.seed,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 3),
            "margin_per_hand": self.margin_per_hand,
            "margin_ci": list(self.margin_ci),
            "pair_sweeps": list(self.pair_sweeps),
            "unfinished": self.unfinished,
            "bots": [],
        }
        if self.ray_nodes is not None:
            out["ray_nodes"] = dict(self.ray_nodes)
        for bot in self.bots:
            d = asdict(bot)
            for key in ("match_win_ci", "hand_win_ci", "net_points_ci"):
                if d[key] is not None:
                    d[key] = list(d[key])
            out["bots"].append(d)
        return out

    def text(self) -> str:
        """A plain-text table for the terminal."""
        a, b = self.bots
        lines = [
            f"arena: {a.name} vs {b.name}, {self.rules} rules, engine {self.engine}, "
            f"{self.games} {self.mode} ({self.pairs} mirrored pairs), seed {self.seed}, "
            f"{self.seconds:.1f} s",
        ]
        if self.ray_nodes:
            lines[0] += (f", on Ray: {sum(self.ray_nodes.values())} chunks on "
                         f"{len(self.ray_nodes)} node{'s' if len(self.ray_nodes) > 1 else ''}")

        def pct(x: float | None) -> str:
            return "-" if x is None else f"{100 * x:5.1f}%"

        def ci(c: tuple[float, float] | None) -> str:
            return "" if c is None else f"[{100 * c[0]:.1f}, {100 * c[1]:.1f}]"

        width = max(len(a.name), len(b.name), 4)
        rows: list[tuple[str, Callable[[BotReport], str]]] = [
            ("matches won", lambda r: f"{r.match_wins}/{r.matches} {pct(r.match_win_rate)} "
             f"{ci(r.match_win_ci)}" if r.match_win_rate is not None else "-"),
            ("hands won", lambda r: f"{r.hand_wins}/{r.hands} {pct(r.hand_win_rate)} "
             f"{ci(r.hand_win_ci)}"),
            ("points/hand", lambda r: f"{r.points_per_hand:.2f} (net {r.net_points_per_hand:+.2f} "
             f"[{r.net_points_ci[0]:+.2f}, {r.net_points_ci[1]:+.2f}])"),
            ("knock wins", lambda r: str(r.knock_wins)),
            ("gins", lambda r: str(r.gins + r.big_gins)),
            ("undercuts given", lambda r: str(r.undercuts_given)),
            ("undercuts suffered", lambda r: str(r.undercuts_suffered)),
            ("dead hands", lambda r: str(r.dead)),
            ("decision ms", lambda r: f"median {r.decision_ms_median:.3f}, "
             f"p99 {r.decision_ms_p99:.3f}, max {r.decision_ms_max:.2f} ({r.decisions})"),
        ]
        if a.ties or b.ties:
            rows.insert(7, ("ties (no score)", lambda r: str(r.ties)))
        label = max(len(r[0]) for r in rows)
        lines.append(" " * label + "  " + a.name.ljust(width + 40) + b.name)
        for name, fn in rows:
            lines.append(name.ljust(label) + "  " + fn(a).ljust(width + 40) + fn(b))
        sweeps = self.pair_sweeps
        lines.append(
            f"margin ({a.name} − {b.name}): {self.margin_per_hand:+.2f} points/hand "
            f"[{self.margin_ci[0]:+.2f}, {self.margin_ci[1]:+.2f}]; mirrored pairs "
            f"{a.name} 2–0: {sweeps[0]}, 1–1: {sweeps[1]}, {b.name} 2–0: {sweeps[2]}"
        )
        if self.unfinished:
            lines.append(f"{self.unfinished} matches unfinished after {MAX_HANDS_PER_MATCH} hands")
        return "\n".join(lines)


def _aggregate(
    names: tuple[str, str],
    results: list[GameResult],
    *,
    engine: str,
    rules_name: str,
    mode: str,
    seed: int,
    jobs: int,
    seconds: float,
) -> ArenaReport:
    results = sorted(results, key=lambda r: (r.pair, r.swapped))
    nets: tuple[list[float], list[float]] = ([], [])
    scored: tuple[list[float], list[float]] = ([], [])
    counts = [dict.fromkeys(_COUNT_KEYS, 0) for _seat in (0, 1)]
    times: tuple[list[float], list[float]] = ([], [])
    matches = [0, 0]
    match_wins = [0, 0]
    unfinished = 0
    for game in results:
        for seat in (0, 1):
            times[game.bot_of_seat(seat)].extend(game.times_ms[seat])
        if mode == "matches":
            if game.finished:
                for bot in (0, 1):
                    matches[bot] += 1
                if game.match_winner is not None:
                    match_wins[game.bot_of_seat(game.match_winner)] += 1
            else:
                unfinished += 1
        for h in game.hands:
            for seat in (0, 1):
                bot = game.bot_of_seat(seat)
                c = counts[bot]
                c["hands"] += 1
                won = h.winner == seat
                lost = h.winner is not None and not won
                gain = h.points if won else 0
                scored[bot].append(gain)
                nets[bot].append(gain - (h.points if lost else 0))
                if won:
                    c["hand_wins"] += 1
                if h.kind == "dead":
                    c["dead"] += 1
                elif h.kind == "tie" and h.knocker == seat:
                    c["ties"] += 1
                elif h.knocker == seat:
                    if h.kind == "knock" and won:
                        c["knock_wins"] += 1
                    elif h.kind == "gin":
                        c["gins"] += 1
                    elif h.kind == "big_gin":
                        c["big_gins"] += 1
                    elif h.kind == "undercut":
                        c["undercuts_suffered"] += 1
                elif h.kind == "undercut" and won:
                    c["undercuts_given"] += 1
    reports = []
    for bot in (0, 1):
        c = counts[bot]
        net, net_ci = mean_ci(nets[bot])
        ms = times[bot]
        reports.append(
            BotReport(
                name=names[bot],
                matches=matches[bot],
                match_wins=match_wins[bot],
                match_win_rate=(match_wins[bot] / matches[bot]) if matches[bot] else None,
                match_win_ci=wilson(match_wins[bot], matches[bot]) if matches[bot] else None,
                hands=c["hands"],
                hand_wins=c["hand_wins"],
                hand_win_rate=c["hand_wins"] / c["hands"] if c["hands"] else 0.0,
                hand_win_ci=wilson(c["hand_wins"], c["hands"]),
                points_per_hand=math.fsum(scored[bot]) / len(scored[bot]) if scored[bot] else 0.0,
                net_points_per_hand=net,
                net_points_ci=net_ci,
                knock_wins=c["knock_wins"],
                gins=c["gins"],
                big_gins=c["big_gins"],
                undercuts_given=c["undercuts_given"],
                undercuts_suffered=c["undercuts_suffered"],
                ties=c["ties"],
                dead=c["dead"],
                decisions=len(ms),
                decision_ms_median=percentile(ms, 0.5),
                decision_ms_p99=percentile(ms, 0.99),
                decision_ms_max=max(ms) if ms else 0.0,
            )
        )
    # Bot A's margin per hand, one value per mirrored pair so the pairing is respected.
    by_pair: dict[int, list[float]] = {}
    hands_by_pair: dict[int, int] = {}
    sweeps = [0, 0, 0]
    pair_wins: dict[int, list[int | None]] = {}
    for game in results:
        a_seat = 1 if game.swapped else 0
        total = 0.0
        for h in game.hands:
            if h.winner is not None:
                total += h.points if h.winner == a_seat else -h.points
        by_pair.setdefault(game.pair, []).append(total)
        hands_by_pair[game.pair] = hands_by_pair.get(game.pair, 0) + len(game.hands)
        if mode == "matches":
            w = None if game.match_winner is None else game.bot_of_seat(game.match_winner)
        else:
            w = None if not game.hands or game.hands[0].winner is None else (
                game.bot_of_seat(game.hands[0].winner))
        pair_wins.setdefault(game.pair, []).append(w)
    for ws in pair_wins.values():
        a = sum(1 for w in ws if w == 0)
        b = sum(1 for w in ws if w == 1)
        if a == 2:
            sweeps[0] += 1
        elif b == 2:
            sweeps[2] += 1
        elif a == 1 and b == 1:
            sweeps[1] += 1
    all_hands = sum(hands_by_pair.values())
    margin = math.fsum(sum(v) for v in by_pair.values()) / all_hands if all_hands else 0.0
    # Ratio estimator's interval: per-pair totals against per-pair hand counts.
    pairs_n = len(by_pair)
    if pairs_n > 1 and all_hands:
        mean_hands = all_hands / pairs_n
        resid = [
            (sum(by_pair[p]) - margin * hands_by_pair[p]) / mean_hands for p in sorted(by_pair)
        ]
        from statistics import stdev

        half = 1.959964 * stdev(resid) / math.sqrt(pairs_n)
    else:
        half = 0.0
    return ArenaReport(
        engine=engine,
        rules=rules_name,
        mode=mode,
        games=len(results),
        pairs=pairs_n,
        seed=seed,
        jobs=jobs,
        seconds=seconds,
        bots=reports,
        margin_per_hand=margin,
        margin_ci=(margin - half, margin + half),
        pair_sweeps=(sweeps[0], sweeps[1], sweeps[2]),
        unfinished=unfinished,
        results=results,
    )


_COUNT_KEYS = (
    "hands", "hand_wins", "knock_wins", "gins", "big_gins", "undercuts_given",
    "undercuts_suffered", "ties", "dead",
)


# -- running ------------------------------------------------------------------------------


def _spec_name(spec: BotSpec) -> str:
    return spec if isinstance(spec, str) else str(getattr(spec, "name", type(spec).__name__))


def _check_spec(spec: BotSpec, engine: str) -> None:
    if not isinstance(spec, str):
        return
    if spec == OPENSPIEL_SIMPLE:
        if engine != "openspiel":
            raise ArenaError(f"{OPENSPIEL_SIMPLE} plays only with --engine openspiel")
        return
    from .bots import make_bot

    make_bot(spec)  # raises a clear error for an unknown name


def run_arena(
    bot_a: BotSpec,
    bot_b: BotSpec,
    *,
    rules: Rules | str = "hollywood",
    matches: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    engine: str = "ours",
    progress: Callable[[int, int], None] | None = None,
    ray: str | None = None,
) -> ArenaReport:
    """Play ``matches`` matches (or ``hands`` single hands) as mirrored pairs.

    ``ray`` runs the pairs on a Ray cluster at that address (``"auto"`` joins the one in
    ``RAY_ADDRESS`` or starts a local one; extra ``cluster``) instead of local processes;
    every pair is seeded by its number, so the report is the same either way.

    Counts are rounded up to an even number (whole pairs).  Bots are names for
    :func:`hollywood_gin.bots.make_bot` (or ``openspiel-simple`` with the OpenSpiel
    engine) or :class:`~hollywood_gin.bots.Bot` objects, copied into each process.
    """
    if isinstance(rules, str):
        rules_obj = Rules.preset(rules)
        rules_name = rules
    else:
        rules_obj = rules
        rules_name = rules.preset_name or "custom"
    if matches is not None and hands is not None:
        raise ArenaError("give --matches or --hands, not both")
    if engine not in ENGINES:
        raise ArenaError(f"no engine {engine!r}; the engines are {', '.join(ENGINES)}")
    if engine == "openspiel":
        if matches is not None:
            raise ArenaError("the OpenSpiel engine plays single hands: use --hands")
        if hands is None:
            hands = 200
    if engine == "openspiel":
        rules_name = "openspiel gin_rummy defaults"
    mode = "hands" if hands is not None else "matches"
    count = hands if hands is not None else (matches if matches is not None else 100)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ArenaError(f"the number of {mode} must be a whole number, 1 or more, not {count!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ArenaError(f"--jobs must be a whole number, 1 or more, not {jobs!r}")
    for spec in (bot_a, bot_b):
        _check_spec(spec, engine)
    pairs = (count + 1) // 2
    specs = (bot_a, bot_b)
    tasks = [
        (
            _Task(specs, rules_obj, mode, engine, seed, pair, False),
            _Task(specs, rules_obj, mode, engine, seed, pair, True),
        )
        for pair in range(pairs)
    ]
    results: list[GameResult] = []
    start = time.perf_counter()
    done = 0
    ray_nodes: dict[str, int] | None = None
    if ray is not None:
        from .cluster import RayPool

        with RayPool(ray) as cluster:
            for pair_result in cluster.imap_unordered(_play_pair, tasks, chunksize=8):
                results.extend(pair_result)
                done += 1
                if progress:
                    progress(done, pairs)
        ray_nodes = dict(cluster.nodes)
    elif jobs == 1 or pairs == 1:
        for task in tasks:
            results.extend(_play_pair(task))
            done += 1
            if progress:
                progress(done, pairs)
    else:
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        chunk = max(1, min(8, pairs // (jobs * 8)))
        with ctx.Pool(min(jobs, pairs)) as pool:
            for pair_result in pool.imap_unordered(_play_pair, tasks, chunksize=chunk):
                results.extend(pair_result)
                done += 1
                if progress:
                    progress(done, pairs)
    seconds = time.perf_counter() - start
    report = _aggregate(
        (_spec_name(bot_a), _spec_name(bot_b)),
        results,
        engine=engine,
        rules_name=rules_name,
        mode=mode,
        seed=seed,
        jobs=jobs,
        seconds=seconds,
    )
    report.ray_nodes = ray_nodes
    return report


class ProgressBar:
    """A one-line progress bar on a terminal stream (or sparse lines if not a terminal)."""

    def __init__(self, stream: TextIO | None = None, label: str = "arena") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.start = time.perf_counter()
        self.tty = self.stream.isatty()
        self.last = -1.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if not self.tty and done < total and now - self.last < 10:
            return
        if self.tty and done < total and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * done // total
        elapsed = now - self.start
        eta = elapsed / done * (total - done) if done else 0.0
        line = (f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} pairs "
                f"{elapsed:.0f}s elapsed, {eta:.0f}s left")
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done == total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def plot_report(report: ArenaReport, path: str) -> None:
    """Save a picture of the report (needs the ``plot`` extra: matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ArenaError(
            "--plot needs matplotlib, which is not installed: "
            "pip install 'hollywood-gin[plot]' (or pip install matplotlib)"
        ) from None
    a, b = report.bots
    names = [a.name, b.name]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    ax = axes[0]
    labels, rates, errs = [], [], []
    for what, rate, ci in (
        ("matches", a.match_win_rate, a.match_win_ci),
        ("hands", a.hand_win_rate, a.hand_win_ci),
    ):
        if rate is None or ci is None:
            continue
        labels.append(what)
        rates.append(rate)
        errs.append((rate - ci[0], ci[1] - rate))
    ax.bar(labels, rates, yerr=list(zip(*errs, strict=True)) if errs else None, capsize=6,
           color="tab:blue")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_title(f"{a.name} win rate vs {b.name} (95% Wilson)")
    ax = axes[1]
    ppl = [a.points_per_hand, b.points_per_hand]
    ax.bar(names, ppl, color=["tab:blue", "tab:orange"])
    ax.set_title(f"points per hand (margin {report.margin_per_hand:+.2f})")
    ax = axes[2]
    kinds = ["knock_wins", "gins", "undercuts_given", "undercuts_suffered"]
    x = range(len(kinds))
    ax.bar([i - 0.2 for i in x], [getattr(a, k) for k in kinds], width=0.4, label=a.name)
    ax.bar([i + 0.2 for i in x], [getattr(b, k) for k in kinds], width=0.4, label=b.name)
    ax.set_xticks(list(x), ["knock", "gin", "undercut\ngiven", "undercut\nsuffered"])
    ax.legend()
    ax.set_title(f"how hands ended ({a.dead} dead of {a.hands})")
    fig.suptitle(f"{report.rules} rules, {report.games} {report.mode}, seed {report.seed}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# -- the command --------------------------------------------------------------------------


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``arena`` subcommand to the main command line."""
    from .bots import BOT_NAMES
    from .cli import add_rules_arguments, whole, writable_file

    parser = subparsers.add_parser(
        "arena",
        # Translators: the arena command's line in `hollywood-gin --help` (its own --help, a
        # research tool's, stays English).
        help=_("play two bots against each other on mirrored deals"),
        description="Play two bots on mirrored deals (each deal twice, seats swapped) in "
        "parallel processes and report wins with 95% Wilson intervals, points per hand, "
        "how hands ended and decision times.  Bots: " + ", ".join(BOT_NAMES)
        + f", and {OPENSPIEL_SIMPLE} with --engine openspiel.",
    )
    parser.add_argument("bot_a", metavar="BOT", help="the first bot")
    parser.add_argument("bot_b", metavar="BOT", help="the second bot")
    add_rules_arguments(parser, what="the rules (the OpenSpiel engine always plays its own "
                        "gin_rummy defaults)")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--matches", type=whole(1), metavar="N",
                       help="matches to play (default 100)")
    count.add_argument("--hands", type=whole(1), metavar="N",
                       help="single hands to play instead of matches")
    parser.add_argument("--seed", type=whole(0, 2**63 - 1), default=0, metavar="N",
                        help="seed of every deal (default 0)")
    parser.add_argument("--jobs", type=whole(1, 256), default=1, metavar="N",
                        help="parallel processes (default 1)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="run on a Ray cluster ('auto': $RAY_ADDRESS or a local Ray; "
                        "needs the 'cluster' extra) instead of --jobs local processes")
    parser.add_argument("--engine", choices=ENGINES, default="ours",
                        help="'openspiel' plays single hands in OpenSpiel's gin_rummy")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", metavar="FILE", type=writable_file,
                        help="save a picture of the results (needs the 'plot' extra)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the ``arena`` command; returns the exit code."""
    from .cli import rules_of

    # Optional layers the options need, imported before any game is played: a missing one
    # is a ModuleNotFoundError that the CLI turns into the extra to install.
    if args.plot:
        import matplotlib  # noqa: F401
    if args.ray:
        import ray  # noqa: F401
    if args.engine == "openspiel":
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    bar = None if args.quiet else ProgressBar()
    report = run_arena(
        args.bot_a,
        args.bot_b,
        rules=rules_of(args),
        matches=args.matches,
        hands=args.hands,
        seed=args.seed,
        jobs=args.jobs,
        engine=args.engine,
        progress=bar,
        ray=args.ray,
    )
    if args.plot:
        plot_report(report, args.plot)
    if args.json:
        import json

        print(json.dumps(report.to_dict()))
    else:
        print(report.text())
    return 0


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m hollywood_gin.arena`` without the main command."""
    parser = argparse.ArgumentParser(prog="hollywood-gin")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        code: int = args.func(args)
    except HollywoodGinError as exc:
        print(f"hollywood-gin: error: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
