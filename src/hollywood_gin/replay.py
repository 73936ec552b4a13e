"""Printing a match record hand by hand (the ``replay`` command)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .actions import Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from .cards import CARDS, Card
from .hand import Hand, HandResult
from .i18n import _, is_you, ngettext
from .record import loads_record, players_of_record, read_record_file
from .sheet import ScoreSheet

__all__ = ["describe_result", "player_name", "print_replay", "say_about"]

_COMPUTER = re.compile(r"Computer \(level (\d)\)")
_SEAT = re.compile(r"Player ([01])")


def player_name(name: str) -> str:
    """A player's name as saved in a record or the store, said in the language in force: the
    names the programs give ("You", "Computer (level 3)", "Player 0") are words, not names;
    a person's own name stays as it is."""
    if name == "You":
        return _("You")
    computer = _COMPUTER.fullmatch(name)
    if computer is not None:
        # Translators: the computer's name in a saved match; {level} is 1 to 5.
        return _("Computer (level {level})").format(level=computer.group(1))
    seat = _SEAT.fullmatch(name)
    if seat is not None:
        # Translators: a seat's name in a record without names; {n} is 0 or 1.
        return _("Player {n}").format(n=seat.group(1))
    # A record is a file anyone can write: no escape sequence of its names reaches the
    # terminal, and no line break forges a line of the text.
    return "".join(c if c.isprintable() else "\ufffd" for c in name)


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def say_about(name: str, you: str, other: str, **values: object) -> str:
    """One sentence about ``name``: ``you`` in the second person ("You take 4♥") for the
    player's own seat, else ``other`` in the third ("Bob takes 4♥")."""
    return (you if is_you(name) else other).format(name=name, **values)


def describe_result(result: HandResult, names: tuple[str, str], *,
                    stock: int | None = None) -> str:
    """One line on how a hand ended, in the game's words (``stock``: cards left in a dead
    hand's stock, when known)."""
    if result.winner is None:
        if stock is None:
            return _("Dead hand: no score (R6.1).")
        return ngettext("Dead hand: {n} card left in the stock, no score (R6.1).",
                        "Dead hand: {n} cards left in the stock, no score (R6.1).",
                        stock).format(n=stock)
    winner = names[result.winner]
    score = result.score
    assert score is not None
    points = ngettext("{n} point", "{n} points", result.points).format(n=result.points)
    detail = _("deadwood {knocker} against {defender}").format(
        knocker=score.knocker_deadwood, defender=score.defender_deadwood)
    if result.kind == "knock":
        return say_about(winner, _("You knock and win: {points} ({detail})."),
                         _("{name} knocks and wins: {points} ({detail})."),
                         points=points, detail=detail)
    if result.kind == "undercut":
        return say_about(winner, _("You undercut: {points} ({detail})."),
                         _("{name} undercuts: {points} ({detail})."), points=points, detail=detail)
    if result.kind == "gin":
        return say_about(winner, _("You go gin: {points} ({detail})."),
                         _("{name} goes gin: {points} ({detail})."), points=points, detail=detail)
    return say_about(winner, _("You go big gin: {points} ({detail})."),
                     _("{name} goes big gin: {points} ({detail})."), points=points, detail=detail)


def _action_line(who: str, action: object, replay: Hand) -> str:
    """An action in words, before it is applied to ``replay`` (which shows the cards)."""
    if isinstance(action, DrawStock):
        return say_about(who, _("You draw {card} from the stock"),
                         _("{name} draws {card} from the stock"),
                         card=CARDS[replay.stock[-1]].pretty)
    if isinstance(action, (TakeDiscard, TakeUpcard)):
        return say_about(who, _("You take {card}"), _("{name} takes {card}"),
                         card=CARDS[replay.pile[-1]].pretty)
    if isinstance(action, Pass):
        return say_about(who, _("You pass the upcard"), _("{name} passes the upcard"))
    if isinstance(action, Discard):
        return say_about(who, _("You discard {card}"), _("{name} discards {card}"),
                         card=action.card.pretty)
    if isinstance(action, Knock):
        if action.card is None:
            return say_about(who, _("You go big gin"), _("{name} goes big gin"))
        return say_about(who, _("You knock, discarding {card}"),
                         _("{name} knocks, discarding {card}"), card=action.card.pretty)
    return f"{who} {action}"  # pragma: no cover - every action is one of the above


