"""The JSON schemas of the table protocol: what a client may send, what the server sends.

``docs/protocol.md`` carries them too, and a test checks the two agree; the server does not
validate with them (:func:`~.protocol.parse_client_message` checks by hand) but the tests do.
"""

from __future__ import annotations

from typing import Any

from ..hand import Phase
from ..rules import OPTIONS, Option
from .protocol import (
    ACTION_RE,
    ERROR_CODES,
    LANG_RE,
    MAX_RID,
    MAX_SEQ,
    PROTOCOL_VERSION,
    TOKEN_RE,
)

__all__ = ["CLIENT_SCHEMA", "REVIEW_SCHEMA", "SERVER_SCHEMA"]

_RID = {"type": "integer", "minimum": 0, "maximum": MAX_RID}

CLIENT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "hollywood-gin client message",
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "type": {"const": "hello"},
                "token": {"type": "string", "pattern": TOKEN_RE.pattern},
                "v": {"const": PROTOCOL_VERSION},
                "lang": {"type": "string", "pattern": LANG_RE.pattern},
            },
            "required": ["type", "token"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "act"},
                "action": {"type": "string", "pattern": ACTION_RE.pattern},
                "seq": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ},
                "rid": _RID,
            },
            "required": ["type", "action", "seq"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"type": {"enum": ["next", "sync", "rematch"]}, "rid": _RID},
            "required": ["type"],
            "additionalProperties": False,
        },
    ],
}

_CARD = {"type": "string", "pattern": "^[A2-9TJQK][shdc]$"}
_CARDS = {"type": "array", "items": _CARD}
_PAIR = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
_SEAT_OR_NULL = {"enum": [0, 1, None]}


def _rule_schema(option: Option) -> dict[str, Any]:
    if option.kind == "bool":
        return {"type": "boolean"}
    if option.kind == "choice":
        return {"enum": list(option.choices)}
    number: dict[str, Any] = {"type": "integer"}
    if option.low is not None:
        number["minimum"] = option.low
    if option.high is not None:
        number["maximum"] = option.high
    return {"oneOf": [number, {"type": "null"}]} if option.kind == "optional_int" else number


#: The rules in force: every option of the rule book §9 (``Rules.to_dict``).
_RULES = {
    "type": "object",
    "properties": {o.name: _rule_schema(o) for o in OPTIONS},
    "required": [o.name for o in OPTIONS],
    "additionalProperties": False,
}
_LAYOUT = {
    "type": "object",
    "properties": {
        "melds": {"type": "array", "items": _CARDS},
        "unmatched": _CARDS,
        "deadwood": {"type": "integer"},
        "laid_off": {"type": "array", "items": {
            "type": "object",
            "properties": {"card": _CARD, "onto": _CARDS},
            "required": ["card", "onto"], "additionalProperties": False,
        }},
    },
    "required": ["melds", "unmatched", "deadwood", "laid_off"],
    "additionalProperties": False,
}

