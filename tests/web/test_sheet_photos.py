"""Photos of the score on the group's sheet: attached from the phone, shown beside the
numbers, served only behind the group's live sheet link; kept in a folder, or in a private
bucket of an S3-compatible storage (moto's server, started by the test)."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from flipwell.env import photo_storage
from flipwell.league import models as m
from flipwell.league import services
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import factories as f
from tests import photo_files as pf

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root")]


@pytest.fixture
def photo_night():
    """An open meet 1 with two groups of four playing their first games."""
    official = f.LeagueOfficialFactory()
    league = official.league
    season = f.SeasonFactory(league=league, created_at=f.SET_UP_2026)
    for rank in range(1, 9):
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank)
    for _ in range(8):
        f.MachineFactory(league=league)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=7
    )
    one, two = started.groups[0], started.groups[1]
    return SimpleNamespace(
        meet=started.meet,
        official=official.user,
        group=one,
        game=m.Game.objects.get(group=one, number=1),
        players=[gm.player for gm in one.members.order_by("position")],
        url=scoresheet_path(one),
        other_url=scoresheet_path(two),
    )


def _photo(content: bytes, name: str = "score.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="image/jpeg")


def attach(client, photo_night, content: bytes, **extra):
    data = {"game": str(photo_night.game.pk), "photo": _photo(content), **extra}
    return client.post(photo_night.url + "photos/", data, **extra.pop("headers", {}))


def test_sheet_offers_a_camera_photo_button(client, photo_night):
    page = client.get(photo_night.url).content.decode()

    assert "Add a photo of the score" in page
    assert 'accept="image/*"' in page
    assert 'capture="environment"' in page


def test_attach_photo_from_the_sheet_shows_it(client, photo_night):
    response = attach(client, photo_night, pf.jpeg_with_location())

    assert response.status_code == 302
    photo = m.ScorePhoto.objects.get()
    assert (photo.game, photo.uploaded_by) == (photo_night.game, None)
    page = client.get(photo_night.url).content.decode()
    assert f'src="{photo_night.url}photos/{photo.key}/"' in page


def test_attach_photo_as_json_names_the_game_and_its_address(client, photo_night):
    response = client.post(
        photo_night.url + "photos/",
        {
            "game": str(photo_night.game.pk),
            "photo": _photo(pf.png()),
            "uploaded_by": photo_night.players[1].pk,
        },
        headers={"Accept": "application/json"},
    )

    photo = m.ScorePhoto.objects.get()
    body = response.json()
    assert (response.status_code, body["game"], body["url"]) == (
        200,
        1,
        f"{photo_night.url}photos/{photo.key}/",
    )
    assert photo.uploaded_by == photo_night.players[1]


def test_attach_text_file_named_jpg_refused_on_the_sheet(client, photo_night):
    response = attach(client, photo_night, b"hello, I am text\n" * 10)

    assert response.status_code == 400
    assert "This file is not a photo flipwell can read" in response.content.decode()
    assert m.ScorePhoto.objects.count() == 0


def test_attach_oversized_photo_refused_with_the_limit(client, photo_night, settings):
    settings.PHOTO_MAX_MB = 1
    response = client.post(
        photo_night.url + "photos/",
        {"game": str(photo_night.game.pk), "photo": _photo(b"\xff" * 2_000_000)},
        headers={"Accept": "application/json"},
    )

    assert response.status_code == 400
    assert response.json()["errors"]["photo"][0]["message"] == (
        "This photo is 2 MB: at most 1 MB per photo."
    )


def test_confirmer_sees_the_photo_beside_the_numbers(client, photo_night):
    attach(client, photo_night, pf.png())
    services.submit_scores(
        game=photo_night.game,
        scores={p: 1000 * (i + 1) for i, p in enumerate(photo_night.players)},
        entered_by=photo_night.players[0],
        idempotency_key="k1",
    )

    page = client.get(photo_night.url).content.decode()

    beside = page.split('class="with-photos"', 1)[1].split("</div>", 1)[0]
    key = m.ScorePhoto.objects.get().key
    assert beside.count('<td class="num big">') == 8  # each player's score and points
    assert f"photos/{key}/" in beside


def test_photo_served_as_jpeg_kept_by_the_phone_only(client, photo_night):
    attach(client, photo_night, pf.jpeg_with_location())
    key = m.ScorePhoto.objects.get().key

    response = client.get(f"{photo_night.url}photos/{key}/")

    assert (response.status_code, response["Content-Type"]) == (200, "image/jpeg")
    assert response["Cache-Control"] == "private, max-age=86400"
    assert response.content[:2] == b"\xff\xd8"


def test_photo_through_another_groups_link_not_found(client, photo_night):
    attach(client, photo_night, pf.png())
    key = m.ScorePhoto.objects.get().key

    response = client.get(f"{photo_night.other_url}photos/{key}/")

    assert response.status_code == 404


def test_photo_attached_to_another_groups_game_refused(client, photo_night):
    other_game = m.Game.objects.exclude(group=photo_night.group).first()

    response = client.post(
        photo_night.url + "photos/", {"game": str(other_game.pk), "photo": _photo(pf.png())}
    )

    assert response.status_code == 400
    assert m.ScorePhoto.objects.count() == 0


def test_photo_through_a_dead_link_not_found(client, photo_night):
    attach(client, photo_night, pf.png())
    key = m.ScorePhoto.objects.get().key
    services.close_meet(
        meet=photo_night.meet, actor=photo_night.official, override_reason="Power cut"
    )

    response = client.get(f"{photo_night.url}photos/{key}/")

    assert response.status_code == 404


def test_removed_photo_not_found(client, photo_night):
    attach(client, photo_night, pf.png())
    photo = m.ScorePhoto.objects.get()
    m.ScorePhoto.objects.filter(pk=photo.pk).update(
        removed_at=photo.created_at, removed_by=photo_night.official
    )

    response = client.get(f"{photo_night.url}photos/{photo.key}/")

    assert response.status_code == 404


def test_unknown_photo_key_not_found(client, photo_night):
    response = client.get(f"{photo_night.url}photos/{'x' * 48}/")

    assert response.status_code == 404


def test_photo_sent_again_with_its_key_kept_once(client, photo_night):
    data = {"game": str(photo_night.game.pk), "idempotency_key": "photo-1"}
    first = client.post(photo_night.url + "photos/", {**data, "photo": _photo(pf.png())})
    again = client.post(photo_night.url + "photos/", {**data, "photo": _photo(pf.png())})

    assert (first.status_code, again.status_code) == (302, 302)
    assert m.ScorePhoto.objects.count() == 1


@pytest.fixture(scope="module")
def s3_server():
    """A local S3-compatible server (moto's, in a thread) on a free port, for the module."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def photo_bucket(s3_server, settings, monkeypatch):
    """A new private bucket on the local server, and the photos kept there as an operator
    sets it up: its name, the server's address and boto3's credentials in the environment.
    Returns an S3 client of the server and the bucket's name."""
    import boto3

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "flipwell-test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "flipwell-test-secret")
    bucket = "flipwell-photos"
    environ = {"FLIPWELL_S3_BUCKET": bucket, "FLIPWELL_S3_ENDPOINT_URL": s3_server}
    s3 = boto3.client("s3", endpoint_url=s3_server, region_name="us-east-1")
    s3.create_bucket(Bucket=bucket)
    settings.STORAGES = {
        **settings.STORAGES,
        "default": photo_storage(settings.MEDIA_ROOT, environ=environ),
    }
    yield s3, bucket
    for kept in s3.list_objects_v2(Bucket=bucket).get("Contents", []):
        s3.delete_object(Bucket=bucket, Key=kept["Key"])
    s3.delete_bucket(Bucket=bucket)


def test_photo_in_an_s3_bucket_served_behind_the_sheet_link_then_removed(
    client, photo_night, photo_bucket, settings, django_capture_on_commit_callbacks
):
    """issue 36 §3: a bucket named, the phone's photo goes to it, privately; flipwell reads it
    back for the group's link only, and an official's removal deletes it there."""
    s3, bucket = photo_bucket

    attach(client, photo_night, pf.jpeg_with_location())
    photo = m.ScorePhoto.objects.get()
    served = client.get(f"{photo_night.url}photos/{photo.key}/")
    elsewhere = client.get(f"{photo_night.other_url}photos/{photo.key}/")

    kept = s3.get_object(Bucket=bucket, Key=photo.storage_name)["Body"].read()
    grants = s3.get_object_acl(Bucket=bucket, Key=photo.storage_name)["Grants"]
    assert (served.status_code, served["Content-Type"], served.content) == (200, "image/jpeg", kept)
    assert served["Cache-Control"] == "private, max-age=86400"
    assert elsewhere.status_code == 404
    assert [grant["Grantee"]["Type"] for grant in grants] == ["CanonicalUser"]  # no public read
    assert not (settings.MEDIA_ROOT / "score-photos").exists()

    official = photo_night.official
    console = f"/manage/{photo_night.meet.season.league.slug}/photos/{photo.key}/"
    services.close_meet(meet=photo_night.meet, actor=official, override_reason="Venue closed")
    client.force_login(official)
    before = client.get(console)
    with django_capture_on_commit_callbacks(execute=True):
        services.remove_meet_photos(meet=photo_night.meet, reason="Season over", actor=official)

    assert (before.status_code, before.content) == (200, kept)
    assert s3.list_objects_v2(Bucket=bucket)["KeyCount"] == 0
    assert client.get(console).status_code == 404
