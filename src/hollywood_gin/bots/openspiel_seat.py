"""Seat our bots in OpenSpiel's ``gin_rummy`` (package ``open-spiel``, imported lazily).

OpenSpiel numbers cards ``suit * 13 + rank - 1`` with the suits in the order
s c d h; ours are s h d c, so hearts and clubs swap.  Its rules differ from ours
in ways the adapter absorbs, not our engine:

- equal counts after a knock are no undercut there: nobody scores;
- a card taken from the pile may be discarded at once (our view says
  ``discard_taken_card=True``, so our bots see that option);
- player 0 always has the first offer (our view calls player 1 the dealer);
- the upcard is apart from the discard pile (our view puts it on top of the pile);
- when the stock is down to two, the player to move may only knock with the
  upcard or end the hand (the *wall*): our bot sees the upcard as taken and may
  knock, and a plain discard there ends the hand;
- a knock is followed by meld declarations one at a time, and a defender lays off
  and melds one action at a time: the adapter lays out the best melds (R8.1) for
  a knocker and the optimum lay-offs and melds (R5.4) for a defender.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import CARDS, cards_from_mask
from ..errors import IllegalActionError
from ..hand import HandResult, HandView, Phase
from ..melds import arrangement_of_mask, deadwood_of_mask, defender_layout_of_masks
from ..rules import Rules
from .base import Bot

__all__ = [
    "OPENSPIEL_RULES",
    "OpenSpielHand",
    "SimpleSeat",
    "deck_from_seed",
    "from_openspiel",
    "play_openspiel_hand",
    "tables",
    "to_openspiel",
]

#: The rules our bots are told they play under inside OpenSpiel (its defaults).
OPENSPIEL_RULES = Rules.preset("eaai").replace(discard_taken_card=True)

_SUIT_SWAP = (0, 3, 2, 1)  # our suit -> OpenSpiel's suit, and back (an involution)
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56


def to_openspiel(index: int) -> int:
    """OpenSpiel's number for our card ``index``."""
    suit, rank0 = divmod(index, 13)
    return _SUIT_SWAP[suit] * 13 + rank0


def from_openspiel(card: int) -> int:
    """Our card index for OpenSpiel's card number."""
    suit, rank0 = divmod(card, 13)
    return _SUIT_SWAP[suit] * 13 + rank0


def _mask(os_cards: Sequence[int]) -> int:
    m = 0
    for c in os_cards:
        m |= 1 << from_openspiel(c)
    return m


def _pyspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise IllegalActionError(
            "the OpenSpiel engine needs the open-spiel package: "
            "pip install 'hollywood-gin[openspiel]' (or pip install open-spiel)"
        ) from None
    return pyspiel


class _Tables:
    """OpenSpiel's game, its meld numbering, and a template initial state (built once)."""

    def __init__(self) -> None:
        pyspiel = _pyspiel()
        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("gin_rummy")
        self.params = self.game.get_parameters()
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        self.meld_cards: dict[int, int] = {}  # OpenSpiel meld id -> our mask
        self.meld_id: dict[int, int] = {}  # our mask -> OpenSpiel meld id
        for meld_id, cards in utils.int_to_meld.items():
            m = _mask(cards)
            self.meld_cards[meld_id] = m
            self.meld_id[m] = meld_id
        self.template = self.game.new_initial_state()


_TABLES: _Tables | None = None


def tables() -> _Tables:
    """The shared OpenSpiel tables (imports pyspiel on first use)."""
    global _TABLES
    if _TABLES is None:
        _TABLES = _Tables()
    return _TABLES


def _meld_pieces(meld: int) -> list[int]:
    """A meld as OpenSpiel can declare it: runs longer than five split in pieces."""
    n = meld.bit_count()
    if n <= 5:
        return [meld]
    cards = [i for i in range(52) if meld >> i & 1]
    pieces = []
    while len(cards) > 5:
        pieces.append(sum(1 << i for i in cards[:3]))
        cards = cards[3:]
    pieces.append(sum(1 << i for i in cards))
    return pieces


