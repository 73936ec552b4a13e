"""The expert's discard search (issue 14): it plays its best few discards out on the same
re-deals and throws the one the playouts prove best, not the heuristic's first choice.

The position: the opponent took 9♦ and then 9♥ from the pile (both known to be his), and
I hold 9♠ and 8♣ as deadwood.  Least deadwood alone (the heuristic with its danger and
potential weights at zero) throws 9♠, which completes his set of nines; playouts in which
he takes it and I play on warily show that 8♣ is worth more.
"""

from __future__ import annotations

from hg_bot_games import eaai_deal

from hollywood_gin.actions import Discard, DrawStock, Pass, TakeDiscard, TakeUpcard
from hollywood_gin.bots import make_bot
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.bots.opponent import EAGER
from hollywood_gin.bots.search import Playout, PlayoutRules
from hollywood_gin.cards import CARDS, mask_of, parse_cards
from hollywood_gin.hand import HandView

# The hand-set weights of his hand (hand_net=0): the learned model reads his two picks of
# nines as a set he already holds (9♣ at 0.94), so that 9♠ no longer completes it.
_PLAIN = "danger=0,potential=0,time_cap_ms=0,hand_net=0"
_SEARCH = _PLAIN + ",search_discards=3,switch_z=1,discard_samples=128,wary=4"


def _card(text: str) -> int:
    return parse_cards(text)[0].index


def _nines_position() -> HandView:
    hand = eaai_deal("2c 3c 4c Jd Qd Kd 9s 8c 9h Ah", "2s 3s Ks Kh 7s 7d 4h Th Jc Ad",
                     "9d", "6h 5s")
    nine, two, three = (parse_cards(t)[0] for t in ("9h", "2s", "3s"))
    for seat, action in ((0, Pass()), (1, TakeUpcard()), (1, Discard(two)), (0, DrawStock()),
                         (0, Discard(nine)), (1, TakeDiscard()), (1, Discard(three)),
                         (0, DrawStock())):
        hand.apply(action, seat)
    return hand.view(0)


def test_without_search_least_deadwood_feeds_his_set() -> None:
    view = _nines_position()
    assert {c.text for c in view.opponent_known} == {"9d", "9h"}
    for seed in range(3):
        bot = make_bot(f"expert:{_PLAIN},search_discards=0", seed=seed)
        assert bot.choose(view) == Discard(CARDS[_card("9s")])


def test_discard_search_keeps_the_card_that_completes_his_set() -> None:
    view = _nines_position()
    for seed in range(3):
        bot = make_bot(f"expert:{_SEARCH}", seed=seed)
        assert isinstance(bot, ExpertBot)
        assert bot.choose(view) == Discard(CARDS[_card("8c")])
        assert bot.searched_deals == 128  # three discards on the same 128 re-deals


def test_by_default_two_discards_are_searched_and_the_nine_kept() -> None:
    """The default (from 2026-12-05) plays the heuristic's two best discards out: with the
    same hand-set weights as above it keeps 9♠, which the heuristic alone throws."""
    view = _nines_position()
    for seed in range(3):
        bot = make_bot(f"expert:{_PLAIN}", seed=seed)
        assert isinstance(bot, ExpertBot)
        assert bot.choose(view) == Discard(CARDS[_card("8c")])
        assert bot.searched_deals >= 32  # the search's least before it may stop


def test_a_noisy_lead_does_not_move_the_discard() -> None:
    """With an impossible switch_z no lead is clear enough: the heuristic's discard stays."""
    view = _nines_position()
    bot = make_bot(f"expert:{_SEARCH},switch_z=10", seed=1)
    assert bot.choose(view) == Discard(CARDS[_card("9s")])


def _rules(wary: float) -> PlayoutRules:
    return PlayoutRules(limit=10, discard_taken=False, dead_stock=2, gin_bonus=25,
                        undercut_bonus=25, knock=(EAGER, EAGER),
                        wary=(wary, wary))


def test_a_wary_playout_does_not_feed_the_other_hand() -> None:
    """Seat 0 must discard from a hand whose least-deadwood throw (9♠) melds with seat 1's
    nines; a wary player throws 8♣ (one point more) instead, a plain one the nine.  (The
    stock is at the dead-hand count, so the hand ends on that discard.)"""
    mine = mask_of(parse_cards("2c 3c 4c Jd Qd Kd 9s 8c Ah 6h 5s"))
    his = mask_of(parse_cards("9d 9h Ks Kh 7s 7d 4h Th Jc Ad"))
    for wary, thrown in ((-1.0, "9s"), (4.0, "8c"), (0.5, "9s")):
        pile = [_card("3s")]
        stock = [_card("2h"), _card("3h")]
        result = Playout(_rules(wary)).run([mine, his], stock, pile, 0, 2, -1, 0, False, [3, 3])
        assert result == (None, 0)
        assert pile[-1] == _card(thrown), wary
