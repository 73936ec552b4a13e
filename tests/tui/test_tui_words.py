"""What the game says, without a screen: refusals name only the legal action and write
cards with suit symbols (R4.1–R5.1), hints too, and every rule word follows the rules in
force (the rule book §9), so "eaai" never reads "three games at once" or "box +0"."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from hollywood_gin.actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from hollywood_gin.bots.base import GIN, Reason
from hollywood_gin.cards import Card
from hollywood_gin.hand import Hand, HandView, Phase
from hollywood_gin.i18n import N_
from hollywood_gin.rules import PRESETS, Rules
from hollywood_gin.sheet import ScoreSheet
from hollywood_gin.tui.look import entry_words, sheet_table
from hollywood_gin.tui.rulewords import help_rules, rules_summary, sheet_caption, sheet_title
from hollywood_gin.tui.words import (
    gin_allowed,
    hint_words,
    legal_now,
    pretty_text,
    refusal,
)

LETTER_CARD = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9TJQKA])[shdc](?!\w)")


def keys_named(text: str) -> set[str]:
    """The action keys a message tells the person to press: "(t)", "(s)", "(k)"…"""
    return set(re.findall(r"\(([txskg])\)", text))


def legal_keys(view: HandView) -> set[str]:
    keys: set[str] = set()
    for action in view.legal_actions:
        if isinstance(action, (TakeUpcard, TakeDiscard)):
            keys.add("t")
        elif isinstance(action, Pass):
            keys.add("x")
        elif isinstance(action, DrawStock):
            keys.add("s")
        elif isinstance(action, Knock) and action.card is not None:
            keys.add("k")
    if gin_allowed(view):
        keys.add("g")
    return keys


def _attempts(view: HandView) -> list[Action]:
    card = view.hand[0]
    tries: list[Action] = [Pass(), TakeUpcard(), DrawStock(), TakeDiscard(), Discard(card),
                           Knock(card), Knock(None)]
    if view.taken_card is not None:
        tries += [Discard(view.taken_card), Knock(view.taken_card)]
    return tries


def test_the_gin_key_in_the_opening_is_refused_as_gin_not_a_knock_r5_1() -> None:
    view = Hand.deal(rules=Rules(), dealer=1, seed=3).view(0)
    assert view.phase is Phase.OFFER
    assert refusal(view, Knock(None)).startswith("You go gin after taking a card (R5.1)")
    assert refusal(view, Knock(view.hand[0])).startswith("You knock after taking a card")


@pytest.mark.parametrize("preset", ["hollywood", "eaai"])
def test_refusals_name_only_legal_actions_in_every_phase_r4_r5(preset: str) -> None:
    """Random hands, every phase: each refusal of an illegal action names only keys whose
    action is legal now, and no card in the letter form."""
    rng = random.Random(5)
    rules = PRESETS[preset]
    seen: set[Phase] = set()
    for deal in range(12):
        hand = Hand.deal(rules=rules, dealer=deal % 2, seed=rng.randrange(1 << 30))
        while not hand.is_over:
            view = hand.view(hand.to_act)
            seen.add(view.phase)
            allowed = legal_keys(view)
            for action in _attempts(view):
                if hand.is_legal(action):
                    continue
                words = refusal(view, action)
                assert keys_named(words) <= allowed, (view.phase, action, words)
                assert not LETTER_CARD.search(words), words
            other = hand.view(1 - hand.to_act)  # the other player is told to wait
            assert refusal(other, DrawStock()).startswith("Wait")
            hand.apply(rng.choice(hand.legal_actions()))
    assert seen == {Phase.OFFER, Phase.DRAW, Phase.DISCARD}


def test_the_card_just_taken_is_refused_with_r4_3_and_a_legal_way_on() -> None:
    hand = Hand.deal(rules=Rules(), dealer=1, seed=3)
    hand.apply(TakeUpcard())
    view = hand.view(hand.to_act)
    taken = view.taken_card
    assert taken is not None
    words = refusal(view, Discard(taken))
    assert words.startswith(f"{taken.pretty} was just taken from the pile")
    assert "(R4.3)" in words and "discard a card" in words
    assert "R4.3" in refusal(view, Knock(taken))
    assert legal_now(view).startswith("discard a card")


def test_the_opening_names_take_or_pass_not_the_stock_r4_1() -> None:
    hand = Hand.deal(rules=Rules(), dealer=0, seed=9)
    view = hand.view(hand.to_act)
    upcard = view.upcard
    assert upcard is not None
    for action in (Knock(view.hand[0]), DrawStock(), Discard(view.hand[0])):
        words = refusal(view, action)
        assert f"take the upcard {upcard.pretty} (t) or pass (x)" in words, words
        assert "stock (s)" not in words


def test_letter_cards_become_symbols_only_for_the_cards_given() -> None:
    ten, ace = Card.parse("Th"), Card.parse("As")
    assert pretty_text("cannot discard Th: it was taken", [ten]) == \
        "cannot discard 10♥: it was taken"
    assert pretty_text("As the Th was taken", [ten]) == "As the 10♥ was taken"
    assert pretty_text("As, 10h and As", [ten, ace]) == "A♠, 10♥ and A♠"


def test_a_hint_names_its_action_once_with_symbols() -> None:
    hand = Hand.deal(rules=Rules(), dealer=1, seed=4)
    hand.apply(TakeUpcard())
    view = hand.view(hand.to_act)
    card = next(c for c in view.hand if c != view.taken_card)
    words = hint_words(Discard(card), Reason.of(N_("the highest deadwood card")), view)
    assert words == f"discard {card.pretty} — the highest deadwood card"
    gin = hint_words(Knock(card), Reason.of(GIN), view)
    assert gin.startswith(f"knock, discarding {card.pretty} — gin")  # 0 deadwood it is not


def test_a_hint_to_go_gin_says_gin_as_the_g_key_does_r2_5() -> None:
    """It said "knock, discarding A♠ — gin…" while the table has a key of its own for gin."""
    mine = [Card.parse(c) for c in ["As", "2s", "3s", "4h", "5h", "6h", "7c", "8c", "9c", "Td"]]
    rest = [c for c in Hand.deal(seed=1).deck or () if c not in mine and c.text != "Tc"]
    deck = [x for pair in zip(mine, rest[:10], strict=True) for x in pair]
    deck += [Card.parse("Tc"), *rest[10:]]
    hand = Hand.from_deck(deck, rules=Rules(), dealer=1)
    hand.apply(TakeUpcard())  # 7♣ 8♣ 9♣ 10♣: the 10♦ goes, and nothing is left
    view = hand.view(0)
    words = hint_words(Knock(Card.parse("Td")), Reason.of(GIN), view)
    assert words.startswith("go gin, discarding 10♦ — gin"), words


def _plain(renderable: object) -> str:
    console = Console(width=60, file=io.StringIO(), record=True)
    console.print(renderable)
    return " ".join(console.export_text().split())


def test_help_and_labels_follow_the_rules_in_force_r9() -> None:
    eaai = PRESETS["eaai"]
    text = help_rules(eaai)
    assert "undercut* wins 25 + the difference" in text
    assert "wins 10 + the difference" not in text
    assert "three games at once" not in text and "One game to 100" in text
    assert "box" not in text and "deal alternates" in text
    assert sheet_title(eaai) == "Scoresheet"
    assert sheet_caption(eaai) == "to 100 · no bonuses"
    sheet = _plain(sheet_table(ScoreSheet(eaai), ("You", "Computer"), title=sheet_title(eaai)))
    assert "Hollywood" not in sheet and "box" not in sheet
    assert "gin +25 · undercut +25" in rules_summary(eaai)
    # the default rules, as before
    hollywood = help_rules(Rules())
    assert "3 games at once" in hollywood and "wins 10 + the difference" in hollywood
    assert "+20 a box" in hollywood and sheet_title(Rules()) == "Hollywood scoresheet"
    # custom numbers are the ones said
    custom = Rules(knock_limit=7, undercut_bonus=15, big_gin_bonus=31, dead_hand_stock=1,
                   columns=2)
    text = help_rules(custom)
    assert "with 7 deadwood or less" in text and "wins 15 + the difference" in text
    assert "Big gin" in text and "31" in text and "With 1 card left" in text
    assert "2 games at once" in text and "later ones in games 1 and 2" in text
    assert help_rules(Rules(oklahoma=True)).count("upcard's value") == 1


def test_a_win_that_enters_no_game_says_so_r7_2_by_count() -> None:
    """By count, once game 1 has closed a player's first win enters nowhere (R7.2)."""
    sheet = ScoreSheet(Rules(entry_rule="by_count"))
    sheet.record(0, 60)
    sheet.record(0, 45)  # closes game 1
    entry = sheet.record(1, 12)
    assert entry.columns == ()
    words = entry_words(entry, sheet, ("You", "Computer"))
    assert words[0].startswith("Computer's 1st won hand: 12 enter no game")


