"""The game review: known answers, hidden information, determinism, the JSON form."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hollywood_gin.actions import Discard, DrawStock, Knock, Pass
from hollywood_gin.bots.cardsense import read_view
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.bots.search import ChoiceSampler, play_choice
from hollywood_gin.cards import parse_card
from hollywood_gin.hand import Hand, HandView
from hollywood_gin.match import Match
from hollywood_gin.review import (
    Grade,
    HandReview,
    Kind,
    MatchReview,
    ReviewError,
    ReviewSettings,
    decision_accuracy,
    grade_of,
    review_decision,
    review_hand,
    review_match,
)
from hollywood_gin.review.model import DecisionReview, view_from_dict, view_to_dict
from hollywood_gin.review.text import render_match
from hollywood_gin.rules import Rules
from review_helpers import KNOWN, play_hand, twin

#: Enough deals that a two-point difference between the best two choices is resolved.
KNOWN_SETTINGS = ReviewSettings(max_deals=768)
QUICK = ReviewSettings(min_deals=12, max_deals=24, batch=12)


# -- positions with a known answer ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(KNOWN))
@pytest.mark.parametrize("seed", [0, 1])
def test_known_positions_rate_the_bad_choice_a_mistake_and_the_good_one_best(
    name: str, seed: int
) -> None:
    hand, good, bad = KNOWN[name]()
    view = hand.view(hand.to_act)
    settings = ReviewSettings(seed=seed, max_deals=KNOWN_SETTINGS.max_deals)
    verdict = review_decision(view, good, settings=settings)
    assert verdict.grade is Grade.BEST, (name, str(verdict.best_action))
    assert verdict.loss == 0
    wrong = review_decision(view, bad, settings=settings)
    assert wrong.grade in (Grade.MISTAKE, Grade.BLUNDER), (name, wrong.loss, wrong.loss_interval)
    assert wrong.best_action.id != bad.id
    low, high = wrong.loss_interval
    assert 0 < low <= wrong.loss <= high


def test_passing_a_gin_upcard_is_a_blunder_worth_about_the_gin() -> None:
    """R5.7: gin scores 25 plus the opponent's deadwood; passing it up loses most of that."""
    hand, _, bad = KNOWN["gin_upcard"]()
    review = review_decision(hand.view(0), bad)
    assert review.kind is Kind.UPCARD
    assert review.grade is Grade.BLUNDER and review.loss > 20


def test_kinds_of_decision() -> None:
    kinds = {name: review_decision(h.view(h.to_act), good, settings=QUICK).kind
             for name, (h, good, _) in ((n, f()) for n, f in KNOWN.items())}
    assert kinds == {"gin_upcard": Kind.UPCARD, "meld_or_king": Kind.DISCARD,
                     "knock_first_turn": Kind.KNOCK, "feed_or_safe": Kind.DISCARD}


def test_every_legal_choice_is_valued_and_the_best_has_no_loss() -> None:
    hand, good, _ = KNOWN["knock_first_turn"]()
    view = hand.view(0)
    review = review_decision(view, good, settings=QUICK)
    assert [c.action for c in review.choices] == list(view.legal_actions)
    best = review.choices[review.best]
    assert best.loss == 0 and best.grade is Grade.BEST
    assert all(c.points <= best.points + 1e-9 for c in review.choices if c.deals == best.deals)
    assert all(c.loss >= 0 and c.deals >= QUICK.min_deals for c in review.choices)


def test_an_illegal_choice_or_a_forced_move_is_refused() -> None:
    hand, _, _ = KNOWN["knock_first_turn"]()
    with pytest.raises(ReviewError, match="not a legal choice"):
        review_decision(hand.view(0), Discard(parse_card("Kh")))
    match = Match(seed=3)
    match.apply(Pass())
    match.apply(Pass())
    with pytest.raises(ReviewError, match="no decision"):
        review_decision(match.hand.view(match.hand.to_act), DrawStock())  # R4.1: forced draw


# -- grades and accuracy ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loss", "low", "best", "grade"),
    [
        (0.0, 0.0, True, Grade.BEST),
        (0.4, 0.1, False, Grade.GOOD),
        (2.0, 0.5, False, Grade.INACCURACY),
        (5.0, 1.0, False, Grade.MISTAKE),
        (12.0, 6.0, False, Grade.BLUNDER),
        (12.0, -0.1, False, Grade.GOOD),  # the interval reaches 0: never worse than good
    ],
)
def test_grade_thresholds(loss: float, low: float, best: bool, grade: Grade) -> None:
    assert grade_of(loss, low, best=best) is grade


def test_accuracy_formula() -> None:
    assert decision_accuracy(0) == 100
    assert decision_accuracy(4) == pytest.approx(100 / 2.718281828, rel=1e-6)
    assert decision_accuracy(-1) == 100
    assert decision_accuracy(1) > decision_accuracy(3) > decision_accuracy(8) > 0


# -- hidden information -----------------------------------------------------------------------


