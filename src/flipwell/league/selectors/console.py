"""Reads for the official's console: the lists its pages show beside their forms.

Words: a *console list* is the stored facts of one kind for one league, season or meet, loaded
in one query each (rows joined to their player and machine names), newest last unless said.
Nothing here computes a rule (a rule the console asks about is asked of `flipwell.rules`);
points and penalties come from the other selectors.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from django.db.models import Count, Max, Q
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import turn_rulings
from flipwell.league.adapters.game_facts import absent_at
from flipwell.league.adapters.rulesets import league_ifpa_parameters, season_ruleset
from flipwell.league.selectors.seasons import being_prepared, current_of, seasons_newest_first
from flipwell.rules import IfpaParameters, ends_the_game, ifpa_schedule_warnings, next_meet_date
from flipwell.rules import meet_date_warnings as rules_date_warnings
from flipwell.rules.special_rulings import title_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


@dataclass(frozen=True)
class OfficialLeague:
    league: m.League
    role: str
    role_label: str


def official_leagues(user: User | AnonymousUser) -> list[OfficialLeague]:
    """The leagues `user` has a role in (every league for a superuser), by name (1 query)."""
    if user.is_superuser:
        return [
            OfficialLeague(league, m.LeagueOfficial.Role.LEAGUE_OFFICIAL, "League official")
            for league in m.League.objects.order_by("name")
        ]
    rows = m.LeagueOfficial.objects.filter(user_id=int(user.pk or 0)).select_related("league")
    return sorted(
        (OfficialLeague(r.league, r.role, r.get_role_display()) for r in rows),
        key=lambda o: o.league.name,
    )


@dataclass(frozen=True)
class NextMeet:
    """The season's next meet, for the console's shortcut: the lowest planned meet, else the
    next number on the next league day (R2-a, `next_meet_date`), not scheduled yet (`planned`
    None)."""

    number: int
    date: datetime.date
    planned: m.Meet | None


@dataclass(frozen=True)
class SeasonSummary:
    season: m.Season
    entries: int
    meets_closed: int
    open_meet: m.Meet | None
    next_meet: NextMeet | None
    current: bool = False
    """The season the public pages, the TV and the API show (`selectors.seasons`)."""
    preparing: str = ""
    """For a season being prepared, what the public sees meanwhile, in words; else ""."""
    ifpa_warnings: tuple[str, ...] = ()
    """Before its first meet starts, the IFPA requirements its schedule cannot meet, in
    words (`ifpa_schedule_warnings`); else ()."""


def league_seasons(league: m.League, *, today: datetime.date | None = None) -> list[SeasonSummary]:
    """The league's seasons, newest first, with their meets' progress and next meet, none
    while a meet is open or once every meet is held; which one is current, and what the
    public sees while one is being prepared (3 queries)."""
    seasons = list(
        seasons_newest_first(league).annotate(
            entry_count=Count("entries", distinct=True),
            closed=Count("meets", filter=Q(meets__status=m.Meet.Status.CLOSED), distinct=True),
            last_number=Max("meets__number"),
            last_date=Max("meets__date"),
        )
    )
    current = current_of(seasons)
    prepared = being_prepared(seasons)
    open_meets: dict[int, m.Meet] = {}
    planned: dict[int, m.Meet] = {}
    for meet in (
        m.Meet.objects.filter(season__league=league)
        .exclude(status=m.Meet.Status.CLOSED)
        .order_by("-number")
    ):
        (open_meets if meet.status == m.Meet.Status.OPEN else planned)[meet.season_id] = meet
    today = today or timezone.localdate(timezone=ZoneInfo(league.time_zone))
    figures = league_ifpa_parameters(league)
    return [
        SeasonSummary(
            season=s,
            entries=s.entry_count,
            meets_closed=s.closed,
            open_meet=open_meets.get(s.pk),
            next_meet=None if s.pk in open_meets else _next_meet(s, planned.get(s.pk), today),
            current=s == current,
            preparing=_preparing(s, current) if s.pk in prepared else "",
            ifpa_warnings=_ifpa_warnings(s, s.entry_count, figures),
        )
        for s in seasons
    ]


def _ifpa_warnings(season: m.Season, members: int, figures: IfpaParameters) -> tuple[str, ...]:
    """What the season's schedule cannot meet of the IFPA's requirements, before its first
    meet starts (after, the IFPA page checks what happened); no query."""
    if getattr(season, "begun", False):
        return ()
    return ifpa_schedule_warnings(
        number_of_meets=season.number_of_meets,
        members=members,
        ruleset=season_ruleset(season),
        parameters=figures,
    )


def _preparing(season: m.Season, current: m.Season | None) -> str:
    """What the public sees while `season` is being prepared, in words."""
    shown = current.name if current is not None else "the season being played"
    return (
        f"{season.name} is being prepared: the public pages, the TV and the API show "
        f"{shown} until its first meet starts or you publish it."
    )


def _next_meet(season: Any, planned: m.Meet | None, today: datetime.date) -> NextMeet | None:
    """`season` annotated with its last meet's number and date (`league_seasons`)."""
    if planned is not None:
        return NextMeet(planned.number, planned.date, planned)
    number = (season.last_number or 0) + 1
    if number > season.number_of_meets:
        return None
    on = next_meet_date(league_day=season.weekday, last_meet=season.last_date, today=today)
    return NextMeet(number, on, None)


