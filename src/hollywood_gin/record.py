"""Match records: a documented, versioned JSON format that replays through the engine.

A record holds the rules, the seed, every deck order and every action; the
results it states are checked on load by replaying the actions, so a damaged
or tampered record is refused with a :class:`RecordError` saying where.  The
format is described in ``docs/record-format.md``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .actions import parse_action
from .atomic import replace_file
from .cards import Card, parse_cards
from .errors import HollywoodGinError, RecordError, shortened
from .hand import HandResult
from .match import Match
from .rules import Rules

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "dumps_record",
    "load_record",
    "loads_record",
    "match_from_record",
    "read_record_file",
    "record_of_match",
    "save_record",
]

RECORD_FORMAT = "hollywood-gin-record"
RECORD_VERSION = 1
# What a reader takes at most (a file from anywhere must not take the reader's memory or
# hours): the rules set no limit on a hand's turns (two players may take each other's
# discards for ever) nor on a match's hands, so a writer refuses a match past these limits
# rather than write a record no reader takes (docs/record-format.md, "Limits").
MAX_HANDS = 2000
MAX_ACTIONS = 20_000
MAX_BYTES = 16 * 1024 * 1024


def _result_dict(result: HandResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "kind": result.kind,
        "winner": result.winner,
        "knocker": result.knocker,
        "points": result.points,
    }


def record_of_match(match: Match, *, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of a match so far, as a JSON-ready dict."""
    data: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "first_dealer": match.first_dealer,
    }
    if players is not None:
        data["players"] = [str(p) for p in players]
    hands = []
    for hand in match.hands:
        assert hand.deck is not None
        hands.append(
            {
                "dealer": hand.dealer,
                "deck": " ".join(c.text for c in hand.deck),
                "actions": [str(action) for _, action in hand.history],
                "result": _result_dict(hand.result),
            }
        )
    data["hands"] = hands
    data["sheet"] = {
        "entries": match.sheet.to_dict()["entries"],
        "totals": list(match.sheet.totals),
        "finished": match.sheet.finished,
        "winner": match.sheet.winner,
    }
    return data


def dumps_record(match: Match, *, players: Sequence[str] | None = None) -> str:
    """The record as JSON text; RecordError if it is past what a reader takes."""
    _need(len(match.hands) <= MAX_HANDS, f"the match has {len(match.hands)} hands: a record "
          f"holds at most {MAX_HANDS}")
    for n, hand in enumerate(match.hands, 1):
        _need(len(hand.history) <= MAX_ACTIONS, f"hand {n} has {len(hand.history)} actions: "
              f"a record holds at most {MAX_ACTIONS} a hand")
    text = json.dumps(record_of_match(match, players=players), indent=1)
    _need(len(text) < MAX_BYTES, f"the record would be larger than {MAX_BYTES} bytes")
    return text


def save_record(match: Match, path: str | Path, *, players: Sequence[str] | None = None) -> None:
    """Write the record to ``path`` whole: a failed write leaves the file there as it was."""
    replace_file(path, dumps_record(match, players=players) + "\n", prefix=".record-")


def _same(stated: object, actual: object) -> bool:
    """JSON equality that tells ``true`` from ``1`` and ``1.0`` from ``1``: a record that
    states a value of another type is damaged, even where Python's ``==`` would agree."""
    if isinstance(actual, tuple):
        actual = list(actual)
    if type(stated) is not type(actual):
        return False
    if isinstance(actual, dict):
        assert isinstance(stated, dict)
        return stated.keys() == actual.keys() and all(_same(stated[k], actual[k]) for k in actual)
    if isinstance(actual, list):
        assert isinstance(stated, list)
        return len(stated) == len(actual) and all(map(_same, stated, actual))
    return stated == actual


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise RecordError(message)


