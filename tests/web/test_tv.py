"""The venue's TV: public, dark, rotating panels refreshed by htmx; QR codes for staff only."""

import pytest

from flipwell.league import models as m
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_night():
    night = night_.build_night(players=8, machines=8)
    return night, night_.start(night)


def test_tv_shows_tonights_groups_and_standings(client, open_night):
    night, _meet = open_night

    response = client.get(f"/tv/{night.league.slug}/")

    assert response.status_code == 200
    assert 'class="tv"' in response.text
    assert "/static/flipwell/tv.js" in response.text
    assert 'hx-trigger="every 15s"' in response.text
    assert response.text.count("data-tv-panel") >= 2
    assert "Group 1" in response.text
    assert "Group 2" in response.text
    assert "Standings" in response.text


def test_tv_htmx_refresh_gets_only_the_panels(client, open_night):
    night, _meet = open_night

    response = client.get(f"/tv/{night.league.slug}/", headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert "<html" not in response.text
    assert "data-tv-panel" in response.text


def test_tv_hides_score_sheet_qr_codes_from_the_public(client, open_night):
    night, _meet = open_night

    response = client.get(f"/tv/{night.league.slug}/")

    assert 'class="qr"' not in response.text
    assert "/sheet/" not in response.text


def test_tv_shows_score_sheet_qr_codes_to_the_leagues_staff(client, open_night):
    night, _meet = open_night
    scorekeeper = f.LeagueOfficialFactory(
        league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )
    client.force_login(scorekeeper.user)

    response = client.get(f"/tv/{night.league.slug}/")

    assert response.text.count('class="qr"') == 2


def test_tv_hides_qr_codes_from_another_leagues_official(client, open_night):
    night, _meet = open_night
    client.force_login(f.LeagueOfficialFactory().user)

    response = client.get(f"/tv/{night.league.slug}/")

    assert 'class="qr"' not in response.text


def test_tv_of_a_league_without_season_says_so(client):
    f.LeagueFactory(slug="empty")

    response = client.get("/tv/empty/")

    assert response.status_code == 200
    assert "Nothing to show yet." in response.text


def test_tv_of_unknown_league_is_404(client):
    assert client.get("/tv/nope/").status_code == 404


# --- the playoff bracket: whose, and until when (issue #11, item 9) ---


@pytest.fixture
def demo():
    """A finished season with its playoffs, and a newer season whose meet 1 is open."""
    from flipwell.league.exchange.demo import create_demo_league

    return create_demo_league()


def test_tv_hides_last_seasons_bracket_once_the_new_season_plays(client, demo):
    response = client.get(f"/tv/{demo.league.slug}/")

    assert response.context["page"].bracket is None
    assert "Playoffs" not in response.text


def test_tv_stays_on_the_season_being_played_while_another_is_prepared(client, demo):
    """issue 27 §1: a season created while another is played is not the TV's until its first
    meet starts (the TV showed the new, empty season: no groups, no standings)."""
    f.SeasonFactory(league=demo.league, name="Autumn 2026")

    response = client.get(f"/tv/{demo.league.slug}/")

    page = response.context["page"]
    assert page.season.name == demo.current_season.name
    assert page.meet is not None
    assert page.bracket is None
