"""A match against the computer as the terminal game plays it, with no widgets in it.

Every action, the person's and the computer's, goes through
:class:`~hollywood_gin.store.PersistentMatch`, which commits it before it
changes the game, so closing the terminal at any moment loses nothing and the
next ``play`` resumes at the same action.  The person is always player 0.
The computer sees only its own :class:`~hollywood_gin.hand.HandView` (R3.4).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..actions import Action, Discard, DrawStock, Knock, TakeDiscard, TakeUpcard
from ..cards import Card
from ..errors import HollywoodGinError, IllegalActionError
from ..hand import Hand, HandResult, HandView
from ..i18n import _
from ..match import Match
from ..rules import Rules
from ..sheet import ScoreSheet
from ..store import PersistentMatch, Store, StoredMatch, StoreError

if TYPE_CHECKING:
    from ..bots import Reason

__all__ = ["COMPUTER", "HUMAN", "Bot", "BotFactory", "GameSession", "Hinter", "Move", "resumable"]

HUMAN = 0
COMPUTER = 1
LEVELS = (1, 2, 3, 4, 5)


class Bot(Protocol):
    """What the game needs of a computer player (the API of :mod:`hollywood_gin.bots`)."""

    def reset(self, seed: int | None = None) -> None: ...

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action: ...

    def observe(self, view: HandView, sheet: ScoreSheet | None = None) -> None: ...


BotFactory = Callable[[int, int], Bot]
"""Makes the computer player of a level from a seed."""

Hinter = Callable[[HandView, ScoreSheet], "tuple[Action, Reason]"]
"""Suggests the person's action with its reason (words chosen by the screen)."""


def default_bot(level: int, seed: int) -> Bot:
    """The bots layer's player of that level (imported late: it is a separate layer)."""
    from .. import bots

    bot: Bot = bots.make_bot(f"level{level}", seed=seed)
    return bot


def default_hint(view: HandView, sheet: ScoreSheet) -> tuple[Action, Reason]:
    """The expert's suggestion and its reason."""
    from .. import bots

    suggestion = bots.hint(view, sheet)
    return suggestion.action, suggestion.reason


@dataclass(frozen=True, slots=True)
class Move:
    """One applied action, as the log shows it: who, what, and the pile card it took."""

    player: int
    action: Action
    taken: Card | None
    result: HandResult | None


def resumable(store: Store) -> StoredMatch | None:
    """The newest unfinished match against the computer, if any."""
    rows = store.matches(kind="computer", status="playing")
    return rows[0] if rows else None


