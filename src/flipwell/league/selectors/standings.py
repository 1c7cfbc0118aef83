"""The season's tables: standings with the playoff race, the next ladder, one player's history.

Words:
- *player ref*: a player as a reader sees him: database id and "First Last".
- *standing line*: one player's season so far (`flipwell.rules.season.Standing`) with his rank
  (his place in the standings order, 1 = best; equal points keep the ladder's order, A18),
  whether he is eligible for the playoffs now (*eligible*: active and at least one game
  played, A05, A37) or may still become so (a game still to play), and his place in the
  playoff race (`flipwell.rules.race`: certain under the provisional facts of a meet being
  played).
- *playoff line*: how many players qualify, from the eligible players (A05, §6.1); a line
  above which the standings show the qualifiers.
- *points after each meet*: the running total of his league points after meets 1, 2, ...
  (for a chart).
- *meets played*, *meets left*, *provisional*: `flipwell.rules.progress`: closed meets, meets not
  closed yet (the open one included: played + left = the season's meets), and the open meet's
  numbers, which may still change.
- *explanation line*: one `PointLine` of the rules written for a reader: its template with
  every player by name, then the rule cited ("Fay Evans finished 4th of 4: 1 point [R3.2-e]").

Every number comes from `flipwell.rules` folding the stored facts (`adapters.season_facts`);
nothing here computes a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from flipwell.league import models as m
from flipwell.league import turn_rulings
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import SeasonFold, season_fold
from flipwell.rules import (
    MatchResult,
    PlayoffCandidate,
    PlayoffRace,
    PointLine,
    RaceStatus,
    RuleError,
    Ruleset,
    SeasonFacts,
    SeasonResult,
    Standing,
    meet_game_lines,
    next_groups,
    playoff_eligible,
    proposed_group_numbers,
    provisional_points,
    season_progress,
    season_race,
)
from flipwell.rules.game_lines import GameLine as RulesGameLine
from flipwell.rules.playoffs import playoff_qualifier_count


@dataclass(frozen=True)
class PlayerRef:
    """A player as shown: id and full name."""

    id: int
    name: str


@dataclass(frozen=True)
class StandingLine:
    """One player's line in the standings (R3.3-a, §2.4, §2.5, §8.5, §6.1)."""

    rank: int
    player: PlayerRef
    league_points: Fraction
    games_played: int
    forfeits: int
    countable_forfeits: int
    season_forfeited_at: int | None
    credit_used_at: int | None
    offenses: int
    eligible: bool
    race_status: RaceStatus | None
    """clinched / alive / eliminated (`flipwell.rules.race`, certain under the provisional
    facts); None when he is out of the race (not eligible, and no game left to become so) or
    no race can be run (never 6 eligible players)."""
    points_to_clinch: int | None
    points_after_meet: tuple[Fraction, ...]
    provisional_points: Fraction = Fraction(0)
    """The part of `league_points` from the open meet (`Standings.open_meet`)."""
    may_become_eligible: bool = False
    """Not eligible yet (no game played) but a game still to play, tonight or at a meet left
    (the race's *pending*, A05): not barred."""


@dataclass(frozen=True)
class Standings:
    """The standings table, best first, with the playoff line and the race."""

    season_id: int
    meets_played: int
    """Closed meets (module words)."""
    meets_left: int
    """Meets not closed yet, the open one included: meets_played + meets_left = the season's."""
    playoff_qualifiers: int | None
    """The playoff line (A05, §6.1): None below the rulebook's 6 players (§1)."""
    lines: tuple[StandingLine, ...]
    open_meet: int | None = None
    """The meet being played: its points are in the lines, provisional; None: none is."""
    season_forfeit_limit: int = 12
    """The countable forfeits that forfeit the season in this league (R2.5-a, its ruleset)."""
    playoff_line_after_meet: int | None = None
    """With no playoff line yet (`playoff_qualifiers` None) and meets left: the meet after which
    it is first drawn, the next to close (once six players have played a game, §1, A05)."""

    @property
    def provisional(self) -> bool:
        """Whether a meet is being played, so that the points are provisional."""
        return self.open_meet is not None

    @property
    def someone_may_become_eligible(self) -> bool:
        """Whether a player with no game played yet may still play one (a legend's word)."""
        return any(line.may_become_eligible for line in self.lines)

    def above_line(self) -> tuple[StandingLine, ...]:
        """The eligible players who would qualify if the season ended now (ties aside)."""
        if self.playoff_qualifiers is None:
            return ()
        eligible = [line for line in self.lines if line.eligible]
        return tuple(eligible[: self.playoff_qualifiers])


