"""The console's IFPA requirements: each check passed or not in words, its IFPA page in a fold,
and the seasons page's warning before a season that cannot meet them."""

from __future__ import annotations

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.services.season_files import import_season_file
from tests import factories as f
from tests.golden import GOLDEN
from tests.league import league_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def winter_official(client) -> m.LeagueOfficial:
    official = f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__slug="winter"
    )
    client.force_login(official.user)
    return official


def test_ifpa_page_shows_every_requirement_met_for_the_golden_season(client, winter_official):
    season = import_season_file(
        league=winter_official.league,
        name="Winter 2026",
        data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7),
        actor=winter_official.user,
    )

    html = client.get(f"/manage/winter/seasons/{season.pk}/ifpa/").content.decode()

    assert 'IFPA requirements: <span class="tag ok">all met</span>' in html
    assert "10 meets held; the IFPA asks for at least 6 a season: enough." in html
    assert '<a href="https://www.ifpapinball.com/definitions/"' in html
    assert "https://www.ifpapinball.com/tgpguide/" in html


def test_ifpa_page_warns_before_a_five_meet_season(client, winter_official):
    season = f.SeasonFactory(league=winter_official.league, number_of_meets=5)

    html = client.get(f"/manage/winter/seasons/{season.pk}/ifpa/").content.decode()

    assert '<span class="tag bad">not all met</span>' in html
    assert "5 meets scheduled; the IFPA asks for at least 6 a season: 1 short." in html


def test_ifpa_page_sets_the_leagues_own_figure_with_a_reason(client, winter_official):
    season = f.SeasonFactory(league=winter_official.league, number_of_meets=5)
    url = f"/manage/winter/seasons/{season.pk}/ifpa/"

    response = client.post(
        url, {"figure": "min_sessions", "value": "5", "reason": "The IFPA lowered it"}
    )

    assert response.status_code == 302
    assert response["Location"] == f"{url}#ifpa-figures"
    winter_official.league.refresh_from_db()
    assert winter_official.league.ifpa_figures == {"min_sessions": 5}
    ruling = m.Ruling.objects.get(league=winter_official.league)
    assert (ruling.kind, ruling.reason) == ("ifpa_figure", "The IFPA lowered it")
    html = client.get(url).content.decode()
    assert "Meets a season must hold: now 5." in html
    assert "5 meets scheduled; the IFPA asks for at least 5 a season: enough." in html


def test_ifpa_page_refuses_a_figure_outside_its_bounds(client, winter_official):
    season = f.SeasonFactory(league=winter_official.league)

    response = client.post(
        f"/manage/winter/seasons/{season.pk}/ifpa/",
        {"figure": "min_sessions", "value": "0", "reason": "Typo"},
    )

    assert response.status_code == 400
    assert "min_sessions cannot be 0; allowed: a whole number from 1 to 100" in (
        response.content.decode()
    )
    winter_official.league.refresh_from_db()
    assert winter_official.league.ifpa_figures == {}


def test_seasons_page_warns_of_a_schedule_the_ifpa_would_not_endorse(client, winter_official):
    f.SeasonFactory(league=winter_official.league, name="Short", number_of_meets=5)
    f.SeasonFactory(league=winter_official.league, name="Long", number_of_meets=6)

    html = client.get("/manage/winter/seasons/").content.decode()

    assert "</span> 5 meets scheduled; the IFPA asks for at least 6 a season: 1 short." in html
    assert html.count("the IFPA asks for at least") == 1


def test_seasons_page_warns_with_the_leagues_own_figures(client, winter_official):
    winter_official.league.ifpa_figures = {"min_sessions": 8}
    winter_official.league.save()
    f.SeasonFactory(league=winter_official.league, name="Short", number_of_meets=6)

    html = client.get("/manage/winter/seasons/").content.decode()

    assert "6 meets scheduled; the IFPA asks for at least 8 a season: 2 short." in html


def test_ifpa_page_counts_only_closed_meets_as_held(client):
    """issue 33 §1: with meets 1 and 2 closed and meet 3 open, the page said "3 meets held";
    held means closed, as "meets played" does elsewhere (R2-a)."""
    night = league_night.build_night(players=8)
    for number in (1, 2, 3):
        meet = services.start_meet(
            season=night.season,
            number=number,
            date=league_night.DATE + datetime.timedelta(weeks=number - 1),
            actor=night.user,
            seed=7,
        ).meet
        if number < 3:
            services.close_meet(meet=meet, actor=night.user, override_reason="Short night")
    client.force_login(night.user)

    html = client.get(
        f"/manage/{night.league.slug}/seasons/{night.season.pk}/ifpa/"
    ).content.decode()

    assert "2 meets held; the IFPA asks for at least 6 a season" in html


def test_ifpa_page_reads_the_schedule_while_the_first_meet_is_played(client):
    """issue 33 §1: meet 1 open is no meet held: the checks still read the schedule."""
    night = league_night.build_night(players=8)
    league_night.start(night)
    client.force_login(night.user)

    html = client.get(
        f"/manage/{night.league.slug}/seasons/{night.season.pk}/ifpa/"
    ).content.decode()

    assert "10 meets scheduled; the IFPA asks for at least 6 a season: enough." in html
