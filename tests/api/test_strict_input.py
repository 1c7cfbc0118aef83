"""Lenient input refused: strict JSON types, unknown fields, repeated players, non-JSON bodies,
and the error shape for 413 and 500 answers under /api/."""

from __future__ import annotations

import logging

import pytest
from django.db.models.query import QuerySet

from flipwell.league import models as m
from tests.api.conftest import keyed, token
from tests.league.league_night import game, start

pytestmark = pytest.mark.django_db


def _post(client, url, body, secret, content_type="application/json"):
    return client.post(url, body, content_type=content_type, **keyed(secret))


def _sheet_body(meet, **scores_of):
    played = game(meet, 1, 1)
    players = [x.player for x in played.group.members.order_by("position")]
    scores = [{"player": p.pk, "machine_score": 1000 * (i + 1)} for i, p in enumerate(players)]
    return played, players, {"entered_by": players[0].pk, "scores": scores, "idempotency_key": "k"}


def _error(response):
    return response.status_code, response.json()["error"]


@pytest.mark.parametrize("score", [True, "5000", 5000.0])
def test_submit_scores_with_a_non_integer_score_is_422_naming_it(client, night, score):
    meet = start(night)
    played, _, body = _sheet_body(meet)
    body["scores"][1]["machine_score"] = score

    response = _post(client, f"/api/v1/games/{played.pk}/scores", body, token(night.official))

    status, error = _error(response)
    assert (status, error["code"], list(error["fields"])) == (
        422,
        "invalid_input",
        ["scores.1.machine_score"],
    )
    assert not m.ScoreSubmission.objects.exists()


def test_submit_scores_with_a_player_twice_is_422_naming_him(client, night):
    meet = start(night)
    played, players, body = _sheet_body(meet)
    body["scores"][3] = {"player": players[0].pk, "machine_score": 1}

    response = _post(client, f"/api/v1/games/{played.pk}/scores", body, token(night.official))

    status, error = _error(response)
    assert (status, list(error["fields"])) == (422, ["scores"])
    assert f"player {players[0].pk} is listed more than once" in error["fields"]["scores"][0]
    assert not m.ScoreSubmission.objects.exists()


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"nickname": "Annie"}, "nickname"),
        ({"joined_at_meet": True}, "joined_at_meet"),
        ({"ifpa_number": "4242"}, "ifpa_number"),
    ],
)
def test_register_player_with_an_unknown_field_or_coerced_value_is_422(client, night, extra, field):
    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Ann", "last_name": "Bell", **extra},
        token(night.official, "manage"),
    )

    status, error = _error(response)
    assert (status, list(error["fields"])) == (422, [field])
    assert not m.Player.objects.filter(first_name="Ann").exists()


def test_unknown_field_inside_a_score_is_422_naming_its_path(client, night):
    meet = start(night)
    played, _, body = _sheet_body(meet)
    body["scores"][0]["bonus"] = 1

    response = _post(client, f"/api/v1/games/{played.pk}/scores", body, token(night.official))

    status, error = _error(response)
    assert (status, error["fields"]) == (
        422,
        {"scores.0.bonus": ["is not a field of this request; leave it out"]},
    )


def test_forfeit_with_a_string_for_a_yes_no_field_is_422(client, night):
    meet = start(night)
    played, players, _ = _sheet_body(meet)

    response = _post(
        client,
        f"/api/v1/games/{played.pk}/forfeits",
        {"player": players[0].pk, "countable": "yes"},
        token(night.official),
    )

    status, error = _error(response)
    assert (status, error["fields"]) == (422, {"countable": ["must be true or false"]})


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"]
)
def test_json_body_sent_as_another_content_type_is_415(client, night, content_type):
    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        '{"first_name": "Ann", "last_name": "Bell"}',
        token(night.official, "manage"),
        content_type=content_type,
    )

    status, error = _error(response)
    assert (status, error["code"]) == (415, "unsupported_media_type")
    assert content_type in error["message"]
    assert not m.Player.objects.filter(first_name="Ann").exists()


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/x+json"])
def test_json_content_types_with_parameters_or_suffix_are_read(client, night, content_type):
    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        '{"first_name": "Ann", "last_name": "Bell"}',
        token(night.official, "manage"),
        content_type=content_type,
    )

    assert response.status_code == 201


def test_body_larger_than_the_upload_limit_is_413_in_the_error_shape(client, night, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players/import",
        {"csv": "first_name,last_name,ifpa_number,ifpa_rank\n" + "Ann,Bell,,\n" * 200},
        token(night.official, "manage"),
    )

    status, error = _error(response)
    assert (status, error["code"]) == (413, "too_large")
    assert "at most 1000 bytes" in error["message"]


def test_server_error_under_api_is_500_in_the_error_shape_and_logged(
    client, night, monkeypatch, caplog
):
    def explode(self):
        raise RuntimeError("secret database detail")

    monkeypatch.setattr(QuerySet, "_fetch_all", explode)

    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/api/v1/leagues")

    status, error = _error(response)
    assert (status, error["code"], error["fields"]) == (500, "server_error", {})
    assert "secret" not in response.content.decode()
    assert [r.exc_info[1].args for r in caplog.records if r.exc_info] == [
        ("secret database detail",)
    ]
