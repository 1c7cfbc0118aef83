"""A person's statistics across seasons, read from folded seasons.

Nothing here is a rule of its own: every number is counted from what `fold_season` already
decided (places, points, nights), so the statistics can never disagree with the standings.

Words:
- *person*: one or more player keys that are the same human being (one installation-wide
  player, or rows an official merged); `person_of` maps every player key to its person's key.
- *game played*: a game of a match in which the player has a place in the game's finishing
  order (§3.2). A forfeit (R2.4-b) has no place, so it is no game played: it counts in no
  head-to-head record, no machine record and no high score. A game with a compensatory game
  (§7.3) is played, and its place is the one the compensatory score gave (R7.3-m).
- *head-to-head*: for each opponent, the games both played (in the same group, same game):
  *won* when the person placed higher (the recorded tie order settles equal scores, R3.2-i,
  so there is never a draw). Places, not machine scores, decide: a reduced or zeroed score
  (§8.1, §8.2, §8.7) counts as the place it got.
- *machine record*: per machine title, the games played on it, the average place and the best
  *machine score*: the score the machine displayed for one game as entered, only when it
  stood as entered (not reduced by §8.1, not set to zero by §8.2/§8.5/§8.7, and no
  compensatory game added to it, §7.3: that sum is a ranking number, never a score a machine
  showed).
- *high score*: a machine score as above, with who and when (season, meet).
- *meets held*: the closed meets of a season (`flipwell.rules.progress`) at which the player
  was entered and still in the league (not before they joined, R2.4-f; not after forfeiting
  the season or a suspension, R2.5-b, R8.5-e). *Attended*: played at least one game of the
  meet (R2-b, as `final_positions.attendance` counts it).
- *points per meet*: league points earned at the meets attended (game points and match bonus,
  A19; the §2.4 credit is for a meet not played, so it is left out), divided by the meets
  attended.
- *provisional points*: the part of a season's league points that comes from the meet being
  played (`flipwell.rules.progress`): that meet is no meet held yet, so the points per meet
  leave it out, and league points minus provisional points is what the meets held earned.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, TypeVar

from flipwell.rules.match import GameFacts, GameOutcome
from flipwell.rules.progress import provisional_points, season_progress
from flipwell.rules.season_values import SeasonFacts, SeasonResult
from flipwell.rules.values import PlayerId

SeasonKey = int
"""How the caller names a season (its database id); passed through untouched."""
NOT_HELD = frozenset({"not_joined", "out_of_league", "in_progress"})
"""Night statuses of a meet not held for the player (or not over yet)."""


@dataclass(frozen=True)
class FoldedSeason:
    """One season as the statistics read it: its key, facts and fold."""

    key: SeasonKey
    facts: SeasonFacts
    result: SeasonResult


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """The person's record against one opponent (a person key): games both played, won, lost."""

    opponent: PlayerId
    games: int
    won: int
    lost: int


@dataclass(frozen=True, slots=True)
class MachineRecord:
    """The person's games on one machine title: count, average place, best machine score."""

    machine: str
    games: int
    average_place: Fraction
    best_score: int | None


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """One season of the person: meets held and attended, league points, points per meet."""

    season: SeasonKey
    meets_held: int
    meets_attended: int
    league_points: Fraction
    points_at_meets: int
    games_played: int
    provisional_points: Fraction = Fraction(0)
    """The part of `league_points` from the meet being played (module words)."""
    open_meet: int | None = None
    """The meet being played, whose points are provisional; None: none is."""

    @property
    def points_per_meet(self) -> Fraction | None:
        """League points earned at the meets attended, per meet attended (None: none)."""
        return Fraction(self.points_at_meets, self.meets_attended) if self.meets_attended else None


@dataclass(frozen=True, slots=True)
class PersonStats:
    """A person's statistics over the seasons given."""

    seasons: tuple[SeasonLine, ...]
    head_to_head: tuple[HeadToHead, ...]
    """Most games first, then opponent key."""
    machines: tuple[MachineRecord, ...]
    """By machine title."""

    @property
    def meets_held(self) -> int:
        """Meets held for the person, every season together."""
        return sum(line.meets_held for line in self.seasons)

    @property
    def meets_attended(self) -> int:
        """Meets attended, every season together."""
        return sum(line.meets_attended for line in self.seasons)

    @property
    def games_played(self) -> int:
        """Games played, every season together."""
        return sum(line.games_played for line in self.seasons)

    @property
    def points_per_meet(self) -> Fraction | None:
        """League points earned at meets attended per meet attended, every season together."""
        attended = self.meets_attended
        earned = sum(line.points_at_meets for line in self.seasons)
        return Fraction(earned, attended) if attended else None


@dataclass(frozen=True, slots=True)
class HighScore:
    """One machine score that stood as displayed: who (person key), when, on what."""

    machine: str
    score: int
    player: PlayerId
    season: SeasonKey
    meet: int
    game: int


