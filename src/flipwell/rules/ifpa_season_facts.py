"""What the IFPA checks read about a season, as plain numbers: from its meets, or from its schedule.

Words:
- *held*: meets closed so far (`held_meets`: the meet being played is not held yet, as it is
  not played in `flipwell.rules.progress`).
- *finalists*: the players seeded into the playoffs (R6.2-a), or before the playoffs are
  seeded the number the rules will qualify (`playoff_qualifier_count`).
- *games* (`IfpaGames`): the games a player plays in one meet or one playoff round, and how
  many play each game.
- *planned*: before the first meet is held, the facts are read from the schedule (meets
  planned, groups of four) instead of what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.playoffs import MIN_PLAYERS, divisions_for_qualifiers, playoff_qualifier_count
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season_values import MeetFacts


@dataclass(frozen=True)
class IfpaGames:
    """Games a player plays in one meet or one playoff round, and how many play each game."""

    games: int
    players: int

    def __post_init__(self) -> None:
        check_count(self.games, what="games")
        check_count(self.players, what="players in a game", minimum=1)

    @property
    def meaningful(self) -> Fraction:
        """The TGP guide's meaningful games: each game counts players / 2 (a 4-player game
        twice, a 3-player game 1.5 times, a 2-player game once)."""
        return Fraction(self.games * self.players, 2)


@dataclass(frozen=True)
class IfpaSeasonFacts:
    """What the checks read, as plain numbers.

    meets_scheduled: the season's planned meets (R2-a); meets_held: closed so far;
    meets_counted: held meets whose points count (FWPL: all, R6.1-d). attended: each member's
    meets attended, for the 50% rule. members: players entered. finalists: players in the
    playoffs (or the number the rules will qualify). direct_play: the regular season and the
    finals are played head-to-head in groups (FWPL: always, R4.1-a, R6.3-a). meets: one
    `IfpaGames` per meet held (or planned) as its winner plays it; finals: the playoff rounds
    the winner of the top division plays. post_finals: the results submitted are the
    post-finals ones (so the finals' games count). planned: the checks read the schedule.
    """

    meets_scheduled: int
    meets_held: int
    meets_counted: int
    attended: tuple[int, ...]
    members: int
    finalists: int
    direct_play: bool
    meets: tuple[IfpaGames, ...]
    finals: tuple[IfpaGames, ...] = ()
    post_finals: bool = False
    planned: bool = False

    def __post_init__(self) -> None:
        check_count(self.meets_scheduled, what="meets scheduled")
        held = check_count(self.meets_held, what="meets held")
        if check_count(self.meets_counted, what="meets counted") > held:
            raise RuleError(f"{self.meets_counted} meets counted, more than the {held} held")
        check_count(self.members, what="members")
        if check_count(self.finalists, what="finalists") > self.members:
            raise RuleError(f"{self.finalists} finalists, more than the {self.members} members")
        for count in self.attended:
            if check_count(count, what="meets attended") > held:
                raise RuleError(f"a member attended {count} meets, more than the {held} held")


GAMES_PER_MATCH = 4
"""R3.3-b: a group's match is four games."""
PLAYOFF_GAMES = 3
"""R6.3-c: every playoff match is three games."""


def ifpa_finalists(members: int, *, ruleset: Ruleset = FWPL_V1) -> int:
    """The players the playoffs will take (§6.1; `playoff_qualifier_count`); every player of
    a league smaller than the rulebook's six, whose format the LO decides (A03)."""
    check_count(members, what="members")
    if members < MIN_PLAYERS:
        return members
    return playoff_qualifier_count(members, ruleset=ruleset)


def ifpa_finals_games(finalists: int, *, bracket: int | None = None) -> tuple[IfpaGames, ...]:
    """The playoff rounds the top seed plays to win the first division: the final alone in a
    4-bracket, a semifinal and the final otherwise (seeds 1-4 skip a 12-bracket's
    quarterfinals, R6.3-i); each round three games of four (R6.3-c). bracket: the first
    division's, once drawn; else the one `finalists` make (§6.1). () below two finalists."""
    if bracket is None:
        if finalists < 2:
            return ()
        bracket = divisions_for_qualifiers(finalists)[0].bracket
    rounds = 1 if bracket <= 4 else 2
    return (IfpaGames(PLAYOFF_GAMES, 4),) * rounds


def held_meets(meets: Sequence[MeetFacts]) -> tuple[MeetFacts, ...]:
    """The meets held: the closed ones (R2-a, `flipwell.rules.progress`). The meet being
    played is not held yet: its attendance and games are still provisional."""
    return tuple(meet for meet in meets if meet.closed)


def ifpa_meet_games(meet: MeetFacts) -> IfpaGames:
    """The games a meet's winner played, as the TGP counts them: the largest group's games
    (a match is four games, R3.3-b; most groups are fours, R4.1-a)."""
    if not meet.groups:
        return IfpaGames(0, 1)
    group = max(meet.groups, key=lambda g: (len(g.players), len(g.games)))
    return IfpaGames(len(group.games), len(group.players))


def planned_ifpa_facts(
    *, number_of_meets: int, members: int, ruleset: Ruleset = FWPL_V1
) -> IfpaSeasonFacts:
    """The facts of a season not yet begun, read from its schedule (R2-a): every meet played
    in groups of four (R4.1-a; threes below four players) and counted (R6.1-d), the finalists
    the rules will qualify (§6.1)."""
    check_count(number_of_meets, what="number of meets")
    finalists = ifpa_finalists(members, ruleset=ruleset)
    return IfpaSeasonFacts(
        meets_scheduled=number_of_meets,
        meets_held=0,
        meets_counted=0,
        attended=(0,) * members,
        members=members,
        finalists=finalists,
        direct_play=True,
        meets=(IfpaGames(GAMES_PER_MATCH, min(4, max(members, 1))),) * number_of_meets,
        finals=ifpa_finals_games(finalists),
        planned=True,
    )
