"""Extra balls (§7.1, §7.2, A30, A50, A62, Appendix A.3)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.errors import RuleError
from flipwell.rules.extra_balls import (
    ExtraBallRuling,
    allowable_extra_balls,
    allowable_extra_balls_collected,
    extra_ball_ruling,
)
from flipwell.rules.ruleset import Ruleset


@pytest.mark.parametrize(("balls", "allowed"), [(1, 1), (2, 1), (3, 1), (4, 0), (5, 0)])
def test_allowable_extra_balls_one_on_three_ball_machines_none_above(balls, allowed):
    """R7.1-a, A50: one allowable extra ball at 3 balls or fewer, none on 4- and 5-ball games."""
    assert allowable_extra_balls(balls) == allowed


def test_allowable_extra_balls_zero_balls_refused():
    with pytest.raises(RuleError, match="balls per game"):
        allowable_extra_balls(0)


def test_extra_ball_ruling_first_on_three_ball_machine_is_allowable():
    """R7.1-a: the first extra ball of a player's game on a 3-ball machine is played normally."""
    ruling = extra_ball_ruling(balls_per_game=3, collected_before=0)

    assert (ruling.is_extra_ball, ruling.allowable, ruling.one_handed) == (True, True, False)
    assert ruling.rule == "R7.1-a"


def test_extra_ball_ruling_second_is_one_handed():
    """R7.1-a: every extra ball after the allowable one is one-handed."""
    ruling = extra_ball_ruling(balls_per_game=3, collected_before=1)

    assert (ruling.allowable, ruling.one_handed) == (False, True)


def test_extra_ball_ruling_five_ball_machine_first_is_one_handed():
    """A50: on a 5-ball machine even the first extra ball is one-handed."""
    ruling = extra_ball_ruling(balls_per_game=5, collected_before=0)

    assert (ruling.allowable, ruling.one_handed, ruling.rule) == (False, True, "A50")


def test_extra_ball_ruling_replay_award_counts_in_allowance():
    """R7.2-b: an extra ball from a replay or special follows §7.1 and uses the allowance."""
    first = extra_ball_ruling(balls_per_game=3, collected_before=0, source="special")
    second = extra_ball_ruling(balls_per_game=3, collected_before=1, source="replay")

    assert (first.allowable, first.rule) == (True, "R7.2-b")
    assert (second.one_handed, second.rule) == (True, "R7.2-b")


def test_extra_ball_ruling_insurance_is_not_an_extra_ball():
    """RA.3-a: F-14 Tomcat insurance works as a ball save: not an extra ball, never one-handed."""
    ruling = extra_ball_ruling(balls_per_game=3, collected_before=1, source="insurance")

    assert ruling == ExtraBallRuling(
        is_extra_ball=False,
        allowable=True,
        one_handed=False,
        rule="RA.3-a",
        reason="an insurance ball works as a ball save and is not an extra ball",
    )


def test_extra_ball_ruling_buy_in_refused():
    """R7.1-e: buy-ins for extra balls are not allowed."""
    with pytest.raises(RuleError, match=r"buy-ins for extra balls are not allowed \(R7.1-e\)"):
        extra_ball_ruling(balls_per_game=3, collected_before=0, source="buy_in")


def test_extra_ball_ruling_buy_in_as_interference_compensation_played_normally():
    """A30, R7.1-e: the one exception, an interference victim's additional ball."""
    ruling = extra_ball_ruling(
        balls_per_game=5, collected_before=2, source="buy_in", interference_compensation=True
    )

    assert (ruling.is_extra_ball, ruling.one_handed, ruling.rule) == (False, False, "A30")


def test_extra_ball_ruling_earned_compensation_ball_is_two_handed():
    """R8.3-b: an earned, normally unallowable extra ball used as compensation is two-handed."""
    ruling = extra_ball_ruling(balls_per_game=3, collected_before=1, interference_compensation=True)

    assert (ruling.one_handed, ruling.rule) == (False, "R8.3-b")


def test_extra_ball_ruling_compensatory_game_uses_original_allowance():
    """A62: the allowance belongs to the original game; one collected there makes it one-handed."""
    ruling = extra_ball_ruling(
        balls_per_game=3, collected_before=0, compensatory_game=True, collected_in_original_game=1
    )

    assert (ruling.one_handed, ruling.reason) == (
        True,
        "the allowable extra ball was already collected (original game included, A62): "
        "play it one-handed",
    )


def test_extra_ball_ruling_compensatory_game_each_game_scope_allows_one():
    """A62 alternative: with a per-game allowance the compensatory game has its own."""
    ruleset = Ruleset(eb_allowance_scope="each_game")

    ruling = extra_ball_ruling(
        balls_per_game=3,
        collected_before=0,
        compensatory_game=True,
        collected_in_original_game=1,
        ruleset=ruleset,
    )

    assert ruling.allowable is True


def test_extra_ball_ruling_original_game_count_outside_compensatory_game_refused():
    with pytest.raises(RuleError, match="compensatory game"):
        extra_ball_ruling(balls_per_game=3, collected_before=0, collected_in_original_game=1)


def test_extra_ball_ruling_unknown_source_refused():
    with pytest.raises(RuleError, match="unknown extra ball source 'bonus'"):
        extra_ball_ruling(balls_per_game=3, collected_before=0, source="bonus")  # type: ignore[arg-type]


def test_allowable_extra_balls_collected_caps_at_allowance():
    """R7.3-l: only the allowable extra balls a player collected are owed in a compensatory game."""
    assert allowable_extra_balls_collected(balls_per_game=3, collected=3) == 1
    assert allowable_extra_balls_collected(balls_per_game=5, collected=2) == 0


@given(balls=st.integers(1, 10), before=st.integers(0, 6))
def test_extra_ball_ruling_allowable_exactly_while_under_allowance(balls, before):
    """R7.1-a: a ball is allowable exactly when fewer than the allowance were collected."""
    ruling = extra_ball_ruling(balls_per_game=balls, collected_before=before)

    assert ruling.allowable == (before < allowable_extra_balls(balls))
    assert ruling.one_handed == (not ruling.allowable)