def test_a_closed_game_says_the_losers_boxes_too_r7_4() -> None:
    """The hand's end named the winner's box bonus only, so the loser's total jumped by his
    boxes unexplained (a QA pass)."""
    sheet = ScoreSheet(Rules(game_target=50))
    for player, points in [(1, 10), (1, 12), (0, 20), (1, 5), (0, 40)]:
        entry = sheet.record(player, points)
    assert entry.closed == (0,) and sheet.columns[0].boxes == (2, 3)
    words = entry_words(entry, sheet, ("You", "Computer"))
    assert words[1] == ("Game 1 closes at 60: you win it, +100 game bonus and +40 for boxes "
                        "(R7.3, R7.4).")
    assert words[2] == "Computer gets +60 for boxes (R7.4)."
    assert entry_words(entry, sheet, ("Computer", "You"))[2] == (
        "You get +60 for your boxes (R7.4).")
    quiet = ScoreSheet(Rules(game_target=50, box_bonus=0))
    for player, points in [(1, 10), (0, 60)]:
        entry = quiet.record(player, points)
    assert len(entry_words(entry, quiet, ("You", "Computer"))) == 2  # no boxes, no line


def test_the_compact_sheet_keeps_every_number_in_the_sidebar_r7() -> None:
    """Three-digit totals, bonuses and shutout marks fit the 31 columns of the sidebar
    at 80x24: no total is cut to "6…" (found playing at 100x30)."""
    from hollywood_gin.tui.look import natural_width

    sheet = ScoreSheet(Rules(game_target=20))
    for player, points in [(0, 8), (1, 20), (1, 22), (1, 30)]:
        sheet.record(player, points)
    assert sheet.finished and sheet.totals[1] >= 100
    table = sheet_table(sheet, ("You", "Computer (level 3)"), title="Hollywood scoresheet",
                        compact=True)
    assert natural_width(table, 31) <= 31
    text = _plain(table)
    for column in sheet.columns:
        for value in (*column.points, *column.total, *column.bonuses):
            assert str(value) in text
    assert f" {sheet.totals[1]}" in text and "…" not in text


