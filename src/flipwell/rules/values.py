"""The small frozen value types the rules take and return.

Words:
- *player*: a player's identifier, a non-empty string chosen by the caller.
- *machine score*: the score a machine displays, a non-negative Python int of any size.
- *finish*: one player's result in one game: his game points (bonus included) and his place.
- *point line*: one awarded amount with the rule that gave it and the comparison behind it, so
  a player can see why he got each point. Its reason is structured: a `str.format` *template*
  whose named fields are either *players* (player keys, which a front end writes as names) or
  *values* (numbers and words already written, e.g. "632,580").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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


@dataclass(frozen=True, slots=True)
class PointLine:
    """One amount of points awarded to one player, with the rule ID and why (a template).

    template: the reason, a `str.format` template with named fields only; each field is a key
    of `players` (a player key) or of `values` (text already written).
    """

    player: PlayerId
    points: LeaguePoints
    rule: str
    template: str
    players: Mapping[str, PlayerId] = field(default_factory=dict)
    values: Mapping[str, str] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """The reason with the player keys themselves ("5 finished 4th of 4: 1 point")."""
        return self.render({})

    def render(self, names: Mapping[PlayerId, str]) -> str:
        """The reason with each player written as `names[key]` (the key when not in `names`)."""
        players = {name: names.get(key, key) for name, key in self.players.items()}
        return self.template.format_map({**self.values, **players})


@dataclass(frozen=True)
class PlayoffCandidate:
    """A player's final season standing: league points, and whether he may enter (A05, A37)."""

    player: PlayerId
    points: LeaguePoints
    eligible: bool = True
