"""Peer implementations for side-by-side speed benchmarks of hollywood-gin.

The peers are OpenSpiel's ``gin_rummy`` (C++ via pybind11, package
``open-spiel``) and RLCard's ``gin-rummy`` (pure Python, package ``rlcard``).
Both are installed only in the benchmark virtualenv ``benchmarks/.venv``
(see ``requirements.txt``); every import of ``pyspiel`` / ``rlcard`` happens
inside a function, so this module imports fine without them.

Card numbering
--------------
OUR numbering (hollywood-gin): ``index = suit * 13 + (rank - 1)`` with suits
spades=0, hearts=1, diamonds=2, clubs=3 and ranks ace=1 .. king=13.  A hand
is a 52-bit int mask, bit ``index`` set when the card is held.

OpenSpiel: ``card = suit * 13 + rank0`` with suit order ``"scdh"``
(spades=0, clubs=1, diamonds=2, hearts=3), rank0 ace=0 .. king=12
(``GinRummyUtils.card_string(0) == 'As'``, ``card_string(13) == 'Ac'``,
``card_string(51) == 'Kh'``).  So hearts and clubs are swapped w.r.t. ours.

RLCard: ``card_id = suit_id * 13 + rank_id`` with ``Card.valid_suit`` order
``['S', 'H', 'D', 'C']`` and ranks ``'A23456789TJQK'`` -- identical to OUR
numbering.  ``rlcard.games.gin_rummy.utils.utils.get_card(card_id)`` returns
the shared (read-only) ``Card`` object for an id.

Run ``benchmarks/.venv/bin/python benchmarks/peers.py`` for the correctness
self-test (OpenSpiel vs RLCard vs a brute-force deadwood) and rough timings.
"""

from __future__ import annotations

import random
import time

# Our suit index (S,H,D,C) -> OpenSpiel suit index (s,c,d,h).
OUR_SUIT_TO_OPENSPIEL = (0, 3, 2, 1)
NUM_CARDS = 52


def our_to_openspiel_card(index: int) -> int:
    """Convert one card from OUR numbering to OpenSpiel's card int."""
    suit, rank0 = divmod(index, 13)
    return OUR_SUIT_TO_OPENSPIEL[suit] * 13 + rank0


def openspiel_to_our_card(card: int) -> int:
    """Convert one OpenSpiel card int back to OUR numbering."""
    suit, rank0 = divmod(card, 13)
    return OUR_SUIT_TO_OPENSPIEL.index(suit) * 13 + rank0


