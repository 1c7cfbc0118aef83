"""The small frozen value types the rules take and return.

Words:
- *player*: a player's identifier, a non-empty string chosen by the caller.
- *machine score*: the score a machine displays, a non-negative Python int of any size.
- *finish*: one player's result in one game: his game points (bonus included) and his place.
- *point line*: one awarded amount with the rule that gave it and the comparison behind it, so
  a player can see why he got each point.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

PlayerId = str
LeaguePoints = Fraction | int
"""League points are exact: the §2.4 credit can be a fraction such as 39/2 (A14.2)."""


@dataclass(frozen=True)
class Entrant:
    """A player entered in a season, with his IFPA rank when the season starts (§3.1, §4.3)."""

    player: PlayerId
    first_name: str
    last_name: str
    ifpa_rank: int | None


@dataclass(frozen=True)
class Finish:
    """One player's result in one game: his league points (bonus included) and place (1 = won)."""

    points: int
    place: int


@dataclass(frozen=True)
class PlayoffDivision:
    """A playoff division: season ranks first_rank..last_rank, an 8 or 12 bracket (§6.1)."""

    name: str
    first_rank: int
    last_rank: int
    bracket: int

    @property
    def size(self) -> int:
        """How many qualifiers the division holds (fewer than `bracket` when seeds are vacant)."""
        return self.last_rank - self.first_rank + 1


@dataclass(frozen=True)
class PointLine:
    """One amount of points awarded to one player, with the rule ID and a readable reason."""

    player: PlayerId
    points: LeaguePoints
    rule: str
    reason: str


@dataclass(frozen=True)
class PlayoffCandidate:
    """A player's final season standing: league points, and whether he may enter (A05, A37)."""

    player: PlayerId
    points: LeaguePoints
    eligible: bool = True
