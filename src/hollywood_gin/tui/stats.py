"""Statistics of the matches played against the computer, and exporting one as a record.

Everything is read from the saved-games store: the match rows (level,
assisted, winner, totals), the hands table (kind, winner of each ended
hand) and the kept game reviews' summaries (accuracy over time, per level: see
:mod:`hollywood_gin.review.saved` for why a match enters it once it is reviewed, never
reviewed here).  The person is player 0 in every stored match against the computer.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.cells import cell_len

from ..cli import wrap_line
from ..errors import HollywoodGinError
from ..i18n import _, ngettext, pgettext
from ..record import save_record
from ..store import Store, StoredMatch

__all__ = ["AccuracyPoint", "LevelStats", "Stats", "export_match", "find_match", "gather",
           "plot_accuracy", "render", "sparkline"]

HUMAN = 0


@dataclass(slots=True)
class LevelStats:
    """Counts for the matches against one level of the computer."""

    matches: int = 0
    finished: int = 0
    won: int = 0
    hands: int = 0
    hands_won: int = 0
    assisted: int = 0
    abandoned: int = 0  # given up in words: each counts as a lost match


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One finished match, for best and worst."""

    id: str
    level: int
    result: int  # your total minus the computer's (R7.5)
    won: bool
    when: float


@dataclass(frozen=True, slots=True)
class AccuracyPoint:
    """One reviewed finished match: when it ended and the person's accuracy in it (0-100)."""

    match_id: str
    when: float
    accuracy: float
    decisions: int
    points_lost: float


@dataclass(slots=True)
class Stats:
    """The numbers ``hollywood-gin stats`` prints."""

    levels: dict[int, LevelStats] = field(default_factory=dict)
    gins: int = 0
    gins_suffered: int = 0
    undercuts_given: int = 0
    undercuts_suffered: int = 0
    dead_hands: int = 0
    best: MatchLine | None = None
    worst: MatchLine | None = None
    longest_streak: int = 0
    current_streak: int = 0
    recent: list[dict[str, Any]] = field(default_factory=list)
    #: By level, the reviewed finished matches, oldest first.
    accuracy: dict[int, list[AccuracyPoint]] = field(default_factory=dict)
    #: Finished matches not reviewed yet (no accuracy for them).
    unreviewed: int = 0
    #: Why each saved match that cannot be read is left out (one must not hide the rest).
    damaged: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["levels"] = {str(k): v for k, v in data["levels"].items()}
        data["accuracy"] = {str(k): v for k, v in data["accuracy"].items()}
        return data


def _level(row: StoredMatch) -> int:
    try:
        return int(row.meta.get("level", 0))
    except (TypeError, ValueError):
        return 0


def gather(store: Store, *, recent: int = 10) -> Stats:
    """Count everything over the stored matches against the computer."""
    stats = Stats()
    rows = store.matches(kind="computer", damaged=stats.damaged)
    hands_by_match: dict[str, list[dict[str, Any]]] = {}
    for hand in store.all_hands():
        hands_by_match.setdefault(str(hand["match_id"]), []).append(hand)
    finished: list[MatchLine] = []
    outcomes: list[tuple[float, bool]] = []  # (when, won) of every decided match
    for row in rows:
        level = _level(row)
        per = stats.levels.setdefault(level, LevelStats())
        per.matches += 1
        if row.meta.get("assisted"):
            per.assisted += 1
        for hand in hands_by_match.get(row.id, []):
            per.hands += 1
            winner, kind = hand["winner"], hand["kind"]
            if winner == HUMAN:
                per.hands_won += 1
            if kind in ("gin", "big_gin"):
                if winner == HUMAN:
                    stats.gins += 1
                else:
                    stats.gins_suffered += 1
            elif kind == "undercut":  # the defender undercut the knocker (R5.6)
                if winner == HUMAN:
                    stats.undercuts_given += 1
                else:
                    stats.undercuts_suffered += 1
            elif kind == "dead":
                stats.dead_hands += 1
        if row.status == "finished" and row.totals is not None:
            per.finished += 1
            won = row.winner == HUMAN
            per.won += won
            result = row.totals[HUMAN] - row.totals[1 - HUMAN]
            finished.append(MatchLine(row.id, level, result, won, row.updated_at))
            outcomes.append((row.updated_at, won))
        elif row.status == "abandoned":  # "Abandon this match? It will count as a loss."
            per.abandoned += 1
            outcomes.append((row.updated_at, False))
    if finished:
        stats.best = max(finished, key=lambda m: (m.result, -m.when))
        stats.worst = min(finished, key=lambda m: (m.result, m.when))
    streak = 0
    for _when, won in sorted(outcomes):
        streak = streak + 1 if won else 0
        stats.longest_streak = max(stats.longest_streak, streak)
    stats.current_streak = streak
    for row in rows[:recent]:
        stats.recent.append({
            "id": row.id,
            "level": _level(row),
            "status": row.status,
            "totals": list(row.totals) if row.totals else None,
            "winner": row.winner,
            "assisted": bool(row.meta.get("assisted")),
            "hands": len(hands_by_match.get(row.id, [])),
            "updated_at": row.updated_at,
        })
    stats.levels = dict(sorted(stats.levels.items()))
    _gather_accuracy(store, stats, rows, hands_by_match)
    return stats