class OpenSpielHand:
    """One OpenSpiel hand dealt from a fixed deck order, seen through our :class:`HandView`.

    ``deck`` is a permutation of OpenSpiel's 52 card numbers: the first ten go to
    player 0, the next ten to player 1, the 21st is the upcard, and stock draws
    take the rest in order.
    """

    def __init__(self, deck: Sequence[int]) -> None:
        if sorted(deck) != list(range(52)):
            raise IllegalActionError("a deck must hold each of OpenSpiel's 52 cards once")
        self.t = tables()
        self.state = self.t.template.clone()
        self.deck = list(deck)
        self.next_card = 0
        self.history: list[tuple[int, Action]] = []
        self.taken = -1  # our index of the card taken from the pile this turn
        self.shown: tuple[int, int] | None = None  # both hands as the knock left them
        self._deal_chance()

    # -- reading --------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_terminal())

    @property
    def to_act(self) -> int:
        return int(self.state.current_player())

    @property
    def phase(self) -> Any:
        return self.state.current_phase()

    def needs_choice(self) -> bool:
        """True when the player to act has a decision our bots make (not melds, lay-offs)."""
        gr = self.t.pyspiel.gin_rummy
        phase = self.phase
        if phase in (gr.FIRST_UPCARD, gr.DRAW, gr.DISCARD):
            return True
        return phase == gr.WALL and KNOCK in self.state.legal_actions()

    def view(self, player: int) -> HandView:
        """What ``player`` may know now, as our view (see the module docstring)."""
        gr = self.t.pyspiel.gin_rummy
        s = self.state
        phase = self.phase
        hands = s.hands()
        mine = _mask(hands[player])
        upcard = s.upcard()
        pile = [CARDS[from_openspiel(c)] for c in s.discard_pile()]
        known = s.known_cards()
        history = list(self.history)
        taken = None
        to_act = self.to_act
        legal: tuple[Action, ...] = ()
        refused = False
        limit = int(s.knock_card())
        if phase == gr.FIRST_UPCARD:
            our_phase = Phase.OFFER
            if all(s.pass_on_first_upcard()):
                our_phase, refused = Phase.DRAW, True
                legal = (DrawStock(),)
            else:
                legal = (Pass(), TakeUpcard())
            pile.append(CARDS[from_openspiel(upcard)])
        elif phase == gr.DRAW:
            our_phase = Phase.DRAW
            legal = (DrawStock(), TakeDiscard())
            pile.append(CARDS[from_openspiel(upcard)])
        elif phase == gr.DISCARD:
            our_phase = Phase.DISCARD
            taken = CARDS[self.taken] if self.taken >= 0 else None
            legal = self._discard_actions(mine, limit, KNOCK in s.legal_actions())
        elif phase == gr.WALL:
            # The wall: only a knock with the upcard is left.  Shown as the upcard taken.
            our_phase = Phase.DISCARD
            up = from_openspiel(upcard)
            mine |= 1 << up
            taken = CARDS[up]
            history.append((to_act, TakeDiscard()))
            legal = self._discard_actions(mine, limit, KNOCK in s.legal_actions())
        else:
            our_phase = Phase.OVER if s.is_terminal() else Phase.DISCARD
        if player != to_act:
            legal = ()
        return HandView(
            player=player,
            rules=OPENSPIEL_RULES,
            dealer=1,
            knock_limit=limit,
            phase=our_phase,
            to_act=to_act if to_act in (0, 1) else player,
            hand=cards_from_mask(mine),
            discard_pile=tuple(pile),
            stock_count=int(s.stock_size()),
            opponent_card_count=len(hands[1 - player]),
            opponent_known=cards_from_mask(_mask(known[1 - player])),
            known_to_opponent=cards_from_mask(_mask(known[player])),
            taken_card=taken,
            upcard_refused=refused,
            history=tuple(history),
            legal_actions=legal,
            result=None,
        )

    @staticmethod
    def _discard_actions(mine: int, limit: int, may_knock: bool) -> tuple[Action, ...]:
        cards = cards_from_mask(mine)
        out: list[Action] = [Discard(c) for c in cards]
        if may_knock:
            out += [Knock(c) for c in cards if deadwood_of_mask(mine & ~c.bit) <= limit]
        return tuple(out)

    # -- acting ---------------------------------------------------------------------------

    def _deal_chance(self) -> None:
        s = self.state
        while s.is_chance_node():
            s.apply_action(self.deck[self.next_card])
            self.next_card += 1

    def apply_openspiel(self, action: int) -> None:
        """Apply one OpenSpiel action for the player to act, keeping our public log."""
        gr = self.t.pyspiel.gin_rummy
        s = self.state
        p = self.to_act
        phase = self.phase
        if phase == gr.FIRST_UPCARD:
            if action == DRAW_UPCARD:
                self.history.append((p, TakeUpcard()))
                self.taken = from_openspiel(s.upcard())
            elif action == PASS:
                self.history.append((p, Pass()))
            elif action == DRAW_STOCK:
                self.history.append((p, DrawStock()))
                self.taken = -1
        elif phase == gr.DRAW:
            if action == DRAW_UPCARD:
                self.history.append((p, TakeDiscard()))
                self.taken = from_openspiel(s.upcard())
            else:
                self.history.append((p, DrawStock()))
                self.taken = -1
        elif phase == gr.DISCARD and action < 52:
            self.history.append((p, Discard(CARDS[from_openspiel(action)])))
            self.taken = -1
        elif phase == gr.WALL and action == KNOCK:
            self.history.append((p, TakeDiscard()))
            self.taken = from_openspiel(s.upcard())
        elif phase == gr.KNOCK and action < 52:
            self.history.append((p, Knock(CARDS[from_openspiel(action)])))
            self.taken = -1
        s.apply_action(action)
        if phase == gr.KNOCK and action < 52:
            hands = s.hands()  # the knocker's ten cards, before any meld is laid
            self.shown = (_mask(hands[0]), _mask(hands[1]))
        self._deal_chance()

    def apply(self, action: Action) -> None:
        """Play our bot's action for the player to act (then its melds, for a knock)."""
        gr = self.t.pyspiel.gin_rummy
        s = self.state
        phase = self.phase
        legal = s.legal_actions()
        if isinstance(action, Pass | TakeUpcard | TakeDiscard | DrawStock):
            code = {Pass: PASS, TakeUpcard: DRAW_UPCARD, TakeDiscard: DRAW_UPCARD,
                    DrawStock: DRAW_STOCK}[type(action)]
            if phase == gr.WALL or code not in legal:
                raise IllegalActionError(f"{action} is not legal in OpenSpiel's {phase}")
            self.apply_openspiel(code)
            return
        if isinstance(action, Discard):
            if phase == gr.WALL:  # a plain discard at the wall: the hand ends
                self.apply_openspiel(PASS)
                return
            code = to_openspiel(action.card.index)
            if code not in legal:
                raise IllegalActionError(f"{action} is not legal in OpenSpiel's {phase}")
            self.apply_openspiel(code)
            return
        if isinstance(action, Knock) and action.card is not None:
            if KNOCK not in legal:
                raise IllegalActionError(f"{action}: OpenSpiel does not allow a knock here")
            self.apply_openspiel(KNOCK)
            discards = self.state.legal_actions()
            code = to_openspiel(action.card.index)
            if code not in discards:  # OpenSpiel's own count disagrees: keep its best discard
                code = min(discards, key=lambda c: self._left_after(c))
            self.apply_openspiel(code)
            self._lay_melds(_mask(self.state.hands()[self.to_act]))
            return
        raise IllegalActionError(f"{action} cannot be played in OpenSpiel's gin_rummy")

    def _left_after(self, code: int) -> int:
        mine = _mask(self.state.hands()[self.to_act])
        return deadwood_of_mask(mine & ~(1 << from_openspiel(code)))

    def _lay_melds(self, mask: int) -> None:
        """Declare the best melds of ``mask`` (R8.1) one by one, then pass."""
        s = self.state
        for meld in arrangement_of_mask(mask):
            for piece in _meld_pieces(meld):
                code = MELD_BASE + self.t.meld_id[piece]
                if code in s.legal_actions():
                    self.apply_openspiel(code)
        self.apply_openspiel(PASS)

    def defend(self) -> None:
        """Lay off and meld for the defender: the optimum of R5.4, one action at a time."""
        s = self.state
        p = self.to_act
        knocker = 1 - p
        melds = tuple(self.t.meld_cards[m] for m in s.layed_melds()[knocker])
        shown = 0
        for m in melds:
            shown |= m
        mine = _mask(s.hands()[p])
        if not s.finished_layoffs():
            _, pairs = defender_layout_of_masks(melds, shown, mine)
            plan = 0
            for way, _meld in pairs:
                plan |= way
            progress = True
            while plan and progress:
                progress = False
                legal = s.legal_actions()
                for i in [i for i in range(52) if plan >> i & 1]:
                    if to_openspiel(i) in legal:
                        self.apply_openspiel(to_openspiel(i))
                        plan &= ~(1 << i)
                        progress = True
                        break
            self.apply_openspiel(PASS)
        self._lay_melds(_mask(s.hands()[p]))

    # -- the result -----------------------------------------------------------------------

    def final_view(self, player: int) -> HandView:
        """``player``'s view of the finished hand, with the result as our engine reports it:
        both hands as the knock left them (or as the hand died), the knocker, the winner
        and the points.  OpenSpiel's tie (equal counts, no score) reads as a knock that
        nobody won."""
        if not self.is_over:
            raise IllegalActionError("the hand is not over: no final view yet")
        view = self.view(player)
        shown = self.shown
        if shown is None:
            hands = self.state.hands()
            shown = (_mask(hands[0]), _mask(hands[1]))
        kind, winner, points, knocker = self.outcome()
        knock_discard = None
        if knocker is not None:
            last = next((a for p, a in reversed(self.history) if p == knocker), None)
            if isinstance(last, Knock):
                knock_discard = last.card
        result = HandResult(
            kind="knock" if kind == "tie" else kind,  # type: ignore[arg-type]
            winner=winner,
            points=points,
            knocker=knocker,
            score=None,
            hands=(cards_from_mask(shown[0]), cards_from_mask(shown[1])),
            knock_discard=knock_discard,
        )
        return replace(
            view, phase=Phase.OVER, legal_actions=(), result=result, hand=result.hands[player]
        )

    def outcome(self) -> tuple[str, int | None, int, int | None]:
        """(kind, winner, points, knocker) of the finished hand, by OpenSpiel's returns."""
        s = self.state
        knocked = s.knocked()
        if not any(knocked):
            return "dead", None, 0, None
        k = 0 if knocked[0] else 1
        r = round(s.returns()[k])
        if r > 0:
            kind = "gin" if s.deadwood()[k] == 0 else "knock"
            return kind, k, r, k
        if r < 0:
            return "undercut", 1 - k, -r, k
        return "tie", None, 0, k


