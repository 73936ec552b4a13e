"""Reviews of saved matches kept in the store: made once, read back, stopped half-way,
forgotten on undo, and a match's accuracy once every hand is reviewed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from hollywood_gin.bots import make_bot
from hollywood_gin.review import ReviewSettings
from hollywood_gin.review.saved import (
    ReviewCancelled,
    decision_counts,
    match_accuracies,
    method_key,
    review_saved,
)
from hollywood_gin.rules import Rules
from hollywood_gin.store import PersistentMatch, Store

FAST = ReviewSettings(min_deals=2, max_deals=4, batch=2)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'games.db'}")
    yield s
    s.close()


def played(store: Store, *, hands: int, seed: int = 5) -> PersistentMatch:
    """A stored match with ``hands`` finished hands, both seats played by the basic bot."""
    pm = store.new_match(rules=Rules(), seed=seed, first_dealer=0, players=("Ann", "Bob"))
    bots = [make_bot("basic", seed=1), make_bot("basic", seed=2)]
    while True:
        hand = pm.match.hand
        if hand.is_over:
            if len(pm.match.hands) == hands or pm.match.finished:
                return pm
            pm.match.next_hand()
            continue
        seat = hand.to_act
        pm.act(bots[seat].choose(hand.view(seat), pm.match.sheet.copy()), seat)


def test_a_saved_review_is_made_once_and_read_back_the_same(store: Store) -> None:
    pm = played(store, hands=2)
    totals: list[int] = []
    first = review_saved(store, pm.id, 0, settings=FAST,
                         progress=lambda done, total: totals.append(total))
    assert [h.hand_number for h in first.hands] == [1, 2]
    assert totals[0] == sum(decision_counts(pm.match, 0, [1, 2]).values()) > 0
    assert first.names == ("Ann", "Bob")
    rows = store.review_rows([pm.id])
    assert sorted(r.hand_number for r in rows) == [1, 2]
    assert {r.method for r in rows} == {method_key(FAST)}
    again: list[int] = []
    second = review_saved(store, pm.id, 0, settings=FAST,
                          progress=lambda done, total: again.append(total))
    assert again == [0]  # nothing left to compute
    assert json.dumps(second.to_dict()) == json.dumps(first.to_dict())
    # another seat, or another way of reviewing, is another review
    other = review_saved(store, pm.id, 1, settings=FAST, hands=[1])
    assert other.player == 1 and len(store.review_rows([pm.id])) == 3
    assert method_key(FAST) != method_key(ReviewSettings())


def test_hindsight_is_kept_but_given_only_when_asked(store: Store) -> None:
    pm = played(store, hands=1)
    plain = review_saved(store, pm.id, 0, settings=FAST, hindsight=False)
    assert all(d.hindsight is None for d in plain.decisions)
    full = review_saved(store, pm.id, 0, settings=FAST)
    assert all(d.hindsight is not None for d in full.decisions)


def test_leaving_half_way_keeps_the_hands_done(store: Store) -> None:
    pm = played(store, hands=2)
    first_hand = decision_counts(pm.match, 0, [1])[1]
    seen: list[int] = []

    def cancelled() -> bool:  # asked after each decision: stop inside the second hand
        return bool(seen) and seen[-1] > first_hand

    with pytest.raises(ReviewCancelled):
        review_saved(store, pm.id, 0, settings=FAST, cancelled=cancelled,
                     progress=lambda done, total: seen.append(done))
    assert [r.hand_number for r in store.review_rows([pm.id])] == [1]


def test_only_finished_hands_are_reviewed(store: Store) -> None:
    from hollywood_gin.review import ReviewError

    pm = played(store, hands=1)
    pm.match.next_hand()
    with pytest.raises(ReviewError, match="not over"):
        review_saved(store, pm.id, 0, settings=FAST, match=pm.match, names=pm.players,
                     hands=[2])
    review = review_saved(store, pm.id, 0, settings=FAST, match=pm.match, names=pm.players)
    assert [h.hand_number for h in review.hands] == [1]


def test_undo_into_a_reviewed_hand_forgets_its_review(store: Store) -> None:
    pm = played(store, hands=2)
    review_saved(store, pm.id, 0, settings=FAST)
    first_of_hand_2 = next(a.seq for a in store.load(pm.id).actions if a.hand_number == 2)
    pm.undo_to(first_of_hand_2 + 1)
    assert [r.hand_number for r in store.review_rows([pm.id])] == [1]


def test_a_match_accuracy_needs_every_hand_reviewed_the_same_way(store: Store) -> None:
    pm = played(store, hands=2)
    review_saved(store, pm.id, 0, settings=FAST, hands=[1])
    rows = store.review_rows()
    assert match_accuracies(rows, {pm.id: 2}) == {}
    whole = review_saved(store, pm.id, 0, settings=FAST)
    found = match_accuracies(store.review_rows(), {pm.id: 2})
    acc = found[(pm.id, 0)]
    assert acc.decisions == len(whole.decisions)
    assert acc.accuracy == pytest.approx(whole.accuracy)
    assert acc.points_lost == pytest.approx(whole.points_lost)
    assert match_accuracies(store.review_rows(), {pm.id: 3}) == {}  # a hand not reviewed
