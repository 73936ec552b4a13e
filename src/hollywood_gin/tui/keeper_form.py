"""The score keeper's form, for those who would rather click than type a line: what its
number fields are called after who won and how, and the hand its values make (read as the
entry line reads them, so that both ways refuse and ask alike)."""

from __future__ import annotations

from typing import NamedTuple

from ..i18n import _
from ..rules import Rules
from .keeping import KINDS, EntryError, HandEntry, hand_points, parse_entry, read_number

__all__ = ["FormWords", "entry_from_form", "form_words"]


class FormWords(NamedTuple):
    """The numbers' label and each field's placeholder; ``two`` when both are asked."""

    label: str
    first: str
    second: str
    two: bool


def form_words(names: tuple[str, str] | None, who: int, how: int) -> FormWords:
    """Name the number fields after who won and how (the knocker's count first)."""
    names = names or (_("Player 1"), _("Player 2"))
    kind = KINDS[max(how, 0)]
    winner, other = (names[who], names[1 - who]) if who >= 0 else (_("the winner"),
                                                                   _("the other"))
    two = kind in ("knock", "undercut")
    if kind == "points":
        return FormWords(_("Points won"), _("points"), "", two)
    if kind in ("gin", "big_gin"):
        return FormWords(_("{other}'s deadwood").format(other=other), _("deadwood"), "", two)
    if kind == "knock":
        return FormWords(_("{winner}'s deadwood (the knocker), then {other}'s after "
                           "laying off").format(winner=winner, other=other), winner, other, two)
    return FormWords(_("{other}'s deadwood (the knocker), then {winner}'s").format(
        winner=winner, other=other), other, winner, two)


def entry_from_form(names: tuple[str, str], rules: Rules, who: int, how: int, first: str,
                    second: str) -> HandEntry:
    """The hand the form's choices and numbers make; EntryError (or EntryQuestion) names
    what is missing or wrong."""
    if who < 0:
        raise EntryError(_("choose who won the hand"))
    if how < 0:
        raise EntryError(_("choose how the hand was won"))
    kind = KINDS[how]
    label = form_words(names, who, how).label
    first, second = first.strip(), second.strip()
    if not first or (kind in ("knock", "undercut") and not second):
        raise EntryError(_("fill in the numbers ({what})").format(what=label))
    a = read_number(first, label)
    b = read_number(second, label) if kind in ("knock", "undercut") else 0
    if kind == "points":
        return parse_entry(f"{who + 1} {a}", names, rules)
    if kind in ("gin", "big_gin"):
        return hand_points(rules, winner=who, kind=kind, defender_deadwood=a, names=names)
    if kind == "knock":
        return parse_entry(f"{who + 1} knocks {a} {b}", names, rules)
    return hand_points(rules, winner=who, kind="undercut", knocker_deadwood=a,
                       defender_deadwood=b, names=names)
