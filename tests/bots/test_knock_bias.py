"""``knock_bias`` (issue 14): points added to the searched knock's value, times the
opponent's cautious share, since the playouts overvalue playing on (docs/bots.md), which
costs against a cautious knocker.  A large bias one way knocks wherever a knock is searched,
the other way never knocks but with gin; against an eager knocker it does nothing."""

from __future__ import annotations

from hg_bot_games import greedy_knock_views

from hollywood_gin.actions import Action, Discard, Knock
from hollywood_gin.bots import make_bot
from hollywood_gin.hand import HandView
from hollywood_gin.melds import deadwood_of_mask

# No late veto, so that every legal knock is searched and the bias alone moves it; the
# opponent's style fixed (learn=0): cautious on every deal, or eager on every deal.
_CAUTIOUS = "expert:time_cap_ms=0,samples=64,late_veto=0,learn=0,opp_mix=1"
_EAGER = "expert:time_cap_ms=0,samples=64,late_veto=0,learn=0,opp_mix=0"


def _gin(view: HandView, action: Action) -> bool:
    return (isinstance(action, Knock) and action.card is not None
            and deadwood_of_mask(view.hand_mask & ~action.card.bit) == 0)


def test_a_large_knock_bias_knocks_and_a_negative_one_plays_on() -> None:
    moved_to_knock = moved_to_play = 0
    for n, view in enumerate(greedy_knock_views(40)):
        plain = make_bot(_CAUTIOUS, seed=n).choose(view)
        eager = make_bot(f"{_CAUTIOUS},knock_bias=40", seed=n).choose(view)
        shy = make_bot(f"{_CAUTIOUS},knock_bias=-40", seed=n).choose(view)
        assert isinstance(eager, Knock)
        assert isinstance(shy, Discard) or _gin(view, shy)
        moved_to_knock += not isinstance(plain, Knock)
        moved_to_play += isinstance(plain, Knock) and not _gin(view, plain)
    assert moved_to_knock and moved_to_play, (moved_to_knock, moved_to_play)


def test_against_an_eager_knocker_the_bias_changes_nothing() -> None:
    played_on = 0
    for n, view in enumerate(greedy_knock_views(40)):
        plain = make_bot(_EAGER, seed=n).choose(view)
        assert make_bot(f"{_EAGER},knock_bias=40", seed=n).choose(view) == plain
        played_on += not isinstance(plain, Knock)
    assert played_on  # positions where a bias that applied would have knocked
