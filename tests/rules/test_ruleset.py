"""`Ruleset`: every INTERPRETATIONS.md setting exists with its documented default (FWPL_V1), the
documented alternatives are accepted, and anything else is refused naming the field.
"""

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from flipwell.rules import FWPL_V1, RuleError, Ruleset
from flipwell.rules.ruleset import InterferenceDefaults

INTERPRETATIONS = Path(__file__).resolve().parents[2] / "docs" / "rules" / "INTERPRETATIONS.md"
# "Setting `name = value`", where the backticks may wrap across a line break.
SETTING = re.compile(r"`([a-z][a-z0-9_]*) =\s*([^`]+)`")


def documented_defaults():
    """Every `field = default` that INTERPRETATIONS.md names, as Python values."""
    found = {}
    for name, text in SETTING.findall(INTERPRETATIONS.read_text()):
        python = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", " ".join(text.split())))
        found[name] = ast.literal_eval(python)
    return found


def as_ruleset_value(value):
    """The document writes lists and objects; the Ruleset holds tuples and frozen dataclasses."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return InterferenceDefaults(**value)
    return value


def test_interpretations_names_the_settings_this_test_expects():
    # Guard: the parser finds the settings (a broken regex would make the next test vacuous).
    names = set(documented_defaults())

    assert len(names) >= 41
    assert {"match_bonus_ge_applies_to", "forfeit_credit_basis", "ladder_tiebreak"} <= names


def test_fwpl_v1_has_every_documented_setting_with_its_default():
    # INTERPRETATIONS.md: "Every default is a named field of the rules package's `Ruleset`".
    documented = {n: as_ruleset_value(v) for n, v in documented_defaults().items()}

    actual = {name: getattr(FWPL_V1, name, "<missing field>") for name in documented}

    assert actual == documented


def test_fwpl_v1_equals_a_default_ruleset():
    # FWPL_V1 is "the ruleset with all defaults".
    assert Ruleset() == FWPL_V1


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("playoff_cut_rule", "sentence_round_down"),  # A01
        ("serious_violation_penalty", "zero_score"),  # A26
        ("serious_violation_penalty", "zero_points_others_unchanged"),  # A26
        ("playoff_seed_tiebreak", "previous_ladder_position"),  # A39
        ("withdrawal_shift", "within_division"),  # A41
        ("match_bonus_ge_applies_to", "scheduled_four_player_groups"),  # A07 (b)
        ("match_bonus_ge_applies_to", "all_groups"),  # A07 (c)
        ("match_bonus_awards", "full_fifth_game"),  # A08 (b)
        ("single_player_game_points", 8),  # A11
        ("single_player_game_points", 0),  # A11
        ("forfeit_credit_rounding", "half_up"),  # A14.2
        ("forfeit_credit_rounding", "down"),  # A14.2
        ("forfeit_credit_scope", "every_full_night"),  # A14.3
        ("match_bonus_tiebreak", ("most_firsts", "ladder_position")),  # A12
    ],
)
def test_ruleset_accepts_documented_alternatives(name, value):
    # Each documented option is a valid reading a league may choose.
    ruleset = Ruleset(**{name: value})

    assert getattr(ruleset, name) == value


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "match_bonus_awards",
            "full",
            "Ruleset.match_bonus_awards cannot be 'full'; "
            "allowed: 'bonus_points_only', 'full_fifth_game'",
        ),
        (
            "single_player_game_points",
            6,
            "Ruleset.single_player_game_points cannot be 6; allowed: 7, 8, 0",
        ),
        (
            "single_player_game_points",
            7.0,
            "Ruleset.single_player_game_points cannot be 7.0; allowed: 7, 8, 0",
        ),
        (
            "single_player_match_bonus",
            True,
            "Ruleset.single_player_match_bonus cannot be True; allowed: 0, 1",
        ),
        (
            "late_join_forfeits_use_credit",
            "no",
            "Ruleset.late_join_forfeits_use_credit cannot be 'no'; allowed: bool",
        ),
        (
            "late_join_forfeits_use_credit",
            0,
            "Ruleset.late_join_forfeits_use_credit cannot be 0; allowed: bool",
        ),
        (
            "announced_tardiness_wait_minutes",
            -1,
            "Ruleset.announced_tardiness_wait_minutes cannot be -1; allowed: int",
        ),
    ],
)
def test_ruleset_refuses_unknown_value_naming_the_field(name, value, message):
    # STYLE.md §9: a mistake gets a message naming the field and what is allowed.
    with pytest.raises(RuleError) as error:
        Ruleset(**{name: value})

    assert str(error.value) == message


def test_ruleset_refuses_unknown_tiebreak_item():
    # A12: the tiebreak is a tuple of known tiebreakers.
    with pytest.raises(RuleError, match=r"^Ruleset\.match_bonus_tiebreak cannot be \("):
        Ruleset(match_bonus_tiebreak=("most_firsts", "coin_toss"))


def test_ruleset_refuses_tiebreak_given_as_list():
    # A12: a list would make the ruleset mutable and unhashable; a tuple is required.
    with pytest.raises(RuleError, match=r"^Ruleset\.match_bonus_tiebreak cannot be \["):
        Ruleset(match_bonus_tiebreak=["most_firsts", "ladder_position"])


def test_ruleset_refuses_bad_interference_default():
    # A29: the nested defaults are checked too.
    bad = InterferenceDefaults(opponents_ball="shrug")

    with pytest.raises(RuleError, match=r"^Ruleset\.interference_default_choice cannot be"):
        Ruleset(interference_default_choice=bad)


def test_ruleset_replace_is_validated():
    # A typo cannot slip in through dataclasses.replace either.
    with pytest.raises(RuleError, match=r"^Ruleset\.forfeit_credit_rounding cannot be 'up'"):
        dataclasses.replace(FWPL_V1, forfeit_credit_rounding="up")


def test_ruleset_is_frozen_and_hashable():
    # A ruleset is a value: it cannot change under a running season, and can key a cache.
    with pytest.raises(dataclasses.FrozenInstanceError):
        FWPL_V1.match_bonus_awards = "full_fifth_game"

    assert hash(Ruleset()) == hash(FWPL_V1)
