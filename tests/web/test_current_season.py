"""The season being played stays the public one while the next is prepared (issue 27 §1):
the standings, a player's page, the TV, the printed standings, the API and the console's ledger
show it until the new season's first meet starts; the console says the new one is being
prepared."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.seasons import publication
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


@pytest.fixture
def mid_season():
    """Winter 2026 at meet 1 (open) of 8, 8 players; Spring 2027 created with 4 of them."""
    night = night_.build_night(players=8, machines=8)
    night.season.name = "Winter 2026"
    night.season.save()
    meet = night_.start(night)
    spring = services.create_season(
        league=night.league,
        name="Spring 2027",
        weekday=m.Weekday.TUESDAY,
        start_time=datetime.time(19, 0),
        number_of_meets=8,
        actor=night.user,
    )
    for rank, player in enumerate(night.players[:4], start=1):
        f.SeasonEntryFactory(season=spring, player=player, ifpa_rank_at_start=rank)
    return night, meet, spring


def _start_spring(night, meet, spring):
    """Winter's meet 1 closes; Spring's meet 1 starts today."""
    services.close_meet(meet=meet, actor=night.user, override_reason="Short night")
    today = timezone.localdate(timezone=ZoneInfo(night.league.time_zone))
    services.start_meet(
        season=spring,
        number=1,
        date=today,
        seed=3,
        actor=night.user,
        date_reason="The new season starts tonight",
    )


def test_league_home_keeps_the_season_being_played_while_the_next_is_prepared(client, mid_season):
    """issue 27 §1: creating Spring 2027 switched the standings to the empty season."""
    night, _meet, _spring = mid_season

    response = client.get(f"/leagues/{night.league.slug}/")

    assert response.context["page"].season.name == "Winter 2026"
    assert [s.name for s in response.context["page"].seasons] == ["Winter 2026"]
    assert "No player entered yet" not in response.text
    assert str(night.players[7]) in response.text


def test_player_page_keeps_the_season_being_played_while_the_next_is_prepared(client, mid_season):
    """issue 27 §1: a player entered in both seasons is shown in the one being played."""
    night, _meet, _spring = mid_season

    response = client.get(f"/leagues/{night.league.slug}/players/{night.players[0].pk}/")

    assert response.status_code == 200
    assert response.context["page"].season.name == "Winter 2026"
    assert [s.name for s in response.context["page"].seasons] == ["Winter 2026"]


def test_tv_keeps_tonights_meet_while_the_next_season_is_prepared(client, mid_season):
    """issue 27 §1: the TV went black (the new season has no open meet)."""
    night, _meet, _spring = mid_season

    response = client.get(f"/tv/{night.league.slug}/")

    assert response.context["page"].season.name == "Winter 2026"
    assert response.context["page"].meet is not None
    assert "Group 1" in response.text


def test_printed_standings_keep_the_season_being_played(client, mid_season):
    """issue 27 §1."""
    night, _meet, _spring = mid_season

    response = client.get(f"/print/{night.league.slug}/standings/")

    assert response.context["page"].season.name == "Winter 2026"


def test_api_league_names_the_season_being_played_as_current(client, mid_season):
    """issue 27 §1: the API says which season is current, the one being played."""
    night, _meet, _spring = mid_season

    one = client.get(f"/api/v1/leagues/{night.league.slug}").json()
    listed = client.get("/api/v1/leagues").json()["results"]

    assert one["current_season"] == night.season.pk
    assert [row["current_season"] for row in listed] == [night.season.pk]


def test_public_pages_switch_to_the_new_season_once_its_first_meet_starts(client, mid_season):
    """issue 27 §1: the first meet's start makes the new season current everywhere."""
    night, meet, spring = mid_season
    _start_spring(night, meet, spring)

    home = client.get(f"/leagues/{night.league.slug}/")
    player = client.get(f"/leagues/{night.league.slug}/players/{night.players[0].pk}/")
    tv = client.get(f"/tv/{night.league.slug}/")
    api = client.get(f"/api/v1/leagues/{night.league.slug}").json()

    assert home.context["page"].season.name == "Spring 2027"
    assert [s.name for s in home.context["page"].seasons] == ["Spring 2027", "Winter 2026"]
    assert player.context["page"].season.name == "Spring 2027"
    assert tv.context["page"].season.name == "Spring 2027"
    assert tv.context["page"].meet.meet.number == 1
    assert api["current_season"] == spring.pk


def test_a_season_being_prepared_is_still_shown_at_its_own_address(client, mid_season):
    """issue 27 §1: the official can look at the new season's public page before it starts."""
    night, _meet, spring = mid_season

    response = client.get(f"/leagues/{night.league.slug}/seasons/{spring.pk}/")

    assert response.status_code == 200
    assert response.context["page"].season.name == "Spring 2027"


def test_console_says_the_new_season_is_being_prepared(client, mid_season):
    """issue 27 §1: nothing warned the official."""
    night, _meet, _spring = mid_season
    client.force_login(night.user)

    hub = client.get(f"/manage/{night.league.slug}/")
    seasons = client.get(f"/manage/{night.league.slug}/seasons/")

    note = (
        "Spring 2027 is being prepared: the public pages, the TV and the API show Winter 2026 "
        "until its first meet starts or you publish it."
    )
    assert note in hub.text
    assert note in seasons.text


