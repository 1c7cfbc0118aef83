"""The console's IFPA submission preview: who is left out and why, by name (issue #13)."""

from __future__ import annotations

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league.services.season_files import import_season_file
from tests import factories as f
from tests.golden import GOLDEN

pytestmark = pytest.mark.django_db


@pytest.fixture
def winter_golden(client) -> m.Season:
    """The golden season (22 players, 10 meets) in a league whose official is signed in."""
    official = f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__slug="winter"
    )
    client.force_login(official.user)
    return import_season_file(
        league=official.league,
        name="Winter 2026",
        data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )


def test_ifpa_page_lists_who_is_left_out_and_why_by_name(client, winter_golden):
    preview = client.get(f"/api/v1/seasons/{winter_golden.pk}/ifpa/preview?threshold=10").json()
    out = preview["left_out"][0]

    response = client.get(f"/manage/winter/seasons/{winter_golden.pk}/ifpa/?threshold=10")
    html = response.content.decode()

    assert response.status_code == 200
    assert f"Left out ({len(preview['left_out'])})" in html
    assert f"<td>{out['player']['name']}</td><td>{out['why']}</td>" in html
    assert (
        f'href="/api/v1/seasons/{winter_golden.pk}/ifpa.csv?results=regular_season&amp;threshold=10"'
        in html
    )


def test_ifpa_page_refuses_post_finals_before_the_playoffs(client, winter_golden):
    response = client.get(f"/manage/winter/seasons/{winter_golden.pk}/ifpa/?results=post_finals")

    assert response.status_code == 400
    assert "The playoffs of Winter 2026 are not complete" in response.content.decode()


def test_seasons_page_links_to_the_ifpa_submission(client, winter_golden):
    html = client.get("/manage/winter/seasons/").content.decode()

    assert f'href="/manage/winter/seasons/{winter_golden.pk}/ifpa/"' in html


def test_ifpa_page_defaults_to_regular_season_before_the_playoffs(client, winter_golden):
    html = client.get(f"/manage/winter/seasons/{winter_golden.pk}/ifpa/").content.decode()

    assert "10 meets played · 5 needed · regular-season results" in html
