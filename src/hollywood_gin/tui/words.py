"""What the game says to the person about actions: their names, what is legal now, and why
an action is refused, always naming the action that is legal and writing cards with their
suit symbols (10♥), never in the letter form (``Th``) of records and the command line.

The engine's own error texts stay as they are (records, tests and the command line read
them); the screen builds its sentences here from the person's view, so a message never
names an action that is not legal and never shows a card as ``4h``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import Card
from ..hand import HandView, Phase
from ..i18n import _
from ..melds import deadwood, discard_choices

if TYPE_CHECKING:
    from ..bots import Reason

__all__ = [
    "action_name",
    "gin_allowed",
    "hint_words",
    "knock_options",
    "legal_now",
    "pretty_text",
    "refusal",
    "sentence",
]

_TOKEN = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9TJQKA])([shdc])(?![\w])")


def pretty_text(text: str, cards: Iterable[Card] = ()) -> str:
    """``text`` with every card of ``cards`` written in the letter form (``Th``, ``10h``)
    rewritten with its suit symbol (10♥).  Only the given cards are rewritten, so a word
    such as "As" is left alone unless the ace of spades is one of them."""
    known = {c.text: c for c in cards}

    def swap(match: re.Match[str]) -> str:
        rank = "T" if match.group(1) == "10" else match.group(1)
        card = known.get(rank + match.group(2))
        return card.pretty if card is not None else match.group(0)

    return _TOKEN.sub(swap, text) if known else text


def sentence(text: str) -> str:
    """A capital letter at the start and a full stop at the end."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", ")", "!", "?")) else text + "."


def not_saved(error: Exception) -> str:
    """Why a step was refused when the store could not save it (a full disk, a read-only
    file): the game saves before it moves, so nothing changed."""
    return _("Not saved, so nothing changed: {error}").format(error=error)


def action_name(action: Action, *, gin: bool = False) -> str:
    """The action as the person would say it: "discard 10♣", "pass the upcard"; ``gin``:
    a knock that leaves no deadwood is said as gin."""
    if isinstance(action, Discard):
        return _("discard {card}").format(card=action.card.pretty)
    if isinstance(action, Knock):
        if action.card is None:
            return _("go big gin")
        if gin:  # the discard leaves no deadwood (R2.5): the g key's move
            return _("go gin, discarding {card}").format(card=action.card.pretty)
        return _("knock, discarding {card}").format(card=action.card.pretty)
    if isinstance(action, Pass):
        return _("pass the upcard")
    if isinstance(action, TakeUpcard):
        return _("take the upcard")
    if isinstance(action, DrawStock):
        return _("draw from the stock")
    if isinstance(action, TakeDiscard):
        return _("take the discard")
    return str(action)  # pragma: no cover - every action is named above


def knock_options(view: HandView) -> list[tuple[Card, int]]:
    """The legal knock discards and the deadwood each leaves (R5.1), from the legal actions."""
    cards = [a.card for a in view.legal_actions if isinstance(a, Knock) and a.card is not None]
    if not cards:
        return []
    left = {c.card: c.deadwood for c in discard_choices(view.hand)}
    return [(card, left[card]) for card in cards]


def gin_allowed(view: HandView) -> bool:
    """A gin (or a big gin, R5.7 option) is legal now."""
    return any(d == 0 for _c, d in knock_options(view)) or any(
        isinstance(a, Knock) and a.card is None for a in view.legal_actions)


def legal_now(view: HandView) -> str:
    """What the person may do now, with the keys: the only actions a message may name."""
    upcard = view.upcard
    up = upcard.pretty if upcard is not None else ""
    if view.phase is Phase.OFFER:
        return _("take the upcard {card} (t) or pass (x)").format(card=up)
    if view.phase is Phase.DRAW:
        if view.upcard_refused or upcard is None:
            return _("draw from the stock (s)")
        return _("draw from the stock (s) or take {card} from the pile (t)").format(card=up)
    if view.phase is Phase.DISCARD:
        knocks = knock_options(view)
        words = _("discard a card (choose it, then Enter)")
        if gin_allowed(view):
            return _("{discard}, or go gin (g)").format(discard=words)
        if knocks:
            return _("{discard}, or knock (k)").format(discard=words)
        return words
    return _("nothing: the hand is over")


