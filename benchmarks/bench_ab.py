"""This tree against another copy of the package (say main's), in one process, turn about.

    cp -r /path/to/main/src/hollywood_gin /tmp/other
    PYTHONPATH=src nice python benchmarks/bench_ab.py --other /tmp/other

The other copy is loaded under another name (its imports are relative), so both run in
one process on the same load, in turns, the best round of each kept:

1. core calls: ``Hand.deal``, ``Hand.view``, ``cards_from_mask``, ``deadwood``,
   ``best_melds``, ``discard_choices`` on the same random hands;
2. basic and greedy self-play through each copy's ``run_arena``;
3. the expert's decisions on the same views (seeded expert-against-basic hands on eaai
   rules, rebuilt move by move in each copy), the best of ``--repeat`` per view.  With
   ``time_cap_ms=0`` both do exactly the same work (the expert otherwise stops sampling
   at a time cap, which on a loaded machine is what its p99 measures); the answers are
   checked equal.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import hollywood_gin.bots as ours_bots  # noqa: E402
from hollywood_gin.hand import Hand  # noqa: E402
from hollywood_gin.rules import Rules  # noqa: E402


def load_other(package_dir: Path, name: str = "hg_other") -> ModuleType:
    """The package at ``package_dir`` imported as ``name`` (its imports are relative)."""
    spec = importlib.util.spec_from_file_location(
        name, package_dir / "__init__.py", submodule_search_locations=[str(package_dir)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def decisions(hands: int, seed: int, spec: str) -> list[tuple[int, int, list[int]]]:
    """(deal seed, dealer, action ids before it) of each of the expert's real decisions."""
    rules = Rules.preset("eaai")
    out = []
    for n in range(hands):
        expert = ours_bots.make_bot(spec, seed=seed + n)
        basic = ours_bots.make_bot("basic", seed=seed + n + 1)
        hand = Hand.deal(rules=rules, dealer=n % 2, seed=seed + n)
        ids: list[int] = []
        while not hand.is_over:
            seat = hand.to_act
            legal = hand.legal_action_ids()
            view = hand.view(seat)
            if seat == 0 and len(legal) > 1:
                out.append((seed + n, n % 2, list(ids)))
            action = (expert if seat == 0 else basic).choose(view)
            action_id = legal[list(view.legal_actions).index(action)]
            hand.apply_id(action_id)
            ids.append(action_id)
    return out


def core_ab(other: str, rounds: int) -> None:
    """Speed-ups of core calls over the other copy, on the same hands."""
    import random

    hands_seeds = range(200)
    rng = random.Random(3)
    masks = [sum(1 << i for i in rng.sample(range(52), 10)) for _ in range(500)]
    cases = []
    for package in ("hollywood_gin", other):
        hand_m = importlib.import_module(package + ".hand")
        melds_m = importlib.import_module(package + ".melds")
        cards_m = importlib.import_module(package + ".cards")
        deal = hand_m.Hand.deal
        lists = [list(cards_m.cards_from_mask(m)) for m in masks]
        elevens = [[*cards, next(c for c in cards_m.CARDS if c not in cards)]
                   for cards in lists[:200]]
        hands = [deal(seed=i) for i in hands_seeds]
        for hand in hands[:100]:
            hand.apply_id(hand.legal_action_ids()[0])
        cases.append({
            "Hand.deal": lambda deal=deal: [deal(seed=i) for i in hands_seeds],
            "Hand.view (the seat to act)": lambda hands=hands: [h.view(h.to_act) for h in hands],
            "cards_from_mask": lambda m=cards_m: [m.cards_from_mask(x) for x in masks],
            "deadwood(list)": lambda m=melds_m, ls=lists: [m.deadwood(x) for x in ls],
            "best_melds(list)": lambda m=melds_m, ls=lists: [m.best_melds(x) for x in ls],
            "discard_choices(11 cards)":
                lambda m=melds_m, ls=elevens: [m.discard_choices(x) for x in ls],
        })
    best: dict[tuple[str, int], float] = {}
    for _ in range(rounds):
        for side in (0, 1):
            for name, fn in cases[side].items():
                start = time.perf_counter()
                fn()
                took = time.perf_counter() - start
                best[name, side] = min(best.get((name, side), 1e9), took)
    print(f"core calls, best of {rounds} rounds: speed-up of this tree over the other")
    for name in cases[0]:
        print(f"  {name:<30} x{best[name, 1] / best[name, 0]:.2f}", flush=True)


def selfplay_ab(other: str, rounds: int) -> None:
    """Speed-ups of whole self-play hands through each copy's run_arena."""
    arenas = [importlib.import_module("hollywood_gin.arena"),
              importlib.import_module(other + ".arena")]
    best: dict[tuple[str, int], float] = {}
    for r in range(rounds):
        for side in (0, 1):
            for bot, n in (("basic", 100), ("greedy", 10)):
                start = time.perf_counter()
                arenas[side].run_arena(bot, bot, rules="eaai", hands=n, seed=r, jobs=1)
                took = (time.perf_counter() - start) / n
                best[bot, side] = min(best.get((bot, side), 1e9), took)
    print(f"self-play through run_arena, best of {rounds} rounds: speed-up over the other")
    for bot in ("basic", "greedy"):
        print(f"  {bot} vs {bot:<24} x{best[bot, 1] / best[bot, 0]:.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--spec", default="expert:time_cap_ms=0")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of parts 1 and 2")
    parser.add_argument("--parts", default="core,selfplay,expert")
    args = parser.parse_args()
    load_other(args.other)
    parts = set(args.parts.split(","))
    if "core" in parts:
        core_ab("hg_other", args.rounds)
    if "selfplay" in parts:
        selfplay_ab("hg_other", args.rounds)
    if "expert" not in parts:
        return 0
    other_bots = importlib.import_module("hg_other.bots")
    other_hand = importlib.import_module("hg_other.hand")
    other_rules = importlib.import_module("hg_other.rules")
    cases = decisions(args.hands, args.seed, args.spec)
    sides = {
        "ours": (ours_bots.make_bot, Hand, Rules.preset("eaai")),
        "other": (other_bots.make_bot, other_hand.Hand, other_rules.Rules.preset("eaai")),
    }
    best: dict[str, list[float]] = {"ours": [], "other": []}
    for deal_seed, dealer, ids in cases:
        views = {}
        for name, (_, hand_cls, rules) in sides.items():
            hand = hand_cls.deal(rules=rules, dealer=dealer, seed=deal_seed)
            for i in ids:
                hand.apply_id(i)
            views[name] = hand.view(0)
        times = {"ours": 1e9, "other": 1e9}
        answers = {}
        for _ in range(args.repeat):
            for name, (make, _, _) in sides.items():
                bot = make(args.spec, seed=deal_seed)
                start = time.perf_counter()
                answers[name] = bot.choose(views[name])
                times[name] = min(times[name], time.perf_counter() - start)
        assert str(answers["ours"]) == str(answers["other"]), (deal_seed, ids, answers)
        for name in times:
            best[name].append(times[name] * 1000.0)
    print(f"{len(cases)} expert decisions ({args.spec}), best of {args.repeat} each, ms "
          "(ours: this tree)")
    for name, values in best.items():
        values.sort()
        p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
        print(f"  {name:<6} median {statistics.median(values):8.3f}  p99 {p99:8.1f}  "
              f"total {sum(values):9.1f}")
    ratio = sum(best["other"]) / sum(best["ours"])
    print(f"  total time other/ours x{ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
