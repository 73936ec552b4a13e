"""What a hand's result is worth on the score sheet, for bots that weigh the match.

A hand's points are not its value: near the target a small knock wins the game,
and under Hollywood scoring a hand that closes a column, or that saves a shutout,
moves the match far more than its points.  :class:`SheetValue` prices a hand's
result as the change in the chance of winning the match (from a match-equity
table of one game to the target) plus a little of the change in the totals.
"""

from __future__ import annotations

from functools import lru_cache

from ..sheet import ScoreSheet

__all__ = ["SheetValue", "game_equity"]

# Points of a won hand and how often they come up, from basic-against-greedy play.
_HAND_POINTS: tuple[tuple[int, float], ...] = (
    (3, 0.10), (6, 0.14), (9, 0.14), (12, 0.12), (15, 0.10), (19, 0.09),
    (24, 0.07), (30, 0.08), (36, 0.07), (44, 0.05), (55, 0.03), (70, 0.01),
)  # fmt: skip

#: Weight of the match-winning chance against one point of total, in points.
MATCH_WEIGHT = 100.0
POINT_WEIGHT = 0.25


@lru_cache(maxsize=8)
def _equity_table(target: int, share: float = 0.5) -> tuple[tuple[float, ...], ...]:
    """``table[x][y]``: the chance of reaching the target first needing ``x`` more points
    against an opponent needing ``y``, each decided hand won by me with chance ``share``
    (even odds by default)."""
    n = target + 1
    table = [[0.0] * n for _ in range(n)]
    for x in range(n):
        for y in range(n):
            if x == 0:
                table[x][y] = 1.0
                continue
            if y == 0:
                table[x][y] = 0.0
                continue
            total = 0.0
            for k, q in _HAND_POINTS:
                won, lost = table[max(0, x - k)][y], table[x][max(0, y - k)]
                total += q * (share * won + (1 - share) * lost)
            table[x][y] = total
    return tuple(tuple(row) for row in table)


def game_equity(mine: int, theirs: int, target: int, share: float = 0.5) -> float:
    """The chance of winning one game to ``target`` from ``mine`` against ``theirs``, each
    hand won with chance ``share``."""
    table = _equity_table(target, share)
    return table[max(0, target - mine)][max(0, target - theirs)]


class SheetValue:
    """Prices hand results for one player on one sheet; cached for a decision."""

    __slots__ = ("_base", "_cache", "player", "point_weight", "share", "sheet")

    def __init__(self, sheet: ScoreSheet | None, player: int, *,
                 point_weight: float = POINT_WEIGHT, share: float = 0.5) -> None:
        self.sheet = sheet
        self.player = player
        self.point_weight = point_weight
        self.share = share
        self._cache: dict[tuple[int, int], float] = {}
        self._base = self._position(sheet) if sheet is not None and not sheet.finished else 0.0

    def _position(self, sheet: ScoreSheet) -> float:
        me = self.player
        target = sheet.rules.game_target
        chances = []
        for col in sheet.columns:
            if col.winner is not None:
                chances.append(1.0 if col.winner == me else 0.0)
            else:
                chances.append(game_equity(col.points[me], col.points[1 - me], target,
                                              self.share))
        p = _majority(chances)
        totals = sheet.totals
        return MATCH_WEIGHT * p + self.point_weight * (totals[me] - totals[1 - me])

    def value(self, winner: int | None, points: int) -> float:
        """The worth to ``player`` of a hand won by ``winner`` for ``points`` (None: dead)."""
        if winner is None or points <= 0:
            return 0.0
        sheet = self.sheet
        if sheet is None or sheet.finished:
            return float(points) if winner == self.player else -float(points)
        key = (winner, points)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        after = sheet.copy()
        after.record(winner, points)
        v = self._position(after) - self._base
        self._cache[key] = v
        return v


def _majority(chances: list[float]) -> float:
    """The chance of winning more than half of independent games with these chances."""
    n = len(chances)
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    need = n // 2 + 1
    win = sum(dist[need:])
    if n % 2 == 0:
        win += 0.5 * dist[n // 2]
    return win