def next_meet(season: m.Season, *, today: datetime.date | None = None) -> NextMeet | None:
    """`season`'s next meet (see `NextMeet`); None while a meet is open or once every meet is
    held (2 queries)."""
    return next(
        (s.next_meet for s in league_seasons(season.league, today=today) if s.season == season),
        None,
    )


def before_start_warning(meet: m.Meet, doing: str, now: datetime.datetime | None = None) -> str:
    """A warning when `doing` (start, close) comes before the meet's scheduled start, in the
    league's time zone: players may be on their way and may still announce an absence or a
    lateness until then (R2.2-a, R3.1-d); "" from the start time on."""
    zone = ZoneInfo(meet.season.league.time_zone)
    start = datetime.datetime.combine(meet.date, meet.season.start_time, tzinfo=zone)
    at = (now or timezone.now()).astimezone(zone)
    if at >= start:
        return ""
    when = f"{start:%H:%M}" if at.date() == start.date() else f"{start:%H:%M} on {start:%a %d %b}"
    return (
        f"It is {at:%H:%M} on {at:%a %d %b}: meet {meet.number} starts at {when} ({zone.key}). "
        f"You are about to {doing} it before its start time: players may still be on their way "
        "and may still tell you they will be absent or late (R2.2-a, R3.1-d)."
    )


def meet_date_warnings(meet: m.Meet) -> tuple[str, ...]:
    """The rules' warnings about `meet`'s date: not on the league day, or less than a week
    after the meet before it (R2-a, `flipwell.rules.meet_date_warnings`; 1 query)."""
    previous = (
        meet.season.meets.filter(number__lt=meet.number)
        .order_by("-number")
        .values_list("date", flat=True)
        .first()
    )
    return rules_date_warnings(
        number=meet.number, on=meet.date, league_day=meet.season.weekday, previous=previous
    )


def season_roster(season: m.Season) -> list[m.SeasonEntry]:
    """The season's entries with their players, by name (1 query)."""
    return list(
        season.entries.select_related("player").order_by("player__last_name", "player__first_name")
    )


def season_meets(season: m.Season) -> list[m.Meet]:
    """The season's scheduled and played meets, by number (1 query)."""
    return list(season.meets.order_by("number"))


@dataclass(frozen=True)
class MeetFacts:
    """What was recorded at a meet, for the console's lists."""

    absences: tuple[m.AnnouncedAbsence, ...]
    lateness: tuple[m.LatenessNotice, ...]
    forfeits: tuple[m.Forfeit, ...]
    late_joins: tuple[m.LateJoin, ...]
    malfunctions: tuple[m.Malfunction, ...]
    compensatory_requests: tuple[m.CompensatoryRequest, ...]
    compensatory_games: tuple[m.CompensatoryGame, ...]
    violations: tuple[m.Violation, ...]
    declarations: tuple[m.MachineDeclaration, ...]
    problems: tuple[m.AnnouncedProblem, ...]
    corrections: tuple[m.CorrectionRequest, ...]
    responses: dict[int, list[m.CorrectionResponse]]
    rulings: tuple[m.Ruling, ...] = ()
    """The officials' rulings about a player's turn in a game of the meet (a slow-play
    warning, ...: `flipwell.league.turn_rulings`)."""


