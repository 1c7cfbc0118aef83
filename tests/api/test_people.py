"""A person through the API: statistics, high scores, merging and undoing (issue #13)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.derived.caches import forget as forget_memo
from tests import factories as f
from tests.api.conftest import post, token

pytestmark = pytest.mark.django_db


@pytest.fixture
def rows(official):
    """Two rows of one person, one per season of the official's league."""
    first = f.SeasonFactory(league=official.league, name="Winter")
    second = f.SeasonFactory(league=official.league, name="Spring")
    old = f.SeasonEntryFactory(season=first, player__first_name="Bea", player__last_name="Adams")
    new = f.SeasonEntryFactory(season=second, player__first_name="Bee", player__last_name="Adams")
    return old.player, new.player


def _bea(season):
    return season.entries.get(player__last_name="Adams").player


def test_player_stats_endpoint_gives_every_number(client, golden):
    bea = _bea(golden)

    response = client.get(f"/api/v1/leagues/{golden.league.slug}/players/{bea.pk}/stats")

    assert response.status_code == 200
    body = response.json()
    assert body["player"] == {"id": bea.pk, "name": "Bea Adams"}
    (season,) = body["seasons"]
    assert season["season"]["name"] == "Winter 2026"
    assert season["meets_attended"] <= season["meets_held"] == 10
    assert body["games_played"] == sum(machine["games"] for machine in body["machines"])
    record = body["head_to_head"][0]
    assert record["games"] == record["won"] + record["lost"]
    assert set(body) >= {"points_per_meet", "points_per_meet_exact", "meets_attended"}


def test_player_stats_endpoint_query_count_does_not_grow_with_seasons(client, golden):
    bea = _bea(golden)
    url = f"/api/v1/leagues/{golden.league.slug}/players/{bea.pk}/stats"
    client.get(url)
    forget_memo()
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    second = f.SeasonFactory(league=golden.league, name="Spring 2026")
    f.SeasonEntryFactory(season=second, player=bea)
    forget_memo()  # a factory's season changes no revision: render the page again
    client.get(url)  # folds and stores the new season
    forget_memo()
    with CaptureQueriesContext(connection) as two:
        client.get(url)

    assert len(one) == len(two)


def test_player_stats_endpoint_of_an_unknown_player_is_404(client, golden):
    response = client.get(f"/api/v1/leagues/{golden.league.slug}/players/999999/stats")

    assert response.status_code == 404


def test_player_stats_endpoint_of_a_player_of_another_league_is_404(client, golden):
    stranger = f.SeasonEntryFactory().player

    response = client.get(f"/api/v1/leagues/{golden.league.slug}/players/{stranger.pk}/stats")

    assert response.status_code == 404


def test_high_scores_endpoint_lists_machines_best_first(client, golden):
    response = client.get(f"/api/v1/leagues/{golden.league.slug}/high-scores")

    assert response.status_code == 200
    machines = response.json()["results"]
    assert machines
    for machine in machines:
        scores = [line["score"] for line in machine["scores"]]
        assert scores == sorted(scores, reverse=True)


def test_high_scores_are_a_page_like_every_list(client, golden):
    """issue 34 §1: high-scores was a bare array, every other list a page."""
    url = f"/api/v1/leagues/{golden.league.slug}/high-scores"
    whole = client.get(url).json()

    first = client.get(f"{url}?limit=2").json()
    second = client.get(first["next"]).json()

    assert set(whole) == {"results", "next"}
    assert whole["next"] is None
    assert len(first["results"]) == 2
    assert first["results"] + second["results"] == whole["results"][:4]


def test_merge_players_endpoint_merges_and_the_stats_follow(client, official, rows):
    old, new = rows
    secret = token(official, "manage")

    response = post(
        client,
        f"/api/v1/leagues/{official.league.slug}/player-merges",
        {"kept_player_id": old.pk, "merged_player_id": new.pk, "reason": "Same person."},
        secret,
    )

    assert response.status_code == 201
    body = response.json()
    assert body["kept"] == {"id": old.pk, "name": "Bea Adams"}
    assert body["merged"] == {"id": new.pk, "name": "Bee Adams"}
    assert body["undone_at"] is None
    stats = client.get(f"/api/v1/leagues/{official.league.slug}/players/{new.pk}/stats").json()
    assert stats["player"]["id"] == old.pk
    assert [s["season"]["name"] for s in stats["seasons"]] == ["Winter", "Spring"]


def test_merge_players_endpoint_refuses_two_rows_of_one_season(client, official, rows):
    old, new = rows
    f.SeasonEntryFactory(season=new.season_entries.get().season, player=old)

    response = post(
        client,
        f"/api/v1/leagues/{official.league.slug}/player-merges",
        {"kept_player_id": old.pk, "merged_player_id": new.pk, "reason": "Same person."},
        token(official, "manage"),
    )

    assert response.status_code == 422
    assert "two people" in response.json()["error"]["message"]


def test_merge_players_endpoint_needs_the_manage_scope(client, official, rows):
    old, new = rows

    response = post(
        client,
        f"/api/v1/leagues/{official.league.slug}/player-merges",
        {"kept_player_id": old.pk, "merged_player_id": new.pk, "reason": "Same person."},
        token(official, "scores"),
    )

    assert response.status_code == 403
    assert m.PlayerMerge.objects.count() == 0


def test_undo_player_merge_endpoint(client, official, rows):
    old, new = rows
    secret = token(official, "manage")
    merged = post(
        client,
        f"/api/v1/leagues/{official.league.slug}/player-merges",
        {"kept_player_id": old.pk, "merged_player_id": new.pk, "reason": "Same person."},
        secret,
    ).json()

    response = post(
        client,
        f"/api/v1/leagues/{official.league.slug}/player-merges/{merged['id']}/undo",
        {"reason": "Two people after all."},
        secret,
    )

    assert response.status_code == 200
    assert response.json()["undo_reason"] == "Two people after all."
    new.refresh_from_db()
    assert new.merged_into_id is None


def test_person_stats_endpoint_counts_every_league(client, golden):
    bea = _bea(golden)
    elsewhere = f.SeasonFactory(name="Elsewhere")
    f.SeasonEntryFactory(season=elsewhere, player=bea)

    body = client.get(f"/api/v1/players/{bea.pk}/stats").json()

    assert [s["season"]["name"] for s in body["seasons"]] == ["Winter 2026", "Elsewhere"]
    assert body["seasons"][1]["meets_held"] == 0
