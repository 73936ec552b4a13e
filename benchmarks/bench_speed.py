"""Issue 16: the public API with cards and bot self-play, side by side with OpenSpiel's C++.

Run from the repository root with ``open-spiel`` installed (as in ``bench_core.py``)::

    PYTHONPATH=src nice python benchmarks/bench_speed.py --json benchmarks/results/speed.json

Every figure is a rate measured in this one process (the ``command`` part times whole
processes), the two sides taking turns round after round (A B A B ...), the best round of
each kept: load on the shared machine hits both alike.  Each round of the API part uses
hands it has not met before, so nothing is answered from a cache of whole hands (the
per-suit tables fill once, in a warm-up on other hands, as they do in any long run).

1. ``api``: ``deadwood``, ``best_melds`` and ``score_hand`` called with cards (a list, a
   tuple, a set, a Hand's cards as ``cards_of`` gives them, and once with the
   ``cards_of`` call in the time) against
   ``GinRummyUtils.min_deadwood`` on the same hands as its own card ints (the issue's
   yardstick), and ``best_meld_group`` (the closest OpenSpiel call to ``best_melds``);
   random 10-card hands and meld-dense ones.  ``score_hand`` (lists) takes a knocker of
   deadwood 10 or less (from meld-dense hands in both parts: few random hands can knock)
   and a defender dealt from the other cards, against ``min_deadwood`` of the knocker.
   ``best_melds`` and ``score_hand`` answer with values whose card tuples are made when
   first read: the ``_cards_read`` lines read them all, the others none
   (``best_melds_list_cards_read`` through a lambda and a helper a hand, ``_inline`` in
   the loop itself, as ``score_hand_lists_cards_read`` reads its fields).
2. ``selfplay``: whole hands, ``run_arena`` (the path ``hollywood-gin arena`` takes) basic
   against basic and greedy against greedy, ``eaai`` rules, against OpenSpiel's simple
   bot against itself through ``pyspiel.evaluate_bots`` on cloned initial states.
3. ``command``: ``hollywood-gin arena basic basic --rules eaai --hands N --jobs 1`` as a
   process, start-up included, against a process that imports pyspiel and plays N hands
   of simple against simple through ``evaluate_bots``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
sys.path.insert(0, str(SRC))
sys.path.insert(0, str(HERE))

import peers  # noqa: E402

from hollywood_gin.arena import run_arena  # noqa: E402
from hollywood_gin.cards import CARDS, cards_from_mask  # noqa: E402
from hollywood_gin.hand import Hand  # noqa: E402
from hollywood_gin.melds import best_melds, deadwood, deadwood_of_mask  # noqa: E402
from hollywood_gin.scoring import score_hand  # noqa: E402


def race(named: dict[str, Callable[[int], int]], rounds: int) -> dict[str, float]:
    """Best rate (items per second) of each function over ``rounds`` interleaved rounds;
    each is called with the round number and returns how many items it did."""
    rates = dict.fromkeys(named, 0.0)
    for r in range(rounds):
        for name, fn in named.items():
            gc.collect()
            start = time.perf_counter()
            count = fn(r)
            rates[name] = max(rates[name], count / (time.perf_counter() - start))
    return rates


def hand_of(mask: int, seed: int) -> Hand:
    """A dealt hand whose non-dealer (player 0, dealer 1) holds the cards of ``mask``."""
    mine = list(cards_from_mask(mask))
    rest = [c for c in CARDS if not mask >> c.index & 1]
    random.Random(seed).shuffle(rest)
    deck = []
    for i in range(10):
        deck += [mine[i], rest[i]]
    deck += rest[10:]
    return Hand.from_deck(deck, dealer=1)


def knock_pairs(masks: list[int], seed: int) -> list[tuple[int, int]]:
    """(knocker, defender) masks: the knockable hands of ``masks`` and a defender each."""
    rng = random.Random(seed)
    out = []
    for k in masks:
        if deadwood_of_mask(k) <= 10:
            others = [i for i in range(52) if not k >> i & 1]
            out.append((k, sum(1 << i for i in rng.sample(others, 10))))
    return out


def api(label: str, make: Callable[[int, int], list[int]], per: int, rounds: int
        ) -> dict[str, Any]:
    """Rates and ratios of the card API on ``label`` hands (``make(n, seed)`` gives masks)."""
    to_os = peers.openspiel_mask_converter()
    utils = peers.openspiel_utils()
    min_deadwood, best_group = utils.min_deadwood, utils.best_meld_group
    for m in make(20_000, 999):  # warm the per-suit tables, as any long run has them
        best_melds(cards_from_mask(m))
    batches = [make(per, 1000 + r) for r in range(rounds)]
    for m in batches[0][:500]:
        assert deadwood(cards_from_mask(m)) == min_deadwood(to_os(m)), "engines disagree"
    data = []
    for r, masks in enumerate(batches):
        lists = [list(cards_from_mask(m)) for m in masks]
        # Knockers: fewer than one random hand in a thousand, so both parts take them from
        # meld-dense hands (a fifth of which can knock).
        pairs = knock_pairs(peers.meldy_hand_masks(per, seed=7000 + r), r)[: per // 10]
        data.append({
            "os": [to_os(m) for m in masks],
            "list": lists,
            "tuple": [tuple(c) for c in lists],
            "set": [set(c) for c in lists],
            "hand": [hand_of(m, i) for i, m in enumerate(masks)],
            "hand_cards": [hand_of(m, i).cards_of(0) for i, m in enumerate(masks)],
            "os_knock": [to_os(k) for k, _ in pairs],
            "knock": [(list(cards_from_mask(k)), list(cards_from_mask(d))) for k, d in pairs],
        })

    def loop(key: str, fn: Callable[[Any], object]) -> Callable[[int], int]:
        def run(r: int) -> int:
            items = data[r][key]
            for item in items:
                fn(item)
            return len(items)
        return run

    def hands(fn: Callable[[Any], object]) -> Callable[[int], int]:
        """``fn`` of a Hand's cards, ``cards_of`` included in the time."""
        def run(r: int) -> int:
            items = data[r]["hand"]
            for hand in items:
                fn(hand.cards_of(0))
            return len(items)
        return run

    def scores(r: int) -> int:
        items = data[r]["knock"]
        for knocker, defender in items:
            score_hand(knocker, defender)
        return len(items)

    def scores_read(r: int) -> int:
        """score_hand with every card field of the answer read (they are made on demand)."""
        items = data[r]["knock"]
        for knocker, defender in items:
            s = score_hand(knocker, defender)
            s.layoffs, s.knocker_melds, s.knocker_unmatched, s.defender_melds, s.defender_unmatched  # noqa: B018
        return len(items)

    def melds_read(arrangement: Any) -> object:
        return arrangement.melds, arrangement.unmatched

    def melds_read_inline(r: int) -> int:
        """best_melds with .melds and .unmatched read in the loop itself, as scores_read
        reads a score's fields (the row above adds a lambda and a helper call a hand)."""
        items = data[r]["list"]
        for cards in items:
            arrangement = best_melds(cards)
            arrangement.melds, arrangement.unmatched  # noqa: B018
        return len(items)

    rates = race({
        "openspiel_min_deadwood": loop("os", min_deadwood),
        "deadwood_list": loop("list", deadwood),
        "deadwood_tuple": loop("tuple", deadwood),
        "deadwood_set": loop("set", deadwood),
        "deadwood_hand_cards": loop("hand_cards", deadwood),
        "deadwood_cards_of_call_included": hands(deadwood),
        "openspiel_best_meld_group": loop("os", best_group),
        "best_melds_list": loop("list", best_melds),
        "best_melds_tuple": loop("tuple", best_melds),
        "best_melds_set": loop("set", best_melds),
        "best_melds_hand_cards": loop("hand_cards", best_melds),
        "best_melds_list_cards_read": loop("list", lambda c: melds_read(best_melds(c))),
        "best_melds_list_cards_read_inline": melds_read_inline,
        "openspiel_min_deadwood_knockers": loop("os_knock", min_deadwood),
        "score_hand_lists": scores,
        "score_hand_lists_cards_read": scores_read,
    }, rounds)
    base, group = rates["openspiel_min_deadwood"], rates["openspiel_best_meld_group"]
    ratios = {}
    for name, rate in rates.items():
        if name.startswith("score_hand"):
            ratios[name] = rate / rates["openspiel_min_deadwood_knockers"]
        elif not name.startswith("openspiel"):
            ratios[name] = rate / base
            if name.startswith("best_melds"):
                ratios[name + "_vs_best_meld_group"] = rate / group
    print(f"\n{label} 10-card hands ({per} a round, fresh each round), calls/s; "
          "ratio to OpenSpiel's min_deadwood (score_hand: on the knockers)")
    for name, rate in rates.items():
        extra = f"   x{ratios[name]:.2f}" if name in ratios else ""
        if name + "_vs_best_meld_group" in ratios:
            extra += f" (x{ratios[name + '_vs_best_meld_group']:.2f} of best_meld_group)"
        print(f"  {name:<34}{rate:>12,.0f}{extra}", flush=True)
    return {"rates": rates, "ratios": ratios, "per_round": per, "knock_pairs": len(pairs)}