def _gather_accuracy(store: Store, stats: Stats, rows: list[StoredMatch],
                     hands_by_match: dict[str, list[dict[str, Any]]]) -> None:
    """Accuracy per level over time, from the reviews kept in the store (never made here:
    a match review costs about thirty seconds of CPU)."""
    from ..review.saved import match_accuracies

    finished = {row.id: row for row in rows if row.status == "finished"}
    if not finished:
        return
    counts = {match_id: len(hands_by_match.get(match_id, [])) for match_id in finished}
    found = match_accuracies(store.review_rows(list(finished)), counts)
    series: dict[int, list[AccuracyPoint]] = {}
    for match_id, row in finished.items():
        acc = found.get((match_id, HUMAN))
        if acc is None:
            stats.unreviewed += 1
            continue
        series.setdefault(_level(row), []).append(AccuracyPoint(
            match_id, row.updated_at, acc.accuracy, acc.decisions, acc.points_lost))
    stats.accuracy = {level: sorted(points, key=lambda p: p.when)
                      for level, points in sorted(series.items())}


_BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float], low: float = 0.0, high: float = 100.0) -> str:
    """Values as a line of block characters, one a value (``low`` the lowest block)."""
    out = []
    for v in values:
        share = (min(max(v, low), high) - low) / (high - low) if high > low else 0.0
        out.append(_BARS[min(len(_BARS) - 1, int(share * len(_BARS)))])
    return "".join(out)


#: The most matches a sparkline shows (the latest ones).
SPARK_LENGTH = 30


def _accuracy_lines(stats: Stats) -> list[str]:
    lines = ["", _("Accuracy of your decisions (game review, 0 to 100), oldest to newest:")]
    if not stats.accuracy:
        lines.append("  " + _("No match reviewed yet: press Review (v) at a match's end, or "
                              "run hollywood-gin stats --review ID."))
    # Labels padded by the cells they take, to the widest (Hausa's "mataki na 1" ran into
    # its bars at 9); what follows the bars goes under them where the line would pass 76
    # columns (it wrapped under every level; a QA pass).
    labels = {level: _("level {n}").format(n=level) for level in stats.accuracy}
    width = max((cell_len(label) for label in labels.values()), default=0) + 1
    for level, points in stats.accuracy.items():
        values = [p.accuracy for p in points][-SPARK_LENGTH:]
        mean = sum(values) / len(values)
        count = ngettext("{n} match", "{n} matches", len(points)).format(n=len(points))
        label = labels[level] + " " * (width - cell_len(labels[level]))
        bars = sparkline(values).ljust(SPARK_LENGTH + 1)
        said = _("latest {last:.0f}, mean {mean:.0f} ({count})").format(
            last=values[-1], mean=mean, count=count)
        if cell_len("  " + label + bars + said) <= TABLE_MOST:
            lines.append("  " + label + bars + said)
        else:
            lines += ["  " + label + bars.rstrip(), "  " + " " * width + said]
    if stats.unreviewed and stats.accuracy:
        lines.append("  " + ngettext(
            "{n} finished match is not reviewed yet (hollywood-gin stats --review ID).",
            "{n} finished matches are not reviewed yet (hollywood-gin stats --review ID).",
            stats.unreviewed).format(n=stats.unreviewed))
    return lines


