"""Rule options and presets (the rule book's §9)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from hollywood_gin.errors import RulesError
from hollywood_gin.rules import PRESETS, Rules

#: The table of the rule book's §9 (R9.1): option name and default.
TABLE: dict[str, Any] = {
    "knock_limit": 10,
    "oklahoma": False,
    "gin_bonus": 25,
    "big_gin_bonus": None,
    "undercut_bonus": 10,
    "discard_taken_card": False,
    "dead_hand_stock": 2,
    "next_dealer": "winner",
    "columns": 3,
    "game_target": 100,
    "game_bonus": 100,
    "shutout_game_bonus": 200,
    "box_bonus": 20,
    "entry_rule": "traditional",
}

#: Values the table lists under "other values seen": each must be accepted.
OTHER_VALUES: list[tuple[str, Any]] = [
    *(("knock_limit", n) for n in range(11)),
    ("oklahoma", True),
    ("gin_bonus", 20),
    ("big_gin_bonus", 31),
    ("undercut_bonus", 20),
    ("undercut_bonus", 25),
    ("discard_taken_card", True),
    ("next_dealer", "alternate"),
    ("next_dealer", "loser"),
    ("columns", 1),
    ("game_target", 125),
    ("game_target", 150),
    ("game_bonus", 0),
    ("entry_rule", "by_count"),
    ("box_bonus", 25),
    ("box_bonus", 0),
]

BAD_VALUES: list[tuple[str, Any]] = [
    ("knock_limit", -1),
    ("knock_limit", 11),
    ("knock_limit", 2.5),
    ("knock_limit", True),
    ("knock_limit", "10"),
    ("oklahoma", 1),
    ("oklahoma", "yes"),
    ("gin_bonus", -1),
    ("gin_bonus", 0),  # R5.8: a gin against no deadwood must still score
    ("gin_bonus", 20.0),
    ("gin_bonus", None),
    ("big_gin_bonus", -5),
    ("big_gin_bonus", 0),
    ("big_gin_bonus", False),
    ("big_gin_bonus", "31"),
    ("undercut_bonus", 0),
    ("undercut_bonus", -10),
    ("discard_taken_card", 0),
    ("discard_taken_card", None),
    ("dead_hand_stock", -1),
    ("dead_hand_stock", 2.0),
    ("next_dealer", "dealer"),
    ("next_dealer", None),
    ("columns", 0),
    ("columns", 2.0),
    ("game_target", 0),
    ("game_target", "100"),
    ("game_bonus", -100),
    ("shutout_game_bonus", -1),
    ("box_bonus", -20),
    ("box_bonus", True),
    ("entry_rule", "count"),
    ("entry_rule", None),
]


def test_R9_every_option_exists_with_its_name_and_default() -> None:
    names = [f.name for f in dataclasses.fields(Rules)]
    assert sorted(names) == sorted(TABLE)
    rules = Rules()
    for name, default in TABLE.items():
        value = getattr(rules, name)
        assert value == default and type(value) is type(default), name
    assert rules.to_dict() == TABLE


def test_R9_preset_hollywood_is_the_defaults() -> None:
    assert PRESETS["hollywood"] == Rules()
    assert Rules.preset("hollywood").to_dict() == TABLE


def test_R9_preset_hollywood_20_has_gin_bonus_20() -> None:
    assert Rules.preset("hollywood-20").to_dict() == {**TABLE, "gin_bonus": 20}


def test_R9_preset_classic_is_one_game_to_100() -> None:
    assert Rules.preset("classic").to_dict() == {**TABLE, "columns": 1}


def test_R9_presets_cannot_be_changed_by_a_caller() -> None:
    with pytest.raises(TypeError):
        PRESETS["hollywood"] = Rules(knock_limit=3)  # type: ignore[index]
    assert Rules.preset("hollywood") == Rules()


def test_R9_preset_eaai_matches_the_challenge_rules() -> None:
    # one game to 100, gin 25, undercut 25, no game, box or shutout bonus, the first player
    # alternating, a taken discard never discarded in the same turn.
    assert Rules.preset("eaai").to_dict() == {
        **TABLE,
        "columns": 1,
        "game_target": 100,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "game_bonus": 0,
        "shutout_game_bonus": 0,
        "box_bonus": 0,
        "next_dealer": "alternate",
        "discard_taken_card": False,
    }


def test_R9_exactly_four_presets_each_knowing_its_name() -> None:
    assert sorted(PRESETS) == ["classic", "eaai", "hollywood", "hollywood-20"]
    for name, rules in PRESETS.items():
        assert Rules.preset(name) is rules
        assert rules.preset_name == name
    assert Rules(knock_limit=7).preset_name is None


def test_R9_unknown_preset_is_an_error_listing_the_presets() -> None:
    with pytest.raises(RulesError, match=r"'gin-rummy'.*classic, eaai, hollywood, hollywood-20"):
        Rules.preset("gin-rummy")


@pytest.mark.parametrize("name,value", OTHER_VALUES)
def test_R9_other_values_seen_are_accepted(name: str, value: Any) -> None:
    assert getattr(Rules(**{name: value}), name) == value


@pytest.mark.parametrize("name,value", BAD_VALUES)
def test_R9_bad_value_raises_rules_error_naming_the_option(name: str, value: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**{name: value})
    assert name in str(info.value)
    assert repr(value) in str(info.value)
    assert isinstance(info.value, ValueError)
    with pytest.raises(RulesError, match=name):
        Rules().replace(**{name: value})
    with pytest.raises(RulesError, match=name):
        Rules.from_dict({**TABLE, name: value})


def test_R9_rules_are_frozen_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.knock_limit = 5  # type: ignore[misc]
    assert hash(rules) == hash(Rules())
    assert len({Rules(), Rules(), Rules(gin_bonus=20)}) == 2


def test_R9_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        Rules(10)  # type: ignore[misc]


def test_R9_replace_makes_a_validated_copy() -> None:
    rules = Rules()
    changed = rules.replace(knock_limit=5, gin_bonus=20)
    assert changed.knock_limit == 5 and changed.gin_bonus == 20
    assert rules.knock_limit == 10 and rules.gin_bonus == 25
    with pytest.raises(RulesError, match="knock_limt"):
        rules.replace(knock_limt=5)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_R9_to_dict_from_dict_round_trip(name: str) -> None:
    rules = PRESETS[name]
    data = rules.to_dict()
    assert Rules.from_dict(data) == rules
    assert Rules.from_dict(dict(data)).to_dict() == data


def test_R9_from_dict_fills_missing_options_with_defaults() -> None:
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"gin_bonus": 20}) == PRESETS["hollywood-20"]


def test_R9_from_dict_rejects_unknown_options_by_name() -> None:
    with pytest.raises(RulesError, match="spades_double"):
        Rules.from_dict({**TABLE, "spades_double": True})


@pytest.mark.parametrize("data", [None, [], "hollywood", 3])
def test_R9_from_dict_rejects_non_mappings(data: object) -> None:
    with pytest.raises(RulesError, match="rules must be an object"):
        Rules.from_dict(data)


def test_R9_options_table_describes_every_field_within_its_validation() -> None:
    from hollywood_gin.rules import OPTIONS

    assert [o.name for o in OPTIONS] == [f.name for f in dataclasses.fields(Rules)]
    # the bounds are each option's own; R9.2's combinations are kept out of the way here
    base = Rules(gin_bonus=1, game_bonus=0)
    for option in OPTIONS:
        default = getattr(Rules(), option.name)
        if option.kind == "choice":
            assert default in option.choices
            for choice in option.choices:
                Rules().replace(**{option.name: choice})
        if option.kind in ("int", "optional_int"):
            for edge in (option.low, option.high):
                if edge is not None:
                    base.replace(**{option.name: edge})
            for outside in ((option.low - 1) if option.low is not None else None,
                            (option.high + 1) if option.high is not None else None):
                if outside is not None:
                    with pytest.raises(RulesError):
                        base.replace(**{option.name: outside})


# -- R9.2: combinations that contradict the rules are refused with the reason ---------------

@pytest.mark.parametrize(("changes", "reason"), [
    ({"oklahoma": True, "knock_limit": 7}, "upcard sets the knock limit"),
    ({"oklahoma": True, "knock_limit": 0}, "upcard sets the knock limit"),
    ({"game_bonus": 100, "shutout_game_bonus": 50}, "never earns less than an ordinary win"),
    ({"gin_bonus": 25, "big_gin_bonus": 20}, "never earns less than gin"),
])
def test_R9_2_contradictory_combinations_are_refused(changes: dict[str, Any],
                                                     reason: str) -> None:
    with pytest.raises(RulesError, match=reason) as info:
        Rules(**changes)
    for name in changes:
        assert name in str(info.value)
    with pytest.raises(RulesError, match=reason):
        Rules.from_dict(changes)


@pytest.mark.parametrize("changes", [
    {"oklahoma": True},
    {"game_bonus": 0, "shutout_game_bonus": 0},
    {"game_bonus": 150, "shutout_game_bonus": 150},
    {"gin_bonus": 25, "big_gin_bonus": 25},
    {"knock_limit": 0},
])
def test_R9_2_the_edges_of_the_combinations_are_accepted(changes: dict[str, Any]) -> None:
    assert Rules(**changes).to_dict() == {**TABLE, **changes}


# -- Rules.with_options: NAME=VALUE as typed on the command line ----------------------------

def test_R9_with_options_reads_every_kind_of_option() -> None:
    rules = Rules.preset("eaai").with_options([
        "knock_limit=8", "big_gin_bonus=31", "discard_taken_card=on", "next_dealer=loser",
        "columns=3", "entry_rule=by-count", "box_bonus=0", "game-target=150"])
    assert rules == Rules.preset("eaai").replace(
        knock_limit=8, big_gin_bonus=31, discard_taken_card=True, next_dealer="loser",
        columns=3, entry_rule="by_count", game_target=150)
    assert Rules(big_gin_bonus=31).with_options(["big_gin_bonus=none"]).big_gin_bonus is None
    assert Rules().with_options(["oklahoma=yes"]).oklahoma
    assert Rules().with_options([]) == Rules()
    # a later value for the same option wins; all are checked together
    assert Rules().with_options(["knock_limit=3", "knock_limit=10", "oklahoma=on"]).oklahoma


@pytest.mark.parametrize(("text", "message"), [
    ("knock_limit=99", "knock_limit='99' is invalid: it must be a whole number from 0 to 10"),
    ("knock_limit=-5", "knock_limit='-5' is invalid: it must be a whole number from 0 to 10"),
    ("knock_limit=8.5", "it must be a whole number from 0 to 10"),
    ("knock_limit=", "it must be a whole number from 0 to 10"),
    ("gin_bonus=0", "it must be a whole number, 1 or more"),
    ("gin_bonus=lots", "it must be a whole number, 1 or more"),
    ("big_gin_bonus=0", "it must be none, or a whole number, 1 or more"),
    ("oklahoma=maybe", "oklahoma='maybe' is invalid: it must be on or off"),
    ("next_dealer=dealer", "it must be winner, alternate or loser"),
    ("entry_rule=count", "it must be traditional or by_count"),
    ("columns=1e3", "it must be a whole number from 1 to 5"),
    ("game_target=" + "9" * 35, "a number here has at most 12 digits"),  # not "1 or more"
    ("spades_double=on", "unknown rule option 'spades_double'; the options are knock_limit"),
    ("knock_limit", "write it as NAME=VALUE"),
    ("=3", "write it as NAME=VALUE"),
    ("oklahoma=on", None),  # valid alone: the control
])
def test_R9_with_options_refuses_bad_text_naming_option_and_values(text: str,
                                                                   message: str | None) -> None:
    if message is None:
        Rules().with_options([text])
        return
    with pytest.raises(RulesError) as info:
        Rules().with_options([text])
    assert message in str(info.value)


def test_R9_2_with_options_refuses_a_contradiction_with_the_preset() -> None:
    with pytest.raises(RulesError, match="oklahoma=on cannot go with knock_limit=8"):
        Rules().with_options(["knock_limit=8", "oklahoma=on"])
    with pytest.raises(RulesError, match="shutout_game_bonus=200 is smaller than game_bonus=300"):
        Rules().with_options(["game_bonus=300"])


def test_R9_every_option_has_a_label_and_a_description_for_forms() -> None:
    from hollywood_gin.rules import OPTIONS, option

    for opt in OPTIONS:
        assert opt.label and opt.description.endswith("."), opt.name
        assert option(opt.name) is opt
        # what format writes, parse reads back, for the default and every choice
        default = getattr(Rules(), opt.name)
        assert opt.parse(opt.format(default)) == default
        for choice in opt.choices:
            assert opt.parse(opt.format(choice)) == choice
    assert len({o.label for o in OPTIONS}) == len(OPTIONS)
    with pytest.raises(RulesError, match="unknown rule option"):
        option("knocklimit")


def test_R9_2_the_value_a_form_offers_for_a_played_option_is_valid_under_every_preset() -> None:
    """Ticking "big gin is played" in the lobby filled in 1, which every preset refuses
    (a big gin never earns less than gin's 25, R9.2)."""
    from hollywood_gin.rules import OPTIONS

    optional = [o for o in OPTIONS if o.kind == "optional_int"]
    assert optional and all(o.offered is not None for o in optional)
    for o in optional:
        for rules in PRESETS.values():
            rules.replace(**{o.name: o.offered})  # raises if it contradicts the preset
