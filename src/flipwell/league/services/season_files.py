"""Importing a season file (flipwell.seasonfile's JSON) as the stored facts of a new season.

A season file is what a league kept before flipwell (or flipwell's own golden and demo
seasons): entrants, and for each played meet its groups, scores, forfeits, tie orders,
compensatory games and violations. Importing writes those facts exactly as a league night
would have: a confirmed score submission per game, a forfeit per missing score, a violation
per §8.1 reduction or zero score. Nothing derived (points, ladders) is stored.

A season file may carry the season's readings of the rules (``"readings"``: its ruleset
overrides, as a season export writes them); the season keeps them. A file without them (an
older export, a league's own file) is read under the league's readings as they are now.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.refusals import Refusal
from flipwell.league.services._protocol import official_write
from flipwell.league.validators import validate_ruleset_overrides
from flipwell.rules import (
    GameFacts,
    MatchFacts,
    MeetFacts,
    RuleError,
    SeasonFacts,
    ViolationFacts,
    fold_season,
    ruleset_from_overrides,
)
from flipwell.seasonfile import season_from_dict

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ZERO_REASON_KINDS = {"deathsave": "deathsave_or_bangback", "opponents_ball": "opponents_ball"}


def import_season_file(
    *,
    league: m.League,
    name: str,
    data: Mapping[str, Any],
    first_meet: datetime.date,
    start_time: datetime.time = datetime.time(19, 0),
    open_last_meet: bool = False,
    actor: User,
) -> m.Season:
    """Create a season of `league` from a parsed season file and store every fact in it.

    Meets are dated weekly from `first_meet`; all are closed, except the last when
    `open_last_meet` (a season in progress). Players are matched by name among the league's
    earlier entrants, or created. The season keeps the file's readings, else the league's
    (see the module). Side effects: the Season, Players, SeasonEntries, Machines
    (by title), Meets, groups, games, confirmed score submissions, forfeits, tie orders,
    compensatory games, violations, and one audit event ``season.imported``. Raises
    PermissionDenied unless `actor` is a league official, and ValidationError (nothing written)
    when the file is not a valid season (the rules' message says where).
    """
    with official_write(league=league, actor=actor, action="import a season") as write:
        readings, facts = _parsed(data, _league_readings(league))
        season = m.Season(
            league=league,
            ruleset_overrides=readings,
            name=name,
            weekday=first_meet.weekday(),
            start_time=start_time,
            number_of_meets=max(len(facts.meets), int(data.get("number_of_meets", 0))),
        )
        season.full_clean()  # e.g. a season of that name already exists in the league
        season.save()
        players = _players(league, season, facts)
        machines = _machines(league, facts)
        for meet in facts.meets:
            last = meet.number == len(facts.meets)
            _meet(
                season,
                meet,
                date=first_meet + datetime.timedelta(weeks=meet.number - 1),
                status=m.Meet.Status.OPEN if open_last_meet and last else m.Meet.Status.CLOSED,
                players=players,
                machines=machines,
                actor=actor,
            )
        counts = {"meets": len(facts.meets), "entrants": len(facts.entrants)}
        write.event("season.imported", season, {"name": name, **counts})
        write.season = season  # the stored facts fold under the season's readings
    return season


def _parsed(
    data: Mapping[str, Any], league_readings: dict[str, Any]
) -> tuple[dict[str, Any], SeasonFacts]:
    """The file's readings (else the league's) and its facts; a ValidationError (nothing
    written yet) for a file that is not a valid season, the rules' message saying where: a
    file the rules cannot fold is refused before anything is written."""
    readings = data.get("readings", league_readings)
    try:
        validate_ruleset_overrides(readings)
        facts = season_from_dict(data)
        fold_season(facts, ruleset=ruleset_from_overrides(readings))
    except (RuleError, KeyError, TypeError, ValidationError) as error:
        why = " ".join(error.messages) if isinstance(error, ValidationError) else error
        raise Refusal(f"not a valid season file: {why}", code="invalid_season_file") from error
    return readings, facts


def _league_readings(league: m.League) -> dict[str, Any]:
    """The league's readings now, locked: a reading changed meanwhile waits for the import."""
    return dict(m.League.objects.select_for_update().get(pk=league.pk).ruleset_overrides)


