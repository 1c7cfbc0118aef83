"""Forfeits: the all-night credit (§2.4: R2.4-d, R2.4-e, A14) and the season forfeit (§2.5: R2.5-a).

Game-level forfeits (R2.4-b, R2.4-c) are tested with game points in test_game_points.py.
"""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import RuleError, Ruleset, night_forfeit_credit
from flipwell.rules.forfeits import (
    MatchForfeits,
    match_forfeits,
    season_forfeit_game,
    season_forfeited,
)

# --- the all-night credit (R2.4-d, A14) ---------------------------------------------------------


def test_night_forfeit_credit_half_of_average_exact_quarter():
    # R2.4-d, A14.2: nights 40 and 39 average 79/2 = 39.5; half is 79/4 = 19.75, kept exact.
    credit = night_forfeit_credit([40, 39], credit_used=False)

    assert credit == Fraction(79, 4)


def test_night_forfeit_credit_is_a_fraction_not_a_float():
    # A14.2: "decimal or rational arithmetic, not floats".
    credit = night_forfeit_credit([40, 39], credit_used=False)

    assert type(credit) is Fraction


def test_night_forfeit_credit_non_terminating_average_kept_exact():
    # A14.2: (38 + 41 + 40) / 3 = 119/3; half is 119/6 = 19.8333..., no rounding.
    credit = night_forfeit_credit([38, 41, 40], credit_used=False)

    assert credit == Fraction(119, 6)


def test_night_forfeit_credit_single_prior_night():
    # R2.4-d: one earlier night of 27 points: 27 / 1 x 1/2 = 13.5.
    credit = night_forfeit_credit([27], credit_used=False)

    assert credit == Fraction(27, 2)


def test_night_forfeit_credit_counts_match_bonus_and_earlier_credit_totals():
    # A14.1: nightly totals include match bonus (e.g. 21 + 1 = 22); a total that is itself a
    # fraction is averaged exactly: (22 + 39/2) / 2 = 83/4; half = 83/8 = 10.375.
    credit = night_forfeit_credit([22, Fraction(39, 2)], credit_used=False)

    assert credit == Fraction(83, 8)


def test_night_forfeit_credit_accepts_decimal_totals():
    # A14.2: Decimal is exact too: (20 + 19.5) / 2 = 19.75; half = 9.875.
    credit = night_forfeit_credit([Decimal("20"), Decimal("19.5")], credit_used=False)

    assert credit == Fraction(79, 8)


def test_night_forfeit_credit_no_earlier_nights_is_zero():
    # A14.4: first meet (or first after joining): nothing to average, credit 0.
    credit = night_forfeit_credit([], credit_used=False)

    assert credit == 0


def test_night_forfeit_credit_zero_average_is_zero():
    # R2.4-d: 50% of an average of 0 is 0.
    credit = night_forfeit_credit([0, 0], credit_used=False)

    assert credit == 0


def test_night_forfeit_credit_only_once_by_default():
    # R2.4-e, A14.3: "Any subsequent forfeits will receive no points": a second all-night
    # forfeit earns 0 even with a good average.
    credit = night_forfeit_credit([40, 39], credit_used=True)

    assert credit == 0


def test_night_forfeit_credit_every_full_night_alternative():
    # A14.3 alternative `forfeit_credit_scope = "every_full_night"`: 79/4 again.
    ruleset = Ruleset(forfeit_credit_scope="every_full_night")

    credit = night_forfeit_credit([40, 39], credit_used=True, ruleset=ruleset)

    assert credit == Fraction(79, 4)


@pytest.mark.parametrize(
    ("nights", "rounding", "expected"),
    [
        ([40, 39], "half_up", 20),  # 19.75 -> 20
        ([40, 39], "down", 19),  # 19.75 -> 19
        ([39], "half_up", 20),  # 19.5 -> 20 (a half goes up)
        ([39], "down", 19),  # 19.5 -> 19
        ([41], "half_up", 21),  # 20.5 -> 21 (not banker's rounding to 20)
        ([38, 39], "half_up", 19),  # 77/4 = 19.25 -> 19
        ([38, 39], "none", Fraction(77, 4)),  # A14.2 default keeps 19.25
        ([40], "half_up", 20),  # 20 stays 20
    ],
)
def test_night_forfeit_credit_rounding_options(nights, rounding, expected):
    # A14.2 alternatives `forfeit_credit_rounding = "half_up" | "down"`.
    ruleset = Ruleset(forfeit_credit_rounding=rounding)

    credit = night_forfeit_credit(nights, credit_used=False, ruleset=ruleset)

    assert credit == expected


@pytest.mark.parametrize("bad", [19.5, -1, "20", True, None])
def test_night_forfeit_credit_bad_night_total_refused(bad):
    # A14.2: league points are exact, non-negative numbers.
    with pytest.raises(RuleError, match=r"^a prior night's league points must"):
        night_forfeit_credit([40, bad], credit_used=False)


def test_night_forfeit_credit_bad_total_refused_even_when_credit_used():
    # A user's mistake is reported, not hidden by an early 0.
    with pytest.raises(RuleError, match=r"^a prior night's league points must"):
        night_forfeit_credit([1.5], credit_used=True)


