"""The score sheet's price of a hand's result (bots/equity.py): the match-equity table of
one game to the target (R7.3), with an even or a favoured share of the hands, and the
expert's settings for it (issue 14)."""

from __future__ import annotations

import pytest

from hollywood_gin.bots import make_bot
from hollywood_gin.bots.equity import MATCH_WEIGHT, POINT_WEIGHT, SheetValue, game_equity
from hollywood_gin.bots.expert import ExpertBot
from hollywood_gin.hand import Hand
from hollywood_gin.rules import Rules
from hollywood_gin.sheet import ScoreSheet

SCORES = [(0, 0), (50, 20), (20, 50), (90, 95), (99, 0), (0, 99), (75, 75)]


@pytest.mark.parametrize(("mine", "theirs"), SCORES)
def test_r7_3_even_odds_table_is_symmetric(mine: int, theirs: int) -> None:
    assert game_equity(mine, theirs, 100) == pytest.approx(1 - game_equity(theirs, mine, 100))


@pytest.mark.parametrize(("mine", "theirs"), SCORES)
@pytest.mark.parametrize("share", [0.4, 0.56, 0.7])
def test_r7_3_a_share_of_hands_mirrors_the_other_side(mine: int, theirs: int,
                                                       share: float) -> None:
    assert game_equity(mine, theirs, 100, share) == pytest.approx(
        1 - game_equity(theirs, mine, 100, 1 - share))


def test_r7_3_the_favourite_leads_from_level_and_fears_a_loss_more_than_it_wants_a_win() -> None:
    assert game_equity(0, 0, 100) == pytest.approx(0.5)
    assert game_equity(0, 0, 100, 0.56) > 0.55
    gain = game_equity(20, 0, 100, 0.56) - game_equity(0, 0, 100, 0.56)
    loss = game_equity(0, 0, 100, 0.56) - game_equity(0, 20, 100, 0.56)
    assert loss > gain * 1.1  # concave: a favourite prefers the surer result
    even_gain = game_equity(20, 0, 100) - game_equity(0, 0, 100)
    even_loss = game_equity(0, 0, 100) - game_equity(0, 20, 100)
    assert even_gain == pytest.approx(even_loss)


def test_r7_3_reaching_the_target_is_certain() -> None:
    for share in (0.5, 0.6):
        assert game_equity(100, 40, 100, share) == 1.0
        assert game_equity(40, 100, 100, share) == 0.0


def test_r7_3_sheet_value_prices_the_match_and_a_weight_of_points() -> None:
    rules = Rules.preset("eaai")
    sheet = ScoreSheet(rules)
    sheet.record(0, 30)
    sheet.record(1, 10)
    before = game_equity(30, 10, 100)
    after = game_equity(55, 10, 100)
    plain = SheetValue(sheet, 0)
    assert plain.value(0, 25) == pytest.approx(MATCH_WEIGHT * (after - before)
                                               + POINT_WEIGHT * 25)
    match_only = SheetValue(sheet, 0, point_weight=0.0)
    assert match_only.value(0, 25) == pytest.approx(MATCH_WEIGHT * (after - before))
    favoured = SheetValue(sheet, 0, point_weight=0.0, share=0.6)
    assert favoured.value(0, 25) == pytest.approx(
        MATCH_WEIGHT * (game_equity(55, 10, 100, 0.6) - game_equity(30, 10, 100, 0.6)))
    assert favoured.value(None, 0) == 0.0  # a dead hand changes nothing
    assert sheet.totals == (30, 10)  # pricing never writes on the sheet


def test_expert_prices_by_its_sheet_settings() -> None:
    bot = make_bot("expert:sheet_points=0,sheet_share=0.6")
    assert isinstance(bot, ExpertBot)
    assert (bot.settings.sheet_points, bot.settings.sheet_share) == (0.0, 0.6)
    plain = make_bot("expert")
    assert isinstance(plain, ExpertBot)
    assert (plain.settings.sheet_points, plain.settings.sheet_share) == (POINT_WEIGHT, 0.5)
    sheet = ScoreSheet(Rules.preset("eaai"))
    sheet.record(1, 40)
    view = Hand.deal(rules=Rules.preset("eaai"), dealer=0, seed=3).view(1)
    priced = bot._sheet_value(view, sheet)
    assert (priced.player, priced.point_weight, priced.share) == (1, 0.0, 0.6)
    assert priced.value(1, 10) == pytest.approx(
        MATCH_WEIGHT * (game_equity(50, 0, 100, 0.6) - game_equity(40, 0, 100, 0.6)))
    with pytest.raises(ValueError, match="sheet_share"):
        make_bot("expert:sheet_share=1.5")
