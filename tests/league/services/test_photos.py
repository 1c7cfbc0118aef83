"""Score photos: what a photo must be (decoded, no EXIF, within the limits) and the services
that attach them to a game and remove a closed meet's."""

from __future__ import annotations

import io
import threading

import pytest
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from PIL import Image, ImageFile, JpegImagePlugin

from flipwell.league import models as m
from flipwell.league import photos
from flipwell.league.photos import PHOTOS_PER_GAME, clean_photo
from flipwell.league.services import attach_photo, close_meet, remove_meet_photos
from tests import photo_files as pf
from tests.league.league_night import build_night, game, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root")]


def _sent(content: bytes):
    return {"photo": io.BytesIO(content), "size": len(content)}


def test_clean_photo_text_file_named_jpg_refused():
    text = b"not a photo at all, only words\n" * 20

    with pytest.raises(ValidationError) as refused:
        clean_photo(io.BytesIO(text), size=len(text))

    assert refused.value.message_dict == {
        "photo": ["This file is not a photo flipwell can read: send a JPEG, PNG or HEIC image."]
    }


def test_clean_photo_removes_exif():
    sent = pf.jpeg_with_location()
    assert Image.open(io.BytesIO(sent)).getexif()  # the phone's file has it

    clean = clean_photo(io.BytesIO(sent), size=len(sent))

    kept = Image.open(io.BytesIO(clean.content))
    assert (kept.format, dict(kept.getexif()), kept.info.get("exif")) == ("JPEG", {}, None)


def test_clean_photo_oversized_refused_with_the_limit(settings):
    settings.PHOTO_MAX_MB = 1
    sent = b"\xff" * 1_500_000

    with pytest.raises(ValidationError) as refused:
        clean_photo(io.BytesIO(sent), size=len(sent))

    assert refused.value.message_dict == {
        "photo": ["This photo is 1.5 MB: at most 1 MB per photo."]
    }


def test_clean_photo_shrinks_the_long_side(settings):
    settings.PHOTO_LONG_SIDE = 400
    sent = pf.jpeg_with_location(1200, 900)

    clean = clean_photo(io.BytesIO(sent), size=len(sent))

    assert (clean.width, clean.height) == (400, 300)


@pytest.mark.parametrize("make", [pf.png, pf.heic])
def test_clean_photo_png_and_heic_become_jpeg(make):
    sent = make()

    clean = clean_photo(io.BytesIO(sent), size=len(sent))

    assert Image.open(io.BytesIO(clean.content)).format == "JPEG"


def test_clean_photo_truncated_jpeg_refused():
    sent = pf.jpeg_with_location()[:2000]

    with pytest.raises(ValidationError) as refused:
        clean_photo(io.BytesIO(sent), size=len(sent))

    assert refused.value.message_dict["photo"][0].startswith("This file is not a photo")


def test_attach_photo_stores_a_clean_file_under_a_random_key():
    night = build_night(players=4, machines=4)
    meet = start(night)
    first = game(meet, 1, 1)
    player = first.group.members.order_by("position").first().player

    photo = attach_photo(game=first, **_sent(pf.jpeg_with_location()), uploaded_by=player)

    assert len(photo.key) >= 40
    with default_storage.open(photo.storage_name) as stored:
        assert Image.open(stored).getexif() == {}
    event = m.AuditEvent.objects.get(action="photo.attached")
    assert event.data["game"] == first.pk


def test_attach_photo_by_a_player_of_another_group_refused():
    night = build_night(players=8, machines=8)
    meet = start(night)
    other = game(meet, 2, 1).group.members.first().player

    with pytest.raises(ValidationError) as refused:
        attach_photo(game=game(meet, 1, 1), **_sent(pf.png()), uploaded_by=other)

    assert list(refused.value.message_dict) == ["uploaded_by"]
    assert m.ScorePhoto.objects.count() == 0