def meet_facts(meet: m.Meet) -> MeetFacts:
    """Every incident recorded at `meet` (one query per kind)."""
    at_meet = {"game__group__meet": meet}
    game = ("game__group", "player")
    corrections = tuple(
        m.CorrectionRequest.objects.filter(**at_meet)
        .select_related("game__group", "requested_by", "base", "proposed")
        .order_by("created_at")
    )
    responses: dict[int, list[m.CorrectionResponse]] = defaultdict(list)
    for response in m.CorrectionResponse.objects.filter(request__game__group__meet=meet):
        responses[response.request_id].append(response)
    return MeetFacts(
        absences=tuple(meet.announced_absences.select_related("player")),
        lateness=tuple(meet.lateness_notices.select_related("player")),
        forfeits=tuple(m.Forfeit.objects.filter(**at_meet).select_related(*game)),
        late_joins=tuple(m.LateJoin.objects.filter(**at_meet).select_related(*game)),
        malfunctions=tuple(
            m.Malfunction.objects.filter(**at_meet).select_related(*game, "game__machine")
        ),
        compensatory_requests=tuple(
            m.CompensatoryRequest.objects.filter(**at_meet).select_related(*game)
        ),
        compensatory_games=tuple(
            m.CompensatoryGame.objects.filter(**at_meet).select_related(*game)
        ),
        violations=tuple(meet.violations.select_related("player", "game").order_by("created_at")),
        declarations=tuple(meet.declarations.select_related("machine").order_by("created_at")),
        problems=tuple(m.AnnouncedProblem.objects.filter(meet=meet).select_related("machine")),
        corrections=corrections,
        responses=dict(responses),
        rulings=tuple(
            m.Ruling.objects.filter(**at_meet, kind__in=list(turn_rulings.KINDS))
            .select_related(*game)
            .order_by("created_at", "pk")
        ),
    )


@dataclass(frozen=True)
class MeetForfeit:
    """A forfeit of a game at a meet, wherever it was entered (§2.4).

    on_sheet: entered as the player's "forfeit" box on the group's score sheet (no score on the
    counted version), with no forfeit recorded by an official; reason and note are then empty.
    countable: counts toward forfeiting the season (R2.4-h) unless designated not (R2.4-g).
    """

    game: m.Game
    player: m.Player
    countable: bool
    on_sheet: bool
    reason: str
    note: str
    match_absence: bool = False
    """It follows from the player's absence for the rest of the match (R2.4-a), recorded from
    this game or an earlier one; reason is then empty and note the absence's."""
    recorded: m.Forfeit | None = None
    """The forfeit an official or the API recorded (its id, author and time); None for the
    other two kinds."""


def meet_forfeits(meet: m.Meet) -> tuple[MeetForfeit, ...]:
    """Every forfeit of `meet`'s games, by group, game and player: those an official or the
    API recorded, and those entered on a score sheet (a player with no score on the game's
    counted, latest confirmed version), and those that follow from a player's absence for the
    rest of the match (R2.4-a), one per game (5 queries)."""
    games = {g.pk: g for g in meet_games(meet)}
    rows = {
        (f.game_id, f.player_id): f
        for f in m.Forfeit.objects.filter(game__group__meet=meet).select_related(
            "player", "recorded_by"
        )
    }
    lines = (
        m.ScoreLine.objects.filter(
            submission__game__group__meet=meet, submission__confirmed_by__isnull=False
        )
        .order_by("submission__game_id", "submission__version")
        .values_list("submission__game_id", "submission__version", "player_id", "machine_score")
    )
    counted: dict[int, tuple[int, dict[int, int | None]]] = {}
    for game_id, version, player_id, score in lines:
        if game_id not in counted or counted[game_id][0] < version:
            counted[game_id] = (version, {})
        counted[game_id][1][player_id] = score
    absent = _absence_forfeits(meet, games.values(), rows)
    on_sheet = {
        (game_id, player_id)
        for game_id, (_, sheet) in counted.items()
        for player_id, score in sheet.items()
        if score is None and (game_id, player_id) not in rows and (game_id, player_id) not in absent
    }
    players = m.Player.objects.in_bulk({p for _, p in on_sheet})
    found = [
        MeetForfeit(
            games[f.game_id],
            f.player,
            f.countable,
            False,
            f.get_reason_display(),
            f.note,
            recorded=f,
        )
        for f in rows.values()
    ] + [MeetForfeit(games[g], players[p], True, True, "", "") for g, p in on_sheet]
    found += absent.values()
    return tuple(
        sorted(
            found,
            key=lambda f: (f.game.group.number, f.game.number, str(f.player), f.player.pk),
        )
    )


def _absence_forfeits(
    meet: m.Meet, games: Iterable[m.Game], recorded: Mapping[tuple[int, int], m.Forfeit]
) -> dict[tuple[int, int], MeetForfeit]:
    """(game, player) -> the forfeit of each of the meet's games that follows from a player's
    absence for the rest of the match (R2.4-a: that game and every later one), unless a
    forfeit of it is recorded (1 query)."""
    by_group: dict[int, dict[int, m.MatchAbsence]] = defaultdict(dict)
    for absence in m.MatchAbsence.objects.filter(group__meet=meet).select_related("player"):
        by_group[absence.group_id][absence.player_id] = absence
    found: dict[tuple[int, int], MeetForfeit] = {}
    for game in games:
        absences = by_group.get(game.group_id, {})
        first = {p: a.from_game for p, a in absences.items()}
        for player_id in absent_at(first, game.number):
            if (game.pk, player_id) not in recorded:
                absence = absences[player_id]
                found[(game.pk, player_id)] = MeetForfeit(
                    game, absence.player, True, False, "", absence.note, match_absence=True
                )
    return found


