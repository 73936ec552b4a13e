"""Printing a match record hand by hand (the ``replay`` command)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .actions import Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from .cards import CARDS, Card
from .errors import RecordError
from .hand import Hand, HandResult
from .record import load_record, players_of_record
from .sheet import ScoreSheet

__all__ = ["describe_result", "print_replay"]


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def describe_result(result: HandResult, names: tuple[str, str]) -> str:
    """One line on how a hand ended, in the game's words."""
    if result.winner is None:
        return "Dead hand: two cards left in the stock, no score (R6.1)."
    winner = names[result.winner]
    kind = {"knock": "knocks and wins", "undercut": "undercuts", "gin": "goes gin",
            "big_gin": "goes big gin"}[result.kind]
    score = result.score
    assert score is not None
    detail = f"deadwood {score.knocker_deadwood} against {score.defender_deadwood}"
    return f"{winner} {kind}: {result.points} points ({detail})."


def _replay_lines(hand: Hand, names: tuple[str, str]) -> list[str]:
    """Replay one hand from its deck, saying what happened, with the cards drawn revealed."""
    assert hand.deck is not None
    replay = Hand.from_deck(hand.deck, rules=hand.rules, dealer=hand.dealer)
    lines = [
        f"{names[hand.dealer]} deals. Upcard {hand.deck[20].pretty}.",
        f"  {names[0]}: {_cards(replay.cards_of(0))}",
        f"  {names[1]}: {_cards(replay.cards_of(1))}",
    ]
    for player, action in hand.history:
        who = names[player]
        if isinstance(action, DrawStock):
            card = CARDS[replay.stock[-1]]
            text = f"draws {card.pretty} from the stock"
        elif isinstance(action, (TakeDiscard, TakeUpcard)):
            text = f"takes {CARDS[replay.pile[-1]].pretty}"
        elif isinstance(action, Pass):
            text = "passes the upcard"
        elif isinstance(action, Discard):
            text = f"discards {action.card.pretty}"
        elif isinstance(action, Knock):
            card_text = "" if action.card is None else action.card.pretty
            text = "goes big gin" if action.card is None else f"knocks, discarding {card_text}"
        else:  # pragma: no cover
            text = str(action)
        replay.apply(action)
        lines.append(f"  {who} {text}")
    result = replay.result
    if result is not None:
        score = result.score
        if score is not None:
            assert result.knocker is not None
            k, d = names[result.knocker], names[1 - result.knocker]
            melds = "  ".join(_cards(m) for m in score.knocker_melds)
            lines.append(f"  {k} shows {melds} | deadwood {_cards(score.knocker_unmatched) or '-'}")
            melds = "  ".join(_cards(m) for m in score.defender_melds)
            lines.append(f"  {d} shows {melds or '-'} | deadwood "
                         f"{_cards(score.defender_unmatched) or '-'}")
            if score.layoffs:
                lines.append(f"  {d} lays off {_cards(score.layoff_cards)}")
        lines.append("  " + describe_result(result, names))
    return lines


def print_replay(path: str | Path, *, as_json: bool = False) -> int:
    """Print a record; a bad record raises :class:`RecordError` (exit code 2 in the CLI)."""
    match = load_record(path)
    try:
        data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # pragma: no cover - load_record already read it
        raise RecordError(str(exc)) from None
    names = players_of_record(data)
    sheet = ScoreSheet(match.rules)
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
        print(f"Hand {n}")
        for line in _replay_lines(hand, names):
            print(line)
        result = hand.result
        if result is not None and result.winner is not None:
            sheet.record(result.winner, result.points)
        print()
    print(match.sheet.render(names))
    return 0