def _replay_lines(hand: Hand, names: tuple[str, str]) -> list[str]:
    """Replay one hand from its deck, saying what happened, with the cards drawn revealed."""
    assert hand.deck is not None
    replay = Hand.from_deck(hand.deck, rules=hand.rules, dealer=hand.dealer)
    lines = [
        say_about(names[hand.dealer], _("You deal. Upcard {card}."),
                  _("{name} deals. Upcard {card}."), card=hand.deck[20].pretty),
        f"  {names[0]}: {_cards(replay.cards_of(0))}",
        f"  {names[1]}: {_cards(replay.cards_of(1))}",
    ]
    for player, action in hand.history:
        lines.append("  " + _action_line(names[player], action, replay))
        replay.apply(action)
    result = replay.result
    if result is not None:
        score = result.score
        if score is not None:
            assert result.knocker is not None
            k, d = names[result.knocker], names[1 - result.knocker]
            melds = "  ".join(_cards(m) for m in score.knocker_melds)
            lines.append("  " + say_about(k, _("You show {melds} | deadwood {cards}"),
                                          _("{name} shows {melds} | deadwood {cards}"),
                                          melds=melds,
                                          cards=_cards(score.knocker_unmatched) or "-"))
            melds = "  ".join(_cards(m) for m in score.defender_melds)
            lines.append("  " + say_about(d, _("You show {melds} | deadwood {cards}"),
                                          _("{name} shows {melds} | deadwood {cards}"),
                                          melds=melds or "-",
                                          cards=_cards(score.defender_unmatched) or "-"))
            if score.layoffs:
                lines.append("  " + say_about(d, _("You lay off {cards}"),
                                              _("{name} lays off {cards}"),
                                              cards=_cards(score.layoff_cards)))
        lines.append("  " + describe_result(result, names, stock=len(replay.stock)))
    return lines


def print_replay(path: str | Path, *, as_json: bool = False) -> int:
    """Print a record; a bad record raises :class:`RecordError` (exit code 2 in the CLI)."""
    raw = read_record_file(path)  # read once: the names come from the bytes replayed
    match = loads_record(raw)
    data: dict[str, Any] = json.loads(raw)  # loads_record has read it as JSON
    names = players_of_record(data)  # as the record says them (JSON)
    sheet = ScoreSheet(match.rules)
    if not as_json:
        names = (player_name(names[0]), player_name(names[1]))
    if as_json:
        hands = []
        for hand in match.hands:
            result = hand.result
            if result is not None and result.winner is not None:
                sheet.record(result.winner, result.points)
            hands.append({
                "dealer": hand.dealer,
                "actions": [{"player": p, "action": str(a)} for p, a in hand.history],
                "result": None if result is None else {
                    "kind": result.kind, "winner": result.winner, "points": result.points,
                    "knocker": result.knocker,
                    "hands": [[c.text for c in h] for h in result.hands],
                },
                "sheet": [
                    {"points": list(c.points), "boxes": list(c.boxes), "winner": c.winner}
                    for c in sheet.columns
                ],
            })
        print(json.dumps({"players": list(names), "hands": hands,
                          "totals": list(match.sheet.totals), "winner": match.sheet.winner}))
        return 0
    for n, hand in enumerate(match.hands, 1):
        print(_("Hand {n}").format(n=n))
        for line in _replay_lines(hand, names):
            print(line)
        result = hand.result
        if result is not None and result.winner is not None:
            sheet.record(result.winner, result.points)
        print()
    print(match.sheet.render(names))
    return 0