def test_attach_photo_beyond_the_games_photos_refused():
    night = build_night(players=4, machines=4)
    meet = start(night)
    for _ in range(PHOTOS_PER_GAME):
        attach_photo(game=game(meet, 1, 1), **_sent(pf.png()))

    with pytest.raises(ValidationError) as refused:
        attach_photo(game=game(meet, 1, 1), **_sent(pf.png()))

    assert refused.value.message_dict == {
        "photo": [f"Game 1 already has {PHOTOS_PER_GAME} photos: that is all."]
    }


def test_attach_photo_beyond_the_meets_limit_refused_with_the_limit(settings):
    settings.PHOTO_MEET_MAX_MB = 1
    settings.PHOTO_LONG_SIDE = 1600
    night = build_night(players=4, machines=4)
    meet = start(night)
    noisy = Image.effect_noise((1000, 800), 120)  # about 0.53 MB once clean.convert("RGB")
    out = io.BytesIO()
    noisy.save(out, format="JPEG", quality=95)

    attach_photo(game=game(meet, 1, 1), **_sent(out.getvalue()))
    with pytest.raises(ValidationError) as refused:
        attach_photo(game=game(meet, 1, 1), **_sent(out.getvalue()))

    assert refused.value.message_dict == {
        "photo": [
            "This meet's photos already take 0.5 MB of the 1 MB allowed per meet: ask the "
            "league official."
        ]
    }


def test_remove_meet_photos_of_an_open_meet_refused():
    night = build_night(players=4, machines=4)
    meet = start(night)
    attach_photo(game=game(meet, 1, 1), **_sent(pf.png()))

    with pytest.raises(ValidationError):
        remove_meet_photos(meet=meet, reason="season over", actor=night.user)


def test_remove_meet_photos_deletes_files_and_records_who_and_why(
    django_capture_on_commit_callbacks,
):
    night = build_night(players=4, machines=4)
    meet = start(night)
    photo = attach_photo(game=game(meet, 1, 1), **_sent(pf.png()))
    close_meet(meet=meet, actor=night.user, override_reason="Venue closed early")

    with django_capture_on_commit_callbacks(execute=True):
        removed = remove_meet_photos(meet=meet, reason="The season is over", actor=night.user)

    photo.refresh_from_db()
    assert (removed, photo.removed_by, default_storage.exists(photo.storage_name)) == (
        1,
        night.user,
        False,
    )
    ruling = m.Ruling.objects.get(kind="photos_removed")
    assert (ruling.reason, ruling.official) == ("The season is over", night.user)
    assert m.AuditEvent.objects.get(action="photos.removed").data["photos"] == [photo.pk]


@pytest.fixture
def no_decoding(monkeypatch):
    """Any decoding of pixels fails the test: a refusal must come from the header alone."""

    def decoded(self):
        raise AssertionError("the photo was decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", decoded)


def test_clean_photo_small_png_of_too_many_pixels_refused_before_decoding(no_decoding):
    sent = pf.png_bomb(7_740)  # 59.9 megapixels in a few KB: more than a phone camera makes
    assert len(sent) < 20_000

    with pytest.raises(ValidationError) as refused:
        clean_photo(io.BytesIO(sent), size=len(sent))

    assert refused.value.message_dict["photo"] == [
        "This photo has too many pixels: take it again at a lower size."
    ]


def test_clean_photo_pixel_limit_is_a_setting(settings, no_decoding):
    settings.PHOTO_MAX_MEGAPIXELS = 1
    sent = pf.png(1_100, 1_000)

    with pytest.raises(ValidationError) as refused:
        clean_photo(io.BytesIO(sent), size=len(sent))

    assert "too many pixels" in refused.value.message_dict["photo"][0]


def test_clean_photo_truncated_png_refused_before_decoding(no_decoding):
    sent = pf.png(2_000, 2_000)
    sent = sent[: len(sent) - 40]

    with pytest.raises(ValidationError) as refused:
        clean_photo(io.BytesIO(sent), size=len(sent))

    assert refused.value.message_dict["photo"][0].startswith("This file is not a photo")