def _players(league: m.League, season: m.Season, facts: SeasonFacts) -> dict[str, m.Player]:
    """File player key -> Player; existing league players are matched by exact name."""
    known = {
        (p.first_name, p.last_name): p
        for p in m.Player.objects.filter(season_entries__season__league=league).distinct()
    }
    players: dict[str, m.Player] = {}
    for entrant in facts.entrants:
        player = known.get((entrant.first_name, entrant.last_name))
        if player is None:
            player = m.Player.objects.create(
                first_name=entrant.first_name, last_name=entrant.last_name
            )
        players[entrant.player] = player
    m.SeasonEntry.objects.bulk_create(
        m.SeasonEntry(
            season=season,
            player=players[e.player],
            ifpa_rank_at_start=e.ifpa_rank,
            joined_at_meet=facts.joined_at.get(e.player, 1),
            late_join_forfeits_countable=False
            if e.player in facts.late_join_non_countable
            else None,
        )
        for e in facts.entrants
    )
    return players


def _machines(league: m.League, facts: SeasonFacts) -> dict[str, m.Machine]:
    titles = sorted({g.machine for meet in facts.meets for mf in meet.groups for g in mf.games})
    machines = {machine.title: machine for machine in league.machines.filter(title__in=titles)}
    for title in titles:
        if title not in machines:
            machines[title] = m.Machine.objects.create(league=league, title=title)
    return machines


def _meet(
    season: m.Season,
    facts: MeetFacts,
    *,
    date: datetime.date,
    status: str,
    players: Mapping[str, m.Player],
    machines: Mapping[str, m.Machine],
    actor: User,
) -> None:
    """One meet of a season file as its rows, a handful of bulk inserts per kind of row (a
    season is a few thousand rows: one insert each would make the import slow)."""
    meet = m.Meet.objects.create(
        season=season,
        number=facts.number,
        date=date,
        status=status,
        group_override_reason=facts.group_override or "",
    )
    m.AnnouncedAbsence.objects.bulk_create(
        m.AnnouncedAbsence(meet=meet, player=players[p], recorded_by=actor)
        for p in sorted(facts.announced_absences)
    )
    played = _ImportedGames(meet=meet, players=players, actor=actor)
    played.create(facts.groups, machines)
    m.Violation.objects.bulk_create(
        _violation(meet, played.games_of(violation.player), violation, players, actor)
        for violation in facts.violations
    )


def _violation(
    meet: m.Meet,
    games: list[m.Game],
    violation: ViolationFacts,
    players: Mapping[str, m.Player],
    actor: User,
) -> m.Violation:
    current = violation.current_game
    return m.Violation(
        meet=meet,
        game=games[current - 1] if current is not None else None,
        player=players[violation.player],
        kind=violation.violation.kind,
        serious=not violation.violation.lo_marked_not_serious,
        games_completed=violation.games_completed,
        target_game=violation.target_game,
        last_allowable_ball=violation.violation.last_allowable_ball,
        slam_tilted=violation.violation.slam_tilted,
        official=actor,
        reason="imported from a season file",
    )


