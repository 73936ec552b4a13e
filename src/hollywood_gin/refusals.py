"""The words of a refused action (R4): "cannot {action}: {reason}", with the phase's hint
at what may be done instead, each in the player's language."""

from __future__ import annotations

from .actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from .i18n import _, pgettext
from .view import Phase

__all__ = ["cannot", "cannot_words", "phase_hint"]


def cannot_words(action: Action) -> str:
    """The action as it ends "cannot ...": an infinitive phrase (context ``cannot``)."""
    if isinstance(action, Pass):
        # Translators: this and the next phrases complete "cannot {action}: ..."
        return pgettext("cannot", "pass")
    if isinstance(action, TakeUpcard):
        return pgettext("cannot", "take the upcard")
    if isinstance(action, DrawStock):
        return pgettext("cannot", "draw from the stock")
    if isinstance(action, TakeDiscard):
        return pgettext("cannot", "take the discard")
    if isinstance(action, Discard):
        return pgettext("cannot", "discard {card}").format(card=action.card)
    if isinstance(action, Knock):
        if action.card is None:
            return pgettext("cannot", "go big gin")
        return pgettext("cannot", "knock discarding {card}").format(card=action.card)
    return repr(action)


def cannot(action: Action, reason: str) -> str:
    # Translators: {action} is one of the phrases of context "cannot" ("discard 7h"),
    # {reason} one of the hints ("first draw from the stock or take the discard (R4.2)").
    return _("cannot {action}: {reason}").format(action=cannot_words(action), reason=reason)


def phase_hint(phase: Phase) -> str:
    if phase is Phase.OFFER:
        return _("it is the opening: take the upcard or pass (R4.1)")
    if phase is Phase.DRAW:
        return _("first draw from the stock or take the discard (R4.2)")
    if phase is Phase.DISCARD:
        return _("you have drawn: now discard or knock (R4.2)")
    return _("the hand is over")