def test_clean_photo_decodes_a_jpeg_at_a_reduced_scale(settings, monkeypatch):
    settings.PHOTO_LONG_SIDE = 400
    asked = []
    draft = JpegImagePlugin.JpegImageFile.draft

    def spy(self, mode, size):
        asked.append(size)
        return draft(self, mode, size)

    monkeypatch.setattr(JpegImagePlugin.JpegImageFile, "draft", spy)
    sent = pf.jpeg_with_location(3_200, 2_400)

    clean = clean_photo(io.BytesIO(sent), size=len(sent))

    assert asked == [(400, 400)]
    assert (clean.width, clean.height) == (400, 300)


def test_clean_photo_waits_for_a_free_decoding_slot(monkeypatch):
    slots = threading.BoundedSemaphore(1)
    monkeypatch.setattr(photos, "_decodes", slots)
    sent = pf.png()
    done = []
    slots.acquire()  # another upload is being decoded
    worker = threading.Thread(target=lambda: done.append(clean_photo(io.BytesIO(sent), size=9)))
    worker.start()
    worker.join(0.3)
    waited = not done
    slots.release()
    worker.join(5)

    assert waited
    assert len(done) == 1


def test_decode_slots_come_from_the_setting(settings, monkeypatch):
    settings.PHOTO_DECODES = 3
    monkeypatch.setattr(photos, "_decodes", None)

    slots = photos.decode_slots()

    assert [slots.acquire(blocking=False) for _ in range(4)] == [True, True, True, False]


def test_clean_photo_keeps_no_comment_profile_xmp_or_text():
    marker = b"SECRET-MARKER-34"
    for sent in (pf.jpeg_with_comment(marker), pf.png_with_text(marker.decode())):
        clean = clean_photo(io.BytesIO(sent), size=len(sent))

        assert marker not in clean.content
        assert Image.open(io.BytesIO(clean.content)).info.keys() <= {
            "jfif", "jfif_version", "jfif_unit", "jfif_density", "dpi"
        }  # fmt: skip


def test_attach_photo_refused_photos_count_toward_the_games_limit(settings, no_decoding):
    settings.PHOTO_REFUSALS_PER_GAME = 2
    night = build_night(players=8, machines=8)
    meet = start(night)
    first, second = game(meet, 1, 1), game(meet, 2, 1)
    for _ in range(2):
        with pytest.raises(ValidationError):
            attach_photo(game=first, **_sent(pf.png_bomb()))

    with pytest.raises(ValidationError) as refused:
        attach_photo(game=first, **_sent(pf.png_bomb()))

    assert refused.value.message_dict == {
        "photo": ["Too many photos sent to this game could not be kept: try again in an hour."]
    }
    with pytest.raises(ValidationError) as other:
        attach_photo(game=second, **_sent(pf.png_bomb()))
    assert "pixels" in other.value.message_dict["photo"][0]


def test_clean_photo_larger_than_its_stated_size_refused(settings):
    settings.PHOTO_MAX_MB = 1
    sent = pf.png() + b"\0" * 1_000_000

    with pytest.raises(ValidationError) as refused:
        clean_photo(io.BytesIO(sent), size=10)

    assert refused.value.message_dict["photo"][0].endswith("at most 1 MB per photo.")


def test_clean_photo_eight_small_bombs_at_once_refused_unread(no_decoding):
    """Eight at once are each refused from the header, none decoded (no_decoding fails a
    decode): how fast is bench's business, not a timed test's."""
    sent = pf.png_bomb()
    refused = []

    def send():
        try:
            clean_photo(io.BytesIO(sent), size=len(sent))
        except ValidationError as error:
            refused.append(error)

    workers = [threading.Thread(target=send) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)

    assert len(refused) == 8
