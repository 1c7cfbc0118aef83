"""POST /api/v1/games/{game_id}/slow-play-warnings (R7.5-a): the body's fields are the
service's arguments; refusals are 422 on their field; a retry with its Idempotency-Key is
answered again and records nothing."""

from __future__ import annotations

import pytest

from flipwell.api.api import api
from flipwell.league import models as m
from tests.api.conftest import bearer, post

pytestmark = pytest.mark.django_db

PATH = "/api/v1/games/{game_id}/slow-play-warnings"


def _url(first_game) -> str:
    return PATH.format(game_id=first_game.pk)


def _member(first_game, position: int = 2) -> m.Player:
    return first_game.group.members.get(position=position).player


def test_slow_play_warning_is_201_with_the_ruling(client, night, first_game, manage_secret):
    player = _member(first_game)

    response = post(
        client, _url(first_game), {"player": player.pk, "reason": "Slow"}, manage_secret
    )

    assert response.status_code == 201, response.content
    ruling = m.Ruling.objects.get(kind="slow_play_warning")
    body = response.json()
    assert {k: body[k] for k in ("id", "game_id", "player_id", "reason", "official_involved")} == {
        "id": ruling.pk,
        "game_id": first_game.pk,
        "player_id": player.pk,
        "reason": "Slow",
        "official_involved": False,
    }
    assert response["Location"].endswith(f"/api/v1/games/{first_game.pk}")


def test_slow_play_warning_of_a_player_outside_the_group_is_422_on_player(
    client, night, first_game, manage_secret
):
    outsider = night.players[7]

    response = post(
        client, _url(first_game), {"player": outsider.pk, "reason": "Slow"}, manage_secret
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["player"]
    assert not m.Ruling.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"player": 1}, "reason"),
        ({"player": 1, "reason": ""}, "reason"),
        ({"reason": "x"}, "player"),
    ],
)
def test_slow_play_warning_without_a_field_is_422_naming_it(
    client, night, first_game, manage_secret, body, field
):
    response = post(client, _url(first_game), body, manage_secret)

    assert response.status_code == 422
    assert field in response.json()["error"]["fields"]


def test_slow_play_warning_retried_with_its_key_is_replayed_and_recorded_once(
    client, night, first_game, manage_secret
):
    body = {"player": _member(first_game).pk, "reason": "Slow"}
    headers = {**bearer(manage_secret), "HTTP_IDEMPOTENCY_KEY": "slow-1"}

    sent = client.post(_url(first_game), body, content_type="application/json", **headers)
    again = client.post(_url(first_game), body, content_type="application/json", **headers)

    assert (sent.status_code, again.status_code) == (201, 201)
    assert again.content == sent.content
    assert again["Idempotent-Replayed"] == "true"
    assert m.Ruling.objects.filter(kind="slow_play_warning").count() == 1
    assert m.AuditEvent.objects.filter(action="ruling.slow_play_warning").count() == 1


def test_slow_play_warning_is_in_the_schema_with_the_idempotency_key():
    operation = api.get_openapi_schema()["paths"]["/api/v1/games/{game_id}/slow-play-warnings"][
        "post"
    ]

    assert "Idempotency-Key" in [p["name"] for p in operation["parameters"]]
    assert 201 in operation["responses"]