def mask_to_indices(mask: int) -> list:
    """List of OUR card indices (ascending) whose bits are set in ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _suit_chunk_tables(convert):
    """For each of our 4 suits, a table of 8192 tuples: the 13-bit suit chunk
    of a mask -> tuple of converted cards.  Turns mask conversion into four
    table look-ups and tuple concatenation."""
    tables = []
    for suit in range(4):
        table = []
        for chunk in range(1 << 13):
            table.append(tuple(convert(suit * 13 + r)
                               for r in range(13) if chunk >> r & 1))
        tables.append(tuple(table))
    return tables


def _mask_converter(convert):
    t0, t1, t2, t3 = _suit_chunk_tables(convert)

    def to_list(mask: int) -> list:
        return list(t0[mask & 8191] + t1[(mask >> 13) & 8191]
                    + t2[(mask >> 26) & 8191] + t3[(mask >> 39) & 8191])
    return to_list


# ---------------------------------------------------------------- deadwood --

def openspiel_utils(hand_size: int = 10):
    """A ``pyspiel.gin_rummy.GinRummyUtils(num_ranks=13, num_suits=4,
    hand_size)`` instance (construction builds the 185-meld maps: do it once).

    ``utils.min_deadwood(cards)`` takes a list of OpenSpiel card ints and
    returns the least deadwood (int).  Quirk: when ``len(cards) ==
    hand_size + 1`` it first picks the best meld group of all 11 cards and then
    drops the highest-ranked deadwood card (a "discard"); that is not always
    the true best discard.  ``min_deadwood(cards, extra_card_or_None)``
    appends the extra card first."""
    import pyspiel
    gr = pyspiel.gin_rummy
    return gr.GinRummyUtils(gr.DEFAULT_NUM_RANKS, gr.DEFAULT_NUM_SUITS,
                            hand_size)


def openspiel_mask_converter():
    """Callable: OUR 52-bit mask -> list of OpenSpiel card ints (the argument
    ``GinRummyUtils.min_deadwood`` takes).  Table driven, no pyspiel needed."""
    return _mask_converter(our_to_openspiel_card)


def openspiel_deadwood_raw_fn(hand_size: int = 10):
    """The bare bound method ``GinRummyUtils.min_deadwood``: takes an
    already-converted list of OpenSpiel card ints (see
    ``openspiel_mask_converter``) -> int.  For timing the pure call."""
    return openspiel_utils(hand_size).min_deadwood


def openspiel_deadwood_fn(hand_size: int = 10):
    """Callable: OUR 52-bit mask -> least deadwood computed by OpenSpiel.
    Conversion is a precomputed table look-up, so time is mostly OpenSpiel."""
    min_deadwood = openspiel_deadwood_raw_fn(hand_size)
    to_list = openspiel_mask_converter()

    def deadwood(mask: int) -> int:
        return min_deadwood(to_list(mask))
    return deadwood


def rlcard_mask_converter():
    """Callable: OUR 52-bit mask -> list of RLCard ``Card`` objects (RLCard
    card_id == our index, so this is ``utils.get_card`` per set bit)."""
    from rlcard.games.gin_rummy.utils import utils
    return _mask_converter(utils.get_card)


def rlcard_deadwood_raw_fn():
    """Callable: list of exactly 10 RLCard ``Card`` objects -> least deadwood.

    This is RLCard's own path (as in its scorer / judge):
    ``melding.get_best_meld_clusters(hand)`` (raises ``GinRummyProgramError``
    unless ``len(hand) == 10``; returns ``[]`` when the hand has no meld) and
    ``utils.get_deadwood_count(hand, best_clusters[0])``; with no meld the
    deadwood is the sum of ``utils.get_deadwood_value`` over the hand."""
    from rlcard.games.gin_rummy.utils import melding, utils
    best_clusters = melding.get_best_meld_clusters
    count = utils.get_deadwood_count
    value = utils.get_deadwood_value

    def deadwood(cards: list) -> int:
        clusters = best_clusters(cards)
        if clusters:
            return count(cards, clusters[0])
        return sum(value(c) for c in cards)
    return deadwood


def rlcard_deadwood_fn():
    """Callable: OUR 52-bit mask (exactly 10 cards) -> least deadwood via
    RLCard.  Conversion is a precomputed table look-up."""
    raw = rlcard_deadwood_raw_fn()
    to_list = rlcard_mask_converter()

    def deadwood(mask: int) -> int:
        return raw(to_list(mask))
    return deadwood


# ------------------------------------------------------------- full hands --

def openspiel_random_hands(n: int, seed: int = 0, driver: str = "python",
                           initial: str = "clone", stats: dict | None = None) -> int:
    """Play ``n`` uniformly random full hands (deal to terminal) of OpenSpiel
    ``gin_rummy`` (default params: knock_card=10, gin_bonus=25,
    undercut_bonus=25, hand ends at the 2-card wall).  Returns ``n``.

    driver="python": loop in Python -- chance nodes sample
    ``state.chance_outcomes()`` (list of (action, prob), uniform over the
    remaining deck), player nodes pick ``random.choice(state.legal_actions())``,
    then ``state.apply_action(a)``.
    driver="cpp": ``pyspiel.evaluate_bots(state, [random_bot0, random_bot1],
    seed)`` with ``pyspiel.make_uniform_random_bot(player, seed)``; the whole
    hand runs in C++ (one Python call per hand).

    initial="clone" (default): each hand starts from ``template.clone()`` of
    one pre-built initial state (~9 us).  initial="new": each hand calls
    ``game.new_initial_state()``, which costs ~1 ms (the state constructor
    rebuilds GinRummyUtils' meld maps) -- more than half of a random hand.
    ``stats``: if a dict, ``stats['actions']`` accumulates len(history())
    (chance + player actions; ~160 per random hand, it mostly ends at the
    wall)."""
    import pyspiel
    game = pyspiel.load_game("gin_rummy")
    new_state = _openspiel_initial_state_factory(game, initial)
    actions = 0
    if driver == "cpp":
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in (0, 1)]
        for i in range(n):
            state = new_state()
            pyspiel.evaluate_bots(state, bots, seed + i)
            actions += len(state.history())
    else:
        rng = random.Random(seed)
        choice = rng.choice
        for _ in range(n):
            state = new_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
            actions += len(state.history())
    if stats is not None:
        stats["actions"] = stats.get("actions", 0) + actions
    return n


def _openspiel_initial_state_factory(game, initial: str):
    if initial == "new":
        return game.new_initial_state
    if initial == "clone":
        return game.new_initial_state().clone
    raise ValueError("initial must be 'clone' or 'new'")


def openspiel_simple_bot_hands(n: int, seed: int = 0, initial: str = "clone",
                               stats: dict | None = None) -> int:
    """Play ``n`` full hands of OpenSpiel ``gin_rummy`` with
    ``pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player_id)``
    on both seats, each hand via ``pyspiel.evaluate_bots(state, bots, seed)``
    (C++ loop; chance sampled with mt19937(seed); bots are Restart()ed because
    the state has an empty history).  ``evaluate_bots`` plays the passed
    state in place and returns its ``returns()``.  ``initial`` and ``stats``
    as in ``openspiel_random_hands`` (~65 actions per simple-bot hand).
    Returns ``n``."""
    import pyspiel
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in (0, 1)]
    new_state = _openspiel_initial_state_factory(game, initial)
    actions = 0
    for i in range(n):
        state = new_state()
        pyspiel.evaluate_bots(state, bots, seed + i)
        actions += len(state.history())
    if stats is not None:
        stats["actions"] = stats.get("actions", 0) + actions
    return n


def rlcard_random_hands(n: int, seed: int = 0, driver: str = "game",
                        stats: dict | None = None) -> int:
    """Play ``n`` uniformly random full hands of RLCard gin rummy.  Returns n.

    driver="game" (fastest fair loop): ``GinRummyGame`` directly --
    ``game.init_game()``; while not ``game.is_over()``:
    ``game.step(random.choice(game.judge.get_legal_actions()))`` (legal
    actions are ``ActionEvent`` objects; the two trailing score actions are
    part of the hand).
    driver="env": ``rlcard.make('gin-rummy', config={'seed': seed})``,
    ``env.reset()`` / ``env.step(action_id)`` with a random key of
    ``state['legal_actions']``; adds the 5x52 numpy observation per step.

    RLCard rules differ from OpenSpiel: no first-upcard phase (non-dealer gets
    11 cards and discards first), dead hand at 2 stock cards or 200 moves,
    cannot discard the card just picked up, no layoff phase for the player.
    ``stats``: if a dict, ``stats['actions']`` accumulates player actions
    (``len(game.actions)``, ~120 per random hand incl. 2 score actions; the
    deal is not an action; ~98% of random hands end as dead hands)."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    if driver == "env":
        import rlcard
        env = rlcard.make('gin-rummy', config={'seed': seed})
        for _ in range(n):
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(choice(list(state['legal_actions'])))
            actions += len(env.game.actions)
    else:
        import numpy as np
        from rlcard.games.gin_rummy.game import GinRummyGame
        game = GinRummyGame()
        game.np_random = np.random.RandomState(seed)
        legal = game.judge.get_legal_actions
        for _ in range(n):
            game.init_game()
            while not game.is_over():
                game.step(choice(legal()))
            actions += len(game.actions)
    if stats is not None:
        stats["actions"] = stats.get("actions", 0) + actions
    return n


