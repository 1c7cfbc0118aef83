"""Gameplay promptness (§7.5): the slow-play warning.

A *slow-play warning* is an official's ruling that a player did not begin their turn in a
reasonable time, so the official plunged that ball for them and they may not play it
(R7.5-a). Whether play was slow is the official's call (the rulebook sets no time). It
changes no score: the plunged ball's score is whatever the machine shows.
"""

from __future__ import annotations

from flipwell.rules.turns import Turn, TurnRuling, turn_ruling

SLOW_PLAY_RULES = ("R7.5-a",)
"""The rules a slow-play warning applies."""


def slow_play_warning(turn: Turn) -> TurnRuling:
    """R7.5-a: a player who does not begin play promptly may have their ball plunged by the
    LO, and may not play it. The player must have a turn in the game: one of its group
    (a league match), who has not forfeited it. Raises RuleError otherwise."""
    return turn_ruling(
        turn,
        rules=SLOW_PLAY_RULES,
        reason="the official plunged the ball for not beginning play promptly; it is not played",
    )
