"""Bot decisions and arena reports pinned for fixed seeds, so a speed change cannot move them.

``tests/golden/bot-games.txt`` holds every action of seeded hands played by each bot
through views (the way any interface asks a bot), and ``tests/golden/arena-reports.json``
the arena's reports (everything but the timings) and per-game outcomes for fixed seeds.
Both were computed on the engine before its speed work (issue 16).  A bot whose play
changes on purpose (the expert, when it gets stronger) regenerates them with
``HG_UPDATE_GOLDEN=1`` and says so in its commit.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from hollywood_gin.arena import ArenaReport, run_arena
from hollywood_gin.bots import make_bot
from hollywood_gin.hand import Hand
from hollywood_gin.match import Match
from hollywood_gin.rules import Rules

GOLDEN = Path(__file__).parent.parent / "golden"
GAMES = GOLDEN / "bot-games.txt"
REPORTS = GOLDEN / "arena-reports.json"
UPDATE = os.environ.get("HG_UPDATE_GOLDEN") == "1"

RULES = {
    "eaai": Rules.preset("eaai"),
    "hollywood": Rules.preset("hollywood"),
    "classic": Rules.preset("classic"),
    "oklahoma": Rules(oklahoma=True),
    "big-gin": Rules(big_gin_bonus=31, discard_taken_card=True),
}

#: (bot, bot, rules, hands) played hand by hand through views.
PLAYS: list[tuple[str, str, str, int]] = [
    ("basic", "basic", "eaai", 120),
    ("greedy", "greedy", "eaai", 60),
    ("random", "basic", "hollywood", 30),
    ("greedy", "basic", "oklahoma", 40),
    ("basic", "greedy", "hollywood", 40),
    ("greedy", "random", "big-gin", 20),
    ("basic", "greedy", "classic", 30),
    ("expert:samples=48,time_cap_ms=0", "greedy", "eaai", 4),
]

#: Arena runs: (bot, bot, rules, mode, count, seed).
ARENAS: list[tuple[str, str, str, str, int, int]] = [
    ("basic", "basic", "eaai", "hands", 300, 11),
    ("basic", "basic", "eaai", "matches", 6, 12),
    ("greedy", "greedy", "eaai", "hands", 100, 13),
    ("greedy", "basic", "hollywood", "matches", 4, 14),
    ("random", "basic", "classic", "hands", 40, 15),
    ("expert:samples=32,time_cap_ms=0", "basic", "eaai", "hands", 4, 16),
]


def play_line(a: str, b: str, preset: str, n: int) -> str:
    """One hand played by two bots through their views: the deal's seed and every action."""
    rules = RULES[preset]
    bots = (make_bot(a, seed=n), make_bot(b, seed=1000 + n))
    hand = Hand.deal(rules=rules, dealer=n % 2, seed=n)
    while not hand.is_over:
        seat = hand.to_act
        hand.apply(bots[seat].choose(hand.view(seat)), seat)
    result = hand.result
    assert result is not None
    actions = " ".join(f"{p}{action}".replace(" ", "_") for p, action in hand.history)
    return f"{a} {b} {preset} {n}: {actions} => {result.kind} {result.winner} {result.points}"


def match_lines() -> list[str]:
    """Two whole matches, the bots kept across hands (what they remember must not change)."""
    lines = []
    for a, b, preset, seed in (("basic", "greedy", "eaai", 3), ("greedy", "basic", "hollywood", 4)):
        match = Match(rules=Rules.preset(preset), seed=seed)
        bots = (make_bot(a, seed=seed), make_bot(b, seed=seed + 1))
        while True:
            hand = match.hand
            while not hand.is_over:
                seat = hand.to_act
                match.apply(bots[seat].choose(hand.view(seat), match.sheet.copy()), seat)
            ids = " ".join(str(action.id) for _, action in hand.history)
            lines.append(f"match {a} {b} {preset} {seed} hand {len(match.hands)}: {ids}")
            if match.finished or len(match.hands) >= 60:
                break
            match.next_hand()
    return lines


def timeless(report: ArenaReport) -> dict[str, Any]:
    out = report.to_dict()
    for key in ("seconds", "jobs"):
        out.pop(key)
    for bot in out["bots"]:
        for key in [k for k in bot if k.startswith("decision_ms")]:
            bot.pop(key)
    out["outcomes"] = [
        [r.pair, r.swapped, [[h.kind, h.winner, h.points, h.knocker] for h in r.hands],
         r.match_winner, r.finished, list(r.first_deal)]
        for r in report.results
    ]
    return json.loads(json.dumps(out))


def arena_key(run: tuple[str, str, str, str, int, int]) -> str:
    return " ".join(map(str, run))


def test_bot_games_are_the_pinned_ones() -> None:
    lines = [play_line(a, b, preset, n) for a, b, preset, count in PLAYS for n in range(count)]
    lines += match_lines()
    if UPDATE:
        GAMES.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pinned = GAMES.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(pinned)
    for got, want in zip(lines, pinned, strict=True):
        assert got == want


@pytest.mark.parametrize("run", ARENAS, ids=arena_key)
def test_arena_report_is_the_pinned_one(run: tuple[str, str, str, str, int, int]) -> None:
    a, b, preset, mode, count, seed = run
    report = run_arena(a, b, rules=preset, seed=seed, **{mode: count})  # type: ignore[arg-type]
    got = timeless(report)
    pinned = json.loads(REPORTS.read_text(encoding="utf-8")) if REPORTS.exists() else {}
    if UPDATE:
        pinned[arena_key(run)] = got
        REPORTS.write_text(json.dumps(pinned, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    want = pinned[arena_key(run)]
    assert got["outcomes"] == want["outcomes"]
    assert got == want


def test_arena_report_does_not_depend_on_the_jobs() -> None:
    """The pinned basic run again in two processes: the same report."""
    run = ARENAS[0]
    a, b, preset, mode, count, seed = run
    report = run_arena(a, b, rules=preset, seed=seed, jobs=2, **{mode: count})  # type: ignore[arg-type]
    want = json.loads(REPORTS.read_text(encoding="utf-8"))[arena_key(run)]
    assert timeless(report) == want


def test_bots_given_random_seeds_still_play_legal_moves() -> None:
    """A smoke check beyond the pins: other seeds, every bot, legal actions only."""
    rng = random.Random(99)
    for name in ("basic", "greedy", "random"):
        bot = make_bot(name, seed=rng.randrange(1 << 30))
        hand = Hand.deal(rules=Rules.preset("eaai"), seed=rng.randrange(1 << 30))
        while not hand.is_over:
            view = hand.view(hand.to_act)
            action = bot.choose(view)
            assert action in view.legal_actions
            hand.apply(action)
