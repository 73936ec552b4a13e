"""The arena's report: per bot, wins with intervals, points, endings and decision
times; as text, JSON or a picture."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from .games import MAX_HANDS_PER_MATCH, ArenaError, GameResult
from .stats import mean_ci, percentile, wilson


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
    margin_ci: tuple[float, float] | None  # None from one pair: no spread to measure
    pair_sweeps: tuple[int, int, int]  # pairs won twice by A, split, won twice by B
    unfinished: int
    results: list[GameResult] = field(default_factory=list, repr=False)
    ray_nodes: dict[str, int] | None = None  # chunks each Ray node computed (--ray only)
    interrupted: bool = False  # stopped (Ctrl+C) with ``pairs`` of ``planned`` played
    planned: int = 0

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
            "margin_ci": None if self.margin_ci is None else list(self.margin_ci),
            "pair_sweeps": list(self.pair_sweeps),
            "unfinished": self.unfinished,
            "bots": [],
        }
        if self.ray_nodes is not None:
            out["ray_nodes"] = dict(self.ray_nodes)
        if self.interrupted:
            out["interrupted"] = {"pairs_played": self.pairs, "pairs_asked": self.planned}
        for bot in self.bots:
            d = asdict(bot)
            for key in ("match_win_ci", "hand_win_ci", "net_points_ci"):
                if d[key] is not None:
                    d[key] = list(d[key])
            out["bots"].append(d)
        return out

    def text(self, width: int = 80) -> str:
        """A plain-text table for the terminal, within ``width`` columns (the two bots side
        by side; a name longer than its column is said above the table, and the columns
        headed A and B)."""
        a, b = self.bots
        rules = self.rules if self.engine == "openspiel" else f"{self.rules} rules"
        head = (f"arena: {a.name} vs {b.name}, {rules}, engine {self.engine}, "
                f"{self.games} {self.mode} ({self.pairs} mirrored "
                f"{'pair' if self.pairs == 1 else 'pairs'}), seed {self.seed}, "
                f"{self.seconds:.1f} s")
        if self.ray_nodes:
            head += (f", on Ray: {sum(self.ray_nodes.values())} chunks on "
                     f"{len(self.ray_nodes)} node{'s' if len(self.ray_nodes) > 1 else ''}")
        if self.interrupted:
            head += f"; interrupted: {self.pairs} pairs played of the {self.planned} asked"
        lines = textwrap.wrap(head, width, subsequent_indent="  ")

        def pct(x: float | None) -> str:
            return "-" if x is None else f"{100 * x:.1f}%"

        def ci(c: tuple[float, float] | None) -> str:
            return "" if c is None else f" [{100 * c[0]:.1f}, {100 * c[1]:.1f}]"

        rows: list[tuple[str, Callable[[BotReport], str]]] = [
            ("matches won", lambda r: f"{r.match_wins}/{r.matches} {pct(r.match_win_rate)}"
             f"{ci(r.match_win_ci)}" if r.match_win_rate is not None else "-"),
            ("hands won", lambda r: f"{r.hand_wins}/{r.hands} {pct(r.hand_win_rate)}"
             f"{ci(r.hand_win_ci)}"),
            ("points/hand", lambda r: f"{r.points_per_hand:.2f}"),
            ("net points/hand", lambda r: f"{r.net_points_per_hand:+.2f} "
             f"[{r.net_points_ci[0]:+.2f}, {r.net_points_ci[1]:+.2f}]"),
            ("knock wins", lambda r: str(r.knock_wins)),
            ("gins", lambda r: str(r.gins + r.big_gins)),
            ("undercuts given", lambda r: str(r.undercuts_given)),
            ("undercuts suffered", lambda r: str(r.undercuts_suffered)),
            ("dead hands", lambda r: str(r.dead)),
            ("decisions", lambda r: str(r.decisions)),
            ("decision ms median", lambda r: f"{r.decision_ms_median:.3f}"),
            ("decision ms p99", lambda r: f"{r.decision_ms_p99:.3f}"),
            ("decision ms max", lambda r: f"{r.decision_ms_max:.2f}"),
        ]
        if a.ties or b.ties:
            rows.insert(9, ("ties (no score)", lambda r: str(r.ties)))
        label = max(len(r[0]) for r in rows)
        cells = [(name, fn(a), fn(b)) for name, fn in rows]
        col = max(len(c) for _n, x, y in cells for c in (x, y))
        names = (a.name, b.name)
        if max(len(n) for n in names) > col:  # "expert:samples=48,...": said above, by letter
            lines += [f"A = {a.name}", f"B = {b.name}"]
            names = ("A", "B")
        col = max(col, *(len(n) for n in names))
        lines.append(" " * label + "  " + names[0].ljust(col) + "  " + names[1])
        lines += [f"{name.ljust(label)}  {x.ljust(col)}  {y}" for name, x, y in cells]
        sweeps = self.pair_sweeps
        spread = ("(no interval from one pair)" if self.margin_ci is None
                  else f"[{self.margin_ci[0]:+.2f}, {self.margin_ci[1]:+.2f}]")
        lines += textwrap.wrap(
            f"margin ({a.name} − {b.name}): {self.margin_per_hand:+.2f} points/hand {spread}; "
            f"mirrored pairs {a.name} 2–0: {sweeps[0]}, 1–1: {sweeps[1]}, {b.name} 2–0: "
            f"{sweeps[2]}", width, subsequent_indent="  ", break_on_hyphens=False)
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
        margin_ci: tuple[float, float] | None = (margin - half, margin + half)
    else:
        margin_ci = None
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
        margin_ci=margin_ci,
        pair_sweeps=(sweeps[0], sweeps[1], sweeps[2]),
        unfinished=unfinished,
        results=results,
    )


_COUNT_KEYS = (
    "hands", "hand_wins", "knock_wins", "gins", "big_gins", "undercuts_given",
    "undercuts_suffered", "ties", "dead",
)



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

