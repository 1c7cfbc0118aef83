"""Public pages: reachable without login, showing only public data."""

import pytest

from tests import factories as f

pytestmark = pytest.mark.django_db


def test_league_list_shows_every_league(client):
    f.LeagueFactory(name="Tuesday Flippers", venue="The Silver Ball")

    response = client.get("/")

    assert response.status_code == 200
    assert "Tuesday Flippers" in response.text
    assert "The Silver Ball" in response.text


def test_league_list_without_leagues_says_how_to_start(client):
    response = client.get("/")

    assert "flipwell demo" in response.text


def test_vendored_htmx_is_served_by_the_app(client):
    response = client.get("/static/flipwell/htmx.min.js")

    assert response.status_code == 200
    assert b"htmx" in b"".join(response.streaming_content)
