"""Hollywood Gin: an exact, fast two-player gin rummy engine with Hollywood scoring.

The core (cards, melds, rules, hand, scoring, sheet, match, record) imports
nothing outside the standard library; bots, terminal and web games, storage
and research interfaces are layers on top.
"""

from .actions import (
    ACTION_COUNT,
    Action,
    Discard,
    DrawStock,
    Knock,
    Pass,
    TakeDiscard,
    TakeUpcard,
    action_from_id,
    parse_action,
)
from .cards import CARDS, Card, Rank, Suit, cards_from_mask, mask_of, parse_card, parse_cards
from .errors import CardParseError, HollywoodGinError, IllegalActionError, RecordError, RulesError
from .hand import Hand, HandResult, HandView, Phase
from .melds import (
    Arrangement,
    MeldError,
    best_discards,
    best_melds,
    deadwood,
    discard_choices,
    gin_discards,
    knock_discards,
)
from .rules import PRESETS, Rules
from .scoring import HandScore, score_hand

__version__ = "0.1.0"

__all__ = [
    "ACTION_COUNT",
    "CARDS",
    "PRESETS",
    "Action",
    "Arrangement",
    "Card",
    "CardParseError",
    "Discard",
    "DrawStock",
    "Hand",
    "HandResult",
    "HandScore",
    "HandView",
    "HollywoodGinError",
    "IllegalActionError",
    "Knock",
    "MeldError",
    "Pass",
    "Phase",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "Suit",
    "TakeDiscard",
    "TakeUpcard",
    "action_from_id",
    "best_discards",
    "best_melds",
    "cards_from_mask",
    "deadwood",
    "discard_choices",
    "gin_discards",
    "knock_discards",
    "mask_of",
    "parse_action",
    "parse_card",
    "parse_cards",
    "score_hand",
]
