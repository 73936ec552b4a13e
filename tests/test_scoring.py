"""Scoring a knocked hand (the rule book R5.5–R5.9, big gin of §9)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hollywood_gin.cards import Card, cards_text, parse_cards
from hollywood_gin.errors import HollywoodGinError, IllegalActionError
from hollywood_gin.melds import MeldError, deadwood
from hollywood_gin.rules import PRESETS, Rules
from hollywood_gin.scoring import HandScore, score_hand
from strategies import examples, knock_deals

GIN = "As 2s 3s 4s 7h 7d 7c Jd Qd Kd"


def score(knocker: str, defender: str, **kwargs: object) -> HandScore:
    return score_hand(parse_cards(knocker), parse_cards(defender), **kwargs)  # type: ignore[arg-type]


def texts(melds: tuple[tuple[Card, ...], ...]) -> set[str]:
    return {cards_text(m) for m in melds}


# -- R5.9 worked examples ------------------------------------------------------------


def test_R5_9_first_worked_example_knock_with_chained_layoffs() -> None:
    s = score("5s 6s 7s 9h 9d 9c Jc Qc Kc 3d", "8s 9s 4d 4h 4c Tc 2h 2d Ad 5h")
    assert (s.winner, s.kind, s.points) == ("knocker", "knock", 7)
    assert s.knocker_deadwood == 3 and s.defender_deadwood == 10
    assert texts(s.knocker_melds) == {"5s 6s 7s", "9h 9d 9c", "Jc Qc Kc"}
    assert s.knocker_unmatched == parse_cards("3d")
    assert {(str(lay.card), cards_text(lay.meld)) for lay in s.layoffs} == {
        ("8s", "5s 6s 7s"),
        ("9s", "5s 6s 7s"),  # chained onto the run, as the example says
        ("Tc", "Jc Qc Kc"),
    }
    assert set(s.layoff_cards) == set(parse_cards("8s 9s Tc"))
    assert texts(s.defender_melds) == {"4h 4d 4c"}
    assert set(s.defender_unmatched) == set(parse_cards("2h 2d Ad 5h"))


def test_R5_9_second_worked_example_undercut_on_equal_counts() -> None:
    s = score("As 2s 3s 4h 5h 6h 8d 8c 8h 5c", "7h 8s Kd Kh Ks 2c 3c 4c 4d Ad")
    assert (s.winner, s.kind, s.points) == ("defender", "undercut", 10)
    assert s.knocker_deadwood == 5 and s.defender_deadwood == 5
    assert {(str(lay.card), cards_text(lay.meld)) for lay in s.layoffs} == {
        ("7h", "4h 5h 6h"),
        ("8s", "8h 8d 8c"),
    }
    assert texts(s.defender_melds) == {"Ks Kh Kd", "2c 3c 4c"}
    assert set(s.defender_unmatched) == set(parse_cards("4d Ad"))


# -- R5.5 - R5.7 ------------------------------------------------------------------------


def test_R5_5_knock_scores_the_difference() -> None:
    s = score("As 2s 3s 7h 7d 7c Jd Qd Kd 4c", "2h 3h 5c 6c 9s 9h Ts Th Kc Qh")
    assert (s.winner, s.kind) == ("knocker", "knock")
    assert s.knocker_deadwood == 4
    assert s.points == s.defender_deadwood - 4 == deadwood(parse_cards(
        "2h 3h 5c 6c 9s 9h Ts Th Kc Qh")) - 4


def test_R5_6_undercut_on_greater_deadwood() -> None:
    s = score("As 2s 3s 7h 7d 7c Jd Qd Kd 9c", "4h 5h 6h 8c 8s 8d Tc Jc Qc 2d")
    assert s.knocker_deadwood == 9 and s.defender_deadwood == 2
    assert (s.winner, s.kind, s.points) == ("defender", "undercut", 10 + 9 - 2)


def test_R5_6_undercut_bonus_option() -> None:
    s = score("As 2s 3s 7h 7d 7c Jd Qd Kd 9c", "4h 5h 6h 8c 8s 8d Tc Jc Qc 2d",
              rules=Rules(undercut_bonus=25))
    assert (s.kind, s.points) == ("undercut", 25 + 9 - 2)
    assert score("As 2s 3s 7h 7d 7c Jd Qd Kd 9c", "4h 5h 6h 8c 8s 8d Tc Jc Qc 2d",
                 rules=PRESETS["eaai"]).points == 32


def test_R5_6_undercut_made_by_layoffs() -> None:
    # Before lay-offs the defender has 22 (9s Ts 2c Ah); 9s and Ts go on 6s7s8s, leaving 3.
    s = score("6s 7s 8s 7h 7d 7c Jd Qd Kd 4c", "9s Ts 2c 4d 5d 6d Th Jh Qh Ah")
    assert deadwood(parse_cards("9s Ts 2c 4d 5d 6d Th Jh Qh Ah")) == 22
    assert set(s.layoff_cards) == set(parse_cards("9s Ts"))
    assert s.defender_deadwood == 3 < s.knocker_deadwood == 4
    assert (s.winner, s.kind, s.points) == ("defender", "undercut", 10 + 1)


def test_R5_7_gin_scores_bonus_plus_defender_deadwood_without_layoffs() -> None:
    # The defender's 5s, 7s and Td would lay off on As2s3s4s, 7h7d7c and JdQdKd.
    defender = "5s 7s Td 9c 8h Kc Ks 2h 3d 6c"
    s = score(GIN, defender)
    assert (s.winner, s.kind) == ("knocker", "gin")
    assert s.layoffs == ()
    assert s.knocker_deadwood == 0
    assert s.defender_deadwood == deadwood(parse_cards(defender)) == 70
    assert s.points == 25 + 70
    # the same defender against a knock lays off 7s and Td
    knock = score("As 2s 3s Ah 7h 7d 7c Jd Qd Kd", defender)
    assert set(knock.layoff_cards) == set(parse_cards("7s Td"))
    assert knock.defender_deadwood == 53


def test_R5_7_gin_beats_a_defender_with_deadwood_zero() -> None:
    s = score(GIN, "5h 5s 5d 8s 9s Ts Th Jh Qh Kh")
    assert s.defender_deadwood == 0
    assert (s.winner, s.kind, s.points) == ("knocker", "gin", 25)


def test_R5_7_gin_bonus_option() -> None:
    assert score(GIN, "5h 5s 5d 7s 8s 9s Th Jh Qh 2c", rules=PRESETS["hollywood-20"]).points == 22
    assert score(GIN, "5h 5s 5d 7s 8s 9s Th Jh Qh 2c").points == 27


def test_R5_7_big_gin_with_the_option() -> None:
    eleven = GIN + " 5c"  # ten melded and 5c loose: a big gin needs all eleven melded
    with pytest.raises(IllegalActionError, match="big gin"):
        score(eleven, "5h 5s 5d 7s 8s 9s Th Jh Qh 2c", rules=Rules(big_gin_bonus=31))
    big = "As 2s 3s 4s 7h 7d 7c Jd Qd Kd Td"
    s = score(big, "5h 5s 5d 7s 8s 9s Th Jh Qh 2c", rules=Rules(big_gin_bonus=31))
    assert (s.winner, s.kind, s.points) == ("knocker", "big_gin", 31 + 2)
    assert s.layoffs == ()
    assert sum(len(m) for m in s.knocker_melds) == 11


def test_R5_7_big_gin_only_with_the_option() -> None:
    big = "As 2s 3s 4s 7h 7d 7c Jd Qd Kd Td"
    with pytest.raises(IllegalActionError, match="big_gin_bonus"):
        score(big, "5h 5s 5d 7s 8s 9s Th Jh Qh 2c")


def test_R5_7_ten_card_gin_is_plain_gin_even_with_big_gin_played() -> None:
    s = score(GIN, "5h 5s 5d 7s 8s 9s Th Jh Qh 2c", rules=Rules(big_gin_bonus=31))
    assert (s.kind, s.points) == ("gin", 27)


def test_R5_3_knocker_never_lays_off_on_the_defenders_melds() -> None:
    # The knocker's loose 3d would extend the defender's 4d5d6d, but only the defender
    # lays off.
    s = score("As 2s 3s 7h 7d 7c Jd Qd Kd 3d", "4d 5d 6d 9s 9h 9c 2h 2c 8c 5h")
    assert s.knocker_deadwood == 3 and s.knocker_unmatched == parse_cards("3d")
    assert s.defender_deadwood == 2 + 2 + 8 + 5
    assert (s.kind, s.points) == ("knock", 17 - 3)


# -- R5.8 -----------------------------------------------------------------------------


@settings(max_examples=examples(200))
@given(knock_deals(), st.sampled_from(sorted(PRESETS)))
def test_R5_8_every_won_hand_scores_at_least_one_point(
    deal: tuple[tuple[Card, ...], tuple[Card, ...]], preset: str
) -> None:
    knocker, defender = deal
    rules = PRESETS[preset]
    s = score_hand(knocker, defender, rules=rules)
    assert s.points >= 1
    k, d = s.knocker_deadwood, s.defender_deadwood
    assert k == deadwood(knocker) <= rules.knock_limit
    if k == 0:
        assert (s.winner, s.kind, s.points) == ("knocker", "gin", rules.gin_bonus + d)
    elif k < d:
        assert (s.winner, s.kind, s.points) == ("knocker", "knock", d - k)
    else:
        expected = ("defender", "undercut", rules.undercut_bonus + k - d)
        assert (s.winner, s.kind, s.points) == expected


@settings(max_examples=examples(100))
@given(knock_deals(limit=5))
def test_R5_8_holds_under_a_lower_knock_limit(
    deal: tuple[tuple[Card, ...], tuple[Card, ...]]
) -> None:
    assert score_hand(*deal, rules=Rules(knock_limit=5)).points >= 1


# -- shown melds --------------------------------------------------------------------


KNOCKER = "5s 6s 7s 9h 9d 9c Jc Qc Kc 3d"
DEFENDER = "8s 9s 4d 4h 4c Tc 2h 2d Ad 5h"


def test_shown_melds_are_used_when_legal() -> None:
    shown = [parse_cards("5s 6s 7s"), parse_cards("9h 9d 9c"), parse_cards("Jc Qc Kc")]
    s = score_hand(parse_cards(KNOCKER), parse_cards(DEFENDER), knocker_melds=shown)
    assert s.points == 7


def test_knocker_may_choose_among_equal_arrangements() -> None:
    # R8.1: his choice.  Showing the run 4h5h6h instead of the set 5s5h5d lets 3h go on.
    knocker = parse_cards("4h 5h 6h 5s 5d 9c Tc Jc Qc Kc")
    defender = parse_cards("3h 7h 2s 3s 4s Ks Kd Qd 8d 8s")
    as_set = score_hand(knocker, defender)
    as_run = score_hand(
        knocker, defender, knocker_melds=[parse_cards("4h 5h 6h"), parse_cards("9c Tc Jc Qc Kc")]
    )
    assert as_set.layoffs == ()
    assert set(as_run.layoff_cards) == set(parse_cards("3h 7h"))
    assert as_run.defender_deadwood == as_set.defender_deadwood - 10


@pytest.mark.parametrize(
    "melds,error,message",
    [
        (["5s 6s 3d"], MeldError, "not a meld"),
        (["5s 6s 7s 8s"], MeldError, "8s"),
        (["5s 6s 7s", "9h 9d 9c", "9c Jc Qc"], MeldError, "not a meld"),
        (["9h 9d 9c", "9c 9h 9d"], MeldError, "two melds"),
        (["5s 6s 7s", "9h 9d 9c"], IllegalActionError, "least"),
        ([], IllegalActionError, "least"),
    ],
)
def test_shown_melds_are_validated(melds: list[str], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message) as info:
        score_hand(parse_cards(KNOCKER), parse_cards(DEFENDER),
                   knocker_melds=[parse_cards(m) for m in melds])
    assert isinstance(info.value, HollywoodGinError)


def test_knock_over_the_limit_raises() -> None:
    with pytest.raises(IllegalActionError, match=r"11 deadwood.*knock limit is 10"):
        score("5s 6s 7s 8s 9h 9d 9c 4d 5d 2h", "Ts Js 3c 4c Kh Qh 2c 6h Ah Kc")
    with pytest.raises(IllegalActionError, match="knock limit is 2"):
        score(KNOCKER, DEFENDER, knock_limit=2)
    with pytest.raises(IllegalActionError, match="knock limit is 0"):
        score(KNOCKER, DEFENDER, rules=Rules(knock_limit=0))
    assert score(KNOCKER, DEFENDER, knock_limit=3).points == 7


@pytest.mark.parametrize(
    "knocker,defender,message",
    [
        (KNOCKER, "8s 9s 4d 4h 4c Tc 2h 2d Ad", "defender must hold 10"),
        ("5s 6s 7s 9h 9d 9c Jc Qc Kc", DEFENDER, "knocker must hold 10"),
        (KNOCKER, "8s 9s 4d 4h 4c Tc 2h 2d Ad 3d", "3d is in both hands"),
    ],
)
def test_bad_hands_raise(knocker: str, defender: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        score(knocker, defender)


def test_a_card_given_twice_raises() -> None:
    k = parse_cards(KNOCKER)
    with pytest.raises(IllegalActionError, match="twice"):
        score_hand((*k[:9], k[0]), parse_cards(DEFENDER))


# -- arguments beside the cards (found by a QA pass) -----------------------------------------

LOOSE_KNOCKER = parse_cards("As 2s 3s Kh Qh Jd 7c 5d 6h 3c")  # 51 deadwood
LOOSE_DEFENDER = parse_cards("Ks Qs 4d 4h 4c Tc 2h 2d Ad 5h")


@pytest.mark.parametrize("limit", [99, 11, -1, True, 2.0, "a", None])
@pytest.mark.parametrize("path", ["C when built", "pure"])
def test_a_knock_limit_beside_the_rules_is_one_the_rules_allow_r5_1(limit: object,
                                                                    path: str) -> None:
    """A limit of 99 scored a knock with 51 deadwood as an undercut; both paths refuse."""
    from hollywood_gin import scoring

    score = scoring.score_hand if path == "C when built" else scoring.pure_score_hand
    if limit is None:  # no override: the rules' limit refuses the knock in its own words
        with pytest.raises(IllegalActionError, match="the knock limit is 10"):
            score(LOOSE_KNOCKER, LOOSE_DEFENDER, knock_limit=limit)  # type: ignore[arg-type]
        return
    with pytest.raises(MeldError, match=r"knock limit must be a whole number from 0 to 10, "
                                        rf"not {re.escape(repr(limit))} \(R5.1\)"):
        score(LOOSE_KNOCKER, LOOSE_DEFENDER, knock_limit=limit)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", ["hollywood", None, 10])
def test_rules_that_are_no_rules_are_refused_in_words(rules: object) -> None:
    with pytest.raises(IllegalActionError, match="rules must be a Rules, not"):
        score_hand(LOOSE_KNOCKER, LOOSE_DEFENDER, rules=rules)  # type: ignore[arg-type]


def test_no_cards_at_all_is_a_meld_error_not_a_type_error() -> None:
    from hollywood_gin.melds import best_melds, discard_choices, knock_discards

    for call in (lambda: deadwood(None), lambda: best_melds(5), lambda: discard_choices(None),
                 lambda: knock_discards(None), lambda: score_hand(None, None),
                 lambda: score_hand(LOOSE_KNOCKER, 3)):
        with pytest.raises(MeldError, match="not cards: "):
            call()  # type: ignore[no-untyped-call]
    with pytest.raises(MeldError, match="not 11 "):
        knock_discards(LOOSE_KNOCKER + parse_cards("4c"), 11)
