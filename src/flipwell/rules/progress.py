"""How far a season is: the meets played, the meet being played, the meets left (§2, R2-a).

Words:
- *played*: a closed meet; its numbers are final (until a correction, R3-e).
- *open meet*: the meet being played tonight (at most one, and the last recorded); every
  number it adds is *provisional*: a match bonus comes only after game 4 (R3.3-b), a score
  may still be corrected (R3-c), and an absentee's night may still change.
- *left*: the season's meets not played yet, the open meet included: played + left is the
  season's number of meets (R2-a), whether or not a meet is open.

One definition for every reader (standings, a player's page and statistics, the API), so
their numbers add up.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.season_values import SeasonFacts, Standing


@dataclass(frozen=True)
class SeasonProgress:
    """Where a season of `meets` meets is: `played` closed, `open_meet` (None: none) in play."""

    meets: int
    played: int
    open_meet: int | None

    @property
    def left(self) -> int:
        """Meets not played yet, the open one included (R2-a): played + left = meets."""
        return max(self.meets - self.played, 0)

    @property
    def provisional(self) -> bool:
        """Whether a meet is being played, so that its numbers are provisional."""
        return self.open_meet is not None


def season_progress(facts: SeasonFacts, *, number_of_meets: int | None = None) -> SeasonProgress:
    """The season's progress from its recorded meets (§2, R2-a; see the module's words).

    number_of_meets: the season's (None: the facts', `SeasonFacts.meets_in_season`, lowered
    when the season was cut short, A68). Meets are played in order, so the closed meets are
    1..n and an open meet is meet n + 1, the last recorded; anything else is refused as a
    RuleError.
    """
    wanted = facts.meets_in_season() if number_of_meets is None else number_of_meets
    meets = check_count(wanted, what="the season's number of meets", minimum=1)
    closed = [meet.number for meet in facts.meets if meet.closed]
    still_open = [meet.number for meet in facts.meets if not meet.closed]
    if closed != list(range(1, len(closed) + 1)) or still_open not in ([], [len(closed) + 1]):
        raise RuleError(
            f"a season's closed meets are 1, 2, 3... and at most the next one is open; "
            f"got closed {closed}, open {still_open}"
        )
    return SeasonProgress(
        meets=meets, played=len(closed), open_meet=still_open[0] if still_open else None
    )


def provisional_points(standing: Standing, progress: SeasonProgress) -> Fraction:
    """The part of his league points that comes from the open meet (0 with none open): the
    provisional part of his total (A19: game points, match bonus and the §2.4 credit)."""
    return Fraction(
        sum(
            (night.league_points for night in standing.nights if night.meet == progress.open_meet),
            Fraction(0),
        )
    )