# ------------------------------------------------------ state clone / size --

def openspiel_midgame_state(seed: int = 0, player_moves: int = 20):
    """An OpenSpiel gin_rummy state after the deal plus ``player_moves``
    random player actions (fewer if the hand ends first: then the last
    non-terminal state)."""
    import pyspiel
    rng = random.Random(seed)
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    moves = 0
    while moves < player_moves:
        if state.is_chance_node():
            nxt = state.child(rng.choice(state.chance_outcomes())[0])
        else:
            nxt = state.child(rng.choice(state.legal_actions()))
            moves += 1
        if nxt.is_terminal():
            break
        state = nxt
    return state


def openspiel_clone_cost(n: int = 100_000, seed: int = 0,
                         player_moves: int = 20) -> float:
    """Seconds per ``state.clone()`` of a mid-game OpenSpiel state (best of 3
    runs of ``n`` clones)."""
    state = openspiel_midgame_state(seed, player_moves)
    clone = state.clone
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n):
            clone()
        best = min(best, time.perf_counter() - t)
    return best / n


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def openspiel_state_memory(n: int = 20_000, seed: int = 0,
                           player_moves: int = 20) -> dict:
    """Approximate memory of one OpenSpiel state: RSS growth while holding
    ``n`` clones of a mid-game state, divided by ``n`` (includes the pybind11
    wrapper and allocator overhead; C++ heap is invisible to tracemalloc).
    Also returns the size of ``state.serialize()`` (the action history).
    Allocator reuse makes RSS deltas meaningless after other work: call it in
    a fresh process (``openspiel_state_memory_subprocess``)."""
    import gc
    state = openspiel_midgame_state(seed, player_moves)
    gc.collect()
    before = _rss_bytes()
    held = [state.clone() for _ in range(n)]
    after = _rss_bytes()
    per_state = (after - before) / n
    del held
    return {"bytes_per_state_rss": per_state,
            "serialize_len": len(state.serialize()),
            "history_len": len(state.history())}


