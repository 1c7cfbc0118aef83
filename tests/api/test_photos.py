"""Score photos through the API: attach (multipart) and fetch a game's photos with a token
of its league and the scope of score entry."""

from __future__ import annotations

import io
import uuid

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from flipwell.league import models as m
from flipwell.league.services.tokens import revoke_api_token
from tests import factories as f
from tests import photo_files as pf
from tests.api.conftest import bearer, token
from tests.league.league_night import game, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root")]


def send(client, game_id: int, secret: str, content: bytes, key: str = "", **fields):
    data = {"photo": SimpleUploadedFile("score.jpg", content, content_type="image/jpeg")}
    data.update(fields)
    headers = {"Idempotency-Key": key or uuid.uuid4().hex}
    return client.post(f"/api/v1/games/{game_id}/photos", data, headers=headers, **bearer(secret))


def test_attach_photo_then_fetch_it(client, night):
    meet = start(night)
    first = game(meet, 1, 1)
    player = first.group.members.order_by("position").first().player
    secret = token(night.official, "scores")

    response = send(client, first.pk, secret, pf.jpeg_with_location(), uploaded_by_id=player.pk)

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["game_id"], body["taken_by"], body["width"]) == (first.pk, str(player), 640)
    listed = client.get(f"/api/v1/games/{first.pk}/photos", **bearer(secret))
    assert listed.json()["next"] is None
    assert [p["key"] for p in listed.json()["results"]] == [body["key"]]
    image = client.get(body["url"], **bearer(secret))
    assert (image.status_code, image["Content-Type"]) == (200, "image/jpeg")
    assert Image.open(io.BytesIO(image.content)).getexif() == {}


def test_attach_text_file_refused_422(client, night):
    meet = start(night)
    secret = token(night.official, "scores")

    response = send(client, game(meet, 1, 1).pk, secret, b"plain words" * 50)

    assert response.status_code == 422
    assert response.json()["error"]["fields"]["photo"] == [
        "This file is not a photo flipwell can read: send a JPEG, PNG or HEIC image."
    ]


def test_attach_photo_same_idempotency_key_kept_once(client, night):
    meet = start(night)
    secret = token(night.official, "scores")
    first = game(meet, 1, 1)
    one = send(client, first.pk, secret, pf.png(), key="photo-key-1")
    two = send(client, first.pk, secret, pf.png(), key="photo-key-1")

    assert (one.status_code, two.status_code) == (201, 201)
    assert (two["Idempotent-Replayed"], two.json()) == ("true", one.json())
    assert m.ScorePhoto.objects.count() == 1


def test_attach_large_photo_same_idempotency_key_kept_once(client, night, settings):
    """A body too large for the stored answers (DATA_UPLOAD_MAX_MEMORY_SIZE): the key is the
    photo's own, and the photo kept the first time is the answer."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    meet = start(night)
    secret = token(night.official, "scores")
    first = game(meet, 1, 1)
    one = send(client, first.pk, secret, pf.jpeg_with_location(), key="photo-key-2")
    two = send(client, first.pk, secret, pf.jpeg_with_location(), key="photo-key-2")

    assert (one.status_code, two.status_code) == (201, 200)
    assert two.json()["key"] == one.json()["key"]
    assert m.ScorePhoto.objects.count() == 1


def test_photo_with_another_leagues_token_forbidden(client, night):
    meet = start(night)
    secret = token(night.official, "scores")
    sent = send(client, game(meet, 1, 1).pk, secret, pf.png()).json()
    stranger = token(f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL))

    fetched = client.get(sent["url"], **bearer(stranger))
    listed = client.get(f"/api/v1/games/{sent['game_id']}/photos", **bearer(stranger))
    attached = send(client, sent["game_id"], stranger, pf.png())

    assert (fetched.status_code, listed.status_code, attached.status_code) == (403, 403, 403)


def test_photo_without_the_scores_scope_forbidden(client, night):
    meet = start(night)
    sent = send(client, game(meet, 1, 1).pk, token(night.official, "scores"), pf.png()).json()

    fetched = client.get(sent["url"], **bearer(token(night.official, "read_private")))

    assert fetched.status_code == 403


def test_photo_with_a_revoked_token_refused(client, night):
    meet = start(night)
    secret = token(night.official, "scores")
    sent = send(client, game(meet, 1, 1).pk, secret, pf.png()).json()
    revoke_api_token(token=m.ApiToken.objects.get(), actor=night.user)

    fetched = client.get(sent["url"], **bearer(secret))

    assert fetched.status_code == 401


def test_photo_without_a_token_refused(client, night):
    meet = start(night)
    sent = send(client, game(meet, 1, 1).pk, token(night.official, "scores"), pf.png()).json()

    assert client.get(sent["url"]).status_code == 401


def test_attach_photo_with_a_jpeg_comment_serves_the_pixels_only(client, night):
    marker = b"SECRET-MARKER-34"
    first = game(start(night), 1, 1)
    secret = token(night.official, "scores")

    response = send(client, first.pk, secret, pf.jpeg_with_comment(marker))

    assert response.status_code == 201, response.content
    image = client.get(response.json()["url"], **bearer(secret))
    assert image.status_code == 200
    assert marker not in image.content
    with default_storage.open(m.ScorePhoto.objects.get().storage_name) as stored:
        assert marker not in stored.read()


def test_attach_photo_bomb_refused_and_counted(client, night, settings):
    settings.PHOTO_REFUSALS_PER_GAME = 1
    first = game(start(night), 1, 1)
    secret = token(night.official, "scores")

    bomb = send(client, first.pk, secret, pf.png_bomb())
    after = send(client, first.pk, secret, pf.png())

    assert bomb.status_code == 422
    assert "too many pixels" in bomb.content.decode()
    assert after.status_code == 429  # issue 34 §1: a limit is a 429, not a 422
    assert after.json()["error"]["code"] == "too_many_photos"
    assert "Too many photos sent to this game" in after.json()["error"]["message"]
    assert 1 <= int(after["Retry-After"]) <= 3600
