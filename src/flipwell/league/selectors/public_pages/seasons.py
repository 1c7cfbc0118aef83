"""The league's list and a season's public pages: standings, a player's season, the high scores
and the playoffs (the package's words apply).

Words:
- *page ref*: a season or meet as a page lists it (`SeasonRef`, `MeetRef`).
- *begun*: a season whose first meet has started; one being prepared is listed nowhere.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from flipwell.league import models as m
from flipwell.league.selectors import people
from flipwell.league.selectors.playoffs.bracket import PlayoffBracket, playoff_bracket
from flipwell.league.selectors.seasons import being_prepared, current_of, seasons_newest_first
from flipwell.league.selectors.standings import (
    PlayerHistory,
    PlayerRef,
    StandingLine,
    Standings,
    player_history,
    standings,
)
from flipwell.rules import RuleError


class NotFoundError(LookupError):
    """The page's object does not exist in this league (the view answers 404)."""


@dataclass(frozen=True)
class SeasonRef:
    """A season as listed: id, name, length."""

    id: int
    name: str
    number_of_meets: int


@dataclass(frozen=True)
class MeetRef:
    """A meet as listed: id, number, date and status (planned, open, closed)."""

    id: int
    number: int
    date: datetime.date
    status: str


@dataclass(frozen=True)
class SeasonPage:
    """A season's standings page: the table, the race, the meets and the other seasons."""

    league: m.League
    season: SeasonRef
    seasons: tuple[SeasonRef, ...]
    meets: tuple[MeetRef, ...]
    standings: Standings
    has_playoffs: bool

    @property
    def open_meet(self) -> MeetRef | None:
        """The meet being played tonight, if any."""
        return next((meet for meet in self.meets if meet.status == m.Meet.Status.OPEN), None)

    @property
    def chart_series(self) -> tuple[tuple[str, tuple[Fraction, ...]], ...]:
        """Each player's running total after each meet, standings order (for the chart)."""
        return tuple((line.player.name, line.points_after_meet) for line in self.standings.lines)


@dataclass(frozen=True)
class PlayerPage:
    """One player's season, every point explained in words with names."""

    league: m.League
    season: SeasonRef
    seasons: tuple[SeasonRef, ...]
    """The league's seasons this player is entered in."""
    history: PlayerHistory
    rank: int | None
    person: PlayerRef
    """The person as shown (their own row's name, whichever row played this season)."""
    also_as: tuple[str, ...]
    """Other names the person was entered under (rows merged into theirs), if any."""
    stats: people.PlayerStats
    standing: StandingLine | None = None
    """His line in the season's standings (his place in the playoff race); None: not in it."""
    standings: Standings | None = None
    """The season's standings the line is read from."""


@dataclass(frozen=True)
class HighScoresPage:
    """The league's high scores: each machine title's best scores that stood as displayed."""

    league: m.League
    machines: tuple[people.MachineHighScores, ...]


@dataclass(frozen=True)
class PlayoffsPage:
    """The newest playoff night of the league (or of the season asked for)."""

    league: m.League
    season: SeasonRef | None
    seasons: tuple[SeasonRef, ...]
    """Seasons with a playoff night, newest first."""
    bracket: PlayoffBracket | None


def league_list() -> tuple[m.League, ...]:
    """Every league hosted here, by name (one query)."""
    return tuple(m.League.objects.order_by("name"))


def league_by_slug(slug: str) -> m.League:
    """The league with this slug; NotFoundError when there is none (one query)."""
    league = m.League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFoundError(f"No league {slug!r}.")
    return league


def season_page(league: m.League, season_id: int | None = None) -> SeasonPage | None:
    """The standings page of a season (the current one when `season_id` is None).

    None when the league has no season yet; NotFoundError for another league's season.
    """
    seasons = league_seasons(league)
    if not seasons:
        if season_id is not None:
            raise NotFoundError(f"No season {season_id} in {league}.")
        return None
    season = _pick(seasons, season_id)
    ref = season_ref(season)
    prepared = being_prepared(seasons)
    meets = tuple(
        MeetRef(pk, number, date, status)
        for pk, number, date, status in season.meets.order_by("number").values_list(
            "id", "number", "date", "status"
        )
    )
    return SeasonPage(
        league=league,
        season=ref,
        seasons=tuple(season_ref(s) for s in seasons if s.pk not in prepared),
        meets=meets,
        standings=standings(season),
        has_playoffs=m.PlayoffNight.objects.filter(season=season).exists(),
    )


