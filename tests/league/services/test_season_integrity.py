"""A season's facts stay foldable: a late player joins at the next unplayed meet (R2.4-f,
A14.5), and a write whose facts the season fold rejects commits nothing (issue 8, fault 1).

Words: the *played* meets are those started or closed; every page of a season folds its facts,
so a stored fact the fold rejects would break them all.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from flipwell.league import models as m
from flipwell.league.services.meets.close import close_meet
from flipwell.league.services.players.registration import register_player
from flipwell.league.services.players.roster_import import import_players_csv
from flipwell.league.services.tokens import issue_api_token
from tests import factories as f
from tests.league.league_night import Night, build_night, game, next_game, play, start

pytestmark = pytest.mark.django_db

HEADER = "first_name,last_name,ifpa_number,ifpa_rank\n"


@pytest.fixture
def played() -> tuple[Night, m.Meet]:
    """League "tuesday", a season of 10 meets, meet 1 open with its one group's 4 games played."""
    night = build_night(players=4, machines=6)
    m.League.objects.filter(pk=night.league.pk).update(slug="tuesday")
    m.Season.objects.filter(pk=night.season.pk).update(name="Spring 2026")
    night.league.refresh_from_db()
    night.season.refresh_from_db()
    meet = start(night)
    players = [gm.player for gm in meet.groups.get().members.order_by("position")]
    scores = {p: 1_000_000 * (i + 1) for i, p in enumerate(players)}
    play(game(meet, 1, 1), scores)
    for _ in range(3):  # games 2 to 4
        play(next_game(meet, 1, players[0]), scores)
    return night, meet


def _pages_answer(client: Client, meet: m.Meet) -> dict[str, int]:
    """Every page that folds the season, and its status code."""
    season = meet.season_id
    urls = [
        "/leagues/tuesday/",
        f"/leagues/tuesday/seasons/{season}/",
        f"/leagues/tuesday/meets/{meet.pk}/",
        "/tv/tuesday/",
        "/print/tuesday/standings/",
        f"/api/v1/seasons/{season}/standings",
        f"/api/v1/seasons/{season}/standings.csv",
    ]
    return {url: client.get(url).status_code for url in urls}


def _assert_season_sound(night: Night, meet: m.Meet) -> None:
    statuses = _pages_answer(Client(), meet)
    assert statuses == dict.fromkeys(statuses, 200)
    closed = close_meet(meet=meet, actor=night.user)
    assert closed.meet.status == m.Meet.Status.CLOSED


# --- the late player joins at the next unplayed meet ----------------------------------------


def test_register_player_after_meets_played_joins_at_next_unplayed_meet(played):
    """R2.4-f, A14.5: the played nights before his first are late-join forfeits."""
    night, meet = played

    entry = register_player(
        season=night.season, first_name="Lou", last_name="Late", actor=night.user
    )

    assert entry.joined_at_meet == 2
    _assert_season_sound(night, meet)


def test_api_register_player_after_meets_played_joins_at_next_unplayed_meet(client, played):
    night, meet = played
    secret = issue_api_token(
        league=night.league, name="t", scopes=("manage",), actor=night.user
    ).secret

    response = client.post(
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Lou", "last_name": "Late"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )

    assert response.status_code == 201
    assert response.json()["joined_at_meet"] == 2
    _assert_season_sound(night, meet)


def test_console_register_player_after_meets_played_joins_at_next_unplayed_meet(client, played):
    night, meet = played
    client.force_login(night.user)

    response = client.post(
        f"/manage/tuesday/seasons/{night.season.pk}/roster/",
        {"action": "register", "first_name": "Lou", "last_name": "Late", "joined_at_meet": ""},
    )

    assert response.status_code == 302
    assert m.SeasonEntry.objects.get(player__last_name="Late").joined_at_meet == 2
    _assert_season_sound(night, meet)


def test_import_players_csv_after_meets_played_joins_at_next_unplayed_meet(played):
    night, meet = played

    result = import_players_csv(
        season=night.season, csv_text=HEADER + "Lou,Late,,\nMo,Later,77,\n", actor=night.user
    )

    assert [e.joined_at_meet for e in result.entries] == [2, 2]
    _assert_season_sound(night, meet)


def test_register_player_before_any_meet_joins_at_meet_one():
    night = build_night(players=4)

    entry = register_player(
        season=night.season, first_name="Eve", last_name="Early", actor=night.user
    )

    assert entry.joined_at_meet == 1


# --- an explicit joining meet already played is refused -------------------------------------


def test_register_player_joining_at_a_played_meet_refused_naming_the_field(played):
    """R2.4-f: he cannot have played a meet that has started without him."""
    night, _ = played

    with pytest.raises(ValidationError) as caught:
        register_player(
            season=night.season, first_name="Lou", last_name="Late", joined_at_meet=1,
            actor=night.user,
        )  # fmt: skip

    assert caught.value.message_dict == {
        "joined_at_meet": [
            "Meet 1 of Spring 2026 has started: Lou Late can join at meet 2 to 10 (the meets "
            "before are their late-join forfeits, R2.4-f)."
        ]
    }
    assert not m.Player.objects.filter(last_name="Late").exists()


def test_api_register_player_joining_at_a_played_meet_is_422_on_the_field(client, played):
    night, _ = played
    secret = issue_api_token(
        league=night.league, name="t", scopes=("manage",), actor=night.user
    ).secret

    response = client.post(
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Lou", "last_name": "Late", "joined_at_meet": 1},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["joined_at_meet"]


def test_register_player_when_every_meet_has_started_refused():
    night = build_night(players=4)
    m.Season.objects.filter(pk=night.season.pk).update(name="Spring 2026", number_of_meets=1)
    night.season.refresh_from_db()
    start(night)

    with pytest.raises(ValidationError) as caught:
        register_player(season=night.season, first_name="Lou", last_name="Late", actor=night.user)

    assert caught.value.message_dict == {
        "joined_at_meet": [
            "Every meet of Spring 2026 has started (it has 1): no meet is left for Lou Late "
            "to join."
        ]
    }


# --- the fold judges every write --------------------------------------------------------------


def test_write_the_season_fold_rejects_commits_nothing(played):
    """A season holding a fact the fold rejects (a player in no group of a started meet,
    R3.1-e) accepts no further write: the service's whole transaction rolls back."""
    night, _ = played
    f.SeasonEntryFactory(season=night.season, joined_at_meet=1)  # in no group of meet 1
    events = m.AuditEvent.objects.count()

    with pytest.raises(ValidationError) as caught:
        register_player(season=night.season, first_name="Lou", last_name="Late", actor=night.user)

    assert "is in no group and not announced absent" in caught.value.messages[0]
    assert not m.Player.objects.filter(last_name="Late").exists()
    assert m.AuditEvent.objects.count() == events


def test_write_the_season_fold_rejects_names_the_player_by_name(played):
    """R3.1-e: the fold's refusal names the player in no group by name, never by his id."""
    night, _ = played
    f.SeasonEntryFactory(
        season=night.season, joined_at_meet=1, player__first_name="Una", player__last_name="Placed"
    )

    with pytest.raises(ValidationError) as caught:
        register_player(season=night.season, first_name="Lou", last_name="Late", actor=night.user)

    assert caught.value.messages == [
        "Meet 1: Una Placed is in no group and not announced absent (an unannounced absentee "
        "keeps their group slot and forfeits, R3.1-e)."
    ]
