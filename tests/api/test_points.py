"""League points in the output schemas: one `Fraction` from a selector gives the number and
the exact fraction beside it (`Points`, `ExactPoints`)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from flipwell.api.schemas.standings import LadderLineOut
from flipwell.league.selectors.standings import LadderLine, PlayerRef

ANN = PlayerRef(id=1, name="Ann Lee")


def ladder_line(points: Fraction) -> LadderLineOut:
    return LadderLineOut.model_validate(LadderLine(position=1, player=ANN, league_points=points))


@given(st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**4))
def test_points_are_exact_beside_a_number_within_a_millionth(points):
    line = ladder_line(points)

    assert Fraction(line.league_points_exact) == points
    assert abs(Fraction(line.league_points) - points) <= Fraction(1, 10**6)


def test_points_a_decimal_writes_are_exact_numbers():
    line = ladder_line(Fraction(359, 2))

    assert (line.league_points, line.league_points_exact) == (179.5, "359/2")


def test_points_a_decimal_cannot_write_are_rounded_to_six_places():
    line = ladder_line(Fraction(1, 3))

    assert (line.league_points, line.league_points_exact) == (0.333333, "1/3")