def _verdicts(review: MatchReview) -> list[dict[str, Any]]:
    out = []
    for d in review.decisions:
        data = d.to_dict()
        data.pop("hindsight", None)
        out.append(data)
    return out


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_twin_hands_that_differ_only_in_hidden_cards_get_the_same_review(seed: int) -> None:
    """The opponent's hidden cards and the unseen stock are dealt afresh: every value, loss
    and grade stays the same; only the hindsight line (the real cards) may change."""
    rng = random.Random(seed)
    checked = 0
    for k in range(12):
        match = play_hand(("greedy", "basic"), seed * 100 + k)
        player = k % 2
        other = twin(match, player, rng)
        if other is None:
            continue
        mine = review_match(match, player, settings=QUICK, hindsight=True)
        theirs = review_match(other, player, settings=QUICK, hindsight=True)
        assert _verdicts(mine) == _verdicts(theirs)
        assert mine.decisions, "a hand with no decision checks nothing"
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_hindsight_shows_the_real_cards_and_never_changes_a_grade() -> None:
    match = play_hand(("greedy", "greedy"), 5)
    plain = review_match(match, 0, settings=QUICK)
    seen = review_match(match, 0, settings=QUICK, hindsight=True)
    assert _verdicts(plain) == _verdicts(seen)
    assert all(d.hindsight is None for d in plain.decisions)
    for d in seen.decisions:  # the opponent's cards at that very moment
        assert d.hindsight is not None
        truth = _hand_at(match, d.ply)
        assert d.hindsight.opponent_hand == truth.cards_of(1)
    text = render_match(seen)
    assert "hindsight (not used for the grade)" in text


# -- determinism and parallelism ------------------------------------------------------------


def test_the_same_record_and_seed_give_the_same_review() -> None:
    match = play_hand(("basic", "greedy"), 21)
    a = review_match(match, 1, settings=QUICK).to_dict()
    b = review_match(match, 1, settings=QUICK).to_dict()
    assert a == b
    c = review_match(match, 1, settings=ReviewSettings(seed=1, min_deals=12, max_deals=24,
                                                       batch=12)).to_dict()
    assert c != a  # another seed samples other deals


def test_jobs_do_not_change_the_review() -> None:
    match = play_hand(("greedy", "basic"), 22)
    one = review_match(match, 0, settings=QUICK, jobs=1)
    two = review_match(match, 0, settings=QUICK, jobs=2)
    assert one.to_dict() == two.to_dict()


def test_progress_is_reported_for_every_decision() -> None:
    match = play_hand(("greedy", "basic"), 23)
    calls: list[tuple[int, int]] = []
    review = review_match(match, 0, settings=QUICK, progress=lambda d, t: calls.append((d, t)))
    n = len(review.decisions)
    assert calls[0] == (0, n) and calls[-1] == (n, n) and len(calls) == n + 1


# -- whole hands and matches ------------------------------------------------------------------


def test_a_hand_review_lists_every_decision_of_the_player_and_sums_them() -> None:
    match = play_hand(("random", "greedy"), 31)
    review = review_hand(match, 1, 0, settings=QUICK)
    hand = match.hands[0]
    mine = [ply for ply, (p, _) in enumerate(hand.history) if p == 0]
    assert [d.ply for d in review.decisions] == [
        ply for ply in mine if len(_view_at(match, ply).legal_actions) > 1]
    assert review.points_lost == pytest.approx(sum(d.loss for d in review.decisions))
    assert sum(review.losses_by_group.values()) == pytest.approx(review.points_lost)
    assert sum(review.grade_counts.values()) == len(review.decisions)
    accs = [d.accuracy for d in review.decisions]
    assert review.accuracy == pytest.approx(sum(accs) / len(accs))
    worst = review.worst()
    assert len(worst) <= 3
    assert [d.loss for d in worst] == sorted((d.loss for d in worst), reverse=True)
    assert all(d.loss > 0 for d in worst)
    assert review.points_won == (0 if hand.result is None or hand.result.winner is None else
                                 hand.result.points * (1 if hand.result.winner == 0 else -1))


def _hand_at(match: Match, ply: int) -> Hand:
    """The first hand as it stood before action ``ply``."""
    hand = match.hands[0]
    assert hand.deck is not None
    replay = Hand.from_deck(hand.deck, rules=hand.rules, dealer=hand.dealer)
    for p, action in hand.history[:ply]:
        replay.apply(action, p)
    return replay


def _view_at(match: Match, ply: int) -> HandView:
    replay = _hand_at(match, ply)
    return replay.view(replay.to_act)