def person_stats(
    seasons: Iterable[FoldedSeason],
    *,
    person: PlayerId,
    person_of: Mapping[PlayerId, PlayerId],
) -> PersonStats:
    """The statistics of `person` (a person key) over `seasons` (see the module's words).

    §3.2 places, R2-b attendance, A19 league points, all read from the fold. `person_of` maps
    a player key to its person key; a key missing from it is its own person.
    """
    lines: list[SeasonLine] = []
    versus: dict[PlayerId, list[int]] = defaultdict(lambda: [0, 0])
    places: dict[str, list[int]] = defaultdict(list)
    best: dict[str, int] = {}
    for season in seasons:
        mine = [p for p in season.result.players if person_of.get(p, p) == person]
        for key in mine:
            lines.append(_season_line(season, key))
        for _meet, facts, outcome in _games(season):
            for key in mine:
                place = outcome.result.place(key)
                if place is None:
                    continue
                places[outcome.machine].append(place)
                score = _standing_score(facts, key)
                if score is not None and score > best.get(outcome.machine, -1):
                    best[outcome.machine] = score
                for other in outcome.result.order:
                    if other == key:
                        continue
                    won = place < (outcome.result.place(other) or 0)
                    versus[person_of.get(other, other)][0 if won else 1] += 1
    return PersonStats(
        seasons=tuple(lines),
        head_to_head=tuple(
            sorted(
                (HeadToHead(o, won + lost, won, lost) for o, (won, lost) in versus.items()),
                key=lambda h: (-h.games, h.opponent),
            )
        ),
        machines=tuple(
            MachineRecord(title, len(p), Fraction(sum(p), len(p)), best.get(title))
            for title, p in sorted(places.items())
        ),
    )


M = TypeVar("M", bound="PlacedOn")


class PlacedOn(Protocol):
    """A record of games on one machine, with the average place they got."""

    @property
    def games(self) -> int: ...
    @property
    def average_place(self) -> Fraction: ...


def best_and_worst(records: Iterable[M], *, min_games: int = 2) -> tuple[M | None, M | None]:
    """The machine a person does best on (the lowest average place) and worst on (the
    highest), among those he played at least `min_games` times (one game says little); ties
    by most games. None when no machine has enough games; the worst is None too when it would
    be the best."""
    enough = [r for r in records if r.games >= min_games]
    if not enough:
        return None, None
    best = min(enough, key=lambda r: (r.average_place, -r.games))
    worst = max(enough, key=lambda r: (r.average_place, r.games))
    return best, (worst if worst is not best else None)


def high_scores(
    seasons: Iterable[FoldedSeason],
    *,
    person_of: Mapping[PlayerId, PlayerId],
    per_machine: int = 3,
) -> dict[str, tuple[HighScore, ...]]:
    """Each machine title's best `per_machine` machine scores that stood as displayed (see the
    module's words; §7.3, §8.1, §8.2, §8.7 scores left out), best first; equal scores by
    season, meet and game (the earlier first). Players are named by person key."""
    found: dict[str, list[HighScore]] = defaultdict(list)
    for season in seasons:
        for meet, facts, outcome in _games(season):
            for key in outcome.result.order:
                score = _standing_score(facts, key)
                if score is not None:
                    found[outcome.machine].append(
                        HighScore(
                            outcome.machine,
                            score,
                            person_of.get(key, key),
                            season.key,
                            meet,
                            outcome.number,
                        )
                    )
    return {
        title: tuple(
            sorted(scores, key=lambda h: (-h.score, h.season, h.meet, h.game))[:per_machine]
        )
        for title, scores in sorted(found.items())
    }


def _games(season: FoldedSeason) -> Iterable[tuple[int, GameFacts, GameOutcome]]:
    """(meet number, game as recorded, game as scored) for every scored game of the season.

    The fold scores each recorded group's match in order, one outcome per recorded game.
    """
    facts_by_meet = {meet.number: meet for meet in season.facts.meets}
    for meet in season.result.meets:
        recorded = facts_by_meet[meet.number].groups
        for match_facts, match in zip(recorded, meet.matches, strict=True):
            for game_facts, outcome in zip(match_facts.games, match.games, strict=True):
                yield meet.number, game_facts, outcome


def _standing_score(game: GameFacts, player: PlayerId) -> int | None:
    """The player's displayed machine score when it stood as entered (module words)."""
    if player in game.reduced or player in game.zeroed or player in game.compensatory:
        return None
    return game.scores.get(player)


def _season_line(season: FoldedSeason, player: PlayerId) -> SeasonLine:
    standing = season.result.players[player]
    # Any number of meets: only which one is open matters here.
    progress = season_progress(season.facts, number_of_meets=max(len(season.facts.meets), 1))
    held = [
        night
        for night in standing.nights
        if night.status not in NOT_HELD and night.meet != progress.open_meet
    ]
    attended = [night for night in held if night.games_played > 0]
    return SeasonLine(
        season=season.key,
        meets_held=len(held),
        meets_attended=len(attended),
        league_points=standing.league_points,
        points_at_meets=sum(sum(n.game_points) + n.match_bonus for n in attended),
        games_played=sum(n.games_played for n in standing.nights),
        provisional_points=provisional_points(standing, progress),
        open_meet=progress.open_meet,
    )
