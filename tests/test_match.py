"""The match: dealer rule (R3.1), the sheet filled from hands (R7), seeded reproducibility."""

from __future__ import annotations

import random

import pytest

from hollywood_gin import IllegalActionError, Rules
from hollywood_gin.hand import HandResult
from hollywood_gin.match import Match, next_dealer


def knock_when_possible(match: Match, rng: random.Random) -> None:
    """Play the current hand to its end: knock as soon as legal, otherwise random."""
    hand = match.hand
    while not hand.is_over:
        ids = hand.legal_action_ids()
        knocks = [i for i in ids if i >= 56]
        match.apply_id(knocks[0] if knocks else rng.choice(ids))


def play_match(match: Match, seed: int = 0) -> Match:
    rng = random.Random(seed)
    while True:
        knock_when_possible(match, rng)
        if match.finished:
            return match
        match.next_hand()


def test_R3_1_first_dealer_is_random_but_reproducible() -> None:
    dealers = {Match(seed=s).first_dealer for s in range(40)}
    assert dealers == {0, 1}
    assert [Match(seed=s).first_dealer for s in range(10)] == [
        Match(seed=s).first_dealer for s in range(10)
    ]
    assert Match(seed=3, first_dealer=1).hand.dealer == 1


@pytest.mark.parametrize("first_dealer", [0.0, True, "1", 2])
def test_R3_1_a_first_dealer_that_is_not_0_or_1_is_refused(first_dealer: object) -> None:
    with pytest.raises(IllegalActionError, match="first dealer must be 0 or 1"):
        Match(seed=1, first_dealer=first_dealer)  # type: ignore[arg-type]


def test_a_match_refuses_rules_that_are_not_rules() -> None:
    with pytest.raises(IllegalActionError, match="rules must be a Rules"):
        Match(seed=1, rules="eaai")  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["hollywood", "classic", "eaai"])
def test_R3_1_dealer_of_every_hand_follows_the_rule(preset: str) -> None:
    rules = Rules.preset(preset)
    match = play_match(Match(rules=rules, seed=11))
    for before, after in zip(match.hands, match.hands[1:], strict=False):
        assert before.result is not None
        assert after.dealer == next_dealer(rules, before.dealer, before.result)


def _result(winner: int | None) -> HandResult:
    kind = "dead" if winner is None else "knock"
    return HandResult(kind=kind, winner=winner, points=0 if winner is None else 5,
                      knocker=winner, score=None, hands=((), ()))


@pytest.mark.parametrize(
    ("option", "dealer", "winner", "expected"),
    [
        ("winner", 0, 1, 1),
        ("winner", 1, 1, 1),
        ("winner", 0, None, 0),  # R3.1: after a dead hand the same dealer deals again
        ("winner", 1, None, 1),
        ("loser", 0, 0, 1),
        ("loser", 1, None, 1),
        ("alternate", 0, 0, 1),
        ("alternate", 1, None, 0),
    ],
)
def test_R3_1_next_dealer_option(option: str, dealer: int, winner: int | None,
                                 expected: int) -> None:
    assert next_dealer(Rules(next_dealer=option), dealer, _result(winner)) == expected  # type: ignore[arg-type]


def test_R3_1_winner_deals_and_dead_hand_keeps_dealer_in_a_real_match() -> None:
    match = play_match(Match(seed=5))
    kinds = [h.result.kind for h in match.hands if h.result is not None]
    assert "dead" in kinds or len(kinds) > 1
    for before, after in zip(match.hands, match.hands[1:], strict=False):
        assert before.result is not None
        if before.result.winner is None:
            assert after.dealer == before.dealer
        else:
            assert after.dealer == before.result.winner


def test_R7_sheet_is_filled_from_each_won_hand() -> None:
    match = play_match(Match(seed=21))
    won = [(h.result.winner, h.result.points) for h in match.hands
           if h.result is not None and h.result.winner is not None]
    assert [(e.player, e.points) for e in match.sheet.entries] == won
    assert match.finished and match.sheet.finished
    assert match.winner == match.sheet.winner
    assert all(c.closed for c in match.sheet.columns)


def test_R7_5_match_ends_when_sheet_finished() -> None:
    match = play_match(Match(seed=8))
    with pytest.raises(IllegalActionError, match="match is over"):
        match.next_hand()


def test_next_hand_needs_the_hand_to_be_over() -> None:
    match = Match(seed=1)
    with pytest.raises(IllegalActionError, match="not over"):
        match.next_hand()


def test_seeded_match_is_reproducible() -> None:
    a = play_match(Match(seed=99), seed=4)
    b = play_match(Match(seed=99), seed=4)
    assert [h.deck for h in a.hands] == [h.deck for h in b.hands]
    assert [h.history for h in a.hands] == [h.history for h in b.hands]
    assert a.sheet.totals == b.sheet.totals
    c = play_match(Match(seed=100), seed=4)
    assert [h.deck for h in a.hands] != [h.deck for h in c.hands]


def test_unseeded_match_records_its_seed() -> None:
    match = Match()
    assert isinstance(match.seed, int)
    again = Match(seed=match.seed, first_dealer=match.first_dealer)
    assert again.hand.deck == match.hand.deck


def test_bad_seed_and_dealer_rejected() -> None:
    with pytest.raises(IllegalActionError, match="seed"):
        Match(seed="x")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="first dealer"):
        Match(seed=1, first_dealer=2)


def test_match_view_hides_the_opponent_and_shows_the_sheet() -> None:
    match = Match(seed=2)
    view = match.view(0)
    assert view.hand.player == 0
    assert set(view.hand.hand) == set(match.hand.cards_of(0))
    assert not set(view.hand.hand) & set(match.hand.cards_of(1))
    assert view.sheet == match.sheet and view.sheet is not match.sheet
    assert view.hand_number == 1 and not view.finished


def test_illegal_action_in_a_match_changes_nothing() -> None:
    match = Match(seed=3)
    before = match.hand.clone()
    entries = match.sheet.entries
    with pytest.raises(IllegalActionError):
        match.apply(match.hand.legal_actions()[0], player=1 - match.hand.to_act)
    assert match.hand == before and match.sheet.entries == entries
