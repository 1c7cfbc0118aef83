"""Illegal actions and their penalties (§8).

Words:
- *reduced score*: the §8.1 25% reduction of a final machine score.
- *serious violation*: interference and the like, cumulative over a season (§8.5).
- *penalty game*: the game a serious-violation penalty falls on (R8.5-c, R8.5-d, A27).
"""

from __future__ import annotations

from collections.abc import Sequence

from flipwell.rules.checks import check_count, check_score
from flipwell.rules.ruleset import FWPL_V1, Ruleset


def reduced_score(score: int, *, ruleset: Ruleset = FWPL_V1) -> int:
    """A final machine score reduced by 25% (§8.1, R8.1-b), rounded down by default (A35)."""
    check_score(score)
    if ruleset.score_reduction_rounding == "half_up":
        return (score * 3 + 2) // 4  # ⌊0.75·score + ½⌋
    return score * 3 // 4


def penalty_game(
    points_by_game: Sequence[int | None], *, current_game: int | None = None
) -> int | None:
    """The 1-based game of the match a serious-violation penalty falls on (§8.5).

    current_game: the game in progress, if any; the penalty forfeits it (R8.5-c).
    points_by_game: the violator's league points in the match's completed games, None (or 0)
    for a game he forfeited (A27.6). With no game in progress the penalty falls on the game
    with his highest league points, the last of equals (R8.5-d, A27.5). None when no game has
    been played yet: the caller applies `ruleset.penalty_target_before_first_game` (A27.2).
    """
    if current_game is not None:
        return check_count(current_game, what="current game", minimum=1)
    points = [0 if p is None else check_score(p, what="league points") for p in points_by_game]
    if not points:
        return None
    best = max(points)
    return max(i for i, p in enumerate(points, start=1) if p == best)