def test_five_games_and_the_totals_fit_the_sidebar_at_80x24_r7() -> None:
    """With five games the sheet was wider than the side panel at 80x24: game 5 and the
    totals scrolled out of sight (a QA pass). The totals go under the table, and with the
    names' column narrowed as the table screen narrows it, every game fits."""
    from hollywood_gin.tui.look import natural_width
    from hollywood_gin.tui.table import SIDE_NARROW

    sheet = ScoreSheet(Rules(columns=5))
    for player, points in [(1, 20)] * 5 + [(0, 110)] * 4:
        sheet.record(player, points)
    room = SIDE_NARROW - 3
    fits = [label for label in range(12, 4, -1)
            if natural_width(sheet_table(sheet, ("You", "Computer (level 5)"),
                                         title="Hollywood scoresheet", compact=True,
                                         label=label), room) <= room + 1]
    assert fits, "no narrowing of the names fits five games"
    table = sheet_table(sheet, ("You", "Computer (level 5)"), title="Hollywood scoresheet",
                        compact=True, label=fits[0])
    console = Console(width=room + 1, file=io.StringIO(), record=True)
    console.print(table)
    rows = console.export_text().splitlines()
    words = " ".join(rows).split()
    assert "G5" in words
    for column in sheet.columns:  # every number whole at the panel's width
        for value in (*column.points, *column.total):
            assert str(value) in words
        assert all(f"+{b}" in words for b in column.bonuses)
    assert f"Total: You {sheet.totals[0]} · Computer {sheet.totals[1]}" in " ".join(words)
    three = ScoreSheet(Rules())
    three.record(0, 30)
    assert "Tot" in _plain(sheet_table(three, ("You", "Computer"), compact=True))
    assert "Total:" not in _plain(sheet_table(three, ("You", "Computer"), compact=True))