@dataclass(frozen=True)
class LadderLine:
    """A ladder position (1 = top of group 1) and the player's league points."""

    position: int
    player: PlayerRef
    league_points: Fraction


@dataclass(frozen=True)
class NextMeet:
    """The next meet's ladder and groups (R4.2-a, R4.2-b, R3.1-d)."""

    meet_number: int
    ladder: tuple[LadderLine, ...]
    announced_absent: tuple[PlayerRef, ...]
    groups: tuple[tuple[LadderLine, ...], ...]
    problem: str
    """Why no groups could be formed (e.g. 5 players, A16); "" when the groups are shown."""


@dataclass(frozen=True)
class GameLine:
    """One game of a player's match: machine, everyone's score, his place, points and why."""

    number: int
    machine: str
    scores: tuple[tuple[PlayerRef, int | None], ...]
    place: int | None
    points: int
    forfeited: bool
    explanation: tuple[str, ...]


@dataclass(frozen=True)
class TurnRulingLine:
    """An official's ruling about a player's turn, for the player's pages: the game's number,
    the kind (a key of `flipwell.league.turn_rulings.KINDS`; what it ruled in words:
    `flipwell.web.words.turn_rulings`), its name and rules."""

    game: int
    kind: str
    name: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class MeetLine:
    """One meet of a player's season."""

    meet: int
    status: str
    group: tuple[PlayerRef, ...]
    games: tuple[GameLine, ...]
    match_bonus: int
    match_bonus_explanation: tuple[str, ...]
    credit: Fraction
    penalty_games: tuple[int, ...]
    """The games his §8.5 penalties fell on at this meet (R8.5-c, R8.5-d)."""
    violations: tuple[str, ...]
    league_points: Fraction
    total_after: Fraction
    turn_rulings: tuple[TurnRulingLine, ...] = ()
    """The officials' rulings about their turn in a game of this meet (a slow-play warning,
    ...), in the order of the games."""


@dataclass(frozen=True)
class PlayerHistory:
    """A player's whole season: every meet, every game, every point explained."""

    player: PlayerRef
    league_points: Fraction
    meets: tuple[MeetLine, ...]
    open_meet: int | None = None
    """The meet being played: its line is provisional; None: none is."""
    provisional_points: Fraction = Fraction(0)
    """The part of `league_points` from the open meet."""


def standings(season: m.Season) -> Standings:
    """The standings with the playoff line and race (§3.3, §6.1, §6.2; A05, A37).

    Queries: a fixed number (the season's facts, the league).
    """
    folded = season_fold(season)
    facts, result, ruleset = folded.facts, folded.result, folded.ruleset
    names = _names(facts)
    progress = season_progress(facts)  # the facts' number of meets (R2-a, A68)
    meets_left = progress.left
    ordered = result.standings()
    candidates = [_candidate(s) for s in ordered]
    race = _race(facts, result, ruleset)
    eligible_count = sum(c.eligible for c in candidates)
    try:
        qualifiers: int | None = min(
            playoff_qualifier_count(eligible_count, ruleset=ruleset), eligible_count
        )
    except RuleError:
        qualifiers = None
    lines = []
    for rank, (standing, candidate) in enumerate(zip(ordered, candidates, strict=True), 1):
        in_race = race.find(standing.player) if race else None
        lines.append(
            StandingLine(
                rank=rank,
                player=names[standing.player],
                league_points=standing.league_points,
                games_played=standing.games_played,
                forfeits=standing.forfeits,
                countable_forfeits=standing.countable_forfeits,
                season_forfeited_at=standing.season_forfeited_at,
                credit_used_at=standing.credit_used_at,
                offenses=standing.offenses,
                eligible=candidate.eligible,
                race_status=in_race.status if in_race else None,
                points_to_clinch=in_race.points_to_clinch if in_race else None,
                points_after_meet=_running_totals(standing),
                provisional_points=provisional_points(standing, progress),
                may_become_eligible=bool(in_race and not in_race.eligible),
            )
        )
    return Standings(
        season_id=season.pk,
        meets_played=progress.played,
        meets_left=meets_left,
        playoff_qualifiers=qualifiers,
        lines=tuple(lines),
        open_meet=progress.open_meet,
        season_forfeit_limit=ruleset.season_forfeit_limit,
        playoff_line_after_meet=(
            progress.played + 1 if qualifiers is None and meets_left and race else None
        ),
    )


