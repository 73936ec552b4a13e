"""Scoring one hand after a knock (the rule book §5): lay-offs, undercut, gin, big gin."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from .arrange import arranged_of_mask
from .cards import Card, cards_from_mask
from .errors import IllegalActionError
from .frozen import LATER, frozen_maker, made_when_read
from .i18n import _
from .melds import (
    Layoff,
    _melds_cards,
    _unmatched_cards,
    arrangement_of_mask,
    cards_mask,
    checked_knock_limit,
    checked_melds_of_mask,
    deadwood_of_mask,
    defender_layout_of_touched,
    layoffs_from_masks,
    points_of_mask,
    touched_melds_of_masks,
)
from .rules import Rules

try:
    from ._speedups import score_defender_melds as _c_defender_melds
    from ._speedups import score_defender_unmatched as _c_defender_unmatched
    from ._speedups import score_hand as _c_score_hand
    from ._speedups import score_knocker_melds as _c_knocker_melds
    from ._speedups import score_knocker_unmatched as _c_knocker_unmatched
    from ._speedups import score_layoffs as _c_layoffs
    from ._speedups import setup_score as _setup_score
except ImportError:  # not compiled: the pure-Python path alone
    _setup_score = None  # type: ignore[assignment]

__all__ = ["MAX_DEADWOOD", "MAX_KNOCK_POINTS", "HandScore", "WinKind", "most_points",
           "score_hand", "score_hand_masks"]

WinKind = Literal["knock", "undercut", "gin", "big_gin"]

_DEFAULT_RULES = Rules()

# The most deadwood ten cards can hold after their best arrangement (R2.4), found with
# this proof (and checked by a search over the meld solver in the tests):
# - it is reached: K♠ K♥ Q♦ Q♣ J♠ J♥ 10♦ 10♣ 9♠ 9♥ holds no set (two of each rank) and no
#   run (no suit has two neighbouring ranks), so all of it is deadwood: 8 × 10 + 2 × 9 = 98;
# - it cannot be passed: 99 or more needs all ten cards unmelded (nine count at most 90)
#   and at least nine of them worth 10 (else at most 8 × 10 + 2 × 9 = 98); but only four
#   ranks (10, J, Q, K) are worth 10, so nine such cards hold three of one rank, a set
#   (R2.1) that would be melded.
# The defender's count after lay-offs (R5.4) can only be lower; the 98 hand lays nothing
# off on, for instance, A♠2♠3♠ A♥2♥3♥ 4♦5♦6♦ + A♣ (a knock with 1), nor against a gin.
MAX_DEADWOOD = 98
# The knocker has at least 1 (0 is gin, R2.5), so a knock scores at most 98 − 1 (R5.5).
MAX_KNOCK_POINTS = MAX_DEADWOOD - 1


def most_points(rules: Rules) -> int:
    """The most one hand can score under ``rules`` (R5.5–R5.7): gin or big gin against
    :data:`MAX_DEADWOOD`, a knock, or an undercut of the highest knock."""
    bonus = max(rules.gin_bonus, rules.big_gin_bonus or 0)
    limit = 10 if rules.oklahoma else rules.knock_limit
    undercut = rules.undercut_bonus + limit if limit else 0
    return max(bonus + MAX_DEADWOOD, MAX_KNOCK_POINTS, undercut)


@dataclass(frozen=True)
class HandScore:
    """How a knocked hand came out: who won, how, by how much, and the layout that shows why.

    Made by the engine from masks, its lay-offs and card tuples are made when first read
    (a bot or a tally reads the points alone); they are then kept, and the value is the
    same as one made field by field: equal, hashed, shown and pickled alike.
    """

    # The five fields made when read are properties over their ``_`` slots (see
    # made_when_read); the ``_mask_`` slots are what they are made from: the lay-off
    # pairs, the knocker's melds and unmatched cards, the defender's melds and his cards
    # not laid off.
    __slots__ = ("_defender_melds", "_defender_unmatched", "_knocker_melds",
                 "_knocker_unmatched", "_layoffs", "_mask_defender", "_mask_defender_melds",
                 "_mask_knocker_melds", "_mask_knocker_unmatched", "_mask_pairs",
                 "defender_deadwood", "kind", "knocker_deadwood", "points", "winner")

    winner: Literal["knocker", "defender"]
    kind: WinKind
    points: int
    knocker_deadwood: int
    defender_deadwood: int  # after lay-offs (R5.4)
    layoffs: tuple[Layoff, ...]
    knocker_melds: tuple[tuple[Card, ...], ...]
    knocker_unmatched: tuple[Card, ...]
    defender_melds: tuple[tuple[Card, ...], ...]
    defender_unmatched: tuple[Card, ...]

    def __reduce__(self) -> tuple[type[HandScore], tuple[object, ...]]:
        return (HandScore, (self.winner, self.kind, self.points, self.knocker_deadwood,
                            self.defender_deadwood, self.layoffs, self.knocker_melds,
                            self.knocker_unmatched, self.defender_melds, self.defender_unmatched))

    @property
    def layoff_cards(self) -> tuple[Card, ...]:
        return tuple(lay.card for lay in self.layoffs)


#: How each field made when read is made, in Python (the source of truth; the C path has
#: its own, tests/test_speedups.py holds them equal).
PURE_MAKERS: dict[str, Callable[[Any], object]] = {
    "layoffs": lambda score: layoffs_from_masks(score._mask_pairs),
    "knocker_melds": lambda score: _melds_cards(score._mask_knocker_melds),
    "knocker_unmatched": lambda score: cards_from_mask(score._mask_knocker_unmatched),
    "defender_melds": lambda score: _melds_cards(score._mask_defender_melds),
    "defender_unmatched":
        lambda score: _unmatched_cards(score._mask_defender, score._mask_defender_melds),
}
for _name, _make in PURE_MAKERS.items():
    made_when_read(HandScore, _name, _make)
_make_score = frozen_maker(HandScore, *HandScore.__slots__)


def score_hand(
    knocker: Iterable[Card],
    defender: Iterable[Card],
    *,
    rules: Rules = _DEFAULT_RULES,
    knocker_melds: Iterable[Iterable[Card]] | None = None,
    knock_limit: int | None = None,
) -> HandScore:
    """Score a knock: ten cards each after the knock discard (eleven for a big gin).

    ``knocker_melds`` are the melds the knocker shows; by default the engine
    picks per R8.1.  ``knock_limit`` overrides ``rules.knock_limit`` (Oklahoma).
    Raises :class:`IllegalActionError` for a knock the rules do not allow.
    """
    if not isinstance(rules, Rules):
        raise IllegalActionError(f"rules must be a Rules, not {rules!r} (see Rules.preset)")
    if knock_limit is not None:
        knock_limit = checked_knock_limit(knock_limit)
    (k, k_count), (d, d_count) = cards_mask(knocker), cards_mask(defender)  # or MeldError
    if k.bit_count() != k_count or d.bit_count() != d_count:
        raise IllegalActionError(_("a card is given twice in a hand"))
    if k & d:
        both = " ".join(c.text for c in cards_from_mask(k & d))
        raise IllegalActionError(_("{cards} is in both hands").format(cards=both))
    if d_count != 10:
        raise IllegalActionError(
            _("the defender must hold 10 cards, not {count}").format(count=d_count))
    if k_count not in (10, 11):
        raise IllegalActionError(
            _("the knocker must hold 10 cards (11 for big gin), not {count}")
            .format(count=k_count)
        )
    shown = None if knocker_melds is None else checked_melds_of_mask(k, knocker_melds)
    return score_hand_masks(k, d, rules=rules, knocker_melds=shown, knock_limit=knock_limit)


def score_hand_masks(
    knocker: int,
    defender: int,
    *,
    rules: Rules,
    knocker_melds: tuple[int, ...] | None = None,
    knock_limit: int | None = None,
) -> HandScore:
    """:func:`score_hand` on masks, with melds already checked for legality."""
    limit = rules.knock_limit if knock_limit is None else knock_limit
    if knocker_melds is None:
        knocker_melds, k_dead = arranged_of_mask(knocker)
    else:
        k_dead = deadwood_of_mask(knocker)
    if knocker.bit_count() == 11:
        if rules.big_gin_bonus is None:
            raise IllegalActionError(
                _("big gin is not played under these rules (big_gin_bonus)"))
        if k_dead:
            raise IllegalActionError(_("a big gin needs all eleven cards melded (R5.7)"))
    if k_dead > limit:
        raise IllegalActionError(
            _("cannot knock with {deadwood} deadwood: the knock limit is {limit} (R5.1)")
            .format(deadwood=k_dead, limit=limit)
        )
    covered = 0
    for meld in knocker_melds:
        covered |= meld
    shown_dead = points_of_mask(knocker & ~covered)
    if shown_dead != k_dead:  # melds the knocker chose to show (ours always reach it)
        raise IllegalActionError(
            _("the melds shown leave {shown} deadwood, but the hand's deadwood is "
              "{least}: a hand's deadwood is always its least (R2.4)")
            .format(shown=shown_dead, least=k_dead)
        )

    pairs: tuple[tuple[int, int], ...] = ()
    if k_dead == 0:  # R5.7: gin; the defender may not lay off
        d_melds, d_dead = arranged_of_mask(defender)
        if knocker.bit_count() == 11:
            assert rules.big_gin_bonus is not None
            kind: WinKind = "big_gin"
            points = rules.big_gin_bonus + d_dead
        else:
            kind = "gin"
            points = rules.gin_bonus + d_dead
        winner: Literal["knocker", "defender"] = "knocker"
    else:
        touched = touched_melds_of_masks(knocker_melds, knocker, defender)
        if touched:
            d_dead, pairs = defender_layout_of_touched(touched, knocker, defender)
            for way, _onto in pairs:
                defender &= ~way
            d_melds = arrangement_of_mask(defender)
        else:  # nothing to lay off: his own arrangement, in one solve
            d_melds, d_dead = arranged_of_mask(defender)
        if k_dead < d_dead:  # R5.5
            kind, winner, points = "knock", "knocker", d_dead - k_dead
        else:  # R5.6: equal or greater is an undercut
            kind, winner, points = "undercut", "defender", rules.undercut_bonus + k_dead - d_dead
    # In the order of the slots: the five fields made when read, then what they are made of.
    return _make_score(LATER, LATER, LATER, LATER, LATER, defender, d_melds, knocker_melds,
                       knocker & ~covered, pairs, d_dead, kind, k_dead, points, winner)


#: The pure-Python score_hand: the source of truth and the C path's fallback.
pure_score_hand = score_hand
if _setup_score is not None:  # the same answers in C (tests/test_speedups.py holds them equal)
    _setup_score(HandScore, HandScore.__slots__, pure_score_hand, _DEFAULT_RULES, Layoff)
    score_hand = _c_score_hand
    for _name, _make in (("layoffs", _c_layoffs),
                         ("knocker_melds", _c_knocker_melds),
                         ("knocker_unmatched", _c_knocker_unmatched),
                         ("defender_melds", _c_defender_melds),
                         ("defender_unmatched", _c_defender_unmatched)):
        made_when_read(HandScore, _name, _make)