def openspiel_state_memory_subprocess(player_moves: int = 20) -> dict:
    """``openspiel_state_memory`` run in a fresh interpreter (same python)."""
    import json
    import os
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    code = (f"import json, sys; sys.path.insert(0, {here!r}); import peers; "
            "print(json.dumps(peers.openspiel_state_memory("
            f"player_moves={player_moves})))")
    out = subprocess.run([sys.executable, "-c", code], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


# -------------------------------------------------------------- self-test --

RANK_VALUE = tuple(min(r + 1, 10) for r in range(13))  # by rank0


def _all_melds_in(mask: int) -> list:
    """Every meld (as mask) inside ``mask``: sets of 3-4 of a rank, runs of
    3+ consecutive ranks of one suit (ace low, no wrap)."""
    melds = []
    for r in range(13):
        have = [s for s in range(4) if mask >> (s * 13 + r) & 1]
        if len(have) >= 3:
            bits = [1 << (s * 13 + r) for s in have]
            full = sum(bits)
            if len(have) == 4:
                melds.append(full)
                melds.extend(full ^ b for b in bits)
            else:
                melds.append(full)
    for s in range(4):
        for lo in range(13):
            run = 0
            for hi in range(lo, 13):
                bit = 1 << (s * 13 + hi)
                if not mask & bit:
                    break
                run |= bit
                if hi - lo >= 2:
                    melds.append(run)
    return melds


def brute_force_deadwood(mask: int) -> int:
    """Exact least deadwood of a hand mask (OUR numbering) by exhaustive
    search: the lowest remaining card is either deadwood or in some meld."""
    melds = _all_melds_in(mask)

    def best(rest: int) -> int:
        if not rest:
            return 0
        low = rest & -rest
        i = low.bit_length() - 1
        result = RANK_VALUE[i % 13] + best(rest ^ low)
        for m in melds:
            if m & low and m & rest == m:
                result = min(result, best(rest ^ m))
        return result
    return best(mask)


def random_hand_masks(n: int, seed: int = 0, size: int = 10) -> list:
    """``n`` random ``size``-card hands as OUR 52-bit masks."""
    rng = random.Random(seed)
    return [sum(1 << c for c in rng.sample(range(NUM_CARDS), size))
            for _ in range(n)]


def meldy_hand_masks(n: int, seed: int = 0, size: int = 10) -> list:
    """``n`` random hands biased toward melds (cards drawn from a few ranks
    and a couple of suits), to exercise overlapping set/run choices."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        ranks = rng.sample(range(13), 5)
        pool = [s * 13 + r for s in range(4) for r in ranks]
        s = rng.randrange(4)
        lo = rng.randrange(9)
        pool += [s * 13 + r for r in range(lo, lo + 5)]
        pool = sorted(set(pool))
        if len(pool) >= size:
            out.append(sum(1 << c for c in rng.sample(pool, size)))
    return out


def _fmt(mask: int) -> str:
    return " ".join("A23456789TJQK"[i % 13] + "SHDC"[i // 13]
                    for i in mask_to_indices(mask))


def selftest(n: int = 2000, seed: int = 0) -> dict:
    """Compare OpenSpiel, RLCard and brute force on ``n`` uniform random and
    ``n`` meld-biased 10-card hands; returns counts and first disagreements."""
    os_dw = openspiel_deadwood_fn()
    rl_dw = rlcard_deadwood_fn()
    report = {}
    for name, hands in (("uniform", random_hand_masks(n, seed)),
                        ("meldy", meldy_hand_masks(n, seed + 1))):
        bad = []
        for m in hands:
            a, b, c = os_dw(m), rl_dw(m), brute_force_deadwood(m)
            if not a == b == c:
                bad.append((_fmt(m), a, b, c))
        report[name] = {"hands": len(hands), "disagreements": len(bad),
                        "examples (hand, openspiel, rlcard, brute)": bad[:5]}
    # OpenSpiel 11-card quirk: min_deadwood(11 cards) vs best discard.
    os_raw = openspiel_deadwood_raw_fn()
    conv = openspiel_mask_converter()
    worse = []
    for m in meldy_hand_masks(n, seed + 2, size=11):
        got = os_raw(conv(m))
        true = min(brute_force_deadwood(m ^ (1 << i))
                   for i in mask_to_indices(m))
        if got != true:
            worse.append((_fmt(m), got, true))
    report["openspiel_11_card"] = {"hands": n, "disagreements": len(worse),
                                   "examples (hand, openspiel, best)":
                                   worse[:3]}
    return report


def _rate(fn, items, min_seconds=1.0):
    """Calls per second of ``fn`` over ``items`` (repeated >= min_seconds)."""
    calls, t0 = 0, time.perf_counter()
    while True:
        for x in items:
            fn(x)
        calls += len(items)
        dt = time.perf_counter() - t0
        if dt >= min_seconds:
            return calls / dt


def _hands_rate(fn, n, seed=0, **kw):
    """(hands/s, actions/s, actions/hand) of a ``*_hands`` function."""
    stats = {}
    t = time.perf_counter()
    fn(n, seed, stats=stats, **kw)
    dt = time.perf_counter() - t
    return {"hands/s": round(n / dt, 1),
            "actions/s": round(stats["actions"] / dt),
            "actions/hand": round(stats["actions"] / n, 1)}


def timings(seed: int = 0) -> dict:
    """Rough throughput of every peer function."""
    out = {}
    os_conv, rl_conv = openspiel_mask_converter(), rlcard_mask_converter()
    for kind, masks in (("uniform", random_hand_masks(2000, seed)),
                        ("meldy", meldy_hand_masks(2000, seed + 1))):
        os_lists = [os_conv(m) for m in masks]
        rl_lists = [rl_conv(m) for m in masks]
        out[kind + " 10-card deadwood calls/s"] = {
            "openspiel_deadwood_fn": round(_rate(openspiel_deadwood_fn(),
                                                 masks)),
            "openspiel_deadwood_raw_fn": round(_rate(
                openspiel_deadwood_raw_fn(), os_lists)),
            "openspiel_mask_converter": round(_rate(os_conv, masks)),
            "rlcard_deadwood_fn": round(_rate(rlcard_deadwood_fn(), masks)),
            "rlcard_deadwood_raw_fn": round(_rate(rlcard_deadwood_raw_fn(),
                                                  rl_lists)),
            "brute_force_deadwood": round(_rate(brute_force_deadwood,
                                                masks[:500])),
        }
    os_random = openspiel_random_hands
    out["hands"] = {
        "openspiel_random_hands python/clone":
            _hands_rate(os_random, 500, seed),
        "openspiel_random_hands python/new":
            _hands_rate(os_random, 300, seed, initial="new"),
        "openspiel_random_hands cpp/clone":
            _hands_rate(os_random, 500, seed, driver="cpp"),
        "openspiel_random_hands cpp/new":
            _hands_rate(os_random, 300, seed, driver="cpp", initial="new"),
        "openspiel_simple_bot_hands clone":
            _hands_rate(openspiel_simple_bot_hands, 1000, seed),
        "openspiel_simple_bot_hands new":
            _hands_rate(openspiel_simple_bot_hands, 300, seed, initial="new"),
        "rlcard_random_hands game": _hands_rate(rlcard_random_hands, 300, seed),
        "rlcard_random_hands env":
            _hands_rate(rlcard_random_hands, 100, seed, driver="env"),
    }
    out["openspiel_state"] = {
        "clone us (mid-game: deal + 20 player moves)": openspiel_clone_cost(50_000) * 1e6,
        "clone us (initial state)":
            openspiel_clone_cost(50_000, player_moves=0) * 1e6,
        "memory mid-game": openspiel_state_memory_subprocess(20),
        "memory initial": openspiel_state_memory_subprocess(0),
    }
    return out


if __name__ == "__main__":
    import json
    import sys
    out = {"selftest": selftest()}
    if "--no-time" not in sys.argv:
        out["timings"] = timings()
    print(json.dumps(out, indent=1))