SERVER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "hollywood-gin server frame",
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "type": {"const": "error"},
                "code": {"enum": sorted(ERROR_CODES)},
                "message": {"type": "string"},
                "rid": {"type": ["integer", "null"]},
            },
            "required": ["type", "code", "message", "rid"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "ack"},
                "rid": {"type": ["integer", "null"]},
                "seq": {"type": "integer"},
                "action": {"type": "string"},
            },
            "required": ["type", "rid", "seq", "action"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "seat"},
                "rid": {"type": ["integer", "null"]},
                "table": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
                "seat": {"enum": [0, 1]},
                "token": {"type": "string", "pattern": TOKEN_RE.pattern},
            },
            "required": ["type", "rid", "table", "seat", "token"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "state"},
                "v": {"const": PROTOCOL_VERSION},
                "rid": {"type": ["integer", "null"]},
                "table": {"type": "string"},
                "seat": {"enum": [0, 1]},
                "seq": {"type": "integer"},
                "hand_number": {"type": "integer"},
                "names": {"type": "array", "items": {"type": "string"}},
                "opponent": {"enum": ["computer", "friend"]},
                "level": {"type": ["integer", "null"]},
                "preset": {"type": ["string", "null"]},
                "rules": _RULES,
                "joined": {"type": "array", "items": {"type": "boolean"}},
                "connected": {"type": "array", "items": {"type": "boolean"}},
                "ready": {"type": "array", "items": {"type": "boolean"}},
                "finished": {"type": "boolean"},
                "abandoned": _SEAT_OR_NULL,
                "rematch": {
                    "type": "object",
                    "properties": {
                        "accepted": {"type": "array", "items": {"type": "boolean"},
                                     "minItems": 2, "maxItems": 2},
                        "table": {"oneOf": [{"type": "string", "pattern": "^[0-9a-f]{32}$"},
                                            {"type": "null"}]},
                    },
                    "required": ["accepted", "table"],
                    "additionalProperties": False,
                },
                "hand": {
                    "type": "object",
                    "properties": {
                        "phase": {"enum": [p.value for p in Phase]},
                        "to_act": {"enum": [0, 1]},
                        "dealer": {"enum": [0, 1]},
                        "knock_limit": {"type": "integer"},
                        "cards": _CARDS,
                        "melds": {"type": "array", "items": _CARDS},
                        "unmatched": _CARDS,
                        "deadwood": {"type": "integer"},
                        "hints": {"type": "array", "items": {
                            "type": "object",
                            "properties": {
                                "card": _CARD, "deadwood": {"type": "integer"},
                                "discard": {"type": "boolean"}, "knock": {"type": "boolean"},
                            },
                            "required": ["card", "deadwood", "discard", "knock"],
                            "additionalProperties": False,
                        }},
                        "pile": _CARDS,
                        "stock": {"type": "integer"},
                        "opponent_cards": {"type": "integer"},
                        "opponent_known": _CARDS,
                        "known_to_opponent": _CARDS,
                        "taken": {"oneOf": [_CARD, {"type": "null"}]},
                        "upcard_refused": {"type": "boolean"},
                        "legal": {"type": "array", "items": {"type": "string"}},
                        "history": {"type": "array", "items": {
                            "type": "array",
                            "prefixItems": [{"enum": [0, 1]}, {"type": "string"},
                                            {"oneOf": [_CARD, {"type": "null"}]}],
                            "minItems": 3, "maxItems": 3,
                        }},
                        "result": {"oneOf": [{"type": "null"}, {
                            "type": "object",
                            "properties": {
                                "kind": {"enum": ["knock", "undercut", "gin", "big_gin", "dead"]},
                                "winner": _SEAT_OR_NULL,
                                "knocker": _SEAT_OR_NULL,
                                "points": {"type": "integer"},
                                "knock_discard": {"oneOf": [_CARD, {"type": "null"}]},
                                "players": {"type": "array", "items": _LAYOUT,
                                            "minItems": 2, "maxItems": 2},
                            },
                            "required": ["kind", "winner", "knocker", "points", "knock_discard",
                                         "players"],
                            "additionalProperties": False,
                        }]},
                    },
                    "required": ["phase", "to_act", "dealer", "knock_limit", "cards", "melds",
                                 "unmatched", "deadwood", "hints", "pile", "stock",
                                 "opponent_cards", "opponent_known", "known_to_opponent", "taken",
                                 "upcard_refused", "legal", "history", "result"],
                    "additionalProperties": False,
                },
                "sheet": {
                    "type": "object",
                    "properties": {
                        "columns": {"type": "array", "items": {
                            "type": "object",
                            "properties": {
                                "points": _PAIR, "boxes": _PAIR, "bonuses": _PAIR, "total": _PAIR,
                                "winner": _SEAT_OR_NULL, "shutout": {"type": "boolean"},
                            },
                            "required": ["points", "boxes", "bonuses", "total", "winner",
                                         "shutout"],
                            "additionalProperties": False,
                        }},
                        "entries": {"type": "array"},
                        "totals": _PAIR,
                        "games_won": _PAIR,
                        "finished": {"type": "boolean"},
                        "winner": _SEAT_OR_NULL,
                        "result": {"type": ["integer", "null"]},
                    },
                    "required": ["columns", "entries", "totals", "games_won", "finished",
                                 "winner", "result"],
                    "additionalProperties": False,
                },
            },
            "required": ["type", "v", "rid", "table", "seat", "seq", "hand_number", "names",
                         "opponent", "level", "preset", "rules", "joined", "connected", "ready",
                         "finished", "abandoned", "rematch", "hand", "sheet"],
            "additionalProperties": False,
        },
    ],
}

# -- the game review's answers (POST /api/tables/TABLE/review) ---------------------------------

_NUMBER = {"type": "number"}
_NUMBER_OR_NULL = {"type": ["number", "null"]}
_INTERVAL = {"type": "array", "items": _NUMBER_OR_NULL, "minItems": 2, "maxItems": 2}
_GRADE = {"enum": ["best", "good", "inaccuracy", "mistake", "blunder"]}
_ACTION = {"type": "string", "pattern": ACTION_RE.pattern}
_LOG = {"type": "array", "items": {
    "type": "array", "prefixItems": [{"enum": [0, 1]}, _ACTION], "minItems": 2, "maxItems": 2}}
_CARD_OR_NULL = {"oneOf": [_CARD, {"type": "null"}]}

#: One decision: the seat's view then, every legal choice valued, the grade; ``hindsight``
#: (the opponent's real cards) only in reviews of finished hands.
_DECISION = {
    "type": "object",
    "properties": {
        "hand": {"type": "integer"}, "ply": {"type": "integer"}, "player": {"enum": [0, 1]},
        "kind": {"enum": ["upcard", "draw", "discard", "knock", "gin"]},
        "chosen": _ACTION, "best": _ACTION, "loss": _NUMBER, "loss_interval": _INTERVAL,
        "grade": _GRADE, "accuracy": _NUMBER, "deals": {"type": "integer"},
        "choices": {"type": "array", "minItems": 2, "items": {
            "type": "object",
            "properties": {
                "action": _ACTION, "points": _NUMBER, "points_se": _NUMBER_OR_NULL,
                "deals": {"type": "integer"}, "loss": _NUMBER, "loss_interval": _INTERVAL,
                "grade": _GRADE, "equity": _NUMBER_OR_NULL,
                "gin": {"type": "boolean", "description": "a knock choice leaving no deadwood"},
            },
            "required": ["action", "points", "points_se", "deals", "loss", "loss_interval",
                         "grade", "equity"],
            "additionalProperties": False,
        }},
        "view": {
            "type": "object",
            "properties": {
                "player": {"enum": [0, 1]}, "dealer": {"enum": [0, 1]},
                "knock_limit": {"type": "integer"},
                "phase": {"enum": ["offer", "draw", "discard"]}, "to_act": {"enum": [0, 1]},
                "hand": _CARDS, "discard_pile": _CARDS, "stock_count": {"type": "integer"},
                "opponent_card_count": {"type": "integer"}, "opponent_known": _CARDS,
                "known_to_opponent": _CARDS, "taken_card": _CARD_OR_NULL,
                "drawn_card": _CARD_OR_NULL, "upcard_refused": {"type": "boolean"},
                "legal_actions": {"type": "array", "items": _ACTION},
                "history_length": {"type": "integer"},
            },
            "required": ["player", "dealer", "knock_limit", "phase", "to_act", "hand",
                         "discard_pile", "stock_count", "opponent_card_count", "opponent_known",
                         "known_to_opponent", "taken_card", "drawn_card", "upcard_refused",
                         "legal_actions", "history_length"],
            "additionalProperties": False,
        },
        "layout": {
            "type": "object",
            "properties": {"melds": {"type": "array", "items": _CARDS}, "unmatched": _CARDS,
                           "deadwood": {"type": "integer"}},
            "required": ["melds", "unmatched", "deadwood"],
            "additionalProperties": False,
        },
        "equity": {
            "type": "object",
            "properties": {"best": _ACTION, "loss": _NUMBER, "loss_interval": _INTERVAL},
            "required": ["best", "loss", "loss_interval"],
            "additionalProperties": False,
        },
        "hindsight": {
            "type": "object",
            "properties": {"opponent_hand": _CARDS, "chosen_points": {"type": "integer"},
                           "best_points": {"type": "integer"},
                           "worked_out": {"type": "boolean"}},
            "required": ["opponent_hand", "chosen_points", "best_points", "worked_out"],
            "additionalProperties": False,
        },
    },
    "required": ["hand", "ply", "player", "kind", "chosen", "best", "loss", "loss_interval",
                 "grade", "accuracy", "deals", "choices", "view", "layout"],
    "additionalProperties": False,
}

