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
from collections.abc import Mapping
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
    games_by_player: dict[str, list[m.Game]] = {}
    for number, match in enumerate(facts.groups, start=1):
        games = _group(meet, number, match, players, machines, actor)
        for player in match.players:
            games_by_player[player] = games
    for violation in facts.violations:
        games = games_by_player.get(violation.player, [])
        current = violation.current_game
        m.Violation.objects.create(
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


def _group(
    meet: m.Meet,
    number: int,
    match: MatchFacts,
    players: Mapping[str, m.Player],
    machines: Mapping[str, m.Machine],
    actor: User,
) -> list[m.Game]:
    group = m.Group.objects.create(meet=meet, number=number)
    m.GroupMember.objects.bulk_create(
        m.GroupMember(group=group, player=players[p], position=i)
        for i, p in enumerate(match.players, start=1)
    )
    return [
        _game(group, game_number, game, match, players, machines, actor)
        for game_number, game in enumerate(match.games, start=1)
    ]


def _game(
    group: m.Group,
    number: int,
    facts: GameFacts,
    match: MatchFacts,
    players: Mapping[str, m.Player],
    machines: Mapping[str, m.Machine],
    actor: User,
) -> m.Game:
    """One game of a season file as the rows a played game has: its confirmed sheet, its
    forfeits, tie orders, compensatory games and score adjustments."""
    game = m.Game.objects.create(group=group, number=number, machine=machines[facts.machine])
    _sheet(game, facts, match, players, actor)
    m.Forfeit.objects.bulk_create(
        m.Forfeit(
            game=game,
            player=players[p],
            countable=p not in facts.non_countable,
            reason=m.Forfeit.Reason.ABSENT,
            recorded_by=actor,
        )
        for p, score in facts.scores.items()
        if score is None
    )
    for order in facts.tie_order:
        tie = m.TieOrder.objects.create(game=game, recorded_by=actor)
        m.TieOrderPlace.objects.bulk_create(
            m.TieOrderPlace(tie_order=tie, player=players[p], position=i)
            for i, p in enumerate(order, start=1)
        )
    m.CompensatoryGame.objects.bulk_create(
        m.CompensatoryGame(
            game=game,
            player=players[p],
            new_score=c.new,
            leading_subtracted=c.leading_subtracted,
            state_subtracted=c.state_subtracted,
            official=actor,
        )
        for p, c in facts.compensatory.items()
    )
    _adjustments(game, facts, players, actor)
    return game


def _sheet(
    game: m.Game,
    facts: GameFacts,
    match: MatchFacts,
    players: Mapping[str, m.Player],
    actor: User,
) -> None:
    """The game's confirmed score sheet, entered and confirmed by the group's first two."""
    entered, confirmed = (players[p] for p in match.players[:2])
    submission = m.ScoreSubmission.objects.create(
        game=game,
        version=1,
        entered_by=entered,
        confirmed_by=confirmed,
        confirmed_at=datetime.datetime.now(tz=datetime.UTC),
        recorded_by=actor,
        idempotency_key=f"import:{game.group.meet_id}:{game.group.number}:{game.number}",
    )
    m.ScoreLine.objects.bulk_create(
        m.ScoreLine(submission=submission, player=players[p], machine_score=score)
        for p, score in facts.scores.items()
    )


def _adjustments(
    game: m.Game, facts: GameFacts, players: Mapping[str, m.Player], actor: User
) -> None:
    """The game's reduced and zeroed scores as the violations that made them."""
    adjustments = [(p, "own_unallowable_extra_ball", True) for p in sorted(facts.reduced)]
    adjustments += [(p, ZERO_REASON_KINDS[why], False) for p, why in facts.zeroed.items()]
    m.Violation.objects.bulk_create(
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
    )