def openspiel_selfplay(hands: int, seed: int) -> int:
    """Hands of OpenSpiel's simple bot against itself through C++ ``evaluate_bots``."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in (0, 1)]
    template = game.new_initial_state()
    for n in range(hands):
        pyspiel.evaluate_bots(template.clone(), bots, seed + n)
    return hands


def selfplay(hands: int, greedy_hands: int, rounds: int) -> dict[str, Any]:
    """Whole hands per second: the arena's path for our bots, evaluate_bots for OpenSpiel."""
    def ours(a: str, n: int) -> Callable[[int], int]:
        def run(r: int) -> int:
            report = run_arena(a, a, rules="eaai", hands=n, seed=2026 + r, jobs=1)
            return report.games
        return run

    rates = race({
        "openspiel_simple_vs_simple": lambda r: openspiel_selfplay(hands, 2026 + r * hands),
        "basic_vs_basic": ours("basic", hands),
        "greedy_vs_greedy": ours("greedy", greedy_hands),
    }, rounds)
    base = rates["openspiel_simple_vs_simple"]
    ratios = {k: v / base for k, v in rates.items() if not k.startswith("openspiel")}
    print(f"\nself-play in one process, whole hands/s ({hands} hands a round, greedy "
          f"{greedy_hands}), ratio to OpenSpiel's simple bot in evaluate_bots")
    for name, rate in rates.items():
        extra = f"   x{ratios[name]:.2f}" if name in ratios else ""
        print(f"  {name:<30}{rate:>10,.0f}{extra}", flush=True)
    return {"rates": rates, "ratios": ratios, "hands": hands, "greedy_hands": greedy_hands}


