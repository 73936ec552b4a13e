"""One hand of gin rummy (the rule book §3–§6) as a state machine with explicit phases.

The hand is the only mutable object of the core: :meth:`Hand.apply` checks an
action and either changes the hand or raises :class:`IllegalActionError`
leaving it exactly as it was.  :meth:`Hand.apply_id` is the unchecked fast
path for search and simulation.  Everything a player may know is in the
frozen :class:`HandView` from :meth:`Hand.view`; bots and interfaces use only
views.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Sequence

from .actions import (
    ACTIONS,
    BIG_GIN_ID,
    DISCARD_BASE,
    DRAW_STOCK_ID,
    KNOCK_BASE,
    PASS_ID,
    TAKE_DISCARD_ID,
    TAKE_UPCARD_ID,
    Action,
    Discard,
    DrawStock,
    Knock,
    Pass,
    TakeDiscard,
    TakeUpcard,
)
from .cards import CARDS, Card, cards_from_mask
from .errors import IllegalActionError
from .frozen import frozen_maker
from .i18n import _
from .melds import MeldError, checked_melds_of_mask, deadwood_of_mask
from .refusals import cannot, cannot_words, phase_hint
from .rules import Rules
from .scoring import score_hand_masks
from .shuffle import checked_seed, shuffle_deck
from .view import HandResult, HandView, Phase

__all__ = ["Hand", "HandResult", "HandView", "Phase"]

_POINTS = tuple(c.points for c in CARDS)
_DEFAULT_RULES = Rules()

def seat_number(x: object) -> int | None:
    """``x`` as player 0 or 1, or None when it is not one: ``True``, ``1.0`` and ``"1"`` are
    not players (a record or a caller that passes them has a bug worth naming)."""
    if isinstance(x, bool) or not hasattr(type(x), "__index__"):
        return None
    n = operator.index(x)  # type: ignore[arg-type]
    return n if n in (0, 1) else None


#: The discard ids of the cards of each 13-bit suit block, filled as blocks are met.
_DISCARD_IDS: tuple[dict[int, tuple[int, ...]], ...] = ({0: ()}, {0: ()}, {0: ()}, {0: ()})


def _discard_ids(mask: int) -> list[int]:
    ids: list[int] = []
    for suit in range(4):
        block = mask >> (13 * suit) & 8191
        found = _DISCARD_IDS[suit].get(block)
        if found is None:
            found = _DISCARD_IDS[suit][block] = tuple(
                DISCARD_BASE + 13 * suit + rank for rank in range(13) if block >> rank & 1
            )
        ids += found
    return ids


_make_view = frozen_maker(HandView)
_make_result = frozen_maker(HandResult)



class Hand:
    """One hand: deal, opening offer, turns, knock or dead hand, result."""

    __slots__ = (
        "_drawn",
        "_passes",
        "_result",
        "_taken",
        "_upcard_refused",
        "dealer",
        "deck",
        "hands",
        "history",
        "knock_limit",
        "known",
        "phase",
        "pile",
        "rules",
        "stock",
        "to_act",
    )

    rules: Rules
    dealer: int
    deck: tuple[Card, ...] | None
    hands: list[int]
    stock: list[int]
    pile: list[int]
    known: list[int]
    phase: Phase
    to_act: int
    history: list[tuple[int, Action]]
    knock_limit: int
    _taken: int
    _drawn: int
    _upcard_refused: bool
    _passes: int
    _result: HandResult | None

    # -- dealing -----------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        *,
        rules: Rules = _DEFAULT_RULES,
        dealer: int = 0,
        seed: int | random.Random | None = None,
    ) -> Hand:
        """Shuffle and deal (R3.2, R3.3).  ``seed`` is an int or a ``random.Random``;
        None draws an unpredictable seed (the global ``random`` is never used)."""
        if seed is None or isinstance(seed, random.Random):
            rng = seed if isinstance(seed, random.Random) else random.Random()
        else:
            rng = random.Random(checked_seed(seed, "a seed", "or a random.Random"))
        deck = list(CARDS)
        shuffle_deck(rng, deck)
        return cls._dealt(tuple(deck), rules, dealer)

    @classmethod
    def from_deck(
        cls, deck: Sequence[Card], *, rules: Rules = _DEFAULT_RULES, dealer: int = 0
    ) -> Hand:
        """Deal from a given deck order, top card first: cards 1–20 go one at a time to the
        non-dealer then the dealer (R3.2), card 21 is the upcard (R3.3), and card 22 is the top
        of the stock."""
        cards = tuple(deck)
        if len(cards) != 52 or len({c.index for c in cards if isinstance(c, Card)}) != 52:
            raise IllegalActionError("a deck must hold each of the 52 cards exactly once")
        return cls._dealt(cards, rules, dealer)

    @classmethod
    def _dealt(cls, cards: tuple[Card, ...], rules: Rules, dealer: int) -> Hand:
        if not isinstance(rules, Rules):
            raise IllegalActionError(f"rules must be a Rules, not {rules!r} (see Rules.preset)")
        seat = seat_number(dealer)
        if seat is None:
            raise IllegalActionError(f"the dealer must be player 0 or 1, not {dealer!r}")
        dealer = seat
        hand = object.__new__(cls)
        hand.rules = rules
        hand.dealer = dealer
        hand.deck = cards
        non_dealer = 1 - dealer
        first = cards[0:20:2]  # R3.2: one at a time, the non-dealer first
        second = cards[1:20:2]
        hands = [0, 0]
        hands[non_dealer] = (first[0].bit | first[1].bit | first[2].bit | first[3].bit
                             | first[4].bit | first[5].bit | first[6].bit | first[7].bit
                             | first[8].bit | first[9].bit)
        hands[dealer] = (second[0].bit | second[1].bit | second[2].bit | second[3].bit
                         | second[4].bit | second[5].bit | second[6].bit | second[7].bit
                         | second[8].bit | second[9].bit)
        hand.hands = hands
        hand.pile = [cards[20].index]
        hand.stock = [c.index for c in cards[:20:-1]]  # top of the stock last
        hand.known = [0, 0]
        hand.phase = Phase.OFFER
        hand.to_act = non_dealer  # R4.1: the non-dealer is offered the upcard first
        hand.history = []
        hand._taken = -1
        hand._drawn = -1
        hand._upcard_refused = False
        hand._passes = 0
        hand._result = None
        if rules.oklahoma:  # R9 oklahoma: the upcard's value is the limit; an ace means gin only
            upcard = cards[20]
            hand.knock_limit = 0 if upcard.rank == 1 else upcard.points
        else:
            hand.knock_limit = rules.knock_limit
        return hand

    # -- reading -----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def result(self) -> HandResult | None:
        return self._result

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    def cards_of(self, player: int) -> tuple[Card, ...]:
        """A player's cards (the whole truth: not for bots, which get views)."""
        return cards_from_mask(self.hands[player])

    @property
    def stock_cards(self) -> tuple[Card, ...]:
        """The stock, top card first (the whole truth)."""
        return tuple(CARDS[i] for i in reversed(self.stock))

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        return tuple([CARDS[i] for i in self.pile])

    @property
    def taken_card(self) -> Card | None:
        """The card taken from the pile this turn, which may not be discarded (R4.3)."""
        return CARDS[self._taken] if self._taken >= 0 else None

    def view(self, player: int) -> HandView:
        """Only what ``player`` may know: own cards, the public pile and log, counts (R3.4)."""
        if seat_number(player) is None:
            raise IllegalActionError(f"there is no player {player!r}; players are 0 and 1")
        over = self.phase is Phase.OVER
        return self._view(player, self.legal_action_ids() if player == self.to_act and not over
                          else ())

    def _view(self, player: int, ids: Sequence[int]) -> HandView:
        """The view of ``player`` (0 or 1) given the legal action ids when he is to act."""
        hands = self.hands
        mine = hands[player]
        known = self.known
        drawn = self._drawn
        taken = self._taken
        # Positional, in the order of the fields (keywords cost more than the rest here).
        return _make_view(
            player,
            self.rules,
            self.dealer,
            self.knock_limit,
            self.phase,
            self.to_act,
            cards_from_mask(mine),
            tuple([CARDS[i] for i in self.pile]),
            len(self.stock),
            hands[1 - player].bit_count(),
            cards_from_mask(known[1 - player]) if known[1 - player] else (),
            cards_from_mask(known[player]) if known[player] else (),
            CARDS[taken] if taken >= 0 else None,
            self._upcard_refused,
            tuple(self.history),
            tuple([ACTIONS[i] for i in ids]),
            self._result,
            CARDS[drawn] if drawn >= 0 and player == self.to_act else None,
            mine,
        )

    # -- legal actions -----------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        """The legal actions as ids of the integer action space (see :mod:`.actions`)."""
        phase = self.phase
        if phase is Phase.DISCARD:
            mask = self.hands[self.to_act]
            taken = self._taken
            m = mask
            if taken >= 0 and not self.rules.discard_taken_card:
                m &= ~(1 << taken)  # R4.3: not even as the knock discard
            d0, d1, d2, d3 = _DISCARD_IDS
            try:
                ids = [*d0[m & 8191], *d1[m >> 13 & 8191], *d2[m >> 26 & 8191], *d3[m >> 39]]
            except KeyError:
                ids = _discard_ids(m)
            limit = self.knock_limit
            whole = deadwood_of_mask(mask)
            # Dropping one card lowers deadwood by at most its value, never more than 10.
            if whole <= limit + 10:
                for action_id in ids[:]:
                    i = action_id - DISCARD_BASE
                    if whole - _POINTS[i] <= limit and deadwood_of_mask(mask & ~(1 << i)) <= limit:
                        ids.append(KNOCK_BASE + i)
            if whole == 0 and self.rules.big_gin_bonus is not None:
                ids.append(BIG_GIN_ID)
            return ids
        if phase is Phase.DRAW:
            if self._upcard_refused or not self.pile:
                return [DRAW_STOCK_ID]
            return [DRAW_STOCK_ID, TAKE_DISCARD_ID]
        if phase is Phase.OFFER:
            return [PASS_ID, TAKE_UPCARD_ID]
        return []

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions as values (a knock with the default melds of R8.1)."""
        return tuple([ACTIONS[i] for i in self.legal_action_ids()])

    def check(self, action: Action, player: int | None = None) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal now."""
        self._checked_melds(action, player)

    def is_legal(self, action: Action, player: int | None = None) -> bool:
        try:
            self._checked_melds(action, player)
        except IllegalActionError:
            return False
        return True

    def _checked_melds(self, action: Action, player: int | None) -> tuple[int, ...] | None:
        """Check an action fully; return the knock's melds as masks, if it shows any."""
        if self.phase is Phase.OVER:
            raise IllegalActionError(
                _("cannot {action}: the hand is over").format(action=cannot_words(action)))
        if player is not None and seat_number(player) is None:
            raise IllegalActionError(f"there is no player {player!r}; players are 0 and 1")
        if player is not None and player != self.to_act:
            raise IllegalActionError(
                _("cannot {action}: it is player {to_act}'s turn, not player {player}'s")
                .format(action=cannot_words(action), to_act=self.to_act, player=player)
            )
        phase = self.phase
        if isinstance(action, (Pass, TakeUpcard)):
            if phase is not Phase.OFFER:
                raise IllegalActionError(
                    _("cannot {action}: the upcard is offered only in the opening (R4.1); "
                      "{hint}").format(action=cannot_words(action), hint=phase_hint(phase))
                )
            return None
        if isinstance(action, (DrawStock, TakeDiscard)):
            if phase is not Phase.DRAW:
                raise IllegalActionError(cannot(action, phase_hint(phase)))
            if isinstance(action, TakeDiscard):
                if self._upcard_refused:
                    raise IllegalActionError(
                        _("cannot take the discard: both players passed the upcard, so this "
                          "turn draws from the stock (R4.1)")
                    )
                if not self.pile:
                    raise IllegalActionError(
                        _("cannot take the discard: the discard pile is empty"))
            return None
        if not isinstance(action, (Discard, Knock)):
            raise IllegalActionError(f"{action!r} is not an action")
        if phase is not Phase.DISCARD:
            raise IllegalActionError(cannot(action, phase_hint(phase)))
        mask = self.hands[self.to_act]
        card = action.card
        if card is not None or isinstance(action, Discard):  # only a knock may name none
            if not isinstance(card, Card):
                raise IllegalActionError(f"{card!r} is not a card")
            if not mask >> card.index & 1:
                raise IllegalActionError(_("cannot {action}: {card} is not in your hand")
                                         .format(action=cannot_words(action), card=card))
            if card.index == self._taken and not self.rules.discard_taken_card:
                raise IllegalActionError(
                    _("cannot {action}: {card} was taken from the discard pile this turn (R4.3)")
                    .format(action=cannot_words(action), card=card)
                )
        if isinstance(action, Discard):
            return None
        if card is None:
            if self.rules.big_gin_bonus is None:
                raise IllegalActionError(
                    _("cannot knock without a discard: big gin is not played under these rules")
                )
            rest = mask
        else:
            rest = mask & ~card.bit
        dead = deadwood_of_mask(rest)
        if card is None and dead:
            raise IllegalActionError(
                _("cannot go big gin: the eleven cards leave {deadwood} deadwood (R5.7)")
                .format(deadwood=dead)
            )
        if dead > self.knock_limit:
            raise IllegalActionError(
                _("cannot {action}: that leaves {deadwood} deadwood, over the knock limit of "
                  "{limit} (R5.1)").format(action=cannot_words(action), deadwood=dead,
                                           limit=self.knock_limit)
            )
        if action.melds is None:
            return None
        groups = _meld_groups(action.melds)
        if groups is None:
            raise IllegalActionError(cannot(
                action, _("the melds shown must be groups of cards (R5.1)")))
        try:
            shown = checked_melds_of_mask(rest, groups)
        except MeldError as exc:
            raise IllegalActionError(cannot(action, str(exc))) from None
        covered = 0
        for meld in shown:
            covered |= meld
        left = rest & ~covered
        shown_dead = sum(_POINTS[c.index] for c in cards_from_mask(left))
        if shown_dead != dead:
            raise IllegalActionError(
                _("cannot {action}: the melds shown leave {shown} deadwood but the hand's "
                  "least is {least}; a hand's deadwood is always its least (R2.4)")
                .format(action=cannot_words(action), shown=shown_dead, least=dead)
            )
        return shown

    # -- acting ------------------------------------------------------------------

    def apply(self, action: Action, player: int | None = None) -> None:
        """Play ``action`` for the player to act (checked against ``player`` if given).

        Raises :class:`IllegalActionError` saying why, and then changes nothing.
        """
        if isinstance(action, Knock) and action.melds is not None:
            # Check and keep a frozen copy: lists or a generator given by the caller must not
            # change (or empty) the history and the record after the check.
            groups = _meld_groups(action.melds)
            if groups is not None:
                action = Knock(action.card, groups)
        melds = self._checked_melds(action, player)
        self._apply(action.id, melds, action if melds is not None else None)

    def apply_id(self, action_id: int) -> None:
        """The unchecked fast path: ``action_id`` must be one of :meth:`legal_action_ids`."""
        self._apply(action_id, None, None)

    def _apply(self, action_id: int, melds: tuple[int, ...] | None, shown: Action | None) -> None:
        p = self.to_act
        self.history.append((p, shown if shown is not None else ACTIONS[action_id]))
        if action_id >= DISCARD_BASE:
            if action_id < KNOCK_BASE:
                i = action_id - DISCARD_BASE
                bit = 1 << i
                self.hands[p] ^= bit
                self.known[p] &= ~bit
                self.pile.append(i)
                self._taken = -1
                self._drawn = -1
                if len(self.stock) <= self.rules.dead_hand_stock:  # R6.1
                    self._end_dead()
                else:
                    self.to_act = 1 - p
                    self.phase = Phase.DRAW
                return
            self._knock(p, action_id, melds)
            return
        if action_id == DRAW_STOCK_ID:
            drawn = self.stock.pop()
            self.hands[p] |= 1 << drawn
            self._drawn = drawn
            self.phase = Phase.DISCARD
            self._upcard_refused = False
        elif action_id in (TAKE_DISCARD_ID, TAKE_UPCARD_ID):
            i = self.pile.pop()
            bit = 1 << i
            self.hands[p] |= bit
            self.known[p] |= bit
            self._taken = i
            self.phase = Phase.DISCARD
        else:  # pass in the opening (R4.1)
            self._passes += 1
            if self._passes == 1:
                self.to_act = 1 - p
            else:  # both passed: the non-dealer begins, drawing from the stock
                self.to_act = 1 - self.dealer
                self.phase = Phase.DRAW
                self._upcard_refused = True

    def _knock(self, p: int, action_id: int, melds: tuple[int, ...] | None) -> None:
        if action_id == BIG_GIN_ID:
            discard = None
            knocker = self.hands[p]
        else:
            discard = CARDS[action_id - KNOCK_BASE]
            knocker = self.hands[p] & ~discard.bit
            self.hands[p] = knocker
            self.known[p] &= knocker  # a pile card may go out as the knock discard
        score = score_hand_masks(
            knocker, self.hands[1 - p], rules=self.rules, knocker_melds=melds,
            knock_limit=self.knock_limit,
        )
        winner = p if score.winner == "knocker" else 1 - p
        self._taken = -1
        self._drawn = -1
        self.phase = Phase.OVER
        self._result = _make_result(
            kind=score.kind,
            winner=winner,
            points=score.points,
            knocker=p,
            score=score,
            hands=(cards_from_mask(self.hands[0]), cards_from_mask(self.hands[1])),
            knock_discard=discard,
        )

    def _end_dead(self) -> None:
        self.phase = Phase.OVER
        self._result = _make_result(
            kind="dead",
            winner=None,
            points=0,
            knocker=None,
            score=None,
            hands=(cards_from_mask(self.hands[0]), cards_from_mask(self.hands[1])),
            knock_discard=None,
        )

    # -- copies and search -------------------------------------------------------

    def clone(self) -> Hand:
        """An independent copy (cheap: a few small lists)."""
        other = object.__new__(Hand)
        other.rules = self.rules
        other.dealer = self.dealer
        other.deck = self.deck
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.known = self.known[:]
        other.phase = self.phase
        other.to_act = self.to_act
        other.history = self.history[:]
        other.knock_limit = self.knock_limit
        other._taken = self._taken
        other._drawn = self._drawn
        other._upcard_refused = self._upcard_refused
        other._passes = self._passes
        other._result = self._result
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in Hand.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable

    @classmethod
    def sample_from_view(cls, view: HandView, rng: random.Random) -> Hand:
        """A hand consistent with ``view``: the unseen cards re-dealt at random between the
        opponent's unknown cards and the stock (determinization for search bots)."""
        me, opp = view.player, 1 - view.player
        hidden = view.unseen_mask  # a property that walks the view: read it once
        unseen = [i for i in range(52) if hidden >> i & 1]
        rng.shuffle(unseen)
        known = 0
        for c in view.opponent_known:
            known |= c.bit
        need = view.opponent_card_count - len(view.opponent_known)
        opp_mask = known
        for i in unseen[:need]:
            opp_mask |= 1 << i
        hand = object.__new__(cls)
        hand.rules = view.rules
        hand.dealer = view.dealer
        hand.deck = None
        hands = [0, 0]
        hands[me] = view.hand_mask
        hands[opp] = opp_mask
        hand.hands = hands
        hand.stock = unseen[need:]
        hand.pile = [c.index for c in view.discard_pile]
        known_pair = [0, 0]
        known_pair[opp] = known
        known_pair[me] = sum(c.bit for c in view.known_to_opponent)
        hand.known = known_pair
        hand.phase = view.phase
        hand.to_act = view.to_act
        hand.history = list(view.history)
        hand.knock_limit = view.knock_limit
        hand._taken = view.taken_card.index if view.taken_card is not None else -1
        hand._drawn = view.drawn_card.index if view.drawn_card is not None else -1
        hand._upcard_refused = view.upcard_refused
        hand._passes = sum(1 for _p, a in view.history if isinstance(a, Pass))
        hand._result = view.result
        return hand


def _meld_groups(melds: object) -> tuple[tuple[Card, ...], ...] | None:
    """``melds`` frozen as a tuple of tuples of cards, or None if it is not groups of cards
    (a caller's lists must not change the history after the check, nor a generator empty it)."""
    if isinstance(melds, str | bytes) or not isinstance(melds, Iterable):
        return None
    groups: list[tuple[Card, ...]] = []
    for group in melds:
        if isinstance(group, str | bytes) or not isinstance(group, Iterable):
            return None
        cards = tuple(group)
        if not all(isinstance(card, Card) for card in cards):
            return None
        groups.append(cards)
    return tuple(groups)