def match_absences_at(meet: m.Meet) -> tuple[m.MatchAbsence, ...]:
    """The players recorded absent for the rest of their match at `meet` (R2.4-a), with their
    group and player, by group number (1 query)."""
    return tuple(
        m.MatchAbsence.objects.filter(group__meet=meet)
        .select_related("group", "player")
        .order_by("group__number", "from_game", "player__last_name", "player__first_name")
    )


def meet_games(meet: m.Meet, *, group: int | None = None) -> list[m.Game]:
    """The meet's games with their group and machine, by group and number (1 query); only
    group number `group`'s when given."""
    rows = m.Game.objects.filter(group__meet=meet)
    if group is not None:
        rows = rows.filter(group__number=group)
    return list(rows.select_related("group", "machine").order_by("group__number", "number"))


def meet_players(meet: m.Meet, *, group: int | None = None) -> list[tuple[int, str]]:
    """The players grouped at `meet` (id, name), by name (1 query); only group number
    `group`'s when given."""
    members = m.GroupMember.objects.filter(group__meet=meet)
    if group is not None:
        members = members.filter(group__number=group)
    rows = members.order_by("player__last_name", "player__first_name").values_list(
        "player_id", "player__first_name", "player__last_name"
    )
    return [(pid, f"{first} {last}") for pid, first, last in rows]


def meet_group_players(
    meet: m.Meet, *, group: int | None = None
) -> dict[int, list[tuple[int, str]]]:
    """Group number -> its players at `meet` (id, name) in play order, groups by number (1
    query); only group number `group` when given. A game's players are its group's."""
    members = m.GroupMember.objects.filter(group__meet=meet)
    if group is not None:
        members = members.filter(group__number=group)
    rows = members.order_by("group__number", "position").values_list(
        "group__number", "player_id", "player__first_name", "player__last_name"
    )
    found: dict[int, list[tuple[int, str]]] = {}
    for number, pid, first, last in rows:
        found.setdefault(number, []).append((pid, f"{first} {last}"))
    return found


def malfunction_ends_the_game(reason_code: str) -> bool:
    """Whether a malfunction reported with `reason_code` ends the game for every player on
    the machine (R7.3-h, R8.4-c), as the rules say: the console then shows the official what
    each player is owed before it is recorded."""
    return ends_the_game(reason_code)


def league_machines(league: m.League) -> list[m.Machine]:
    """The league's machines by title (1 query)."""
    return list(m.Machine.objects.filter(league=league).order_by("title"))


def special_ruling_rows(league: m.League) -> list[m.SpecialRuling]:
    """The latest version of every special ruling of `league`, by title and number (1 query)."""
    latest: dict[tuple[str, int], m.SpecialRuling] = {}
    rows = m.SpecialRuling.objects.filter(league=league)
    for row in rows.order_by("machine_title", "number", "version"):
        latest[(row.machine_title, row.number)] = row
    return list(latest.values())


def other_leagues_rulings(league: m.League) -> list[m.SpecialRuling]:
    """The latest version of every special ruling other leagues made on a title one of
    `league`'s machines has (the ones it may copy), by title, league and number
    (2 queries)."""
    titles = {
        title_key(t)
        for t in m.Machine.objects.filter(league=league).values_list("title", flat=True)
    }
    latest: dict[tuple[int, str, int], m.SpecialRuling] = {}
    rows = m.SpecialRuling.objects.exclude(league=league).select_related("league")
    for row in rows.order_by("machine_title", "league__name", "number", "version"):
        if title_key(row.machine_title) in titles:
            latest[(row.league_id, row.machine_title, row.number)] = row
    return list(latest.values())


def league_rulings(league: m.League, limit: int = 50) -> list[m.Ruling]:
    """The league's latest official rulings, newest first (1 query)."""
    return list(
        m.Ruling.objects.filter(league=league).select_related("official").order_by("-id")[:limit]
    )


def season_players(season: m.Season) -> list[tuple[int, str]]:
    """The season's players (id, name), by name (1 query)."""
    rows = season.entries.order_by("player__last_name", "player__first_name").values_list(
        "player_id", "player__first_name", "player__last_name"
    )
    return [(pid, f"{first} {last}") for pid, first, last in rows]


def league_players(league: m.League) -> list[tuple[int, str]]:
    """Every player entered in one of the league's seasons (id, name), by name (1 query)."""
    rows = (
        m.Player.objects.filter(season_entries__season__league=league)
        .distinct()
        .order_by("last_name", "first_name")
        .values_list("id", "first_name", "last_name")
    )
    return [(pid, f"{first} {last}") for pid, first, last in rows]
