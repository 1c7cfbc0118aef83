"""What the venue's TV rotates through: tonight's groups and machines, the standings and the
newest bracket.

Words:
- *bracket season*: the season whose bracket the TV shows: the newest playoff night's, unless a
  newer season is being played.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.playoffs.bracket import PlayoffBracket, playoff_bracket
from flipwell.league.selectors.public_pages.meets import MeetPage, board_page
from flipwell.league.selectors.public_pages.seasons import (
    SeasonRef,
    is_league_staff,
    league_seasons,
    season_ref,
)
from flipwell.league.selectors.seasons import current_of
from flipwell.league.selectors.standings import (
    Standings,
    standings,
)


@dataclass(frozen=True)
class TvPage:
    """Everything the venue's TV rotates through."""

    league: m.League
    season: SeasonRef | None
    meet: MeetPage | None
    """Tonight's meet (the open one), else None."""
    standings: Standings | None
    bracket: PlayoffBracket | None
    """The newest playoff night's bracket, once its divisions are drawn, while it is news
    (see `tv_page`)."""
    sheet_groups: tuple[m.Group, ...] = ()
    """Tonight's groups, for their score-sheet QR codes: only when the viewer is league
    staff, else empty."""
    bracket_season: SeasonRef | None = None
    """The season whose playoffs `bracket` is (the TV names it)."""


def tv_page(league: m.League, viewer: AbstractBaseUser | AnonymousUser) -> TvPage:
    """Tonight's groups and machines, the current standings and the newest bracket; with
    the groups' rows for their QR codes when `viewer` is league staff."""
    season = current_of(league_seasons(league))
    if season is None:
        return TvPage(league, None, None, None, None)
    meet = m.Meet.objects.filter(season=season, status=m.Meet.Status.OPEN).first()
    night_season = _bracket_season(league, season)
    bracket = playoff_bracket(night_season) if night_season is not None else None
    return TvPage(
        league=league,
        season=season_ref(season),
        meet=board_page(league, meet, meet_board(meet)) if meet is not None else None,
        standings=standings(season),
        bracket=bracket if bracket is not None and bracket.divisions else None,
        sheet_groups=tuple(meet.groups.order_by("number"))
        if meet is not None and is_league_staff(viewer, league)
        else (),
        bracket_season=season_ref(night_season) if night_season is not None else None,
    )


def _bracket_season(league: m.League, current: m.Season) -> m.Season | None:
    """The season whose bracket the TV shows: the newest playoff night's, unless a newer
    season has begun its meets (then last season's playoffs are history, not tonight's news:
    the public playoffs page keeps them)."""
    night_season = (
        m.Season.objects.filter(league=league, playoff_night__qualifiers__isnull=False)
        .order_by("-created_at", "-pk")
        .first()
    )
    if night_season is None or night_season.pk == current.pk:
        return night_season
    started = current.meets.exclude(status=m.Meet.Status.PLANNED).exists()
    return None if started else night_season
