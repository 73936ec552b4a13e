"""The Hollywood scoresheet (the rule book §7, R8.2, R8.3): several games scored at once.

The sheet is driven only by won hands: ``record(player, points)``.  Its state is a
tuple of frozen :class:`Column` snapshots plus the log of :class:`SheetEntry`
values, so copying is cheap and ``undo`` simply replays the log without its last
entry — the log is the single source of truth, and a saved sheet is just the log.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import HollywoodGinError
from .i18n import _, is_you, ngettext
from .rules import Rules

__all__ = ["Column", "Pair", "ScoreSheet", "SheetEntry", "SheetError"]

Pair = tuple[int, int]
"""Two numbers, player 0's first."""

_DEFAULT_RULES = Rules()


class SheetError(HollywoodGinError):
    """A hand cannot be recorded (bad player or points, finished sheet) or a saved sheet is bad."""


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One recorded won hand and what it did, so a score keeper can say it back to the players."""

    player: int
    points: int
    columns: tuple[int, ...]  # indexes of the columns the hand was entered in (R7.2)
    closed: tuple[int, ...]  # indexes of the columns this hand closed (R7.3)


@dataclass(frozen=True, slots=True)
class Column:
    """A frozen snapshot of one game on the sheet; a new one replaces it after every hand."""

    points: Pair = (0, 0)  # hand scores only: what counts towards game_target (R7.3, R7.4)
    boxes: Pair = (0, 0)  # won hands entered in this column, per player (R7.4, R8.2)
    winner: int | None = None  # set when the column closes (R7.3)
    bonuses: Pair = (0, 0)  # game + box bonuses, fixed when the column closes (R7.4)

    @property
    def closed(self) -> bool:
        """A column is closed exactly when it has a winner (R7.3)."""
        return self.winner is not None

    @property
    def shutout(self) -> bool:
        """Closed with the loser on 0 points in this column (R7.4)."""
        return self.winner is not None and self.points[1 - self.winner] == 0

    @property
    def total(self) -> Pair:
        """Points plus bonuses; bonuses are zero while the column is open (R7.4, R7.5)."""
        return (self.points[0] + self.bonuses[0], self.points[1] + self.bonuses[1])


def _add(pair: Pair, player: int, amount: int) -> Pair:
    return (pair[0] + amount, pair[1]) if player == 0 else (pair[0], pair[1] + amount)


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True is no player and no score.
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """``repr(value)`` for an error message, but a huge int is not spelt out (``repr`` refuses
    more than 4,300 digits, and no one reads 30)."""
    if _is_int(value) and abs(value) >= 10**15:  # type: ignore[arg-type]
        return ("-" if value < 0 else "") + "10**15 or more"  # type: ignore[operator]
    return repr(value)


class ScoreSheet:
    """A Hollywood scoresheet: mutable, cheap to copy, undoable, saved as its log of won hands."""

    __slots__ = ("_columns", "_entries", "_rules")

    def __init__(self, rules: Rules = _DEFAULT_RULES) -> None:
        if not isinstance(rules, Rules):
            raise SheetError(f"rules must be a Rules value, not {type(rules).__name__}")
        self._rules = rules
        # R7.1: every column starts open at 0–0 (option `columns`).
        self._columns: tuple[Column, ...] = (Column(),) * rules.columns
        self._entries: list[SheetEntry] = []

    # -- recording ---------------------------------------------------------------------------

    def record(self, player: int, points: int) -> SheetEntry:
        """Enter a won hand (R7.2), close what it takes to the target (R7.3, R8.3), add bonuses.

        All checks come before any change, so a refused hand leaves the sheet as it was.
        """
        if not _is_int(player) or player not in (0, 1):
            raise SheetError(f"player must be 0 or 1, not {_shown(player)}")
        if not _is_int(points) or points < 1:
            # R5.8: a won hand always scores at least 1.
            raise SheetError(
                _("points must be a whole number, 1 or more, not {points}").format(
                    points=_shown(points)))
        if self.finished:
            raise SheetError(
                # Translators: {columns} is 1 to 5 (the rule option `columns`).
                ngettext("cannot record {points} for player {player}: the sheet is finished "
                         "(its {columns} column is closed, R7.5)",
                         "cannot record {points} for player {player}: the sheet is finished "
                         "(all {columns} columns are closed, R7.5)", len(self._columns))
                .format(points=points, player=player, columns=len(self._columns))
            )
        rules = self._rules
        cols = list(self._columns)
        entered = self._columns_entered(player)
        closed: list[int] = []
        for i in entered:
            c = cols[i]
            pts = _add(c.points, player, points)
            boxes = _add(c.boxes, player, 1)
            if pts[player] >= rules.game_target:
                # R7.3: it closes at once; only this hand's winner gained, so he wins the game.
                # R7.4: bonuses are added now, and never count towards game_target.
                shutout = pts[1 - player] == 0
                game = rules.shutout_game_bonus if shutout else rules.game_bonus
                bonuses = _add(
                    (boxes[0] * rules.box_bonus, boxes[1] * rules.box_bonus), player, game
                )
                cols[i] = Column(pts, boxes, player, bonuses)
                closed.append(i)
            else:
                cols[i] = Column(pts, boxes)
        entry = SheetEntry(player, points, tuple(entered), tuple(closed))
        self._columns = tuple(cols)
        self._entries.append(entry)
        return entry

    def _columns_entered(self, player: int) -> list[int]:
        """The columns a won hand of ``player`` enters, decided before the hand (R7.2, R8.3)."""
        cols = self._columns
        open_idx = [i for i, c in enumerate(cols) if not c.closed]
        if self._rules.entry_rule == "by_count":
            # R7.2 option by_count: his n-th win enters games 1..n, open ones only, so a
            # first win after game 1 has closed enters nowhere.
            wins = 1 + sum(1 for e in self._entries if e.player == player)
            return [i for i in open_idx if i < wins]
        # R7.2 traditional: every open column where the winner already has an entry, and
        # the first open column where he has none.
        has_entry = [i for i in open_idx if cols[i].boxes[player] > 0]
        first_without = next((i for i in open_idx if cols[i].boxes[player] == 0), None)
        return sorted(has_entry + ([] if first_without is None else [first_without]))

    def undo(self) -> SheetEntry:
        """Remove the last recorded hand by replaying the rest of the log; returns that hand."""
        if not self._entries:
            raise SheetError(_("nothing to undo: no hand has been recorded"))
        removed = self._entries[-1]
        fresh = ScoreSheet(self._rules)
        for e in self._entries[:-1]:
            fresh.record(e.player, e.points)
        self._columns, self._entries = fresh._columns, fresh._entries
        return removed

    def copy(self) -> ScoreSheet:
        """An independent sheet; the columns and entries are frozen, so sharing them is safe."""
        other = ScoreSheet.__new__(ScoreSheet)
        other._rules = self._rules
        other._columns = self._columns
        other._entries = list(self._entries)
        return other

    # -- reading -----------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def columns(self) -> tuple[Column, ...]:
        return self._columns

    @property
    def entries(self) -> tuple[SheetEntry, ...]:
        return tuple(self._entries)

    @property
    def totals(self) -> Pair:
        """Each player's sum of column totals, bonuses included (R7.5)."""
        return (sum(c.total[0] for c in self._columns), sum(c.total[1] for c in self._columns))

    @property
    def games_won(self) -> Pair:
        return (
            sum(1 for c in self._columns if c.winner == 0),
            sum(1 for c in self._columns if c.winner == 1),
        )

    @property
    def finished(self) -> bool:
        """The match ends when every column is closed (R7.5)."""
        return all(c.closed for c in self._columns)

    @property
    def winner(self) -> int | None:
        """Once finished: more games won (R7.5); equal games (even `columns`) go to the higher
        total; None if that is equal too, or while the match is still on."""
        if not self.finished:
            return None
        games, totals = self.games_won, self.totals
        if games[0] != games[1]:
            return 0 if games[0] > games[1] else 1
        if totals[0] != totals[1]:
            return 0 if totals[0] > totals[1] else 1
        return None

    @property
    def result(self) -> int | None:
        """Once finished, the winner's total minus the loser's, which may be negative (R7.5);
        0 for a drawn match (equal games and totals); None while the match is still on."""
        if not self.finished:
            return None
        totals, winner = self.totals, self.winner
        if winner is None:
            return 0
        return totals[winner] - totals[1 - winner]

    # -- saving ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, list[list[int]]]:
        """Just the log; the rules are saved by whoever saves the sheet (R9 values)."""
        return {"entries": [[e.player, e.points] for e in self._entries]}

    @classmethod
    def from_dict(cls, data: object, rules: Rules = _DEFAULT_RULES) -> ScoreSheet:
        """Replay a saved log through ``record``, so a saved sheet obeys the same rules."""
        if not isinstance(data, dict):
            raise SheetError(f"a saved sheet must be an object, not {type(data).__name__}")
        if set(data) != {"entries"}:
            raise SheetError(
                f"a saved sheet must have exactly the key 'entries', not {sorted(map(str, data))}"
            )
        log = data["entries"]
        if not isinstance(log, list):
            raise SheetError(f"'entries' must be a list, not {type(log).__name__}")
        sheet = cls(rules)
        for n, item in enumerate(log):
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise SheetError(f"entry {n} must be [player, points], not {item!r}")
            try:
                sheet.record(item[0], item[1])
            except SheetError as exc:
                raise SheetError(f"entry {n} {list(item)!r} does not replay: {exc}") from None
        return sheet

    # -- comparing and showing ---------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreSheet):
            return NotImplemented
        return self._rules == other._rules and self._entries == other._entries

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        log = [[e.player, e.points] for e in self._entries]
        return f"ScoreSheet(entries={log!r}, totals={self.totals!r})"

    def render(self, names: tuple[str, str] = ("Player 0", "Player 1")) -> str:
        """The sheet as a plain-text table (``hollywood-gin replay``): numbers only in its
        columns, so three games fit 80 columns, and the games' winners under it by name,
        each name whole in its own sentence."""
        games = [_("Game {n}").format(n=i + 1) for i in range(len(self._columns))]
        rows: list[tuple[str, list[str], str]] = []
        for p in (0, 1):
            rows.append((names[p], [], ""))
            rows.append(("  " + _("points"), [str(c.points[p]) for c in self._columns], ""))
            rows.append(("  " + _("boxes"), [str(c.boxes[p]) for c in self._columns], ""))
        rows.append((_("Total"), [], ""))
        for p in (0, 1):
            rows.append(("  " + names[p], [str(c.total[p]) for c in self._columns],
                         str(self.totals[p])))
        # the labels' column as wide as its longest label, every cell in one width
        head = 1 + max(len(label) for label, _cells, _last in rows)
        w = 1 + max(len(text) for text in (*games, _("Total"), *(
            cell for _label, cells, last in rows for cell in (*cells, last))))

        def row(label: str, cells: list[str], last: str = "") -> str:
            line = label.ljust(head) + "".join(c.rjust(w) for c in cells)
            return (line + " |" + last.rjust(w) if last else line).rstrip()

        lines = [row("", games, _("Total")), *(row(*r) for r in rows)]
        for n, column in enumerate(self._columns, 1):
            if column.winner is None:
                continue
            if is_you(names[column.winner]):  # spoken to, not of
                text = (_("You won game {number}, a shutout") if column.shutout
                        else _("You won game {number}"))
            else:
                text = (_("Game {number} won by {name}, a shutout") if column.shutout
                        else _("Game {number} won by {name}"))
            lines.append(text.format(number=n, name=names[column.winner]))
        if self.finished:
            winner = self.winner
            if winner is None:
                lines.append(_("Match over: drawn."))
            elif is_you(names[winner]):
                lines.append(_("Match over: you win, result {result:+d}.").format(
                    result=self.result))
            else:
                lines.append(_("Match over: {name} wins, result {result:+d}.").format(
                    name=names[winner], result=self.result))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()
