"""Distractions (§7.7, §7.8): the official's ruling that what disturbed a player's turn was a
distraction, for which no allowance is made.

A *distraction ruling* answers a player who asks for an allowance after a disturbance: a
random distraction, a minor bump (R7.7-a), or a non-league customer who played their ball
(R7.8-a, a distraction and not interference). It is normal play: no compensation, no
violation against anyone, and it changes no score. Whether the disturbance was a distraction
is the official's call.
"""

from __future__ import annotations

from flipwell.rules.turns import Turn, TurnRuling, turn_ruling

DISTRACTION_RULES = ("R7.7-a", "R7.8-a")
"""The rules a distraction ruling applies."""


def distraction_ruling(turn: Turn) -> TurnRuling:
    """R7.7-a, R7.8-a: a distraction during a player's turn is a normal play condition, and no
    allowance is made for it. The player must have a turn in the game: one of its group who
    has not forfeited it. Raises RuleError otherwise."""
    return turn_ruling(
        turn,
        rules=DISTRACTION_RULES,
        reason="a distraction is a normal play condition: no allowance is made for it",
    )