class SimpleSeat:
    """OpenSpiel's own ``make_simple_gin_rummy_bot`` in one seat."""

    name = "openspiel-simple"

    def __init__(self, player: int) -> None:
        t = tables()
        self.bot = t.pyspiel.make_simple_gin_rummy_bot(t.params, player)

    def restart(self) -> None:
        self.bot.restart()

    def step(self, hand: OpenSpielHand) -> int:
        return int(self.bot.step(hand.state))


def play_openspiel_hand(
    seats: Sequence[Bot | SimpleSeat],
    deck: Sequence[int],
) -> tuple[tuple[str, int | None, int, int | None], tuple[list[float], list[float]]]:
    """Play one OpenSpiel hand; returns (kind, winner, points, knocker) and decision times
    in milliseconds by seat (only decisions with a real choice)."""
    hand = OpenSpielHand(deck)
    times: tuple[list[float], list[float]] = ([], [])
    for seat in seats:
        if isinstance(seat, SimpleSeat):
            seat.restart()
    clock = time.perf_counter
    gr = hand.t.pyspiel.gin_rummy
    while not hand.is_over:
        p = hand.to_act
        seat = seats[p]
        if isinstance(seat, SimpleSeat):
            n = len(hand.state.legal_actions())
            t0 = clock()
            code = seat.step(hand)
            t1 = clock()
            if n > 1 and hand.needs_choice():
                times[p].append((t1 - t0) * 1000.0)
            hand.apply_openspiel(code)
            continue
        phase = hand.phase
        if phase == gr.LAYOFF:
            hand.defend()
            continue
        if phase == gr.WALL and KNOCK not in hand.state.legal_actions():
            hand.apply_openspiel(PASS)
            continue
        if phase == gr.KNOCK:  # not reached: our knocks lay their melds at once
            hand._lay_melds(_mask(hand.state.hands()[p]))
            continue
        view = hand.view(p)
        t0 = clock()
        action = seat.choose(view, None)
        t1 = clock()
        if len(view.legal_actions) > 1:
            times[p].append((t1 - t0) * 1000.0)
        if action not in view.legal_actions:
            raise IllegalActionError(f"{seat.name} chose {action}, which is not legal here")
        hand.apply(action)
    for p, seat in enumerate(seats):
        if isinstance(seat, Bot):
            seat.observe(hand.final_view(p), None)
    return hand.outcome(), times


def deck_from_seed(seed: int) -> list[int]:
    """A shuffled OpenSpiel deck from a seed."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck
