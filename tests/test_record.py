"""Match records: the documented, versioned JSON format; replay checks; tampering refused."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from hollywood_gin import RecordError, Rules
from hollywood_gin.match import Match
from hollywood_gin.record import (
    RECORD_FORMAT,
    RECORD_VERSION,
    dumps_record,
    load_record,
    loads_record,
    match_from_record,
    record_of_match,
    save_record,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"


def played(seed: int, *, rules: Rules = Rules(), finish: bool = True, hands: int = 99) -> Match:
    rng = random.Random(seed)
    match = Match(rules=rules, seed=seed)
    while True:
        hand = match.hand
        while not hand.is_over:
            ids = hand.legal_action_ids()
            knocks = [i for i in ids if i >= 56]
            match.apply_id(knocks[-1] if knocks and rng.random() < 0.7 else rng.choice(ids))
        if match.finished or len(match.hands) >= hands:
            break
        match.next_hand()
    if not finish:
        hand = match.next_hand() if not match.finished else match.hand
        for _ in range(7):
            if hand.is_over:
                break
            match.apply_id(hand.legal_action_ids()[0])
    return match


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return record_of_match(played(7), players=("Ann", "Bo"))


def test_round_trip_replays_to_the_same_match(tmp_path: Path) -> None:
    match = played(7)
    path = tmp_path / "m.json"
    save_record(match, path, players=("Ann", "Bo"))
    again = load_record(path)
    assert again.sheet == match.sheet
    assert [h.deck for h in again.hands] == [h.deck for h in match.hands]
    assert [h.history for h in again.hands] == [h.history for h in match.hands]
    assert again.hand == match.hand
    data = json.loads(path.read_text())
    assert data["format"] == RECORD_FORMAT and data["version"] == RECORD_VERSION
    assert data["players"] == ["Ann", "Bo"]


def test_a_failed_write_leaves_the_old_record_whole_and_names_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk cut the record being overwritten to what fit, and the error ("[Errno 28]
    No space left on device") named no file: now the old record stays whole."""
    import errno
    import os

    path = tmp_path / "m.json"
    save_record(played(7), path, players=("Ann", "Bo"))
    path.chmod(0o640)
    before = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left on device") as caught:
        save_record(played(3), path, players=("Cy", "Di"))
    assert caught.value.filename == str(path)
    assert path.read_bytes() == before and load_record(path).seed == played(7).seed
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]  # no temporary file left
    monkeypatch.undo()
    save_record(played(3), path, players=("Cy", "Di"))
    assert load_record(path).seed == played(3).seed
    assert path.stat().st_mode & 0o777 == 0o640  # replaced, with the file's permissions


def test_a_record_written_to_a_pipe_is_written_in_place(tmp_path: Path) -> None:
    """A pipe (or /dev/stdout) cannot be replaced by a file: it is written to."""
    import os
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    save_record(played(7), fifo, players=("Ann", "Bo"))
    reader.join(10)
    assert json.loads(got[0])["players"] == ["Ann", "Bo"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def _looping(actions: int) -> Match:
    """A legal hand that never ends: both players take each other's discards."""
    from hollywood_gin.actions import Discard, TakeDiscard, TakeUpcard

    match = Match(rules=Rules(), seed=3)
    for _ in range(actions):
        legal = match.hand.legal_actions()
        taken = [a for a in legal if isinstance(a, TakeDiscard | TakeUpcard)]
        thrown = [a for a in legal if isinstance(a, Discard)]
        match.apply((taken or thrown or list(legal))[0], match.hand.to_act)
    assert not match.hand.is_over
    return match


def test_every_record_written_is_one_a_reader_takes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A legal hand of 450 actions was written, then refused on reading ("at most 400"):
    a reader now takes 20,000 a hand, and the writer refuses, writing nothing, a match
    past what a reader takes."""
    import hollywood_gin.record as record

    path = tmp_path / "long.json"
    long_hand = _looping(450)
    save_record(long_hand, path)
    assert load_record(path).hand == long_hand.hand
    monkeypatch.setattr(record, "MAX_ACTIONS", 449)
    with pytest.raises(RecordError, match="hand 1 has 450 actions: a record holds at most "
                                          "449 a hand"):
        save_record(long_hand, tmp_path / "past.json")
    assert not (tmp_path / "past.json").exists()


def test_unfinished_match_resumes_where_it_stopped() -> None:
    match = played(3, finish=False, hands=2)
    again = loads_record(dumps_record(match))
    assert again.hand == match.hand and not again.finished
    ids = again.hand.legal_action_ids()
    again.apply_id(ids[0])  # and play goes on


@pytest.mark.parametrize("preset", ["hollywood-20", "classic", "eaai"])
def test_rules_are_recorded(preset: str) -> None:
    match = played(5, rules=Rules.preset(preset))
    assert loads_record(dumps_record(match)).rules == Rules.preset(preset)


def test_seedless_record_deals_from_its_decks(record: dict[str, Any]) -> None:
    data = copy.deepcopy(record)
    data["seed"] = None
    match = match_from_record(data)
    assert [" ".join(c.text for c in h.deck or ()) for h in match.hands] == [
        h["deck"] for h in record["hands"]]


def _tampered(record: dict[str, Any], change: Any) -> dict[str, Any]:
    data = copy.deepcopy(record)
    change(data)
    return data


def _swap_two_deck_cards(data: dict[str, Any]) -> None:
    cards = data["hands"][0]["deck"].split()
    cards[0], cards[1] = cards[1], cards[0]
    data["hands"][0]["deck"] = " ".join(cards)


TAMPERING = {
    "format": (lambda d: d.update(format="chess-pgn"), "not a hollywood-gin record"),
    "no format": (lambda d: d.pop("format"), "it has no 'format' field"),  # stats --json
    "version": (lambda d: d.update(version=2), "version 2 is not supported"),
    "rules": (lambda d: d["rules"].update(knock_limit=42), "rules are invalid"),
    "unknown rule": (lambda d: d["rules"].update(jokers=True), "unknown rule option"),
    "seed type": (lambda d: d.update(seed="abc"), "seed must be"),
    "negative seed": (lambda d: d.update(seed=-d["seed"] - 1), "seed must be a whole number 0 or"),
    "first dealer": (lambda d: d.update(first_dealer=1 - d["first_dealer"]), "dealer should be"),
    "no hands": (lambda d: d.update(hands=[]), "hands must be a list"),
    "deck card": (lambda d: d["hands"][0].update(deck="As " * 52), "given twice"),
    "deck order": (_swap_two_deck_cards, "does not match the one the seed deals"),
    "dealer": (lambda d: d["hands"][1].update(dealer=1 - d["hands"][1]["dealer"]),
               "dealer should be"),
    "action": (lambda d: d["hands"][0]["actions"].__setitem__(0, "discard As"), "illegal"),
    "action type": (lambda d: d["hands"][0]["actions"].__setitem__(0, 17), "must be a string"),
    "bad action text": (lambda d: d["hands"][0]["actions"].__setitem__(0, "fly"),
                        "cannot read action"),
    "result": (lambda d: d["hands"][0]["result"].update(points=d["hands"][0]["result"]
                                                        ["points"] + 1), "states result"),
    "totals": (lambda d: d["sheet"].update(totals=[0, 0]), "sheet totals"),
    "extra hand": (lambda d: d["hands"].append(copy.deepcopy(d["hands"][-1])), "match was over"),
    # A value of the wrong JSON type is damage even where Python's == would agree.
    "version as true": (lambda d: d.update(version=True), "version True is not supported"),
    "version as a float": (lambda d: d.update(version=1.0), "version 1.0 is not supported"),
    "first dealer as a float": (lambda d: d.update(first_dealer=float(d["first_dealer"])),
                                "first_dealer must be 0 or 1"),
    "dealer as a float": (lambda d: d["hands"][0].update(dealer=float(d["hands"][0]["dealer"])),
                          "dealer should be"),
    "points as a float": (lambda d: d["hands"][0]["result"].update(
        points=float(d["hands"][0]["result"]["points"])), "states result"),
    "totals as floats": (lambda d: d["sheet"].update(totals=[float(t) for t in
                                                             d["sheet"]["totals"]]),
                         "sheet totals"),
    "finished as 1": (lambda d: d["sheet"].update(finished=int(d["sheet"]["finished"])),
                      "'finished' does not match"),
    "three players": (lambda d: d.update(players=["a", "b", "c"]), "two names"),
    "players as numbers": (lambda d: d.update(players=[1, 2]), "two names"),
}


@pytest.mark.parametrize("name", sorted(TAMPERING))
def test_damaged_or_tampered_record_is_refused(record: dict[str, Any], name: str) -> None:
    change, message = TAMPERING[name]
    with pytest.raises(RecordError, match=message):
        match_from_record(_tampered(record, change))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '"x"', "\x00\xff"])
def test_not_json_or_not_an_object_is_refused(text: str) -> None:
    with pytest.raises(RecordError):
        loads_record(text)


def test_deeply_nested_json_is_refused_not_a_recursion_crash() -> None:
    with pytest.raises(RecordError, match="nests too deeply"):
        loads_record('{"a":' * 100_000 + "1" + "}" * 100_000)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read record"):
        load_record(tmp_path / "nope.json")


def test_documented_example_record_loads() -> None:
    """docs/record-format.md describes docs/example-record.json, which must replay."""
    text = (DOCS / "record-format.md").read_text()
    assert f'"version": {RECORD_VERSION}' in text
    match = load_record(DOCS / "example-record.json")
    assert match.finished


def test_a_record_with_a_number_of_thousands_of_digits_is_refused_in_words() -> None:
    """Python refuses to read an integer of more than 4,300 digits with a plain ValueError:
    a record error here, as any other broken JSON."""
    with pytest.raises(RecordError, match="the record is not valid JSON"):
        loads_record('{"format": "hollywood-gin-record", "version": 1, "seed": '
                     + "9" * 5000 + "}")


@pytest.mark.parametrize("action", ["discard " + "7h " * 100_000, "knock " + "Q" * 300_000,
                                    ["pass"] * 50_000])
def test_a_huge_action_is_named_not_echoed(record: dict[str, Any], action: Any) -> None:
    """A record whose action was 600 kB printed a 600 kB error, the action quoted twice
    (found by a QA pass): the error names the hand and the action and quotes its start."""
    broken = copy.deepcopy(record)
    broken["hands"][0]["actions"][0] = action
    with pytest.raises(RecordError) as refused:
        match_from_record(broken)
    said = str(refused.value)
    assert said.startswith("hand 1, action 1") and len(said) < 400, said[:500]
    assert ("is illegal: cannot read action" in said) != isinstance(action, list)
