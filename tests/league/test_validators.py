"""Validators: ruleset override names, time zones, machine scores (no database)."""

import pytest
from django.core.exceptions import ValidationError

from flipwell.league.validators import (
    MAX_MACHINE_SCORE,
    validate_machine_score,
    validate_ruleset_overrides,
    validate_time_zone,
)
from tests.refusals import refusal


def test_validate_ruleset_overrides_known_names_accepted():
    overrides = {"playoff_16_players_qualify": 12, "dues_period": "meet"}

    assert refusal(lambda: validate_ruleset_overrides(overrides), ValidationError) is None


def test_validate_ruleset_overrides_empty_accepted():
    assert refusal(lambda: validate_ruleset_overrides({}), ValidationError) is None


def test_validate_ruleset_overrides_unknown_name_refused_with_suggestion():
    with pytest.raises(ValidationError) as caught:
        validate_ruleset_overrides({"dues_perod": "meet", "zzz": 1})

    assert caught.value.messages == [
        "Unknown ruleset setting(s): 'dues_perod' (did you mean 'dues_period'?); 'zzz'."
    ]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"dues_period": "weekly"},
            "Ruleset setting dues_period cannot be 'weekly'; allowed: 'season', 'meet'.",
        ),
        (
            {"playoff_16_players_qualify": -3},
            "Ruleset setting playoff_16_players_qualify cannot be -3; allowed: 8, 12.",
        ),
        (
            {"interference_default_choice": {"opponents_ball": "replay"}},
            "Ruleset setting interference_default_choice.opponents_ball cannot be 'replay'; "
            "allowed: 'continue_no_extra', 'continue_plus_one_ball', 'drain_and_extra_ball', "
            "'replay_game'.",
        ),
        (
            {"interference_default_choice": {"oponents_ball": "replay_game"}},
            "Ruleset setting interference_default_choice cannot have 'oponents_ball'; "
            "allowed keys: 'opponents_ball', 'other'.",
        ),
    ],
)
def test_validate_ruleset_overrides_value_not_allowed_refused_naming_setting(overrides, message):
    with pytest.raises(ValidationError) as caught:
        validate_ruleset_overrides(overrides)

    assert caught.value.messages == [message]


@pytest.mark.parametrize("value", [[], "dues_period", None])
def test_validate_ruleset_overrides_not_an_object_refused(value):
    with pytest.raises(ValidationError, match="must be a JSON object"):
        validate_ruleset_overrides(value)


@pytest.mark.parametrize("value", ["Mars/Olympus", "", "../etc/passwd"])
def test_validate_time_zone_unknown_refused(value):
    with pytest.raises(ValidationError, match="not a known time zone"):
        validate_time_zone(value)


def test_validate_machine_score_largest_storable_accepted():
    assert refusal(lambda: validate_machine_score(MAX_MACHINE_SCORE), ValidationError) is None


def test_validate_machine_score_above_64_bits_refused_with_limit():
    with pytest.raises(ValidationError) as caught:
        validate_machine_score(2**63)

    assert caught.value.messages == [
        "Machine score 9,223,372,036,854,775,808 is above the largest score flipwell can "
        "store (9,223,372,036,854,775,807, 2**63 - 1)."
    ]


def test_validate_machine_score_negative_refused():
    with pytest.raises(ValidationError, match="cannot be negative"):
        validate_machine_score(-1)