def plot_accuracy(stats: Stats, path: str) -> None:
    """A PNG of the accuracy of each reviewed match over time, a line per level (needs the
    ``plot`` extra: a missing matplotlib raises ModuleNotFoundError, which the CLI names)."""
    from datetime import datetime

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for level, points in stats.accuracy.items():
        when: list[Any] = [datetime.fromtimestamp(p.when) for p in points]
        ax.plot(when, [p.accuracy for p in points], marker="o",
                label=_("level {n}").format(n=level))
    ax.set_ylim(0, 100)
    ax.set_ylabel(_("accuracy (0 to 100)"))
    ax.set_title(_("Accuracy of your decisions per match, by the computer's level"))
    if stats.accuracy:
        ax.legend()
    else:
        ax.text(0.5, 0.5, _("No match reviewed yet"), ha="center", va="center",
                transform=ax.transAxes)
    fig.autofmt_xdate()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


def match_outcome(won: bool) -> str:
    """One match's outcome, "won" or "lost" (a form of its own: one match, not a column of
    them)."""
    # Translators: the outcome of one match (Lithuanian: serija laimėta, pralaimėta).
    return pgettext("match", "won") if won else pgettext("match", "lost")


#: The widest the levels' table may be in one piece: an 80-column terminal's statistics box.
TABLE_MOST = 76


