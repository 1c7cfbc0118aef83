"""A player's personal link through the API (/api/v1/me/{token}): read their view, tell an
absence or lateness before the start time (R2.2-a, R3.1-d), leave an email; nothing for
another player or league, nothing after a revocation."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.player_link_tokens import token_for
from flipwell.league.services.meets.schedule import schedule_meet
from flipwell.league.services.player_links import issue_player_link, revoke_player_link
from tests.league.league_night import DATE, build_night
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db
# A player's notice is a fact that counts: its write needs an Idempotency-Key (issue 34 §1).
_KEY = {"HTTP_IDEMPOTENCY_KEY": "notice-1"}


@pytest.fixture
def linked():  # type: ignore[no-untyped-def]
    """A night of 8, meet 1 scheduled a week from now; the first player's link."""
    night = build_night()
    meet = schedule_meet(
        season=night.season,
        number=1,
        date=timezone.localdate() + datetime.timedelta(days=7),
        actor=night.user,
        date_reason="A night a week from now, whatever the season's days",
    )
    link = issue_player_link(season=night.season, player=night.players[0], actor=night.user)
    night.meet, night.link, night.base = meet, link, f"/api/v1/me/{token_for(link)}"
    return night


def test_me_reads_the_players_view(client, linked):
    response = client.get(linked.base)

    assert response.status_code == 200
    body = response.json()
    assert (body["player"], body["season"], body["group"]) == (
        str(linked.players[0]),
        linked.season.name,
        None,
    )
    assert [(x["number"], x["can_announce_absence"]) for x in body["meets"]] == [(1, True)]
    assert body["history"]["player"]["name"] == str(linked.players[0])


def test_me_announces_an_absence(client, linked):
    response = client.post(f"{linked.base}/meets/1/absence", **_KEY)

    assert response.status_code == 201
    assert response.json()["meet"] == 1
    absence = m.AnnouncedAbsence.objects.get()
    assert (absence.player, absence.player_link) == (linked.players[0], linked.link)


def test_me_announces_a_lateness_with_the_wait(client, linked):
    response = client.post(f"{linked.base}/meets/1/lateness", **_KEY)

    assert response.status_code == 201
    assert response.json()["announced"] is True


def test_me_after_the_start_time_refused(client):
    night = build_night()
    schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)  # in the past
    link = issue_player_link(season=night.season, player=night.players[0], actor=night.user)

    response = client.post(f"/api/v1/me/{token_for(link)}/meets/1/absence", **_KEY)

    assert (response.status_code, response.json()["error"]["code"]) == (409, "meet_start_passed")
    assert "only before the start time" in response.json()["error"]["message"]
    assert not m.AnnouncedAbsence.objects.exists()


def test_me_revoked_link_refused(client, linked):
    revoke_player_link(link=linked.link, actor=linked.user)

    assert client.get(linked.base).status_code == 404
    assert client.post(f"{linked.base}/meets/1/absence").status_code == 404
    assert not m.AnnouncedAbsence.objects.exists()


def test_me_meet_of_another_league_not_found(client, linked):
    other = build_night()
    schedule_meet(
        season=other.season,
        number=2,
        date=timezone.localdate() + datetime.timedelta(days=7),
        actor=other.user,
        date_reason="A night a week from now, whatever the season's days",
    )

    response = client.post(f"{linked.base}/meets/2/absence", **_KEY)

    assert response.status_code == 404
    assert not m.AnnouncedAbsence.objects.exists()


def test_me_forged_token_not_found(client, linked):
    response = client.get(f"/api/v1/me/{linked.link.key}:forged")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_me_shows_the_group_once_the_meet_started(client):
    night = build_night()
    link = issue_player_link(season=night.season, player=night.players[0], actor=night.user)
    start_night(night)

    body = client.get(f"/api/v1/me/{token_for(link)}").json()

    assert (body["group"]["meet"], body["group"]["number"]) == (1, 1)
    assert body["group"]["players"][0] == str(night.players[0])


def test_me_sets_and_refuses_an_email(client, linked):
    saved = client.put(
        f"{linked.base}/email", {"email": "ana@example.org"}, content_type="application/json"
    )
    refused = client.put(
        f"{linked.base}/email", {"email": "ana at home"}, content_type="application/json"
    )

    assert (saved.status_code, saved.json()) == (200, {"email": "ana@example.org"})
    assert refused.status_code == 422
    assert list(refused.json()["error"]["fields"]) == ["email"]
    linked.link.refresh_from_db()
    assert linked.link.email == "ana@example.org"


def test_me_posts_need_no_csrf_token(linked):
    """A program (or a phone's app) sends the link's token alone: no cookie, no CSRF token."""
    response = Client(enforce_csrf_checks=True).post(f"{linked.base}/meets/1/absence", **_KEY)

    assert response.status_code == 201
