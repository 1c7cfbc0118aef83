"""Machine malfunctions (§7.3) and compensatory games.

Words:
- *major malfunction*: premature loss of a playable turn (R7.3-b).
- *catastrophic malfunction*: a playable turn denied with no chance to play the ball (R7.3-h).
- *compensatory game*: a new game on the same machine for the affected balls, whose displayed
  score is added to the original (R7.3-k..o).
"""

from __future__ import annotations

from flipwell.rules.checks import check_score


def compensatory_score(
    original: int, new: int, *, leading_subtracted: int = 0, state_subtracted: int = 0
) -> int:
    """The final machine score after a compensatory game (§7.3, R7.3-m, R7.3-n, R7.3-o, A33).

    final = original + new − score of the plunged leading balls − incidental state-setting
    points, never below 0.
    """
    parts = (
        check_score(original, what="original score"),
        check_score(new, what="compensatory game score"),
        check_score(leading_subtracted, what="leading balls' score"),
        check_score(state_subtracted, what="state-setting points"),
    )
    return max(0, parts[0] + parts[1] - parts[2] - parts[3])