def match_from_record(data: object) -> Match:
    """Replay a record through the engine and return the match at its last action.

    Every action is checked for legality and every stated result, deck, dealer
    and sheet total must agree with the replay.
    """
    _need(isinstance(data, dict), "a record must be a JSON object")
    assert isinstance(data, dict)
    _need("format" in data, "not a hollywood-gin record: it has no 'format' field (a record "
          "is what 'hollywood-gin stats --export' writes)")
    _need(data.get("format") == RECORD_FORMAT,
          f"not a hollywood-gin record: format is {data.get('format')!r}, not {RECORD_FORMAT!r}")
    version = data.get("version")
    _need(_same(version, RECORD_VERSION),
          f"record version {version!r} is not supported; this program reads version "
          f"{RECORD_VERSION}")
    try:
        rules = Rules.from_dict(data.get("rules"))
    except HollywoodGinError as exc:
        raise RecordError(f"the record's rules are invalid: {exc}") from None
    except TypeError as exc:
        raise RecordError(f"the record's rules are invalid: {exc}") from None
    seed = data.get("seed")
    _need(seed is None or (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0),
          f"the record's seed must be a whole number 0 or more, or null, not {seed!r}")
    first_dealer = data.get("first_dealer")
    _need(_same(first_dealer, 0) or _same(first_dealer, 1),
          f"first_dealer must be 0 or 1, not {first_dealer!r}")
    players = data.get("players")
    _need(players is None or (isinstance(players, list) and len(players) == 2
                              and all(isinstance(p, str) for p in players)),
          f"players must be a list of two names, not {players!r}")
    hands = data.get("hands")
    _need(isinstance(hands, list) and 1 <= len(hands) <= MAX_HANDS,
          f"hands must be a list of 1 to {MAX_HANDS} hands")
    assert isinstance(hands, list)

    decks: list[tuple[Card, ...]] = []
    for n, hand_data in enumerate(hands, 1):
        _need(isinstance(hand_data, dict), f"hand {n} must be an object")
        deck_text = hand_data.get("deck")
        _need(isinstance(deck_text, str), f"hand {n}: deck must be a string of 52 cards")
        try:
            deck = parse_cards(deck_text)
        except HollywoodGinError as exc:
            raise RecordError(f"hand {n}: bad deck: {exc}") from None
        _need(len(deck) == 52, f"hand {n}: the deck has {len(deck)} cards, not 52")
        decks.append(deck)

    try:
        match = Match(
            rules=rules,
            seed=seed if seed is not None else 0,
            first_dealer=first_dealer,
            decks=decks if seed is None else (),
        )
    except HollywoodGinError as exc:
        raise RecordError(f"the record cannot start a match: {exc}") from None
    if seed is None:
        match.seed = None  # type: ignore[assignment]  # decks came from outside; no seed

    for n, hand_data in enumerate(hands, 1):
        if n > 1:
            previous = match.hand
            _need(previous.is_over, f"hand {n - 1} is not over, but hand {n} follows it")
            _need(not match.finished,
                  f"the match was over after hand {n - 1}, but hand {n} follows")
            match.next_hand()
        hand = match.hand
        _need(hand.deck == decks[n - 1],
              f"hand {n}: the deck does not match the one the seed deals")
        _need(_same(hand_data.get("dealer"), hand.dealer),
              f"hand {n}: the dealer should be player {hand.dealer} (R3.1), the record says "
              f"{hand_data.get('dealer')!r}")
        actions = hand_data.get("actions")
        _need(isinstance(actions, list) and len(actions) <= MAX_ACTIONS,
              f"hand {n}: actions must be a list of at most {MAX_ACTIONS} action strings")
        assert isinstance(actions, list)
        for k, text in enumerate(actions, 1):
            said = shortened(repr(text), 60)  # a 600 kB action is named, not echoed
            _need(isinstance(text, str), f"hand {n}, action {k}: must be a string, not {said}")
            try:
                match.apply(parse_action(text))
            except HollywoodGinError as exc:
                raise RecordError(f"hand {n}, action {k} ({said}) is illegal: {exc}") from None
        stated = hand_data.get("result")
        actual = _result_dict(hand.result)
        _need(_same(stated, actual),
              f"hand {n}: the record states result {stated!r}, but the replay gives {actual!r}")

    sheet = data.get("sheet")
    if sheet is not None:
        _need(isinstance(sheet, dict), "sheet must be an object")
        assert isinstance(sheet, dict)
        totals = list(match.sheet.totals)
        _need(_same(sheet.get("totals"), totals),
              f"the record states sheet totals {sheet.get('totals')!r}, the replay gives {totals}")
        _need(_same(sheet.get("finished"), match.sheet.finished),
              "the record's sheet 'finished' does not match the replay")
        _need(_same(sheet.get("winner"), match.sheet.winner),
              "the record's match winner does not match the replay")
        entries = match.sheet.to_dict()["entries"]
        _need(_same(sheet.get("entries", entries), entries),
              "the record's sheet entries do not match the replay")
    return match


def loads_record(text: str | bytes) -> Match:
    """Parse JSON text and replay it (see :func:`match_from_record`)."""
    if len(text) > MAX_BYTES:
        raise RecordError(f"the record is larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"the record is not valid JSON: {exc}") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise RecordError(f"the record is not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError("the record is not valid JSON: it nests too deeply") from None
    return match_from_record(data)


def read_record_file(path: str | Path) -> bytes:
    """A record file's bytes, as :func:`loads_record` takes them (any JSON encoding)."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read record {str(path)!r}: {exc.strerror or exc}") from None


def load_record(path: str | Path) -> Match:
    """Read and replay a record file."""
    return loads_record(read_record_file(path))


def players_of_record(data: dict[str, Any]) -> tuple[str, str]:
    players = data.get("players")
    if isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players):
        return players[0], players[1]
    return "Player 0", "Player 1"