def test_the_review_shows_a_knocks_discard_the_live_log_keeps_face_down_r5_1() -> None:
    """The review's move list said "You knock, discarding face down." of a hand that is
    over, while the hand's end had shown the card (a QA pass)."""
    from hollywood_gin.tui.look import action_words

    knock = Knock(Card.parse("4h"))
    assert action_words("You", knock) == "You knock, discarding face down."
    assert action_words("You", knock, over=True) == "You knock, discarding 4♥."
    assert action_words("Computer", knock, over=True) == "Computer knocks, discarding 4♥."


def test_a_finished_sheet_names_the_winner_whole_and_keeps_the_shutout_key_r7_5() -> None:
    """"Datamaski vinner kampen" (the name cut to 9 letters in a sentence, and in the
    won-by row), and a finished sheet's "Dat*" left unexplained: the key was dropped."""
    from hollywood_gin import i18n

    sheet = ScoreSheet(Rules(game_target=20))
    for points in (20, 22, 30):
        sheet.record(1, points)
    assert sheet.finished and sheet.winner == 1 and all(c.shutout for c in sheet.columns)
    with i18n.using("nb"):
        console = Console(width=120, file=io.StringIO(), record=True)
        console.print(sheet_table(sheet, ("Du", "Datamaskinen"), title="Protokoll"))
        text = " ".join(console.export_text().split())
        assert "Datamaskinen vinner kampen" in text, text
        assert "Datamaskinen*" in text and i18n._("* shutout") in text


def test_the_won_by_row_cuts_a_lao_name_by_its_cells_never_inside_a_letter_r7_2() -> None:
    """Lao's "ເຈົ້າ" (You) is three cells in five code points: the compact sheet cut it to
    three code points, "ເຈົ", and dropped its tone mark and vowel (a QA pass)."""
    from hollywood_gin import i18n

    sheet = ScoreSheet(Rules(game_target=20))
    for player, points in [(0, 25), (1, 22)]:
        sheet.record(player, points)
    with i18n.using("lo"):
        you = i18n._("You")
        text = _plain(sheet_table(sheet, (you, "Computer"), compact=True))
    assert you == "ເຈົ້າ" and you + "*" in text, text
    assert "Com" in text


def test_the_keepers_sentences_put_game_in_its_case_in_lithuanian_r7_2() -> None:
    """"įrašyta į žaidimas 2" and "uždaro žaidimas 1": the keeper put the standalone form
    of "game 2" into its sentences, where Lithuanian needs "į žaidimą 2" (a QA pass)."""
    from hollywood_gin import i18n
    from hollywood_gin.tui.keeper_look import entry_lines

    sheet = ScoreSheet(Rules(game_target=100))
    for player, points in [(0, 60), (0, 45), (1, 12)]:
        sheet.record(player, points)
    with i18n.using("lt"):
        said = " ".join(entry_lines(sheet.entries[-1], sheet, ("Ana", "Bob")))
        closes = i18n.ngettext("closes game {numbers}", "closes games {numbers}", 1)
    # Bob's first win goes to the first game still open (R7.2): game 1 closed at 105
    assert "į žaidimą 2" in said and "žaidimas" not in said, said
    assert closes == "uždaro žaidimą {numbers}"
