"""What a season is folded from, and what folding it gives (`flipwell.rules.season`).

Words:
- *season facts*: what happened: the entrants, when each joined, and for every meet its
  groups' matches, announced absences and violations. Nothing derived is stored in them.
- *night*: one player's line for one meet: game points, match bonus, the §2.4 credit,
  forfeits, and how he took part (played, absent, not yet joined, out of the league).
- *standing*: a player's season so far: league points (exact), games played, forfeits,
  countable forfeits, season forfeited and at which meet, credit used, offenses.
- *season result*: every meet folded (its ladder, computed groups, matches and penalties),
  each player's standing, and the next meet's ladder.

The results are frozen dataclasses with slots (here and in `match`, `scoring`): a season's
fold builds thousands of them, and slots make each cheaper to build and to read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from flipwell.rules.match import MatchFacts, MatchResult
from flipwell.rules.values import Entrant, PlayerId
from flipwell.rules.violation_penalties import PenaltyDecision
from flipwell.rules.violations import Violation

NightStatus = Literal[
    "played",
    "in_progress",
    "absent_announced",
    "absent_unannounced",
    "not_joined",
    "out_of_league",
]


@dataclass(frozen=True)
class ViolationFacts:
    """A violation an LO recorded at a meet, and when it happened (§8, A27).

    current_game: the game of his match in progress, if any. games_completed: how many games
    his group had finished when it happened. target_game: the LO's choice of game where the
    ruleset leaves it to him (A27.4).
    """

    violation: Violation
    current_game: int | None = None
    games_completed: int = 0
    target_game: int | None = None

    @property
    def player(self) -> PlayerId:
        """The violator."""
        return self.violation.violator


@dataclass(frozen=True)
class MeetFacts:
    """One meet as recorded: its groups' matches, announced absences and violations."""

    number: int
    groups: tuple[MatchFacts, ...]
    announced_absences: frozenset[PlayerId] = frozenset()
    violations: tuple[ViolationFacts, ...] = ()
    group_override: str | None = None
    """The LO's reason when the groups differ from the computed ones (R4.1-d)."""
    closed: bool = True
    """False while the meet is being played: a grouped player's night is provisional, so no
    match bonus for an unfinished match (R3.3-b, "after all four games") and no all-night
    credit yet. An announced absentee's credit is already certain (he cannot play that night)."""


@dataclass(frozen=True)
class SeasonFacts:
    """A season's facts. joined_at: meet number a late entrant joined at (default 1)."""

    entrants: tuple[Entrant, ...]
    meets: tuple[MeetFacts, ...]
    joined_at: Mapping[PlayerId, int] = field(default_factory=dict)
    late_join_non_countable: frozenset[PlayerId] = frozenset()
    """Late entrants whose forfeits before joining the LO made non-countable (R2.4-g, A46)."""
    number_of_meets: int | None = None
    """The season's number of regular meets as the LO set it (R2-a), lowered when the season
    is cut short (A68); None: as many as are recorded (`meets_in_season`)."""

    def meets_in_season(self) -> int:
        """The season's number of meets: the LO's (R2-a, A68), else the meets recorded (at
        least 1), for facts that do not say (a season file written without it)."""
        if self.number_of_meets is not None:
            return self.number_of_meets
        return max(len(self.meets), 1)


@dataclass(frozen=True, slots=True)
class Night:
    """One player's league points and forfeits at one meet."""

    meet: int
    status: NightStatus
    game_points: tuple[int, ...] = ()
    match_bonus: int = 0
    credit: Fraction = Fraction(0)
    games_played: int = 0
    forfeits: int = 0
    countable_forfeits: int = 0

    @property
    def league_points(self) -> Fraction | int:
        """Game points + match bonus + §2.4 credit (A19); exact, an int when it can be."""
        points = sum(self.game_points) + self.match_bonus
        return points + self.credit if self.credit else points


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's season so far."""

    player: PlayerId
    league_points: Fraction
    nights: tuple[Night, ...]
    games_played: int
    forfeits: int
    countable_forfeits: int
    offenses: int
    credit_used_at: int | None
    season_forfeited_at: int | None
    suspended_at: int | None
    season_forfeited_game: int | None = None
    """The game of meet `season_forfeited_at` whose forfeit was his 12th countable one (A65);
    None when the season forfeit fell on a night he was in no group."""

    @property
    def active(self) -> bool:
        """Still allowed to play this season (R2.5-b, R8.5-e)."""
        return self.season_forfeited_at is None and self.suspended_at is None


@dataclass(frozen=True, slots=True)
class MeetResult:
    """A folded meet: the ladder it was drawn from, the computed groups, and each match."""

    number: int
    ladder: tuple[PlayerId, ...]
    expected_groups: tuple[tuple[PlayerId, ...], ...]
    matches: tuple[MatchResult, ...]
    penalties: Mapping[PlayerId, tuple[int, ...]]
    """Player -> the games of his match his serious-violation penalties fell on (§8.5)."""
    decisions: tuple[PenaltyDecision, ...] = ()
    """Each of the meet's violations' §8.5 decision, in the order of the meet's facts
    (`MeetFacts.violations`), naming the game its penalty fell on where the fold chose it
    (A27)."""


@dataclass(frozen=True, slots=True)
class SeasonResult:
    """The whole folded season."""

    meets: tuple[MeetResult, ...]
    players: Mapping[PlayerId, Standing]
    ladder: tuple[PlayerId, ...]
    """The ladder for the next meet: active players by league points (R4.3-c, A18)."""

    def standings(self) -> list[Standing]:
        """The standings table: best first; suspended players removed (A36), season-forfeited
        players kept with their points (A37), ordered as the ladder orders equal points."""
        position = {p: i for i, p in enumerate(self.ladder)}
        shown = [s for s in self.players.values() if s.suspended_at is None]
        return sorted(
            shown, key=lambda s: (-s.league_points, position.get(s.player, len(position)), s.player)
        )