class GameSession:
    """A stored match, the computer's seat, and the person's undo and hints."""

    def __init__(
        self,
        store: Store,
        persistent: PersistentMatch,
        *,
        bot_factory: BotFactory = default_bot,
        hinter: Hinter = default_hint,
    ) -> None:
        self.store = store
        self.pm = persistent
        self.level = int(persistent.meta.get("level", 3))
        self._hinter = hinter
        self.bot = bot_factory(self.level, self._bot_seed())
        # Resume where the person was: if he had moved on to the next deal, deal it again.
        self._deal_up_to(int(persistent.meta.get("dealt", 1)))
        self._reset_bot()

    # -- starting ----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        store: Store,
        *,
        level: int,
        rules: Rules,
        seed: int | None = None,
        first_dealer: int | None = None,
        bot_factory: BotFactory = default_bot,
        hinter: Hinter = default_hint,
    ) -> GameSession:
        """Store a new match against the computer of ``level`` (1–5)."""
        if level not in LEVELS:
            raise HollywoodGinError(_("the computer's level must be 1 to 5, not {level!r}").format(
                level=level))
        meta: dict[str, Any] = {
            "level": level,
            "preset": rules.preset_name or "custom",
            "assisted": False,
            "hints": 0,
            "undos": 0,
            "human": HUMAN,
        }
        pm = store.new_match(rules=rules, seed=seed, first_dealer=first_dealer,
                             players=("You", f"Computer (level {level})"), kind="computer",
                             meta=meta)
        return cls(store, pm, bot_factory=bot_factory, hinter=hinter)

    @classmethod
    def resume(
        cls,
        store: Store,
        match_id: str,
        *,
        bot_factory: BotFactory = default_bot,
        hinter: Hinter = default_hint,
    ) -> GameSession:
        """Replay a stored match to the action where it stopped; an abandoned one is refused
        (its loss stands: playing on would turn it back into a match in play)."""
        pm = store.open_match(match_id)
        if pm.opened_status == "abandoned":
            raise StoreError(_("it was abandoned (perhaps in another window)"))
        return cls(store, pm, bot_factory=bot_factory, hinter=hinter)

    # -- reading -----------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, str]:
        """The two seats as the screen says them, in the language in force."""
        return (_("You"), _("Computer"))

    @property
    def id(self) -> str:
        return self.pm.id

    @property
    def match(self) -> Match:
        return self.pm.match

    @property
    def hand(self) -> Hand:
        return self.pm.match.hand

    @property
    def rules(self) -> Rules:
        return self.pm.match.rules

    @property
    def sheet(self) -> ScoreSheet:
        return self.pm.match.sheet

    @property
    def hand_number(self) -> int:
        return len(self.pm.match.hands)

    @property
    def assisted(self) -> bool:
        return bool(self.pm.meta.get("assisted", False))

    def moves(self) -> list[Move]:
        """The moves of this hand so far, each take with the pile card it picked up: all of
        it public (R4.4), rebuilt from the log so the move list never shows an undone move."""
        return self._replay_pile()[0]

    def pile_story(self) -> list[tuple[Card, int | None]]:
        """The discard pile from the bottom up, each card with who put it there (None: the
        upcard turned at the deal, R3.3).  The whole pile is public (R4.4)."""
        return self._replay_pile()[1]

    def _replay_pile(self) -> tuple[list[Move], list[tuple[Card, int | None]]]:
        hand = self.hand
        deck = hand.deck
        pile: list[tuple[Card, int | None]] = [(deck[20], None)] if deck else []
        moves: list[Move] = []
        last = len(hand.history) - 1
        for i, (player, action) in enumerate(hand.history):
            taken = None
            if isinstance(action, (TakeUpcard, TakeDiscard)) and pile:
                taken = pile.pop()[0]
            elif isinstance(action, Discard):
                pile.append((action.card, player))
            moves.append(Move(player, action, taken, hand.result if i == last else None))
        return moves, pile

    def view(self) -> HandView:
        """The person's view: never the computer's cards before the hand ends (R3.4)."""
        return self.hand.view(HUMAN)

    @property
    def human_to_act(self) -> bool:
        return not self.hand.is_over and self.hand.to_act == HUMAN

    @property
    def computer_to_act(self) -> bool:
        return not self.hand.is_over and self.hand.to_act == COMPUTER

    # -- playing -----------------------------------------------------------------------

    def act(self, action: Action) -> Move:
        """The person's action; illegal ones raise and change nothing (saved or shown)."""
        if self.hand.is_over:
            raise IllegalActionError(_("the hand is over: press Enter for the next hand"))
        if not self.human_to_act:
            raise IllegalActionError(_("wait: it is the computer's turn"))
        return self._apply(HUMAN, action)

    def computer_choice(self) -> Action:
        """Ask the computer for its move (safe to run off the UI thread: it only reads)."""
        view = self.hand.view(COMPUTER)
        return self.bot.choose(view, self.sheet.copy())

    def computer_act(self, action: Action) -> Move:
        if not self.computer_to_act:
            raise IllegalActionError("it is not the computer's turn")
        return self._apply(COMPUTER, action)

    def _apply(self, player: int, action: Action) -> Move:
        pile = self.hand.discard_pile
        taken = pile[-1] if isinstance(action, (TakeUpcard, TakeDiscard)) and pile else None
        result = self.pm.act(action, player)
        return Move(player, action, taken, result)

    def next_hand(self) -> None:
        """Deal the next hand once the person has seen the end of this one (R3.1)."""
        if self.hand.is_over and not self.match.finished:
            dealt = self.hand_number + 1
            self.store.set_meta(self.id, dealt=dealt)  # saved first: a refusal deals nothing
            self.match.next_hand()
            self.pm.meta["dealt"] = dealt
            self._reset_bot()

    def _deal_up_to(self, hands: int) -> None:
        while self.hand_number < hands and self.hand.is_over and not self.match.finished:
            self.match.next_hand()

    # -- help: hints and undo (both mark the match assisted) ---------------------------------

    def hint_position(self) -> tuple[int, HandView, ScoreSheet]:
        """What a hint is thought out from: the action count it is for, the person's view
        and a copy of the sheet, none shared with the session, so the thinking may run
        on another thread while the screen stays live."""
        if not self.human_to_act:
            raise IllegalActionError(_("a hint is given on your turn"))
        return self.pm.action_count, self.view(), self.sheet.copy()

    def think_hint(self, view: HandView, sheet: ScoreSheet) -> tuple[Action, Reason]:
        """The expert's suggested action and its reason (touches nothing of the session)."""
        return self._hinter(view, sheet)

    def give_hint(self, position: int) -> bool:
        """Count a hint thought out at ``position`` as given (the match becomes assisted),
        unless the game has moved on since: then it is stale and not shown."""
        if position != self.pm.action_count or not self.human_to_act:
            return False
        self._mark_assisted("hints")
        return True

    def _undo(self) -> tuple[int | None, str]:
        """The log position just before the person's last action in this hand, or why
        there is none.  An undo must never be a peek: it stops at what showed him hidden
        cards, the hand's end (the cards laid out, R5.1, R5.2) and his own draw from the
        stock (its card, and the stock's order with it)."""
        if self.hand.is_over:
            return None, _("the hand is over and its cards were shown: its moves "
                           "cannot be taken back")
        start = sum(len(h.history) for h in self.match.hands[:-1])
        history = self.hand.history
        shown = self._stock_draws_shown()
        thrown: list[Card] = []  # the computer's discards since, the latest first
        for i in range(len(history) - 1, -1, -1):
            player, action = history[i]
            if i in shown:
                return None, _("the computer threw the card it drew from the stock, so the "
                               "stock was shown: its draw cannot be taken back")
            if player == COMPUTER and isinstance(action, Discard):
                thrown.append(action.card)
            if player == HUMAN:
                if isinstance(action, DrawStock):
                    return None, _("your draw from the stock showed you its card: it "
                                   "cannot be taken back")
                held = self._known_held_before(i)
                concealed = [c for c in thrown if c not in held]
                if concealed:
                    return None, _("the computer has since thrown {card} from its hand, "
                                   "which showed it held it: your move cannot be taken "
                                   "back").format(card=concealed[-1].pretty)
                return start + i, ""
        return None, _("nothing to undo: you have not acted in this hand yet")

    def _known_held_before(self, index: int) -> set[Card]:
        """The cards the person knew the computer held just before this hand's action
        ``index``: those it took from the pile (R4.4) and has not thrown since.  A discard
        of any other card showed him a card of its concealed hand (R3.4)."""
        held: set[Card] = set()
        for move in self.moves()[:index]:
            if move.player != COMPUTER:
                continue
            if move.taken is not None:
                held.add(move.taken)
            elif isinstance(move.action, Discard):
                held.discard(move.action.card)
        return held

    def _stock_draws_shown(self) -> set[int]:
        """Where in this hand's history the computer drew from the stock a card he then
        threw: the person has seen that card come off the stock (R3.3 deals the stock from
        the deck's 22nd card on, so the k-th draw of the hand brought ``deck[21 + k]``).
        A hand without its deck counts every such draw as shown."""
        deck = self.hand.deck
        history = self.hand.history
        thrown = {a.card for p, a in history
                  if p == COMPUTER and isinstance(a, (Discard, Knock)) and a.card is not None}
        shown: set[int] = set()
        draws = 0
        for i, (player, action) in enumerate(history):
            if isinstance(action, DrawStock):
                if player == COMPUTER and (deck is None or deck[21 + draws] in thrown):
                    shown.add(i)
                draws += 1
        return shown

    def undo_point(self) -> int | None:
        return self._undo()[0]

    @property
    def can_undo(self) -> bool:
        return self.undo_point() is not None

    def undo(self) -> int:
        """Take back the person's last action of this hand and everything after it."""
        keep, why = self._undo()
        if keep is None:
            raise IllegalActionError(why)
        undone = self.pm.action_count - keep
        hands = self.hand_number
        self.pm.undo_to(keep)
        self._deal_up_to(hands)  # the replay stops after the last action, maybe a hand's end
        self._mark_assisted("undos")
        self._reset_bot()
        return undone

    def _mark_assisted(self, counter: str) -> None:
        count = int(self.pm.meta.get(counter, 0)) + 1
        self.store.set_meta(self.id, assisted=True, **{counter: count})
        self.pm.meta.update({"assisted": True, counter: count})

    def abandon(self) -> None:
        """Give up this match: it is no longer offered for resuming."""
        if not self.match.finished:
            self.store.set_status(self.id, "abandoned")

    def _bot_seed(self) -> int:
        """The computer's seed for this hand: the same for a resumed or undone hand, and
        one-way, so that the computer cannot work the match's seed, and every deal with it,
        back out of its own (``seed * 1_000_003 + hand`` could be turned back)."""
        digest = hashlib.blake2b(f"bot {self.match.seed} {self.hand_number}".encode(),
                                 digest_size=8).digest()
        return int.from_bytes(digest, "big") >> 1

    def _reset_bot(self) -> None:
        """One seed per hand, so a resumed or undone hand plays on as it would have (R3.1);
        then every ended hand shown to the computer as the arena shows it at each hand's
        end, so it knows this opponent after a resume or an undo as if it had played on."""
        from ..bots.base import observe_match

        self.bot.reset(self._bot_seed())
        observe_match(self.bot, self.match, COMPUTER)

    def started(self) -> str:
        """When the match was created, for the resume offer."""
        stored = self.store.load(self.id)
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(stored.created_at))