_HAND_REVIEW = {
    "type": "object",
    "properties": {
        "hand": {"type": "integer"}, "player": {"enum": [0, 1]}, "dealer": {"enum": [0, 1]},
        "history": _LOG,
        "moves": {"type": "array", "items": {
            "type": "array", "prefixItems": [{"enum": [0, 1]}, _ACTION, _CARD_OR_NULL],
            "minItems": 3, "maxItems": 3}},
        "result": {"oneOf": [{"type": "null"}, {
            "type": "object",
            "properties": {"kind": {"enum": ["knock", "undercut", "gin", "big_gin", "dead"]},
                           "winner": _SEAT_OR_NULL, "knocker": _SEAT_OR_NULL,
                           "points": {"type": "integer"}},
            "required": ["kind", "winner", "knocker", "points"],
            "additionalProperties": False,
        }]},
        "points_won": {"type": "integer"},
        "sheet_before": {"type": "array", "items": _PAIR},
        "accuracy": _NUMBER_OR_NULL,
        "points_lost": _NUMBER,
        "decision_count": {"type": "integer"},
        "grades": {"type": "object", "properties": {g: {"type": "integer"} for g in _GRADE["enum"]},
                   "required": _GRADE["enum"], "additionalProperties": False},
        "losses_by_group": {"type": "object", "additionalProperties": _NUMBER},
        "worst": {"type": "array", "items": {
            "type": "object", "properties": {"hand": {"type": "integer"},
                                             "ply": {"type": "integer"}},
            "required": ["hand", "ply"], "additionalProperties": False}},
        "decisions": {"type": "array", "items": _DECISION},
    },
    "required": ["hand", "player", "dealer", "history", "moves", "result", "points_won",
                 "sheet_before", "accuracy", "points_lost", "decision_count", "grades",
                 "losses_by_group", "worst", "decisions"],
    "additionalProperties": False,
}

REVIEW_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "hollywood-gin review answer",
    "oneOf": [
        {
            "description": "the match's hands and what is reviewed (a request without hand)",
            "type": "object",
            "properties": {
                "table": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
                "seat": {"enum": [0, 1]},
                "names": {"type": "array", "items": {"type": "string"},
                          "minItems": 2, "maxItems": 2},
                "finished": {"type": "boolean"},
                "accuracy": _NUMBER_OR_NULL,
                "hands": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "hand": {"type": "integer"}, "over": {"type": "boolean"},
                        "reviewed": {"type": "boolean"}, "accuracy": _NUMBER_OR_NULL,
                        "decisions": {"type": ["integer", "null"]},
                        "points_lost": _NUMBER_OR_NULL, "winner": _SEAT_OR_NULL,
                        "points": {"type": ["integer", "null"]},
                    },
                    "required": ["hand", "over", "reviewed", "accuracy", "decisions",
                                 "points_lost", "winner", "points"],
                    "additionalProperties": False,
                }},
            },
            "required": ["table", "seat", "names", "finished", "accuracy", "hands"],
            "additionalProperties": False,
        },
        {
            "description": "one finished hand's review, from the seat's view",
            "type": "object",
            "properties": {
                "table": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
                "seat": {"enum": [0, 1]},
                "names": {"type": "array", "items": {"type": "string"},
                          "minItems": 2, "maxItems": 2},
                "hand": {"type": "integer"},
                "finished": {"type": "boolean"},
                "review": _HAND_REVIEW,
            },
            "required": ["table", "seat", "names", "hand", "finished", "review"],
            "additionalProperties": False,
        },
    ],
}
