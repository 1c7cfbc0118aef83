"""A player's notice preferences through the API (read: read_private; set: manage) and a
league's notice queue (manage)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league.notice_worker import work_once
from tests import factories as f
from tests.api.conftest import bearer, token
from tests.league.league_night import start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def notices_on(settings):
    settings.NOTICES_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def put(client, url, body, secret):
    return client.put(url, body, content_type="application/json", **bearer(secret))


def test_set_and_read_a_players_notice_preferences(client, night):
    secret = token(night.official, "manage", "read_private")
    ann = night.players[0]
    url = f"/api/v1/leagues/{night.league.slug}/players/{ann.pk}/notices"

    written = put(client, url, {"email": "ann@example.org", "kinds": ["groups", "ruling"]}, secret)
    read = client.get(url, **bearer(secret))

    expected = {
        "player_id": ann.pk,
        "player": str(ann),
        "email": "ann@example.org",
        "kinds": ["groups", "ruling"],
        "unsubscribed_at": None,
        "sending": True,
    }
    assert (written.status_code, written.json()) == (200, expected)
    assert (read.status_code, read.json()) == (200, expected)
    assert m.AuditEvent.objects.filter(action="notices.preferences_set").count() == 1


def test_set_notice_preferences_with_a_bad_address_is_422_naming_it(client, night):
    secret = token(night.official, "manage")
    url = f"/api/v1/leagues/{night.league.slug}/players/{night.players[0].pk}/notices"

    answer = put(client, url, {"email": "not an address", "kinds": ["groups"]}, secret)

    assert answer.status_code == 422
    assert answer.json()["error"]["fields"] == {
        "email": ["'not an address' is not an e-mail address (name@example.org)."]
    }


def test_set_notice_preferences_needs_the_manage_scope(client, night):
    secret = token(night.official, "read_private")
    url = f"/api/v1/leagues/{night.league.slug}/players/{night.players[0].pk}/notices"

    answer = put(client, url, {"email": "ann@example.org", "kinds": []}, secret)

    assert answer.status_code == 403
    assert m.NoticeSubscription.objects.count() == 0


def test_notice_preferences_of_a_player_of_another_league_is_404(client, night):
    secret = token(night.official, "manage", "read_private")
    stranger = f.SeasonEntryFactory().player
    url = f"/api/v1/leagues/{night.league.slug}/players/{stranger.pk}/notices"

    answer = client.get(url, **bearer(secret))

    assert answer.status_code == 404


def test_notice_queue_lists_states_and_latest_notices(client, night):
    secret = token(night.official, "manage")
    ann = night.players[0]
    put(
        client,
        f"/api/v1/leagues/{night.league.slug}/players/{ann.pk}/notices",
        {"email": "ann@example.org", "kinds": ["groups"]},
        secret,
    )
    meet = start(night)
    work_once()

    answer = client.get(f"/api/v1/leagues/{night.league.slug}/notices", **bearer(secret))

    body = answer.json()
    assert answer.status_code == 200
    assert (body["sending"], body["counts"]) == (
        True,
        {"pending": 0, "sent": 1, "failed": 0, "skipped": 0},
    )
    (latest,) = body["latest"]
    assert (latest["player"], latest["kind"], latest["meet_id"], latest["state"]) == (
        str(ann),
        "groups",
        meet.pk,
        "sent",
    )


def test_notice_queue_needs_the_manage_scope(client, night):
    secret = token(night.official, "scores")

    answer = client.get(f"/api/v1/leagues/{night.league.slug}/notices", **bearer(secret))

    assert answer.status_code == 403