OPENSPIEL_COMMAND = """
import sys, pyspiel
game = pyspiel.load_game("gin_rummy")
params = game.get_parameters()
bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in (0, 1)]
template = game.new_initial_state()
total = 0.0
for n in range(int(sys.argv[1])):
    total += pyspiel.evaluate_bots(template.clone(), bots, n)[0]
print(total)
"""

OUR_COMMAND = "import sys; from hollywood_gin.cli import main; sys.exit(main())"  # the script


def command(hands: int, rounds: int) -> dict[str, Any]:
    """Seconds of the whole arena command and of an OpenSpiel process doing the same."""
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    ours = [sys.executable, "-c", OUR_COMMAND, "arena", "basic", "basic", "--rules", "eaai",
            "--hands", str(hands), "--jobs", "1"]
    theirs = [sys.executable, "-c", OPENSPIEL_COMMAND, str(hands)]
    best = {"openspiel_evaluate_bots_process": 1e9, "hollywood_gin_arena_command": 1e9}
    for _ in range(rounds):
        for name, argv in (("openspiel_evaluate_bots_process", theirs),
                           ("hollywood_gin_arena_command", ours)):
            start = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, env=env)
            best[name] = min(best[name], time.perf_counter() - start)
    ratio = best["openspiel_evaluate_bots_process"] / best["hollywood_gin_arena_command"]
    print(f"\nwhole command, {hands} hands, best of {rounds}, seconds (start-up included)")
    for name, seconds in best.items():
        print(f"  {name:<34}{seconds:>8.2f}")
    print(f"  speed ratio ours/OpenSpiel x{ratio:.2f}", flush=True)
    return {"seconds": best, "ratio": ratio, "hands": hands}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="api,selfplay,command",
                        help="which parts to run, comma separated")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (best kept)")
    parser.add_argument("--api-hands", type=int, default=10_000, help="hands a round, API")
    parser.add_argument("--hands", type=int, default=500, help="self-play hands a round")
    parser.add_argument("--greedy-hands", type=int, default=40, help="greedy hands a round")
    parser.add_argument("--command-hands", type=int, default=2000)
    parser.add_argument("--command-rounds", type=int, default=3)
    parser.add_argument("--json", metavar="FILE", help="also write the results here")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    out: dict[str, Any] = {"python": sys.version.split()[0], "rounds": args.rounds}
    if "api" in parts:
        out["api_uniform"] = api("random", lambda n, s: peers.random_hand_masks(n, seed=s),
                                 args.api_hands, args.rounds)
        out["api_meld_dense"] = api("meld-dense",
                                    lambda n, s: peers.meldy_hand_masks(n, seed=s),
                                    args.api_hands, args.rounds)
    if "selfplay" in parts:
        out["selfplay"] = selfplay(args.hands, args.greedy_hands, args.rounds)
    if "command" in parts:
        out["command"] = command(args.command_hands, args.command_rounds)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