def ladder(season: m.Season) -> NextMeet:
    """The next meet's ladder and groups (R4.3-c, R3.1-a, R3.1-c, R3.1-d, R4.2-b; A17, A18).

    Announced absences already recorded for the next meet are left out of the groups.
    """
    folded = season_fold(season)
    facts, result, ruleset = folded.facts, folded.result, folded.ruleset
    names = _names(facts)
    number = len(result.meets) + 1
    absent_ids = list(
        m.AnnouncedAbsence.objects.filter(meet__season=season, meet__number=number)
        .order_by("player__last_name", "player__first_name")
        .values_list("player_id", flat=True)
    )
    absent = [player_key(p) for p in absent_ids if player_key(p) in result.players]
    line = {
        p: LadderLine(i, names[p], result.players[p].league_points)
        for i, p in enumerate(result.ladder, 1)
    }
    problem = ""
    try:
        groups = next_groups(
            result, announced_absences=[p for p in absent if p in line], ruleset=ruleset
        )
    except RuleError as error:
        groups, problem = [], error.render({p: ref.name for p, ref in names.items()})
    return NextMeet(
        meet_number=number,
        ladder=tuple(line[p] for p in result.ladder),
        announced_absent=tuple(names[p] for p in absent),
        groups=tuple(tuple(line[p] for p in group) for group in groups),
        problem=problem,
    )


@dataclass(frozen=True)
class StartProposal:
    """What the console proposes when an official starts a meet (§4.1, R4.1-d)."""

    preview: NextMeet
    present: tuple[LadderLine, ...]
    """The ladder without the players who announced their absence, in ladder order."""
    group_numbers: list[int]
    """Each present player's proposed group, in ladder order (1 is the top group)."""
    group_count: int
    """How many groups the official may spread them over."""


def start_proposal(meet: m.Meet) -> StartProposal:
    """The ladder of `meet`'s season, the players present and their proposed groups under the
    league's ruleset (`proposed_group_numbers`, §4.1, R4.1-d)."""
    preview = ladder(meet.season)
    absent = set(preview.announced_absent)
    present = tuple(line for line in preview.ladder if line.player not in absent)
    ruleset = season_fold(meet.season).ruleset
    numbers, count = proposed_group_numbers(len(present), ruleset=ruleset)
    return StartProposal(preview, present, numbers, count)


def player_history(season: m.Season, player: m.Player) -> PlayerHistory:
    """Every meet of one player's season, with the rules' explanation of every point.

    R3.2 (game points and bonus), R3.3 (match bonus), R2.4-d (the all-night credit), §8.5
    (the game a penalty fell on). Raises RuleError if he is not entered in the season.
    """
    folded = season_fold(season, explain=True)  # every point, with its reason
    facts, result = folded.facts, folded.result
    names = _names(facts)
    written = {p: ref.name for p, ref in names.items()}
    key = player_key(player.pk)
    if key not in result.players:
        raise RuleError(f"{player} is not entered in {season.name}")
    violations = _violations(season, player)
    turns = _turn_rulings(season, player)
    standing = result.players[key]
    totals = _running_totals(standing)
    matches = {
        meet.number: next((x for x in meet.matches if key in x.players), None)
        for meet in result.meets
    }
    lines = _game_lines_of(folded, matches)
    meets = []
    for index, night in enumerate(standing.nights):
        match = matches.get(night.meet)
        meets.append(
            MeetLine(
                meet=night.meet,
                status=night.status,
                group=tuple(names[p] for p in _group_players(facts, night.meet, key)),
                games=_games(match, lines.get(night.meet, ()), key, names, written)
                if match
                else (),
                match_bonus=night.match_bonus,
                match_bonus_explanation=tuple(
                    explain(line, written)
                    for line in (match.bonus.lines if match else ())
                    if line.player == key
                ),
                credit=night.credit,
                penalty_games=tuple(result.meets[night.meet - 1].penalties.get(key, ())),
                violations=tuple(violations.get(night.meet, ())),
                league_points=Fraction(night.league_points),
                total_after=totals[index],
                turn_rulings=tuple(turns.get(night.meet, ())),
            )
        )
    progress = season_progress(facts)
    return PlayerHistory(
        player=names[key],
        league_points=standing.league_points,
        meets=tuple(meets),
        open_meet=progress.open_meet,
        provisional_points=provisional_points(standing, progress),
    )


