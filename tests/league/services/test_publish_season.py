"""Publishing a season being prepared (issue 27 §1): the official shows the new season to the
public before its first meet starts; a recorded decision (who, when)."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.seasons import current_season
from flipwell.league.services import ConflictError
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


@pytest.fixture
def winter_closed():
    """Winter 2026 with meet 1 closed; Spring 2027 started from it (being prepared)."""
    night = night_.build_night(players=8, machines=8)
    meet = night_.start(night)
    services.close_meet(meet=meet, actor=night.user, override_reason="Short season")
    spring = services.start_next_season(season=night.season, name="Spring 2027", actor=night.user)
    return night, spring


def test_publish_season_makes_the_season_being_prepared_the_current_one(winter_closed):
    """issue 27 §1: the official publishes the new season before its first meet starts."""
    night, spring = winter_closed
    assert current_season(night.league) == night.season

    services.publish_season(season=spring, actor=night.user)

    spring.refresh_from_db()
    assert current_season(night.league) == spring
    assert spring.published_by == night.user
    assert spring.published_at is not None
    event = m.AuditEvent.objects.get(action="season.published")
    assert (event.actor, event.data) == (night.user, {"shown_before": night.season.pk})


def test_publish_season_changes_the_leagues_revision(winter_closed):
    """The public pages' ETags change with the season they show."""
    night, spring = winter_closed
    before = m.League.objects.get(pk=night.league.pk).revision

    services.publish_season(season=spring, actor=night.user)

    assert m.League.objects.get(pk=night.league.pk).revision != before


def test_publish_season_twice_is_refused(winter_closed):
    night, spring = winter_closed
    services.publish_season(season=spring, actor=night.user)

    with pytest.raises(ConflictError) as refused:
        services.publish_season(season=spring, actor=night.user)

    assert refused.value.conflict == "season_already_public"
    assert refused.value.messages == ["Spring 2027 is already shown to the public."]


def test_publish_season_refuses_the_season_already_shown(winter_closed):
    night, _spring = winter_closed

    with pytest.raises(ConflictError) as refused:
        services.publish_season(season=night.season, actor=night.user)

    assert refused.value.conflict == "season_already_public"


def test_publish_season_refuses_an_older_season_than_the_one_shown(winter_closed):
    """A season created before the one shown, never played, is not being prepared."""
    night, spring = winter_closed
    old = f.SeasonFactory(league=night.league, name="Autumn 2025", created_at=f.SET_UP_2026)
    services.publish_season(season=spring, actor=night.user)

    with pytest.raises(ValidationError) as refused:
        services.publish_season(season=old, actor=night.user)

    assert refused.value.messages == [
        "Autumn 2025 is older than Spring 2027, the season shown to the public: only a season "
        "newer than it can be published."
    ]


def test_publish_season_is_refused_while_a_meet_of_the_season_shown_is_open():
    """Tonight's board and TV would leave the meet being played."""
    night = night_.build_night(players=8, machines=8)
    night_.start(night)
    spring = services.create_season(
        league=night.league,
        name="Spring 2027",
        weekday=1,
        start_time=datetime.time(19),
        number_of_meets=8,
        actor=night.user,
    )

    with pytest.raises(ConflictError) as refused:
        services.publish_season(season=spring, actor=night.user)

    assert refused.value.conflict == "meet_open"
    assert refused.value.messages == [
        f"Meet 1 of {night.season.name} is open: the public pages and the TV show it tonight. "
        "Publish Spring 2027 once it is closed."
    ]
    spring.refresh_from_db()
    assert spring.published_at is None


def test_publish_season_is_an_officials_decision(winter_closed):
    night, spring = winter_closed
    keeper = f.LeagueOfficialFactory(
        league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    ).user

    with pytest.raises(PermissionDenied):
        services.publish_season(season=spring, actor=keeper)

    spring.refresh_from_db()
    assert spring.published_at is None
