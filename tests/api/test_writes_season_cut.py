"""A season cut short through the API (issue 37 §3; R2-a, R6.1-d, A68): POST
/seasons/{id}/cut with the new number of meets and the reason; the standings' race follows,
a retry writes nothing, and a refusal names its field."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from tests import factories as f
from tests.api.conftest import post, token
from tests.golden import import_golden_in_progress

pytestmark = pytest.mark.django_db

WHY = "A storm flooded the venue: the season ends with meet 3."


@pytest.fixture
def cut_league():
    """The golden season after 3 of its 10 meets, and a token of its official (manage)."""
    official = f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__slug="flooded"
    )
    return import_golden_in_progress(official), token(official, "manage", "read_private")


def test_cut_season_answers_the_season_and_the_standings_follow(client, cut_league):
    season, secret = cut_league

    response = post(
        client, f"/api/v1/seasons/{season.pk}/cut", {"number_of_meets": 3, "reason": WHY}, secret
    )
    again = post(
        client, f"/api/v1/seasons/{season.pk}/cut", {"number_of_meets": 3, "reason": WHY}, secret
    )

    assert (response.status_code, response.json()["number_of_meets"]) == (200, 3)
    assert (again.status_code, again.json()["number_of_meets"]) == (200, 3)
    assert m.Ruling.objects.filter(kind="season_cut").count() == 1
    standings = client.get(f"/api/v1/seasons/{season.pk}/standings").json()
    assert standings["meets_left"] == 0
    assert {line["may_become_eligible"] for line in standings["lines"]} == {False}


def test_cut_season_below_the_meets_played_is_422_on_the_number(client, cut_league):
    season, secret = cut_league

    response = post(
        client, f"/api/v1/seasons/{season.pk}/cut", {"number_of_meets": 2, "reason": WHY}, secret
    )

    body = response.json()["error"]
    assert (response.status_code, sorted(body["fields"])) == (422, ["number_of_meets"])
    assert m.Season.objects.get(pk=season.pk).number_of_meets == 10


def test_cut_season_needs_the_manage_scope(client, cut_league):
    season, _secret = cut_league
    reader = token(m.LeagueOfficial.objects.get(league=season.league), "read_private")

    response = post(
        client, f"/api/v1/seasons/{season.pk}/cut", {"number_of_meets": 3, "reason": WHY}, reader
    )

    assert response.status_code == 403
    assert m.Season.objects.get(pk=season.pk).number_of_meets == 10