def test_a_match_review_prices_choices_on_the_score_sheet() -> None:
    """Later hands carry the sheet as it stood when they were dealt (R7), and every choice
    gets a sheet equity beside its points."""
    match = Match(rules=Rules(), seed=8)
    from hollywood_gin.bots import make_bot

    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while len(match.hands) < 3 or not match.hand.is_over:
        if match.hand.is_over:
            match.next_hand()
        hand = match.hand
        seat = hand.to_act
        match.apply(bots[seat].choose(hand.view(seat), match.sheet), seat)
    review = review_match(match, 0, hands=[3], settings=QUICK)
    assert [h.hand_number for h in review.hands] == [3]
    h = review.hands[0]
    entries = [(r.winner, r.points) for r in match.results[:2] if r.winner is not None]
    assert list(h.sheet_before) == entries
    for d in h.decisions:
        assert all(c.equity is not None for c in d.choices)
        assert d.equity_best is not None and d.equity_loss is not None


def test_unfinished_or_missing_hands_and_bad_players_are_refused() -> None:
    match = Match(seed=4)
    match.apply(Pass())
    with pytest.raises(ReviewError, match="not over"):
        review_match(match, 0, hands=[1])
    assert review_match(match, 0).hands == ()  # only finished hands by default
    with pytest.raises(ReviewError, match="no hand 2"):
        review_match(match, 0, hands=[2])
    with pytest.raises(ReviewError, match="no player"):
        review_match(match, 2)
    with pytest.raises(ReviewError, match="jobs"):
        review_match(match, 0, jobs=0)
    with pytest.raises(ReviewError, match="max_deals"):
        ReviewSettings(min_deals=64, max_deals=32)


# -- JSON -------------------------------------------------------------------------------------


def test_json_round_trip_keeps_every_decision_and_the_position() -> None:
    match = play_hand(("greedy", "random"), 41)
    review = review_match(match, 1, settings=QUICK, hindsight=True)
    text = json.dumps(review.to_dict())
    back = MatchReview.from_dict(json.loads(text))
    assert back == review
    assert back.to_dict() == review.to_dict()
    data = json.loads(text)
    assert data["format"] == "hollywood-gin-review"
    assert set(data["losses_by_group"]) == {"upcard_and_draw", "discards", "knock_timing",
                                            "going_for_gin"}
    first = data["hands"][0]["decisions"][0]
    assert {"kind", "chosen", "best", "loss", "loss_interval", "grade", "choices", "view",
            "hindsight", "equity"} <= set(first)


def test_a_hand_review_alone_round_trips() -> None:
    match = play_hand(("basic", "greedy"), 42)
    review = review_hand(match, 1, 0, settings=QUICK)
    data = json.loads(json.dumps(review.to_dict()))
    assert data["format"] == "hollywood-gin-review" and "rules" in data
    assert HandReview.from_dict(data) == review
    with pytest.raises(ReviewError, match="rules"):
        HandReview.from_dict(review.to_dict(standalone=False))


def test_a_decision_alone_round_trips_with_its_view() -> None:
    hand, _, bad = KNOWN["feed_or_safe"]()
    view = hand.view(0)
    review = review_decision(view, bad, settings=QUICK)
    assert view_from_dict(view_to_dict(view)) == view
    back = DecisionReview.from_dict(json.loads(json.dumps(review.to_dict())))
    assert back == review


def test_bad_review_json_is_refused_with_a_review_error() -> None:
    with pytest.raises(ReviewError):
        MatchReview.from_dict({"format": "something else"})
    with pytest.raises(ReviewError):
        MatchReview.from_dict([1, 2])


# -- the continuation is the expert's own playout ---------------------------------------------


def test_play_choice_is_the_experts_playout() -> None:
    """The review's continuation is exactly the expert's rollout policy and opponent model."""
    hand, _, _ = KNOWN["feed_or_safe"]()
    view = hand.view(0)
    sampler = ChoiceSampler(view, list(view.legal_actions), random.Random(3))
    sampler.run(list(range(len(view.legal_actions))), 16)
    expert = ExpertBot(seed=1)
    sense = read_view(view)
    st = expert.settings
    models = [expert._model(view, sense, theirs) for theirs, _, _ in expert._styles(sense)]
    for k, (m, deal) in enumerate(sampler.deals):
        assert models[m][1] == sampler.models[m][1]
        for c, action in enumerate(view.legal_actions):
            if isinstance(action, Knock | Discard):
                got = play_choice(view, sense, sampler.models[m][0], deal, action)
                want = play_choice(view, sense, models[m][0], deal, action)
                assert got == want
                sign = 0 if got[0] is None else (1 if got[0] == 0 else -1)
                assert sampler.points[c][k] == sign * got[1]
    assert sum(m for m, _ in sampler.deals) == int(16 * st.opp_mix)  # spread evenly


@pytest.mark.parametrize("settings", [{"max_deals": 1, "min_deals": 1}, {"min_deals": 1}])
def test_a_review_needs_two_deals_to_price_a_choice_on_held_out_ones(
        settings: dict[str, int]) -> None:
    """On one deal the pick and its price came from the same deal (a loss of 42 points
    with the interval [-inf, inf] on a plain decision)."""
    with pytest.raises(ReviewError, match="_deals must be a whole number from 2 to 100000"):
        ReviewSettings(**settings)
