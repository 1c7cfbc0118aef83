"""A season's final positions: playoffs first, then the standings (§6)."""

import pytest

from flipwell.rules import RuleError
from flipwell.rules.final_positions import (
    attendance,
    attendance_threshold,
    season_final_positions,
)
from flipwell.rules.season_values import Night


def test_final_positions_without_playoffs_follow_the_standings():
    """R6.1-d: before the playoffs, season totals order everyone."""
    assert season_final_positions(["a", "b", "c"]) == [(1, "a"), (2, "b"), (3, "c")]


def test_final_positions_put_divisions_in_order_then_the_rest():
    """R6.3-e: the final decides 1st-4th; shared places stay shared; division B follows A;
    non-qualifiers follow in standings order."""
    standings = ["a", "b", "c", "d", "e", "f", "g", "h", "x", "y", "z"]
    division_a = [(1, "c"), (2, "a"), (3, "d"), (4, "b"), (5, "e"), (5, "f")]
    division_b = [(1, "h"), (2, "g")]

    positions = season_final_positions(standings, [division_a, division_b])

    assert positions == [
        (1, "c"), (2, "a"), (3, "d"), (4, "b"), (5, "e"), (5, "f"),
        (7, "h"), (8, "g"),
        (9, "x"), (10, "y"), (11, "z"),
    ]  # fmt: skip


def test_final_positions_refuse_a_place_for_an_unknown_player():
    with pytest.raises(RuleError, match="q has a playoff place but is not in the standings"):
        season_final_positions(["a"], [[(1, "q")]])


def test_final_positions_refuse_a_player_in_two_divisions():
    with pytest.raises(RuleError, match="placed in two divisions"):
        season_final_positions(["a", "b"], [[(1, "a")], [(1, "a")]])


@pytest.mark.parametrize(("meets", "threshold"), [(10, 5), (9, 5), (1, 1), (0, 0)])
def test_attendance_threshold_is_half_the_meets_rounded_up(meets, threshold):
    # R2-b (flipwell): by default a player must attend half the season's meets, rounded up.
    assert attendance_threshold(meets) == threshold


def test_attendance_threshold_league_override():
    # R2-b (flipwell): a league may set its own threshold.
    assert attendance_threshold(10, override=8) == 8


def test_attendance_threshold_negative_override_refused():
    with pytest.raises(RuleError, match=r"^attendance threshold"):
        attendance_threshold(10, override=-1)


def test_attendance_counts_meets_with_a_game_played():
    # R2-b: a meet counts when he played at least one game; an absent night does not.
    nights = [
        Night(meet=1, status="played", games_played=4),
        Night(meet=2, status="absent_announced", forfeits=4),
        Night(meet=3, status="played", games_played=1, forfeits=3),
    ]

    assert (attendance(nights, threshold=3), attendance(nights, threshold=2)) == (
        (2, True),
        (2, False),
    )
