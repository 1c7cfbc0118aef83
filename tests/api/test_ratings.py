"""The ratings in the API (issue 37 §1): a league's ratings (a page, best first) and a
person's rating with its history and rivals. Not an FWPL rule: the standings alone decide
the playoffs (§6, R6.1-d)."""

import pytest

from flipwell.league.selectors import ratings
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_league_ratings_are_a_page_best_first(client, rated_tuesday_season):
    first = client.get("/api/v1/leagues/tuesday/ratings?limit=2").json()
    rest = client.get(first["next"]).json()

    shown = first["results"] + rest["results"]
    assert len(first["results"]) == 2
    assert [r["rating"] for r in shown] == sorted((r["rating"] for r in shown), reverse=True)
    assert all(r["low"] < r["rating"] < r["high"] for r in shown)
    assert all(r["words"].startswith("about ") for r in shown)
    expected = [line.rating for line in ratings.league_ratings(rated_tuesday_season.league)[:4]]
    assert [r["rating"] for r in shown] == expected


def test_player_rating_in_a_league_and_everywhere(client, rated_tuesday_season):
    bea = rated_tuesday_season.entries.get(player__last_name="Adams").player

    here = client.get(f"/api/v1/leagues/tuesday/players/{bea.pk}/rating")
    everywhere = client.get(f"/api/v1/players/{bea.pk}/rating")

    assert here.status_code == 200
    body = here.json()
    assert body["current"]["player"]["id"] == bea.pk
    assert len(body["history"]) == rated_tuesday_season.meets.filter(status="closed").count()
    assert {step["season"]["name"] for step in body["history"]} == {"Winter 2026"}
    assert sum(r["games"] for r in body["rivals"]) == body["current"]["games"]
    assert everywhere.json() == body  # one league on this installation


def test_player_rating_of_someone_not_in_the_league_is_404(client, rated_tuesday_season):
    bea = rated_tuesday_season.entries.get(player__last_name="Adams").player
    f.LeagueFactory(slug="wednesday")

    response = client.get(f"/api/v1/leagues/wednesday/players/{bea.pk}/rating")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert client.get("/api/v1/players/999999/rating").status_code == 404