@pytest.mark.parametrize("bad", [0, 1, "no", None])
def test_night_forfeit_credit_credit_used_must_be_bool(bad):
    # R2.4-e: whether the credit was used is a yes/no fact.
    with pytest.raises(RuleError, match=r"^credit_used must be True or False"):
        night_forfeit_credit([40], credit_used=bad)


@given(st.lists(st.integers(0, 40), min_size=1, max_size=20))
def test_night_forfeit_credit_is_half_of_the_mean(nights):
    # R2.4-d: credit x 2 x (number of nights) = sum of nights, exactly; so it never exceeds
    # half of the best night nor falls below half of the worst.
    credit = night_forfeit_credit(nights, credit_used=False)

    assert credit * 2 * len(nights) == sum(nights)
    assert Fraction(min(nights), 2) <= credit <= Fraction(max(nights), 2)


# --- the season forfeit (R2.5-a) ----------------------------------------------------------------


@pytest.mark.parametrize(("count", "forfeited"), [(0, False), (11, False), (12, True), (13, True)])
def test_season_forfeited_at_twelve_countable_forfeits(count, forfeited):
    # R2.5-a: twelve countable forfeits forfeit the season (the 12th triggers it).
    assert season_forfeited(count) is forfeited


@pytest.mark.parametrize("bad", [-1, 12.0, True, "12"])
def test_season_forfeited_bad_count_refused(bad):
    # R2.5-a counts forfeits: a whole number.
    with pytest.raises(RuleError, match=r"^countable forfeits must be an integer of at least 0"):
        season_forfeited(bad)


@pytest.mark.parametrize("bad", [Decimal("NaN"), Decimal("Infinity")])
def test_night_forfeit_credit_refuses_non_finite_points(bad):
    # R2.4-d: the average is of real league points; NaN or infinity is a data error.
    with pytest.raises(RuleError, match="must be a finite number"):
        night_forfeit_credit([bad], credit_used=False)


def test_season_forfeit_game_is_the_twelfth_countable_forfeit():
    # A65, R2.5-a: 11 before the match; his game-2 forfeit is the 12th (game 1 was played).
    assert season_forfeit_game(11, [False, True, True, True]) == 2


def test_season_forfeit_game_none_below_twelve():
    # R2.5-a: 8 + 3 = 11 countable forfeits: still in the season.
    assert season_forfeit_game(8, [True, True, False, True]) is None


def test_season_forfeit_game_zero_when_already_out():
    # R2.5-b: 12 before the match: out before it began.
    assert season_forfeit_game(12, [False, False, False, False]) == 0


def test_match_forfeits_stop_at_the_twelfth():
    """issue 26 §4, A65, R2.5-a: 10 before a night of four countable forfeits: two count (the
    11th and 12th, at game 2); the later two are no further forfeits for his count."""
    assert match_forfeits(10, [True] * 4) == MatchForfeits(countable=2, season_forfeit_game=2)


def test_match_forfeits_below_twelve_count_all():
    """A65, R2.5-a: 4 + 4 = 8: every countable forfeit of the night counts."""
    assert match_forfeits(4, [True, False, True, True]) == MatchForfeits(3, None)


def test_match_forfeits_none_once_out():
    """A65, R2.5-b: out before the night: nothing more counts."""
    assert match_forfeits(12, [True] * 4) == MatchForfeits(countable=0, season_forfeit_game=0)


def test_match_forfeits_refuses_a_non_bool_game():
    """R2.5-a: each game is a countable forfeit or not."""
    with pytest.raises(RuleError, match="must be True or False"):
        match_forfeits(3, [1, 0])


@pytest.mark.parametrize("reason", ["absent", "late", "other"])
def test_recorded_forfeit_reason_absent_late_or_other_is_accepted_r2_4_a(reason: str) -> None:
    """R2.4-a: a forfeit is recorded by hand for an absence, a lateness or another reason."""
    from flipwell.rules.forfeits import check_recorded_forfeit_reason

    assert check_recorded_forfeit_reason(reason) is None


def test_recorded_forfeit_reason_penalty_is_refused_r2_4_a() -> None:
    """R2.4-a, §8.5: a penalty forfeit follows from a recorded serious violation only."""
    from flipwell.rules.forfeits import check_recorded_forfeit_reason

    with pytest.raises(RuleError, match="penalty forfeit follows from a recorded serious"):
        check_recorded_forfeit_reason("penalty")


@pytest.mark.parametrize("countable", [True, False])
def test_late_join_designation_either_way_under_fwpl_r2_4_g(countable: bool) -> None:
    """R2.4-g, R2.4-h, A46: under FWPL v1.0 the LO may make a late entrant's forfeits count
    or not."""
    from flipwell.rules.forfeits import check_late_join_designation

    assert check_late_join_designation(countable) is None


def test_late_join_designation_countable_refused_when_reading_forbids_r2_4_g() -> None:
    """R2.4-g, A46: where the league makes every late-join forfeit non-countable, one player's
    cannot be made countable; non-countable stays allowed."""
    from flipwell.rules.forfeits import check_late_join_designation

    ruleset = Ruleset(late_join_forfeits_countable=False)
    assert check_late_join_designation(False, ruleset=ruleset) is None
    with pytest.raises(RuleError, match="late_join_forfeits_countable = false"):
        check_late_join_designation(True, ruleset=ruleset)