def player_page(league: m.League, player_id: int, season_id: int | None = None) -> PlayerPage:
    """One person's season (the newest they are entered in that is not being prepared, or
    `season_id`) and their statistics over every season of this league, their merged rows'
    seasons included.

    NotFoundError if they are not entered in a season of this league; MergedPlayerError
    (naming the person's own row) when `player_id` is a row merged into another.
    """
    try:
        who = people.person(player_id)
    except people.PersonNotFoundError as error:
        raise NotFoundError(str(error)) from error
    entries = list(
        m.SeasonEntry.objects.filter(season__league=league, player_id__in=who.ids)
        .select_related("season")
        .order_by("-season__created_at", "-season__pk")
    )
    if not entries:
        raise NotFoundError(f"Player {player_id} plays in no season of {league}.")
    entered = [entry.season for entry in entries]
    prepared = being_prepared(league_seasons(league))
    shown = [s for s in entered if s.pk not in prepared]
    season = _pick(entered, season_id, default=(shown or entered)[0])
    row_id = next(entry.player_id for entry in entries if entry.season_id == season.pk)
    player = next(row for row in who.rows if row.pk == row_id)
    try:
        history = player_history(season, player)
    except RuleError as error:
        raise NotFoundError(str(error)) from error
    table = standings(season)
    line = next((line for line in table.lines if line.player.id == row_id), None)
    rank = line.rank if line else None
    return PlayerPage(
        league=league,
        season=season_ref(season),
        seasons=tuple(season_ref(s) for s in shown or entered),
        history=history,
        rank=rank,
        person=who.ref,
        also_as=tuple(sorted({str(row) for row in who.rows} - {who.ref.name})),
        stats=people.player_stats(who, league=league),
        standing=line,
        standings=table,
    )


def high_scores_page(league: m.League) -> HighScoresPage:
    """The league's best machine scores per machine title, every season (4 queries)."""
    return HighScoresPage(league=league, machines=people.league_high_scores(league))


def playoffs_page(league: m.League, season_id: int | None = None) -> PlayoffsPage:
    """The playoff night of a season (the newest with one when `season_id` is None)."""
    with_night = list(
        m.Season.objects.filter(league=league, playoff_night__isnull=False).order_by(
            "-created_at", "-pk"
        )
    )
    if not with_night:
        if season_id is not None:
            raise NotFoundError(f"No playoff night for season {season_id} in {league}.")
        return PlayoffsPage(league, None, (), None)
    season = _pick(with_night, season_id, default=with_night[0])
    return PlayoffsPage(
        league=league,
        season=season_ref(season),
        seasons=tuple(season_ref(s) for s in with_night),
        bracket=playoff_bracket(season),
    )


def is_league_staff(user: AbstractBaseUser | AnonymousUser, league: m.League) -> bool:
    """A superuser, or a user with a role in `league` (one query at most)."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return m.LeagueOfficial.objects.filter(user_id=user.pk, league=league).exists()


def league_seasons(league: m.League) -> list[m.Season]:
    """The league's seasons, newest first, annotated ``begun`` (one query)."""
    return list(seasons_newest_first(league))


def _pick(
    seasons: list[m.Season], season_id: int | None, *, default: m.Season | None = None
) -> m.Season:
    """The season `season_id` among `seasons`; without an id, `default` or else the current
    season (`seasons` then annotated and newest first, as `league_seasons` returns them)."""
    if season_id is None:
        chosen = default or current_of(seasons)
        assert chosen is not None, "no season to pick from"
        return chosen
    for season in seasons:
        if season.pk == season_id:
            return season
    raise NotFoundError(f"No season {season_id} here.")


def season_ref(season: m.Season) -> SeasonRef:
    return SeasonRef(season.pk, season.name, season.number_of_meets)
