"""The next season from this one (issue 27 §1): the roster carried less those left out."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def winter():
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    season = f.SeasonFactory(
        league=official.league,
        name="Winter 2026",
        weekday=m.Weekday.TUESDAY,
        start_time=datetime.time(19, 30),
        number_of_meets=8,
        dues_cents=2500,
    )
    entries = [
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank) for rank in (5, 12, None)
    ]
    return official, season, [entry.player for entry in entries]


def test_start_next_season_carries_the_roster_less_those_left_out(winter):
    """issue 27 §1: each player carried with his rank; the season's day, time, length, dues."""
    official, season, (alice, bob, carol) = winter

    spring = services.start_next_season(
        season=season, name="Spring 2027", leave_out=[bob], actor=official.user
    )

    entries = {e.player: e for e in spring.entries.all()}
    assert sorted(entries, key=lambda p: p.pk) == [alice, carol]
    assert (entries[alice].ifpa_rank_at_start, entries[carol].ifpa_rank_at_start) == (5, None)
    assert {e.joined_at_meet for e in entries.values()} == {1}
    assert (
        spring.league,
        spring.weekday,
        spring.start_time,
        spring.number_of_meets,
        spring.dues_cents,
    ) == (season.league, m.Weekday.TUESDAY, datetime.time(19, 30), 8, 2500)
    event = m.AuditEvent.objects.get(action="season.started_from")
    assert event.data == {
        "from_season": season.pk,
        "carried": [alice.pk, carol.pk],
        "left_out": [bob.pk],
    }


def test_start_next_season_on_another_league_night(winter):
    """issue 27 §1: the league night may change with the season."""
    official, season, _players = winter

    spring = services.start_next_season(
        season=season, name="Spring 2027", weekday=m.Weekday.THURSDAY, actor=official.user
    )

    assert (spring.weekday, spring.entries.count()) == (m.Weekday.THURSDAY, 3)


def test_start_next_season_refuses_leaving_out_a_stranger(winter):
    """issue 27 §1: only the season's own players can be left out; nothing is written."""
    official, season, _players = winter
    stranger = f.PlayerFactory(first_name="Zed", last_name="Outsider")

    with pytest.raises(ValidationError) as refused:
        services.start_next_season(
            season=season, name="Spring 2027", leave_out=[stranger], actor=official.user
        )

    assert refused.value.message_dict == {
        "leave_out": [
            "Zed Outsider is not entered in Winter 2026: only its players can be left out."
        ]
    }
    assert m.Season.objects.count() == 1


def test_start_next_season_refuses_a_name_already_used(winter):
    official, season, _players = winter

    with pytest.raises(ValidationError):
        services.start_next_season(season=season, name="Winter 2026", actor=official.user)

    assert m.Season.objects.count() == 1
    assert m.SeasonEntry.objects.count() == 3


def test_start_next_season_is_refused_to_a_scorekeeper(winter):
    _official, season, _players = winter
    scorekeeper = f.LeagueOfficialFactory(
        league=season.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )

    with pytest.raises(PermissionDenied):
        services.start_next_season(season=season, name="Spring 2027", actor=scorekeeper.user)

    assert m.Season.objects.count() == 1
