"""Which season is current: the one place that decides it (issue 27 §1)."""

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league.selectors.seasons import (
    being_prepared,
    current_of,
    current_season,
    seasons_newest_first,
)
from tests import factories as f

pytestmark = pytest.mark.django_db

JAN = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def _season(league, name, days, *statuses):
    season = f.SeasonFactory(
        league=league, name=name, created_at=JAN + datetime.timedelta(days=days)
    )
    for number, status in enumerate(statuses, start=1):
        f.MeetFactory(season=season, number=number, status=status)
    return season


def test_current_season_of_a_league_without_seasons_is_none():
    assert current_season(f.LeagueFactory()) is None


def test_current_season_before_any_meet_is_the_newest():
    league = f.LeagueFactory()
    _season(league, "Autumn", 0)
    newest = _season(league, "Winter", 30)

    assert current_season(league) == newest


def test_current_season_is_the_newest_begun_while_a_newer_one_is_prepared():
    """issue 27 §1: a season with a meet planned but not started has not begun."""
    league = f.LeagueFactory()
    winter = _season(league, "Winter", 0, m.Meet.Status.CLOSED, m.Meet.Status.OPEN)
    spring = _season(league, "Spring", 30, m.Meet.Status.PLANNED)
    seasons = list(seasons_newest_first(league))

    assert (current_season(league), current_of(seasons)) == (winter, winter)
    assert being_prepared(seasons) == frozenset({spring.pk})


def test_current_season_switches_when_the_new_seasons_first_meet_starts():
    league = f.LeagueFactory()
    _season(league, "Winter", 0, m.Meet.Status.CLOSED)
    spring = _season(league, "Spring", 30, m.Meet.Status.OPEN)

    assert current_season(league) == spring
    assert being_prepared(list(seasons_newest_first(league))) == frozenset()
