"""The numbers a league may set (§2.4, §2.5): the season-forfeit limit (R2.5-a) and the share of
the all-night forfeit credit (R2.4-d) are `Ruleset` settings with bounds, refused outside them
with a message that says why; a setting typed on the console parses to what the league stores;
and a league's readings change only before its newest season begins (R2-a)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import (
    FWPL_V1,
    NUMBER_BOUNDS,
    RuleError,
    Ruleset,
    check_ruleset_change,
    night_forfeit_credit,
    parse_setting,
    setting_choices,
    setting_text,
)
from flipwell.rules.forfeits import match_forfeits, season_forfeit_game, season_forfeited
from flipwell.rules.ruleset import InterferenceDefaults
from tests.refusals import refusal


def test_ruleset_defaults_are_the_rulebook_numbers_r2_5_a_r2_4_d():
    # R2.5-a "12 countable forfeits"; R2.4-d "50% of his average".
    assert (FWPL_V1.season_forfeit_limit, FWPL_V1.forfeit_credit_percent) == (12, 50)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "season_forfeit_limit",
            0,
            "Ruleset.season_forfeit_limit cannot be 0; allowed: a whole number from 1 to 400 "
            "(R2.5-a: at 0 every player would be out before the first game)",
        ),
        (
            "season_forfeit_limit",
            -3,
            "Ruleset.season_forfeit_limit cannot be -3; allowed: a whole number from 1 to 400 "
            "(R2.5-a: at 0 every player would be out before the first game)",
        ),
        (
            "forfeit_credit_percent",
            0,
            "Ruleset.forfeit_credit_percent cannot be 0; allowed: a whole number from 1 to 100 "
            "(R2.4-d grants a credit, and never more than the player's own average)",
        ),
        (
            "forfeit_credit_percent",
            101,
            "Ruleset.forfeit_credit_percent cannot be 101; allowed: a whole number from 1 to 100 "
            "(R2.4-d grants a credit, and never more than the player's own average)",
        ),
        (
            "season_forfeit_limit",
            True,
            "Ruleset.season_forfeit_limit cannot be True; allowed: int",
        ),
        (
            "forfeit_credit_percent",
            "50",
            "Ruleset.forfeit_credit_percent cannot be '50'; allowed: int",
        ),
    ],
)
def test_ruleset_number_out_of_bounds_refused_saying_why_r2_5_a_r2_4_d(name, value, message):
    with pytest.raises(RuleError) as error:
        Ruleset(**{name: value})

    assert str(error.value) == message


@given(
    name=st.sampled_from(sorted(NUMBER_BOUNDS)),
    value=st.integers(min_value=-1000, max_value=1000),
)
def test_ruleset_number_accepted_exactly_within_its_bounds_r2_5_a_r2_4_d(name, value):
    """Invariant: a bounded number builds a Ruleset if and only if it is within its bounds."""
    bounds = NUMBER_BOUNDS[name]
    try:
        built = Ruleset(**{name: value})
    except RuleError:
        assert not bounds.low <= value <= bounds.high
    else:
        assert bounds.low <= value <= bounds.high
        assert getattr(built, name) == value


@pytest.mark.parametrize(("limit", "count", "out"), [(1, 0, False), (1, 1, True), (5, 4, False)])
def test_season_forfeited_at_the_league_limit_r2_5_a(limit, count, out):
    assert season_forfeited(count, ruleset=Ruleset(season_forfeit_limit=limit)) is out


def test_season_forfeit_game_at_a_lower_limit_r2_5_a_a65():
    # A league limit of 6: 4 before the match; the game-2 forfeit is the 6th.
    ruleset = Ruleset(season_forfeit_limit=6)

    assert season_forfeit_game(4, [True, True, True, True], ruleset=ruleset) == 2
    assert match_forfeits(4, [True, True, True, True], ruleset=ruleset).countable == 2


def test_night_forfeit_credit_uses_the_league_share_r2_4_d():
    # Nights 40 and 39 average 79/2; a league's 25% credit is 79/8.
    credit = night_forfeit_credit(
        [40, 39], credit_used=False, ruleset=Ruleset(forfeit_credit_percent=25)
    )

    assert credit == Fraction(79, 8)


@given(st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=20))
def test_night_forfeit_credit_full_share_is_the_average_r2_4_d(nights):
    """Invariant: at 100% the credit is the player's average night, at 50% half of it."""
    full = night_forfeit_credit(
        nights, credit_used=False, ruleset=Ruleset(forfeit_credit_percent=100)
    )

    assert full == Fraction(sum(nights), len(nights))
    assert night_forfeit_credit(nights, credit_used=False) == full / 2


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("season_forfeit_limit", " 10 ", 10),
        ("playoff_16_players_qualify", "12", 12),
        ("dues_period", "meet", "meet"),
        ("compensatory_clamp_at_zero", "no", False),
        (
            "match_bonus_tiebreak",
            "most_firsts, ladder_position",
            ["most_firsts", "ladder_position"],
        ),
        (
            "interference_default_choice",
            "replay_game, continue_no_extra",
            {"opponents_ball": "replay_game", "other": "continue_no_extra"},
        ),
    ],
)
def test_parse_setting_gives_the_stored_value(name, text, value):
    assert parse_setting(name, text) == value


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("season_forfeit_limit", "twelve", "season_forfeit_limit is a whole number, not 'twelve'"),
        (
            "compensatory_clamp_at_zero",
            "maybe",
            "compensatory_clamp_at_zero is yes or no, not 'maybe'",
        ),
        (
            "interference_default_choice",
            "replay_game",
            "interference_default_choice is 2 choices, for opponents_ball and other",
        ),
        ("no_such_setting", "1", "no ruleset setting is called 'no_such_setting'"),
    ],
)
def test_parse_setting_refuses_a_value_of_the_wrong_kind(name, text, message):
    with pytest.raises(RuleError) as error:
        parse_setting(name, text)

    assert str(error.value) == message


def test_setting_choices_and_text_round_trip_every_default():
    """Every default, written as the console shows it, parses back to itself."""
    for name in FWPL_V1.__dataclass_fields__:
        text = setting_text(getattr(FWPL_V1, name))
        choices = setting_choices(name)

        assert not choices or text in choices
        value = parse_setting(name, text)
        assert setting_text(getattr(_with(name, value), name)) == text


def _with(name, value):
    """The Ruleset with `value` as the league stores it (a list, an object for A29)."""
    if isinstance(value, list):
        value = tuple(value)
    elif isinstance(value, dict):
        value = InterferenceDefaults(**value)
    return Ruleset(**{name: value})


def test_check_ruleset_change_allowed_before_the_season_begins_r2_a():
    refusals = [
        refusal(lambda s=season: check_ruleset_change(season=s, begun=False), RuleError)
        for season in (None, "Spring")
    ]

    assert refusals == [None, None]


def test_check_ruleset_change_refused_once_the_season_has_begun_r2_a():
    with pytest.raises(RuleError) as error:
        check_ruleset_change(season="Spring", begun=True)

    assert str(error.value) == (
        "The readings can change only before a season's first meet starts: Spring has begun, "
        "and its games are all scored under the readings it started with. Change them when the "
        "next season is being prepared."
    )
