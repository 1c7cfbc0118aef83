"""A league's people are its own (issue 26 §1), through the API with Wednesday's token: a
shared player's notices, registering and importing a name of Tuesday's players, merging and
undoing (`tests.league.two_leagues`). The API has no rename: the console's is tested in
tests/web/test_sealed_leagues.py."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league.services import merge_players
from tests import factories as f
from tests.api.conftest import bearer, post, token
from tests.league.two_leagues import (
    TUESDAY_ADDRESS,
    WEDNESDAY_ADDRESS,
    official_of_both,
)

pytestmark = pytest.mark.django_db

MERGE_REFUSED = (
    "Dee Cruz also plays in Tuesday Flippers: only an official of every league they play in, "
    "or an installation admin, can merge them."
)


@pytest.fixture
def secret(two_leagues):
    return token(two_leagues.wednesday_official, "read_private", "manage")


def test_notices_endpoint_of_a_shared_player_reads_and_sets_only_the_leagues_own(
    client, two_leagues, secret
):
    """issue 26 §1: GET /leagues/wednesday/players/<Dee>/notices answered Tuesday's address,
    and PUT overwrote it."""
    url = f"/api/v1/leagues/wednesday/players/{two_leagues.dee.pk}/notices"

    read = client.get(url, **bearer(secret))
    written = client.put(
        url,
        {"email": WEDNESDAY_ADDRESS, "kinds": ["ruling"]},
        content_type="application/json",
        **bearer(secret),
    )
    tuesday = client.get(
        f"/api/v1/leagues/tuesday/players/{two_leagues.dee.pk}/notices",
        **bearer(token(two_leagues.tuesday_official, "read_private")),
    )

    assert (read.status_code, read.json()["email"], read.json()["kinds"]) == (200, "", [])
    assert (written.status_code, written.json()["email"]) == (200, WEDNESDAY_ADDRESS)
    assert (tuesday.json()["email"], tuesday.json()["kinds"]) == (
        TUESDAY_ADDRESS,
        ["results", "ruling"],
    )


def test_register_player_endpoint_by_name_never_matches_another_leagues_player(
    client, two_leagues, secret
):
    """issue 26 §1: a name posted to Wednesday's season reached Tuesday's player."""
    eve = f.SeasonEntryFactory(
        season=two_leagues.tuesday_season, player__first_name="Eve", player__last_name="Ames"
    ).player

    response = post(
        client,
        f"/api/v1/seasons/{two_leagues.wednesday_season.pk}/players",
        {"first_name": "Eve", "last_name": "Ames"},
        secret,
    )

    assert response.status_code == 201
    entered = m.SeasonEntry.objects.get(
        season=two_leagues.wednesday_season, player__last_name="Ames"
    )
    assert entered.player != eve


def test_import_players_endpoint_by_name_never_matches_another_leagues_player(
    client, two_leagues, secret
):
    """issue 26 §1: a roster CSV posted to Wednesday's season reached Tuesday's players."""
    eve = f.SeasonEntryFactory(
        season=two_leagues.tuesday_season, player__first_name="Eve", player__last_name="Ames"
    ).player

    response = post(
        client,
        f"/api/v1/seasons/{two_leagues.wednesday_season.pk}/players/import",
        {"csv": "first_name,last_name,ifpa_number,ifpa_rank\nEve,Ames,,\n"},
        secret,
    )

    assert response.status_code == 201
    assert response.json()["created_players"] != [eve.pk]
    assert len(response.json()["created_players"]) == 1


def test_merge_players_endpoint_of_a_player_of_another_league_is_403_naming_it(
    client, two_leagues, secret
):
    """issue 26 §1: Wednesday's token merged Tuesday's Dee into Wednesday's Dee Kruz."""
    response = post(
        client,
        "/api/v1/leagues/wednesday/player-merges",
        {
            "kept_player_id": two_leagues.kruz.pk,
            "merged_player_id": two_leagues.dee.pk,
            "reason": "Same.",
        },
        secret,
    )

    assert response.status_code == 403
    assert response.json()["error"]["message"] == MERGE_REFUSED
    assert m.PlayerMerge.objects.count() == 0
    assert client.get(f"/leagues/tuesday/players/{two_leagues.dee.pk}/").status_code == 200


def test_undo_player_merge_endpoint_of_a_player_of_another_league_is_403(
    client, two_leagues, secret
):
    """issue 26 §1: an undo changes Tuesday's pages too."""
    both = official_of_both(two_leagues)
    merge = merge_players(
        league=two_leagues.wednesday,
        kept=two_leagues.kruz,
        merged=two_leagues.dee,
        reason="Same.",
        actor=both.user,
    )

    response = post(
        client,
        f"/api/v1/leagues/wednesday/player-merges/{merge.pk}/undo",
        {"reason": "Two people."},
        secret,
    )

    assert response.status_code == 403
    assert response.json()["error"]["message"] == MERGE_REFUSED
    merge.refresh_from_db()
    assert merge.undone_at is None