def refusal(view: HandView, action: Action) -> str:
    """Why ``action`` is not legal for the person now, in a sentence that names what is.

    Mirrors the engine's checks (:meth:`~hollywood_gin.hand.Hand.check`) in the screen's
    words; the caller shows it instead of the engine's text."""
    phase = view.phase
    if phase is Phase.OVER:
        return _("The hand is over: Enter deals the next one.")
    if view.to_act != view.player:
        return _("Wait: it is the computer's turn.")
    legal = legal_now(view)
    if isinstance(action, (Pass, TakeUpcard)) and phase is not Phase.OFFER:
        if phase is Phase.DRAW:
            return _("The opening is over (R4.1): {legal}.").format(legal=legal)
        return _("You have taken a card this turn (R4.2): now {legal}.").format(legal=legal)
    if isinstance(action, (DrawStock, TakeDiscard)):
        if phase is Phase.OFFER:
            return _("It is the opening (R4.1): {legal}.").format(legal=legal)
        if phase is Phase.DISCARD:
            return _("You have taken a card this turn (R4.2): now {legal}.").format(legal=legal)
        if isinstance(action, TakeDiscard):
            if view.upcard_refused:
                return _("Both players passed the upcard, so this turn draws from the stock "
                         "(s) (R4.1).")
            if view.upcard is None:
                return _("The discard pile is empty: draw from the stock (s).")
    if isinstance(action, (Discard, Knock)):
        if phase is Phase.OFFER:
            if isinstance(action, Knock) and action.card is None:  # the gin key (g)
                return _("You go gin after taking a card (R5.1): in the opening, {legal} "
                         "(R4.1).").format(legal=legal)
            if isinstance(action, Knock):
                return _("You knock after taking a card (R5.1): in the opening, {legal} "
                         "(R4.1).").format(legal=legal)
            return _("Nothing to discard yet: in the opening, {legal} (R4.1).").format(
                legal=legal)
        if phase is Phase.DRAW:
            return _("First take a card (R4.2): {legal}.").format(legal=legal)
        return _refused_discard(view, action)
    return sentence(pretty_text(_("cannot {action} now").format(action=action_name(action)),
                                view.hand))


def _refused_discard(view: HandView, action: Discard | Knock) -> str:
    card = action.card
    legal = legal_now(view)
    if card is not None and card not in view.hand:
        return _("{card} is not in your hand.").format(card=card.pretty)
    if card is not None and card == view.taken_card and not view.rules.discard_taken_card:
        if isinstance(action, Knock):
            return _("{card} was just taken from the pile: it may not be the knock discard "
                     "this turn (R4.3); {legal}.").format(card=card.pretty, legal=legal)
        return _("{card} was just taken from the pile: it may not be discarded this turn "
                 "(R4.3); {legal}.").format(card=card.pretty, legal=legal)
    if isinstance(action, Discard):
        return sentence(_("cannot {action} now: {legal}").format(
            action=action_name(action), legal=legal))
    if card is None:
        if view.rules.big_gin_bonus is None:
            return _("Big gin is not played under these rules (R5.7): {legal}.").format(
                legal=legal)
        left = deadwood(view.hand)
        return _("No big gin: your eleven cards leave {deadwood} deadwood (R5.7); "
                 "{legal}.").format(deadwood=left, legal=legal)
    left = deadwood(c for c in view.hand if c != card)
    limit = view.knock_limit
    if left > limit:
        if limit == 0:
            return _("Knocking with {card} leaves {deadwood} deadwood, but this hand's knock "
                     "limit is 0: gin only (R5.1); {legal}.").format(
                card=card.pretty, deadwood=left, legal=legal)
        return _("Knocking with {card} leaves {deadwood} deadwood, over the knock limit of "
                 "{limit} (R5.1); {legal}.").format(
            card=card.pretty, deadwood=left, limit=limit, legal=legal)
    return sentence(_("cannot {action} now: {legal}").format(
        action=action_name(action), legal=legal))


def hint_words(action: Action, reason: Reason, view: HandView) -> str:
    """The expert's hint as the screen says it: the action in the screen's words, then why."""
    # Translators: a hint on the terminal game's table: {action} is what to do ("discard
    # 7♥"), {why} the computer player's reason.
    gin = isinstance(action, Knock) and (action.card, 0) in knock_options(view)
    return _("{action} — {why}").format(action=action_name(action, gin=gin),
                                        why=reason.words())