def test_creating_a_season_mid_season_says_the_public_keeps_the_one_being_played(client):
    """issue 27 §1: the official is told at once which season the public sees."""
    night = night_.build_night(players=8, machines=8)
    night.season.name = "Winter 2026"
    night.season.save()
    night_.start(night)
    client.force_login(night.user)

    response = client.post(
        f"/manage/{night.league.slug}/seasons/",
        {"name": "Spring 2027", "weekday": "1", "start_time": "19:00", "number_of_meets": "8",
         "dues_cents": "0.00"},
        follow=True,
    )  # fmt: skip

    assert (
        "Season “Spring 2027” created. It is being prepared: the public pages show Winter 2026 "
        "until its first meet starts or you publish it."
    ) in response.text


def test_ledger_shows_the_dues_of_the_season_being_played(client, mid_season):
    """issue 27 §1: the ledger switched to the empty season's dues."""
    night, _meet, _spring = mid_season
    client.force_login(night.user)

    response = client.get(f"/manage/{night.league.slug}/ledger/")

    assert response.context["season"] == night.season


def test_next_meet_of_a_new_season_is_its_next_league_night_not_today(client, mid_season):
    """issue 27 §1: a season whose league night is another weekday than today is offered its
    next league night for meet 1, never today (R2-a)."""
    night, _meet, _spring = mid_season
    today = timezone.localdate(timezone=ZoneInfo(night.league.time_zone))
    league_night = (today.weekday() + 2) % 7
    services.create_season(
        league=night.league,
        name="Summer 2027",
        weekday=league_night,
        start_time=datetime.time(19, 0),
        number_of_meets=8,
        actor=night.user,
    )
    client.force_login(night.user)
    on = today + datetime.timedelta(days=2)

    response = client.get(f"/manage/{night.league.slug}/")

    assert f"Next meet: schedule meet 1 for {on:%a} {on.day} {on:%b}" in response.text


def _states(client, night):
    rows = client.get(f"/api/v1/leagues/{night.league.slug}/seasons").json()["results"]
    return {row["name"]: (row["state"], row["is_current"]) for row in rows}


def test_api_marks_the_season_being_prepared_and_the_one_being_played(client, mid_season):
    """issue 27 §1: the API's season list says which season is public and which is not."""
    night, _meet, spring = mid_season

    one = client.get(f"/api/v1/seasons/{spring.pk}").json()

    assert _states(client, night) == {
        "Winter 2026": ("played", True),
        "Spring 2027": ("being_prepared", False),
    }
    assert (one["state"], one["is_current"], one["published_at"]) == (
        "being_prepared",
        False,
        None,
    )


def test_api_marks_a_published_season_current_before_its_first_meet(client, mid_season):
    """issue 27 §1: published by the official, before its first meet starts."""
    night, meet, spring = mid_season
    services.close_meet(meet=meet, actor=night.user, override_reason="Short night")
    services.publish_season(season=spring, actor=night.user)

    one = client.get(f"/api/v1/seasons/{spring.pk}").json()
    league = client.get(f"/api/v1/leagues/{night.league.slug}").json()

    assert _states(client, night) == {
        "Winter 2026": ("played", False),
        "Spring 2027": ("published", True),
    }
    assert one["published_at"] is not None
    assert league["current_season"] == spring.pk


def test_api_marks_the_new_season_played_once_its_first_meet_starts(client, mid_season):
    night, meet, spring = mid_season
    _start_spring(night, meet, spring)

    assert _states(client, night) == {
        "Winter 2026": ("played", False),
        "Spring 2027": ("played", True),
    }


def test_api_states_agree_with_the_console(client, mid_season):
    """The API's state (SQL) and the console's (`state_of`) are one reading."""
    night, _meet, spring = mid_season
    older = f.SeasonFactory(league=night.league, name="Never played", created_at=f.SET_UP_2026)
    m.Season.objects.filter(pk=older.pk).update(
        created_at=f.SET_UP_2026 - datetime.timedelta(days=30)
    )

    states = _states(client, night)

    for season in (night.season, spring, older):
        assert states[season.name][0] == publication(season).state


def test_player_statistics_leave_out_the_season_being_prepared(client, mid_season):
    """issue 33 §1: "Every season: Spring 2027 0/0" showed the season being prepared on a
    player's page, and in the API's statistics, while both show the season being played."""
    night, _meet, _spring = mid_season
    player = night.players[0]

    page = client.get(f"/leagues/{night.league.slug}/players/{player.pk}/")
    league_stats = client.get(f"/api/v1/leagues/{night.league.slug}/players/{player.pk}/stats")
    person_stats = client.get(f"/api/v1/players/{player.pk}/stats")

    assert [line.season.name for line in page.context["page"].stats.seasons] == ["Winter 2026"]
    assert "Spring 2027" not in page.text
    assert [line["season"]["name"] for line in league_stats.json()["seasons"]] == ["Winter 2026"]
    assert [line["season"]["name"] for line in person_stats.json()["seasons"]] == ["Winter 2026"]


def test_player_statistics_show_the_new_season_once_published(client, mid_season):
    """issue 33 §1: a published season is public, so its line is shown."""
    night, meet, spring = mid_season
    services.close_meet(meet=meet, actor=night.user, override_reason="Short night")
    services.publish_season(season=spring, actor=night.user)

    page = client.get(f"/leagues/{night.league.slug}/players/{night.players[0].pk}/")

    names = [line.season.name for line in page.context["page"].stats.seasons]
    assert names == ["Winter 2026", "Spring 2027"]
