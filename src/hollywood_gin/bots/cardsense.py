"""What a player can work out from a view: card tables, the public story of a hand, and a
model of the opponent's hand built from what he took, refused and threw.

Everything works on 52-bit masks (card index ``suit * 13 + rank - 1``, as in
:mod:`hollywood_gin.cards`) because the bots call it thousands of times a decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..actions import Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import indexes_of_mask
from ..hand import HandView
from ..melds import deadwood_of_mask

__all__ = [
    "POINTS",
    "RANK_MASK",
    "RELATED",
    "CardSense",
    "absorb",
    "connects",
    "danger",
    "free_mask",
    "in_some_meld",
    "nudged_odds",
    "read_view",
]

#: Card values (R1.3) by card index.
POINTS: tuple[int, ...] = tuple(min(i % 13 + 1, 10) for i in range(52))
#: The four cards of each rank (0 = ace) as a mask.
RANK_MASK: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


def _related(i: int) -> int:
    """Cards that can share a meld with card ``i``: its rank, and its suit within two."""
    s, r = divmod(i, 13)
    m = RANK_MASK[r]
    for d in (-2, -1, 1, 2):
        if 0 <= r + d < 13:
            m |= 1 << (s * 13 + r + d)
    return m & ~(1 << i)


#: For each card, the mask of the cards it can share a meld with.
RELATED: tuple[int, ...] = tuple(_related(i) for i in range(52))


def in_some_meld(mask: int, i: int) -> bool:
    """True if card ``i`` belongs to some meld (R2.1, R2.2) among ``mask`` plus ``i``."""
    s, r = divmod(i, 13)
    if (mask & RANK_MASK[r] & ~(1 << i)).bit_count() >= 2:
        return True
    block = (mask >> (s * 13)) & 0x1FFF | (1 << r)
    lo = hi = r
    while lo > 0 and block >> (lo - 1) & 1:
        lo -= 1
    while hi < 12 and block >> (hi + 1) & 1:
        hi += 1
    return hi - lo >= 2


def connects(mask: int, i: int) -> bool:
    """True if card ``i`` is related to some card of ``mask`` (could ever meld with it)."""
    return bool(RELATED[i] & mask)


@dataclass(slots=True)
class CardSense:
    """The public story of a hand from one seat, and the opponent model built on it.

    ``weight`` holds, for each unseen card, how much more (or less) likely than
    average it is to be in the opponent's hand, from his picks, passes and discards
    (Francis, Just and Neller, "Opponent Hand Estimation in Gin Rummy", EAAI-21).
    """

    me: int
    mine: int  # my cards
    pile: int  # the discard pile, top included
    top: int  # index of the top of the pile, -1 if empty
    opp_known: int  # cards the opponent took from the pile and still holds
    unseen: int  # the opponent's unknown cards and the stock
    opp_unknown: int  # how many of the opponent's cards I do not know
    stock: int  # cards left in the stock
    my_draws: int  # my draws so far (stock or pile)
    opp_draws: int
    opp_taken: int  # every card the opponent took from the pile this hand
    opp_refused: int  # cards the opponent could have taken and did not
    opp_discards: int  # cards the opponent threw
    weight: list[float] = field(default_factory=list)
    my_taken: int = 0  # the same three of my own picks, passes and throws: what he reads
    my_refused: int = 0
    my_thrown: int = 0

    def p_opp(self, i: int) -> float:
        """The probability that the opponent holds card ``i``, as far as I can tell."""
        if self.opp_known >> i & 1:
            return 1.0
        if not self.unseen >> i & 1:
            return 0.0
        return self.weight[i]

    def opp_probs(self) -> list[float]:
        """:meth:`p_opp` of every card."""
        return [self.p_opp(i) for i in range(52)]


# How much one public event moves the odds that the opponent holds a related card.
_TAKE_SAME_RANK = 2.4
_TAKE_NEAR = 2.0
_TAKE_GAP = 1.4
_REFUSE_SAME_RANK = 0.55
_REFUSE_NEAR = 0.6
_REFUSE_GAP = 0.85
_THROW_SAME_RANK = 0.7
_THROW_NEAR = 0.7
_THROW_GAP = 0.9


def _nudge(weight: list[float], i: int, same: float, near: float, gap: float) -> None:
    s, r = divmod(i, 13)
    for t in range(4):
        if t != s:
            weight[t * 13 + r] *= same
    for d, f in ((-1, near), (1, near), (-2, gap), (2, gap)):
        if 0 <= r + d < 13:
            weight[s * 13 + r + d] *= f


def nudged_odds(base: list[float], taken: int, refused: int, thrown: int, n: int
                ) -> list[float]:
    """The chance that a player holds each card, for a watcher who starts from ``base`` (a
    weight for each card he may hold) and reads every card the player took, refused and
    threw as evidence about its neighbours; ``n`` is how many unknown cards he holds."""
    raw = list(base)
    for i in indexes_of_mask(taken):
        _nudge(raw, i, _TAKE_SAME_RANK, _TAKE_NEAR, _TAKE_GAP)
    for i in indexes_of_mask(refused):
        _nudge(raw, i, _REFUSE_SAME_RANK, _REFUSE_NEAR, _REFUSE_GAP)
    for i in indexes_of_mask(thrown):
        _nudge(raw, i, _THROW_SAME_RANK, _THROW_NEAR, _THROW_GAP)
    total = sum(raw)
    if total <= 0:
        return [0.0] * 52
    scale = n / total
    return [min(0.97, w * scale) for w in raw]


def read_view(view: HandView) -> CardSense:
    """Replay the public log of ``view`` into a :class:`CardSense` (no hidden card is used)."""
    me = view.player
    opp = 1 - me
    mine = view.hand_mask
    pile_cards = [c.index for c in view.discard_pile]
    pile = 0
    for i in pile_cards:
        pile |= 1 << i
    opp_known = 0
    for c in view.opponent_known:
        opp_known |= 1 << c.index
    unseen = view.unseen_mask
    opp_unknown = view.opponent_card_count - len(view.opponent_known)

    # Replay the pile: a stack whose bottom (the first upcard) is found at the end.
    UNKNOWN = -1
    stack = [UNKNOWN]
    taken = [0, 0]
    refused = [0, 0]
    thrown = [0, 0]
    draws = [0, 0]
    passes = 0
    unresolved_take: int | None = None  # who took the first upcard, if it left the pile
    for player, action in view.history:
        if isinstance(action, Pass):
            passes += 1
            if stack and stack[-1] >= 0:
                refused[player] |= 1 << stack[-1]
        elif isinstance(action, TakeUpcard | TakeDiscard):
            draws[player] += 1
            card = stack.pop() if stack else UNKNOWN
            if card >= 0:
                taken[player] |= 1 << card
            else:
                unresolved_take = player
        elif isinstance(action, DrawStock):
            draws[player] += 1
            forced = passes >= 2 and draws[0] + draws[1] == 1
            if stack and stack[-1] >= 0 and not forced:
                refused[player] |= 1 << stack[-1]
        elif isinstance(action, Discard | Knock) and action.card is not None:
            i = action.card.index
            thrown[player] |= 1 << i
            if isinstance(action, Discard):
                stack.append(i)
    if stack and stack[0] == UNKNOWN and pile_cards:
        first = pile_cards[0]
        if len(stack) == len(pile_cards):
            # The first upcard is still at the bottom: the opening passes refused it.
            for player, action in view.history[:2]:
                if isinstance(action, Pass):
                    refused[player] |= 1 << first
    elif unresolved_take == opp:
        # He took the first upcard; if he still holds it, it is the known card no
        # later pick explains.
        rest = opp_known & ~taken[opp]
        if rest.bit_count() == 1:
            taken[opp] |= rest

    n = opp_unknown
    weight = [0.0] * 52
    if n > 0 and unseen:
        weight = nudged_odds([1.0 if unseen >> i & 1 else 0.0 for i in range(52)],
                             taken[opp], refused[opp], thrown[opp], n)
    top = pile_cards[-1] if pile_cards else -1
    return CardSense(
        me=me,
        mine=mine,
        pile=pile,
        top=top,
        opp_known=opp_known,
        unseen=unseen,
        opp_unknown=max(0, n),
        stock=view.stock_count,
        my_draws=draws[me],
        opp_draws=draws[opp],
        opp_taken=taken[opp],
        opp_refused=refused[opp],
        opp_discards=thrown[opp],
        weight=weight,
        my_taken=taken[me],
        my_refused=refused[me],
        my_thrown=thrown[me],
    )


def danger(sense: CardSense, i: int, probs: list[float] | None = None) -> float:
    """The chance that card ``i`` would complete or extend a meld in the opponent's hand."""
    p = probs if probs is not None else sense.opp_probs()
    s, r = divmod(i, 13)
    # A set: two or more of the other three cards of the rank.
    q = [p[t * 13 + r] for t in range(4) if t != s]
    a, b, c = q
    p_set = a * b + a * c + b * c - 2 * a * b * c
    base = s * 13

    def at(rr: int) -> float:
        return p[base + rr] if 0 <= rr < 13 else 0.0

    lo2, lo1, hi1, hi2 = at(r - 2), at(r - 1), at(r + 1), at(r + 2)
    miss = (1 - lo2 * lo1) * (1 - lo1 * hi1) * (1 - hi1 * hi2)
    return 1 - (1 - p_set) * miss


def absorb(mask: int, i: int, dead: int) -> int:
    """How much deadwood card ``i`` would soak up if added to hand ``mask`` (``dead`` is the
    hand's deadwood): 0 for a card that melds with nothing."""
    return dead + POINTS[i] - deadwood_of_mask(mask | 1 << i)


def free_mask(mask: int) -> int:
    """The cards of ``mask`` left unmatched by some least-deadwood arrangement."""
    dead = deadwood_of_mask(mask)
    out = 0
    m = mask
    while m:
        low = m & -m
        i = low.bit_length() - 1
        m ^= low
        if deadwood_of_mask(mask ^ low) == dead - POINTS[i]:
            out |= low
    return out