def render(stats: Stats, width: int | None = None) -> str:
    """Plain text for the terminal (a match given up counts as lost); with ``width``, its
    sentences wrapped to that many columns (a screen's widget wraps them itself)."""
    left_out = [_("A saved match is damaged and left out: {error}").format(error=error)
                for error in stats.damaged]
    if not stats.levels:
        return "\n".join([*left_out, _("No matches played yet. Start one with: {command}")
                          .format(command="hollywood-gin play")])
    lines = [*left_out, _("Matches against the computer"), ""]
    # Translators: "won" and "given up" head the columns of matches, "won" that of hands,
    # in the grammatical form each noun asks for (Lithuanian: serijos laimėtos, raundai
    # laimėti).
    head = (_("level"), _("matches"), _("finished"), _("given up"),
            pgettext("matches", "won"), _("win%"), _("hands"), pgettext("hands", "won"),
            _("win%"), _("assisted"))
    # A column is as wide as its heading in the player's language, one space before it.
    # (counted in cells: Lao's headings have marks that take none, and were set left of
    # their numbers; a QA pass)
    widths = tuple(max(w, cell_len(h) + (1 if i else 2))
                   for i, (h, w) in enumerate(zip(head, (6, 8, 9, 9, 5, 6, 7, 5, 6, 9),
                                                  strict=True)))
    rows: list[tuple[str, ...]] = [head]
    for level, s in stats.levels.items():
        decided = s.finished + s.abandoned  # a match given up counts as lost
        rows.append(tuple(str(c) for c in (
            level or "?", s.matches, s.finished, s.abandoned, s.won, _pct(s.won, decided),
            s.hands, s.hands_won, _pct(s.hands_won, s.hands), s.assisted)))
    # One table where it fits an 80-column terminal (its box), else the matches' columns
    # and the hands' under each other: a wrapped row put numbers under "level".
    parts = [range(10)] if sum(widths) <= TABLE_MOST else [range(6), (0, 6, 7, 8, 9)]

    def cell(text: str, i: int) -> str:
        pad = " " * (widths[i] - cell_len(text))
        return text + pad if i == 0 else pad + text

    for n, part in enumerate(parts):
        if n:
            lines.append("")
        for row in rows:
            lines.append("".join(cell(row[i], i) for i in part))
    lines.append("")
    lines.append(_("Gins: {yours} yours, {theirs} against you").format(
        yours=stats.gins, theirs=stats.gins_suffered))
    lines.append(_("Undercuts: {given} given, {suffered} suffered").format(
        given=stats.undercuts_given, suffered=stats.undercuts_suffered))
    lines.append(_("Dead hands: {n}").format(n=stats.dead_hands))
    for label, line in ((_("Best match"), stats.best), (_("Worst match"), stats.worst)):
        if line is not None:
            outcome = match_outcome(line.won)
            lines.append(_("{label}: {result:+d} against level {level} ({outcome}, id {id})")
                         .format(label=label, result=line.result, level=line.level,
                                 outcome=outcome, id=line.id[:8]))
    lines.append(_("Longest win streak: {longest} (current {current})").format(
        longest=stats.longest_streak, current=stats.current_streak))
    lines += _accuracy_lines(stats)
    if stats.recent:
        # Translators: {export} and {review} are command lines to type as they are.
        lines += ["", _("Recent matches (export one with: {export}; review one with: "
                        "{review})").format(export="hollywood-gin stats --export ID FILE",
                                            review="hollywood-gin stats --review ID")]
        status = {"playing": _("playing"), "abandoned": pgettext("match", "given up")}
        outcomes = [({0: match_outcome(True), 1: match_outcome(False)}.get(m["winner"], "")
                     if m["status"] == "finished" else status.get(m["status"], m["status"]))
                    for m in stats.recent]
        wide = max(cell_len(o) for o in outcomes)  # the totals in line whatever the words
        for m, outcome in zip(stats.recent, outcomes, strict=True):
            totals = "–" if m["totals"] is None else f"{m['totals'][0]}–{m['totals'][1]}"
            assisted = " " + _("assisted") if m["assisted"] else ""
            hands = ngettext("{n} hand", "{n} hands", m["hands"]).format(n=m["hands"])
            at_level = _("level {n}").format(n=m["level"])
            outcome += " " * (wide - cell_len(outcome))
            lines.append(f"  {m['id'][:8]}  {at_level}  {outcome} {totals:>9}  "
                         f"{hands}{assisted}")
    if width is None:
        return "\n".join(lines)
    # a terminal of ``width`` columns: a long sentence wraps, under its own indent
    return "\n".join(wrapped for text in lines for wrapped in wrap_line(text, width))


def render_json(stats: Stats) -> str:
    return json.dumps(stats.to_json(), indent=1)


def find_match(store: Store, prefix: str) -> StoredMatch:
    """A stored match by its id or a unique beginning of it."""
    prefix = prefix.strip().lower()
    if len(prefix) < 4:
        raise HollywoodGinError(_("match id {id!r} is too short: give at least 4 characters")
                                .format(id=prefix))
    found = [row for row in store.matches() if row.id.startswith(prefix)]
    if not found:
        raise HollywoodGinError(_("no saved match has an id starting {id!r}").format(id=prefix))
    if len(found) > 1:
        raise HollywoodGinError(ngettext(
            "{n} saved match has an id starting {id!r}; give more characters",
            "{n} saved matches have ids starting {id!r}; give more characters",
            len(found)).format(n=len(found), id=prefix))
    return found[0]


def export_match(store: Store, prefix: str, path: str | Path) -> str:
    """Write a match's record (record.py format, replayable) and return its full id."""
    row = find_match(store, prefix)
    if row.kind == "keeper":
        raise HollywoodGinError(
            _("match {id} is a score-keeper sheet: it has no cards or actions to record")
            .format(id=row.id[:8]))
    if row.status == "playing":  # its seed and the hand's deck would show the cards
        raise HollywoodGinError(
            _("match {id} is still being played: its record would show the cards still "
              "hidden (R3.4); finish or abandon it first").format(id=row.id[:8]))
    persistent = store.open_match(row.id)
    save_record(persistent.match, path, players=persistent.players)
    return row.id