def _game_lines_of(
    folded: SeasonFold, matches: Mapping[int, MatchResult | None]
) -> dict[int, tuple[tuple[RulesGameLine, ...], ...]]:
    """Meet number -> the game lines of his match there: the scores that count
    (`flipwell.rules.game_lines`)."""
    return {
        number: meet_game_lines(folded.facts, folded.result, number, ruleset=folded.ruleset).get(
            frozenset(match.players), ()
        )
        for number, match in matches.items()
        if match is not None
    }


def _violations(season: m.Season, player: m.Player) -> dict[int, list[str]]:
    """Meet number -> the kinds (in words) of the violations `player` committed there (§8)."""
    violations: dict[int, list[str]] = {}
    for number, kind in m.Violation.objects.filter(meet__season=season, player=player).values_list(
        "meet__number", "kind"
    ):
        violations.setdefault(number, []).append(m.Violation.Kind(kind).label)
    return violations


def _turn_rulings(season: m.Season, player: m.Player) -> dict[int, list[TurnRulingLine]]:
    """Meet number -> the player's turn rulings there (1 query)."""
    found: dict[int, list[TurnRulingLine]] = {}
    rows = m.Ruling.objects.filter(
        kind__in=list(turn_rulings.KINDS), player=player, game__group__meet__season=season
    ).order_by("game__group__meet__number", "game__number", "pk")
    for meet, game, kind in rows.values_list("game__group__meet__number", "game__number", "kind"):
        entry = turn_rulings.KINDS[kind]
        line = TurnRulingLine(game=game, kind=kind, name=entry.name, rules=entry.rules)
        found.setdefault(meet, []).append(line)
    return found


def eligible_for_playoffs(standing: Standing) -> bool:
    """A05, A37: still active (not season-forfeited, not suspended) with a game played."""
    return playoff_eligible(standing)


def playoff_candidates(result: SeasonResult) -> list[PlayoffCandidate]:
    """Every player of the folded season as a playoff candidate, standings order (R6.1-d)."""
    return [_candidate(s) for s in result.standings()]


def _candidate(standing: Standing) -> PlayoffCandidate:
    return PlayoffCandidate(
        player=standing.player,
        points=standing.league_points,
        eligible=eligible_for_playoffs(standing),
    )


def _race(facts: SeasonFacts, result: SeasonResult, ruleset: Ruleset) -> PlayoffRace | None:
    try:
        return season_race(facts, result, ruleset=ruleset)
    except RuleError:
        return None  # never 6 eligible players (§1): no playoff line


def _running_totals(standing: Standing) -> tuple[Fraction, ...]:
    totals, running = [], Fraction(0)
    for night in standing.nights:
        running += night.league_points
        totals.append(running)
    return tuple(totals)


def _names(facts: SeasonFacts) -> dict[str, PlayerRef]:
    return {
        e.player: PlayerRef(int(e.player), f"{e.first_name} {e.last_name}") for e in facts.entrants
    }


def _group_players(facts: SeasonFacts, meet: int, key: str) -> tuple[str, ...]:
    for group in facts.meets[meet - 1].groups if meet <= len(facts.meets) else ():
        if key in group.players:
            return group.players
    return ()


def explain(line: PointLine, names: Mapping[str, str]) -> str:
    """The explanation line of `line` with every player by his name in `names` (player key ->
    "First Last"), the rule cited at the end. The one way pages and the API write a reason."""
    return f"{line.render(names)} [{line.rule}]"


def _games(
    match: MatchResult,
    lines: Sequence[Sequence[RulesGameLine]],
    key: str,
    names: dict[str, PlayerRef],
    written: Mapping[str, str],
) -> tuple[GameLine, ...]:
    """His games of `match`, each with everyone's score that counts (`lines`, the match's game
    lines, game 1 first)."""
    line = match.players[key]
    games = []
    for index, game in enumerate(match.games):
        counted = {x.player: x.score for x in lines[index]}
        games.append(
            GameLine(
                number=game.number,
                machine=game.machine,
                scores=tuple((names[p], counted[p]) for p in match.players),
                place=game.result.place(key),
                points=line.game_points[index],
                forfeited=key in game.forfeits,
                explanation=tuple(explain(x, written) for x in game.lines if x.player == key),
            )
        )
    return tuple(games)
