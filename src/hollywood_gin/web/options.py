"""What a new table may be asked for: the rule options of the lobby form, names, levels, and
the errors the HTTP API answers with (a code the page turns into words, and an English
message for logs and scripts).

The form is built from :data:`hollywood_gin.rules.OPTIONS`, served as JSON, so the page
never keeps its own copy of the rules; what comes back is checked here option by option
and then by :class:`~hollywood_gin.rules.Rules` itself.
"""

from __future__ import annotations

from typing import Any

from ..errors import RulesError
from ..i18n import _
from ..rulebook import rules_in_force
from ..rules import OPTIONS, PRESETS, Option, Rules

__all__ = [
    "API_ERRORS",
    "LEVELS",
    "MAX_NAME",
    "MAX_RULE_VALUE",
    "TableError",
    "clean_name",
    "rules_description",
    "rules_from",
]

LEVELS = (1, 2, 3, 4, 5)
MAX_NAME = 24
#: Options without an upper bound in the rules are capped here: a page's number must stay
#: exact in JavaScript, and a target past this would never be reached anyway.
MAX_RULE_VALUE = 100_000
DEFAULT_PRESET = "hollywood"

#: Codes of the HTTP API's errors (``{"error": message, "code": code, "option": name}``);
#: the page chooses its own words from the code.
API_ERRORS: dict[str, str] = {
    "origin": "the request comes from another site (or names none): refused",
    "too_large": "the request body is larger than the limit",
    "bad_json": "the request body is not a JSON object",
    "unknown_field": "the body has a field this request does not take",
    "opponent": "opponent must be 'computer' or 'friend'",
    "level": "level must be a whole number from 1 to 5",
    "preset": "no such rules preset",
    "name": "name must be a string",
    "rule_unknown": "no rule option of that name (see option)",
    "rule_value": "a rule option's value is out of its kind or bounds (see option)",
    "rules": "the rules refuse the value or the combination: the message says why, in the "
    "player's language (option: the option it names first)",
    "rate": "this address has created too many tables lately: wait and try again",
    "no_table": "no such table",
    "invite": "the invite code does not open the table",
    "seat_taken": "the friend's seat of the table is taken already",
    "token": "the seat token does not open the table",
    "finished": "the match is over already",
    "unavailable": "the computer player cannot be started",
    "hand": "no such hand: hand must be a whole number from 1 to the hands dealt so far",
    "friend": "hints are given at tables against the computer, not between friends",
    "not_your_turn": "a hint is given on your turn",
    "not_over": "the hand is not over: only finished hands are reviewed (R3.4)",
    "busy": "the server is reviewing many hands: try again after Retry-After seconds",
    "review": "the review could not be made (the server's log says why)",
    "not_found": "no such address in the API",
    "method": "the address does not take this method (see Allow)",
}


class TableError(ValueError):
    """A request of the HTTP API is refused: ``status`` to answer with, ``code`` one of
    :data:`API_ERRORS`, and the ``option`` it is about, if any."""

    def __init__(self, status: int, code: str, message: str, option: str | None = None,
                 *, retry_after: int | None = None) -> None:
        super().__init__(message)
        assert code in API_ERRORS, code
        self.status = status
        self.code = code
        self.message = message
        self.option = option
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.message, "code": self.code}
        if self.option is not None:
            out["option"] = self.option
        return out


def clean_name(raw: object, default: str) -> str:
    """A display name: printable, trimmed, at most 24 characters."""
    if raw is None:
        return default
    if not isinstance(raw, str):
        raise TableError(400, "name", "name must be a string")
    name = " ".join("".join(ch for ch in raw if ch.isprintable()).split())[:MAX_NAME]
    return name or default


def _option_json(option: Option) -> dict[str, Any]:
    high = option.high
    if option.kind in ("int", "optional_int") and high is None:
        high = MAX_RULE_VALUE
    return {"name": option.name, "rule": option.rule, "kind": option.kind, "low": option.low,
            "high": high, "choices": list(option.choices),
            "default": getattr(Rules(), option.name), "offered": option.offered,
            "label": _(option.label) if option.label else option.name,
            "description": _(option.description) if option.description else ""}


def rules_description(rules: Rules | None = None) -> dict[str, Any]:
    """Every rule option (kind, bounds, choices, rule number, default, label and description
    in the player's language) and every preset's values: what the lobby builds its form from
    (``GET /api/rules``).  With ``rules`` (a table's, or a preset's), also those rules and
    their short "in force" lines, in words."""
    out: dict[str, Any] = {
        "options": [_option_json(o) for o in OPTIONS],
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "default_preset": DEFAULT_PRESET,
    }
    if rules is not None:
        out["rules"] = rules.to_dict()
        out["preset"] = rules.preset_name
        out["in_force"] = [list(line) for line in rules_in_force(rules)]
    return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _value_ok(option: Option, value: object) -> bool:
    if option.kind == "bool":
        return isinstance(value, bool)
    if option.kind == "choice":
        return isinstance(value, str) and value in option.choices
    if option.kind == "optional_int" and value is None:
        return True
    if not _is_int(value):
        return False
    assert isinstance(value, int)
    high = MAX_RULE_VALUE if option.high is None else option.high
    return (option.low is None or value >= option.low) and value <= high


def rules_from(preset: object, overrides: object) -> Rules:
    """The rules a new table asks for: a preset, then any options changed from it."""
    if preset is None:
        preset = DEFAULT_PRESET
    if not isinstance(preset, str) or preset not in PRESETS:
        raise TableError(400, "preset", f"preset must be one of {', '.join(sorted(PRESETS))}")
    base = PRESETS[preset]
    if overrides is None:
        return base
    if not isinstance(overrides, dict):
        raise TableError(400, "rules", "rules must be an object of rule options")
    by_name = {o.name: o for o in OPTIONS}
    for name, value in overrides.items():
        option = by_name.get(name)
        if option is None:
            raise TableError(400, "rule_unknown", f"no rule option {str(name)[:40]!r}",
                             option=str(name)[:40])
        if not _value_ok(option, value):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"
            raise TableError(400, "rule_value", f"rule {name}={shown} is out of its kind "
                             f"or bounds", option=name)
    try:
        return base.replace(**overrides)
    except RulesError as exc:  # the option it names, whatever the language of its words
        raise TableError(400, "rules", str(exc), option=exc.option) from None
