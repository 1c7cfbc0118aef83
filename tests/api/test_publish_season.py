"""POST /seasons/{id}/publish: a season being prepared shown to the public before its first
meet starts (issue 27 §1; scope manage, Idempotency-Key)."""

import pytest

from flipwell.league import models as m
from flipwell.league import services
from tests.api.conftest import bearer, token
from tests.league.league_night import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def prepared(night):
    meet = start(night)
    services.close_meet(meet=meet, actor=night.user, override_reason="Short season")
    return services.start_next_season(season=night.season, name="Spring 2027", actor=night.user)


def _publish(client, season, secret, key="k-1"):
    return client.post(
        f"/api/v1/seasons/{season.pk}/publish",
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        **bearer(secret),
    )


def test_api_publishes_a_season_being_prepared(client, night, prepared):
    secret = token(night.official, "manage")

    response = _publish(client, prepared, secret)

    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["state"], body["is_current"]) == ("Spring 2027", "published", True)
    assert body["published_at"] is not None
    league = client.get(f"/api/v1/leagues/{night.league.slug}").json()
    assert league["current_season"] == prepared.pk


def test_api_publish_retried_with_its_key_is_one_decision(client, night, prepared):
    secret = token(night.official, "manage")

    first = _publish(client, prepared, secret)
    again = _publish(client, prepared, secret)

    assert (first.status_code, again.status_code) == (200, 200)
    assert m.AuditEvent.objects.filter(action="season.published").count() == 1


def test_api_publish_of_the_season_shown_is_409(client, night, prepared):
    secret = token(night.official, "manage")

    response = _publish(client, night.season, secret)

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "season_already_public"


def test_api_publish_needs_the_manage_scope(client, night, prepared):
    secret = token(night.official, "scores")

    response = _publish(client, prepared, secret)

    assert response.status_code == 403
    prepared.refresh_from_db()
    assert prepared.published_at is None
