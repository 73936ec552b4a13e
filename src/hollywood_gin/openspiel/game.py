"""Hollywood Gin as an OpenSpiel Python game, ``python_hollywood_gin``, played by our engine.

Chance is explicit and card by card, as in OpenSpiel's own ``gin_rummy``, so
OpenSpiel's sampling, MCTS and determinization see the true chance structure:

1. the first dealer (2 outcomes, R3.1; later dealers follow the rules' dealer option),
2. the deal: 21 chance nodes, one card each (20 to the hands in dealing order, R3.2,
   then the upcard, R3.3),
3. after every ``draw`` (id 2), one chance node for the stock card drawn.

Player actions are the 109 fixed ids of :mod:`hollywood_gin.actions`; chance
outcomes are card indexes 0-51 (0 and 1 for the dealer).  Observations are the
vector of :mod:`hollywood_gin.rl.observation` (and a text form) built from the
seat's :class:`~hollywood_gin.hand.HandView`; the information state is the seat's
own log of everything it has seen (perfect recall).

Game parameters: ``match`` (False: one hand; True: a whole match), ``reward``
(``points`` or ``result``), ``max_actions`` (player actions after which a hand
ends as a dead hand: OpenSpiel needs a finite game), ``max_hands`` (a longer match
ends unfinished), ``preset`` (a rules preset), and every rule option of
:class:`~hollywood_gin.rules.Rules`, where ``-1`` (or ``""``, ``False``) means
"as the preset".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type information

from ..actions import ACTION_COUNT, ACTIONS, DRAW_STOCK_ID, Discard, Knock
from ..cards import CARDS
from ..errors import IllegalActionError
from ..hand import Hand, HandView, Phase
from ..match import next_dealer
from ..rl.observation import OBS_SIZE, encode_sheet, encode_view
from ..rules import Rules
from ..sheet import ScoreSheet

__all__ = ["GAME_NAME", "HollywoodGinGame", "HollywoodGinState", "rules_from_params"]

GAME_NAME = "python_hollywood_gin"
_DEAL = 21  # cards dealt by chance before play: 20 to the hands, then the upcard

_INT_OPTIONS = (
    "knock_limit",
    "gin_bonus",
    "undercut_bonus",
    "dead_hand_stock",
    "columns",
    "game_target",
    "game_bonus",
    "shutout_game_bonus",
    "box_bonus",
)
DEFAULT_PARAMS: dict[str, Any] = {
    "match": False,
    "reward": "points",
    "max_actions": 400,
    "max_hands": 300,
    "preset": "hollywood",
    **dict.fromkeys(_INT_OPTIONS, -1),
    "big_gin_bonus": -1,  # -1: no big gin (as in every preset)
    "oklahoma": False,
    "discard_taken_card": False,
    "next_dealer": "",
    "entry_rule": "",
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Hollywood Gin (hollywood-gin engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` of a parameter dict: the preset, then every option not left at -1."""
    rules = Rules.preset(str(params.get("preset", "hollywood")))
    changes: dict[str, Any] = {}
    for name in _INT_OPTIONS:
        value = int(params.get(name, -1))
        if value != -1:
            changes[name] = value
    big = int(params.get("big_gin_bonus", -1))
    if big != -1:
        changes["big_gin_bonus"] = big
    for name in ("oklahoma", "discard_taken_card"):
        if params.get(name, False):
            changes[name] = True
    for name in ("next_dealer", "entry_rule"):  # "" keeps the preset's
        choice = str(params.get(name, ""))
        if choice:
            changes[name] = choice
    return rules.replace(**changes) if changes else rules


def _hand_bound(rules: Rules) -> int:
    """The most one hand can score: the biggest bonus plus ten face cards of deadwood."""
    bonus = max(rules.gin_bonus, rules.undercut_bonus, rules.big_gin_bonus or 0)
    return bonus + 100


class HollywoodGinGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The game object: parameters and rules, read-only."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**DEFAULT_PARAMS, **(params or {})}
        self.rules = rules_from_params(merged)
        self.is_match = bool(merged["match"])
        self.reward = str(merged["reward"])
        if self.reward not in ("points", "result"):
            raise ValueError(f"reward must be 'points' or 'result', not {self.reward!r}")
        self.max_actions = int(merged["max_actions"])
        self.max_hands = int(merged["max_hands"]) if self.is_match else 1
        if self.max_actions < 1 or self.max_hands < 1:
            raise ValueError("max_actions and max_hands must be 1 or more")
        # Per hand: the deal, the player actions, and at most one chance draw per stock card.
        per_hand = _DEAL + self.max_actions + 31
        rules = self.rules
        if self.reward == "result":
            bound = 1.0
        elif self.is_match:  # every hand in every column with a box, then every game bonus
            per_column = self.max_hands * (_hand_bound(rules) + rules.box_bonus)
            game = max(rules.game_bonus, rules.shutout_game_bonus)
            bound = float(rules.columns * (per_column + game))
        else:
            bound = float(_hand_bound(rules))
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=52,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=1 + self.max_hands * per_hand,
        )
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self, *args: Any) -> HollywoodGinState:
        return HollywoodGinState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> HollywoodGinObserver:
        if params:
            raise ValueError(f"python_hollywood_gin's observer takes no parameters, not "
                             f"{sorted(params)}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = True
        if iig_obs_type is not None:
            kind = iig_obs_type.private_info
            if kind == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
                raise NotImplementedError(
                    "python_hollywood_gin observes one seat's view (private_info=SINGLE_PLAYER, "
                    "with public_info) or the public part alone (private_info=NONE); "
                    "ALL_PLAYERS and private-only views are not offered")
            private = kind != pyspiel.PrivateInfoType.NONE
            if perfect_recall and not private:
                raise NotImplementedError(
                    "python_hollywood_gin's information state is a seat's own log, with its "
                    "cards: there is no public perfect-recall view")
        return HollywoodGinObserver(perfect_recall, private=private)


class _Core:
    """Everything a state knows, in one object with a fast deep copy (OpenSpiel clones states
    by deep-copying their attributes)."""

    __slots__ = (
        "actions_in_hand",
        "dealer",
        "dealt",
        "events",
        "hand",
        "hand_start",
        "hands_played",
        "legal",
        "length",
        "logs",
        "moves",
        "pending_draw",
        "sheet",
        "terminal",
    )

    def __init__(self, rules: Rules, is_match: bool) -> None:
        self.sheet: ScoreSheet | None = ScoreSheet(rules) if is_match else None
        self.dealer: int | None = None
        self.dealt: list[int] = []
        self.hand: Hand | None = None
        self.pending_draw = False
        self.actions_in_hand = 0
        self.hands_played = 0
        self.hand_start = 0
        self.length = 0  # actions applied so far: the history index of the next one
        # (history index, receiving player, card) of every private chance card of this hand.
        self.events: list[tuple[int, int, int]] = []
        # (history index, player, action id) of every player action of this hand.
        self.moves: list[tuple[int, int, int]] = []
        self.logs: tuple[list[str], list[str]] = ([], [])
        self.terminal = False
        # (length, ids) of the last legal actions asked for: what apply checks against
        # (every search asks for them first), without computing them twice.
        self.legal: tuple[int, list[int]] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = object.__new__(_Core)
        other.sheet = self.sheet.copy() if self.sheet is not None else None
        other.dealer = self.dealer
        other.dealt = self.dealt[:]
        other.hand = self.hand.clone() if self.hand is not None else None
        other.pending_draw = self.pending_draw
        other.actions_in_hand = self.actions_in_hand
        other.hands_played = self.hands_played
        other.hand_start = self.hand_start
        other.length = self.length
        other.events = self.events[:]
        other.moves = self.moves[:]
        other.logs = (self.logs[0][:], self.logs[1][:])
        other.terminal = self.terminal
        other.legal = self.legal
        return other


class HollywoodGinState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """One position: the deal in progress, a hand being played, or the end."""

    def __init__(self, game: HollywoodGinGame) -> None:
        super().__init__(game)
        self.core = _Core(game.rules, game.is_match)

    # -- reading -----------------------------------------------------------------------

    @property
    def _game(self) -> HollywoodGinGame:
        game: HollywoodGinGame = self.get_game()
        return game

    def current_player(self) -> int:
        core = self.core
        if core.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if core.hand is None or core.pending_draw:
            return int(pyspiel.PlayerId.CHANCE)
        return core.hand.to_act

    def is_terminal(self) -> bool:
        return self.core.terminal

    def _legal_actions(self, player: int) -> list[int]:
        hand = self.core.hand
        assert hand is not None and player == hand.to_act
        ids = sorted(hand.legal_action_ids())
        self.core.legal = (self.core.length, ids)
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self.core
        if core.dealer is None:
            return [(0, 0.5), (1, 0.5)]
        if core.hand is None:
            taken = set(core.dealt)
            cards = [i for i in range(52) if i not in taken]
        else:
            cards = sorted(core.hand.stock)
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def returns(self) -> list[float]:
        core = self.core
        if not core.terminal:
            return [0.0, 0.0]
        game = self._game
        if core.sheet is not None:
            if game.reward == "result":
                winner = core.sheet.winner if core.sheet.finished else None
                r0 = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
            else:
                t0, t1 = core.sheet.totals
                r0 = float(t0 - t1)
            return [r0, -r0]
        hand = core.hand
        result = hand.result if hand is not None else None
        if result is None or result.winner is None:
            return [0.0, 0.0]
        value = float(result.points) if game.reward == "points" else 1.0
        return [value, -value] if result.winner == 0 else [-value, value]

    def view(self, player: int) -> HandView | None:
        """The seat's view of the current hand (None while the first deal is dealt)."""
        hand = self.core.hand
        return hand.view(player) if hand is not None else None

    @property
    def sheet(self) -> ScoreSheet | None:
        return self.core.sheet

    # -- acting ------------------------------------------------------------------------

    def _check_legal(self, action: int) -> None:
        """Refuse an action the position does not allow, before anything changes (the
        engine's fast path, ``Hand.apply_id``, takes legal ids only)."""
        core = self.core
        if core.terminal:
            raise IllegalActionError(f"cannot apply action {action!r}: the game is over")
        hand = core.hand
        if core.dealer is None:
            legal = action in (0, 1)
        elif hand is None:
            legal = 0 <= action < 52 and action not in core.dealt
        elif core.pending_draw:
            legal = action in hand.stock
        else:
            asked = core.legal
            legal = action in (asked[1] if asked is not None and asked[0] == core.length
                               else hand.legal_action_ids())
        if not legal:
            raise IllegalActionError(
                f"action {action!r} is not legal now; legal actions: {self.legal_actions()}")

    def _apply_action(self, action: int) -> None:
        self._check_legal(action)
        core = self.core
        index = core.length  # OpenSpiel appends the action to the history after this call
        core.length += 1
        if core.dealer is None:
            core.dealer = int(action)
            for log in core.logs:
                log.append(f"dealer {action}")
            core.hand_start = index + 1
            return
        hand = core.hand
        if hand is None:
            self._deal_card(int(action), index)
            return
        if core.pending_draw:
            stock = hand.stock
            at = stock.index(int(action))
            stock[at], stock[-1] = stock[-1], stock[at]  # the chosen card goes on top
            player = hand.to_act
            hand.apply_id(DRAW_STOCK_ID)
            core.pending_draw = False
            core.events.append((index, player, int(action)))
            core.logs[player].append(f"drew {CARDS[action].text}")
            return
        player = hand.to_act
        core.moves.append((index, player, int(action)))
        core.actions_in_hand += 1
        text = f"p{player} {ACTIONS[action]}"
        for log in core.logs:
            log.append(text)
        if action == DRAW_STOCK_ID:
            core.pending_draw = True
            return
        hand.apply_id(int(action))
        if hand.result is not None or core.actions_in_hand >= self._game.max_actions:
            self._end_hand(index)

    def _deal_card(self, card: int, index: int) -> None:
        core = self.core
        assert core.dealer is not None
        position = len(core.dealt)
        core.dealt.append(card)
        non_dealer = 1 - core.dealer
        text = CARDS[card].text
        if position < _DEAL - 1:
            player = non_dealer if position % 2 == 0 else core.dealer
            core.events.append((index, player, card))
            core.logs[player].append(f"dealt {text}")
            return
        for log in core.logs:
            log.append(f"upcard {text}")
        taken = set(core.dealt)
        deck = [CARDS[i] for i in core.dealt] + [c for c in CARDS if c.index not in taken]
        core.hand = Hand.from_deck(deck, rules=self._game.rules, dealer=core.dealer)

    def _end_hand(self, index: int) -> None:
        core = self.core
        hand = core.hand
        assert hand is not None and core.dealer is not None
        result = hand.result
        core.hands_played += 1
        if result is None:
            summary = "hand ends dead: too many actions"
        else:
            shown = " | ".join(" ".join(c.text for c in cards) for cards in result.hands)
            summary = f"hand ends {result.kind} winner {result.winner} {result.points}: {shown}"
        for log in core.logs:
            log.append(summary)
        sheet = core.sheet
        if sheet is None:
            core.terminal = True
            return
        if result is not None and result.winner is not None:
            sheet.record(result.winner, result.points)
        if sheet.finished or core.hands_played >= self._game.max_hands:
            core.terminal = True
            return
        if result is not None:
            core.dealer = next_dealer(self._game.rules, core.dealer, result)
        # A hand cut off by max_actions counts as a dead hand: the same dealer deals (R3.1).
        core.hand = None
        core.dealt = []
        core.events = []
        core.moves = []
        core.actions_in_hand = 0
        core.hand_start = index + 1

    # -- text --------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        core = self.core
        most = ACTION_COUNT if player >= 0 else 2 if core.dealer is None else 52
        if not 0 <= action < most:
            what = "action" if player >= 0 else "chance outcome"
            raise IllegalActionError(f"there is no {what} {action}; they are 0-{most - 1}")
        if player >= 0:
            return str(ACTIONS[action])
        if core.dealer is None:
            return f"dealer {action}"
        if core.hand is None:
            return ("upcard " if len(core.dealt) == _DEAL - 1 else "deal ") + CARDS[action].text
        return "stock " + CARDS[action].text

    def __str__(self) -> str:
        core = self.core
        hand = core.hand
        if hand is None:
            return f"dealer {core.dealer}, dealt {' '.join(CARDS[i].text for i in core.dealt)}"
        lines = [
            f"dealer {hand.dealer}, to act {hand.to_act}, phase {hand.phase.value}"
            + (" (drawing)" if core.pending_draw else ""),
            "p0: " + " ".join(c.text for c in hand.cards_of(0)),
            "p1: " + " ".join(c.text for c in hand.cards_of(1)),
            "pile: " + " ".join(c.text for c in hand.discard_pile),
            f"stock: {len(hand.stock)}",
        ]
        if core.sheet is not None:
            lines.append(f"sheet: {core.sheet.to_dict()['entries']}")
        return "\n".join(lines)

    # -- determinization ---------------------------------------------------------------

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float] | None = None
    ) -> HollywoodGinState:
        """A state with the same information state for ``player_id``: the opponent's unseen
        cards and the stock are re-dealt at random, consistently with everything the player
        saw (each card the opponent showed came from his deal or a draw before it).  The
        sample is uniform over the unseen cards, not weighted by the opponent's policy."""
        core = self.core
        hand = core.hand
        if core.terminal or (hand is None and not core.dealt):
            return self._replayed(list(self.history()))
        seed = (
            random.getrandbits(62)
            if probability_sampler is None
            else int(probability_sampler() * (1 << 62))
        )
        rng = random.Random(seed)
        history = list(self.history())
        me, opp = player_id, 1 - player_id
        slots = sorted(index for index, owner, _ in core.events if owner == opp)
        if hand is None:  # mid-deal: unseen cards fill the opponent's dealt slots
            seen = {card for _, owner, card in core.events if owner == me}
            pool = [c for c in range(52) if c not in seen]
            rng.shuffle(pool)
            for i, card in zip(slots, pool, strict=False):
                history[i] = card
            return self._replayed(history)
        # Replay the hand's public actions to find each card the opponent showed from hiding:
        # it must have come from his deal or one of his draws before it was shown.
        deadlines: list[tuple[int, int]] = []  # (history index shown, card)
        public_held: set[int] = set()
        pile = [history[core.hand_start + _DEAL - 1]]  # the upcard
        for index, actor, action_id in core.moves:
            act = ACTIONS[action_id]
            if action_id in (1, 3):  # take the upcard, pick the discard: both public
                card = pile.pop()
                if actor == opp:
                    public_held.add(card)
            elif isinstance(act, Discard | Knock) and act.card is not None:
                card = act.card.index
                if isinstance(act, Discard):
                    pile.append(card)
                if actor == opp:
                    if card in public_held:
                        public_held.discard(card)
                    else:
                        deadlines.append((index, card))
        unseen_mask = hand.view(me).unseen_mask
        unseen = [i for i in range(52) if unseen_mask >> i & 1]
        rng.shuffle(unseen)
        hidden = unseen[: len(slots) - len(deadlines)]
        free = list(slots)
        for deadline, card in sorted(deadlines):
            chosen = rng.choice([s for s in free if s < deadline])
            free.remove(chosen)
            history[chosen] = card
        for s, card in zip(free, hidden, strict=True):
            history[s] = card
        return self._replayed(history)

    def _replayed(self, history: list[int]) -> HollywoodGinState:
        state = HollywoodGinState(self._game)
        for action in history:
            state.apply_action(action)
        return state


