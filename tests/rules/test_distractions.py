"""Distractions (§7.7, §7.8): the official's ruling that a disturbance was a distraction, for
which no allowance is made (R7.7-a, R7.8-a)."""

import pytest

from flipwell.rules import RuleError, Turn, TurnRuling, distraction_ruling

GROUP = ("ada", "bob", "cy", "dee")


def test_distraction_ruling_makes_no_allowance_for_a_player_of_the_group():
    """R7.7-a: random distractions, minor bumps included, are normal play: no allowance.
    R7.8-a: a customer playing a league player's ball is a distraction, not interference."""
    ruled = distraction_ruling(Turn(player="cy", group=GROUP))

    assert ruled == TurnRuling(
        player="cy",
        rules=("R7.7-a", "R7.8-a"),
        reason="a distraction is a normal play condition: no allowance is made for it",
    )


def test_distraction_ruling_refused_for_a_player_outside_the_group():
    """R7.7-a: only a player with a turn in the match can have been distracted in it."""
    with pytest.raises(RuleError, match=r"eve does not play in this game's group.*R7.7-a"):
        distraction_ruling(Turn(player="eve", group=GROUP))


def test_distraction_ruling_refused_for_a_player_who_forfeited_the_game():
    """R7.7-a: a player who forfeited the game played no ball of it."""
    with pytest.raises(RuleError, match="dee forfeited this game, so has no turn in it"):
        distraction_ruling(Turn(player="dee", group=GROUP, forfeited=("dee",)))