@dataclass
class _ImportedGames:
    """The groups and games of one imported meet, with the rows a played game has: its
    confirmed sheet, its forfeits, tie orders, compensatory games and score adjustments.
    Rows are created in the order the meet was played (group by group, game by game)."""

    meet: m.Meet
    players: Mapping[str, m.Player]
    actor: User
    played: list[tuple[m.Game, GameFacts, MatchFacts]] = field(default_factory=list)

    def games_of(self, player: str) -> list[m.Game]:
        """`player`'s games of the meet, in order (none when absent from every group)."""
        return [game for game, _, match in self.played if player in match.players]

    def create(self, matches: Sequence[MatchFacts], machines: Mapping[str, m.Machine]) -> None:
        groups = m.Group.objects.bulk_create(
            m.Group(meet=self.meet, number=number) for number in range(1, len(matches) + 1)
        )
        m.GroupMember.objects.bulk_create(
            m.GroupMember(group=group, player=self.players[p], position=i)
            for group, match in zip(groups, matches, strict=True)
            for i, p in enumerate(match.players, start=1)
        )
        self.played = [
            (m.Game(group=group, number=n, machine=machines[game.machine]), game, match)
            for group, match in zip(groups, matches, strict=True)
            for n, game in enumerate(match.games, start=1)
        ]
        m.Game.objects.bulk_create(game for game, _, _ in self.played)
        self._sheets()
        self._forfeits_and_compensations()
        self._tie_orders()
        m.Violation.objects.bulk_create(
            adjustment
            for game, facts, _ in self.played
            for adjustment in _adjustments(game, facts, self.players, self.actor)
        )

    def _sheets(self) -> None:
        """Each game's confirmed score sheet, entered and confirmed by the group's first two."""
        now = datetime.datetime.now(tz=datetime.UTC)
        submissions = m.ScoreSubmission.objects.bulk_create(
            m.ScoreSubmission(
                game=game,
                version=1,
                entered_by=self.players[match.players[0]],
                confirmed_by=self.players[match.players[1]],
                confirmed_at=now,
                recorded_by=self.actor,
                idempotency_key=f"import:{self.meet.pk}:{game.group.number}:{game.number}",
            )
            for game, _, match in self.played
        )
        m.ScoreLine.objects.bulk_create(
            m.ScoreLine(submission=submission, player=self.players[p], machine_score=score)
            for submission, (_, facts, _) in zip(submissions, self.played, strict=True)
            for p, score in facts.scores.items()
        )

    def _forfeits_and_compensations(self) -> None:
        m.Forfeit.objects.bulk_create(
            m.Forfeit(
                game=game,
                player=self.players[p],
                countable=p not in facts.non_countable,
                reason=m.Forfeit.Reason.ABSENT,
                recorded_by=self.actor,
            )
            for game, facts, _ in self.played
            for p, score in facts.scores.items()
            if score is None
        )
        m.CompensatoryGame.objects.bulk_create(
            m.CompensatoryGame(
                game=game,
                player=self.players[p],
                new_score=c.new,
                leading_subtracted=c.leading_subtracted,
                state_subtracted=c.state_subtracted,
                official=self.actor,
            )
            for game, facts, _ in self.played
            for p, c in facts.compensatory.items()
        )

    def _tie_orders(self) -> None:
        orders = [(game, order) for game, facts, _ in self.played for order in facts.tie_order]
        ties = m.TieOrder.objects.bulk_create(
            m.TieOrder(game=game, recorded_by=self.actor) for game, _ in orders
        )
        m.TieOrderPlace.objects.bulk_create(
            m.TieOrderPlace(tie_order=tie, player=self.players[p], position=i)
            for tie, (_, order) in zip(ties, orders, strict=True)
            for i, p in enumerate(order, start=1)
        )


def _adjustments(
    game: m.Game, facts: GameFacts, players: Mapping[str, m.Player], actor: User
) -> list[m.Violation]:
    """The game's reduced and zeroed scores as the violations that made them."""
    adjustments = [(p, "own_unallowable_extra_ball", True) for p in sorted(facts.reduced)]
    adjustments += [(p, ZERO_REASON_KINDS[why], False) for p, why in facts.zeroed.items()]
    return [
        m.Violation(
            meet=game.group.meet,
            game=game,
            player=players[p],
            kind=kind,
            serious=False,  # a score adjustment only: no §8.5 offense (A28, R8.7-c)
            last_allowable_ball=last_ball,
            games_completed=game.number - 1,
            official=actor,
            reason="imported from a season file",
        )
        for p, kind, last_ball in adjustments
    ]