class HollywoodGinObserver:
    """OpenSpiel's observer interface: the view vector and text, or the perfect-recall log
    (as text only). Without ``private`` (``private_info=NONE``), what the table shows
    everyone: the seat's own cards are left out (R3.4), its cards the other saw it take
    from the pile are public and kept."""

    def __init__(self, perfect_recall: bool, *, private: bool = True) -> None:
        self.perfect_recall = perfect_recall
        self.private = private
        if perfect_recall:
            self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
            self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        else:
            self.tensor = np.zeros(OBS_SIZE, dtype=np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: HollywoodGinState, player: int) -> None:
        tensor = self.tensor
        if tensor is None:  # an empty tensor would pass for an information state
            raise NotImplementedError(
                "python_hollywood_gin has no information-state tensor (its information "
                "state is a string: information_state_string); use observation_tensor")
        core = state.core
        hand = core.hand
        if hand is not None:
            encode_view(hand.view(player), core.sheet, tensor)
            if not self.private:
                tensor[:52] = 0.0  # the seat's own cards (the view's first plane)
            return
        tensor.fill(0.0)  # mid-deal: only the cards dealt to this seat so far
        if self.private:
            for _, owner, card in core.events:
                if owner == player:
                    tensor[card] = 1.0
        encode_sheet(tensor, core.sheet, player)

    def string_from(self, state: HollywoodGinState, player: int) -> str:
        core = state.core
        if self.perfect_recall:
            return f"p{player}|" + "|".join(core.logs[player])
        hand = core.hand
        head = f"p{player}"
        if core.sheet is not None:
            head += f" sheet {core.sheet.to_dict()['entries']}"
        if hand is None:
            if not self.private:
                return head + " dealing"
            own = [card for _, owner, card in core.events if owner == player]
            return head + " dealt " + " ".join(CARDS[i].text for i in own)
        view = hand.view(player)
        phase = view.phase.value + (" drawing" if core.pending_draw else "")
        mine = f" hand {' '.join(c.text for c in view.hand)}" if self.private else ""
        return (
            f"{head} {phase} to_act {view.to_act} dealer {view.dealer} stock {view.stock_count}"
            f"{mine}"
            f" pile {' '.join(c.text for c in view.discard_pile)}"
            f" opp_known {' '.join(c.text for c in view.opponent_known)}"
            f" refused {int(view.upcard_refused)}"
            + ("" if view.phase is not Phase.OVER else f" over {core.logs[player][-1]}")
        )


pyspiel.register_game(_GAME_TYPE, HollywoodGinGame)
