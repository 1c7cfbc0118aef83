"""Gameplay promptness (§7.5): the slow-play warning, R7.5-a."""

import pytest

from flipwell.rules import RuleError, Turn, TurnRuling, slow_play_warning

GROUP = ("ada", "bob", "cy", "dee")


def test_slow_play_warning_plunges_the_ball_of_a_player_of_the_group():
    """R7.5-a: the LO may plunge the ball of a player who does not begin promptly; they may
    not play it."""
    warning = slow_play_warning(Turn(player="bob", group=GROUP))

    assert warning == TurnRuling(
        player="bob",
        rules=("R7.5-a",),
        reason="the official plunged the ball for not beginning play promptly; it is not played",
    )


def test_slow_play_warning_refused_for_a_player_outside_the_group():
    """R7.5-a: only a player whose turn comes up in the match can be slow to begin it."""
    with pytest.raises(RuleError, match="eve does not play in this game's group") as refused:
        slow_play_warning(Turn(player="eve", group=GROUP))

    assert dict(refused.value.players) == {"player": "eve"}


def test_slow_play_warning_refused_for_a_player_who_forfeited_the_game():
    """R7.5-a: a player who forfeited the game has no turn in it to begin."""
    with pytest.raises(RuleError, match="cy forfeited this game, so has no turn in it"):
        slow_play_warning(Turn(player="cy", group=GROUP, forfeited=("cy",)))


def test_slow_play_warning_stands_beside_another_players_forfeit():
    warning = slow_play_warning(Turn(player="ada", group=GROUP, forfeited=("cy",)))

    assert warning.player == "ada"


@pytest.mark.parametrize(
    ("turn", "message"),
    [
        (Turn(player="", group=GROUP), "player must be a non-empty string"),
        (Turn(player="ada", group=("ada", "ada")), "ada appears twice in the game's group"),
        (Turn(player="ada", group=GROUP, forfeited=("cy", "cy")), "cy appears twice"),
    ],
)
def test_slow_play_warning_malformed_facts_refused(turn, message):
    with pytest.raises(RuleError, match=message):
        slow_play_warning(turn)
