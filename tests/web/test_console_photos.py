"""Score photos in the console: shown to the league's officials on the meet and corrections
pages, served to them only, removed after the meet by a league official (recorded)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f
from tests import photo_files as pf
from tests.league.league_night import build_night, game, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def shot():
    night = build_night(players=4, machines=4)
    meet = start(night)
    content = pf.jpeg_with_location()
    photo = services.attach_photo(
        game=game(meet, 1, 1), photo=pf.upload(content), size=len(content)
    )
    return night, meet, photo


def test_meet_page_shows_the_groups_photos(client, shot):
    night, meet, photo = shot
    client.force_login(night.user)

    page = client.get(f"/manage/{night.league.slug}/meets/{meet.pk}/").content.decode()

    assert f'src="/manage/{night.league.slug}/photos/{photo.key}/"' in page


def test_corrections_page_shows_the_games_photos(client, shot):
    night, meet, photo = shot
    client.force_login(night.user)

    url = f"/manage/{night.league.slug}/meets/{meet.pk}/corrections/?game={photo.game_id}"
    page = client.get(url).content.decode()

    assert f"/photos/{photo.key}/" in page


def test_console_photo_served_to_the_leagues_official(client, shot):
    night, _meet, photo = shot
    client.force_login(night.user)

    response = client.get(f"/manage/{night.league.slug}/photos/{photo.key}/")

    assert (response.status_code, response["Content-Type"]) == (200, "image/jpeg")
    assert "no-store" in response["Cache-Control"]


def test_console_photo_through_another_league_not_found(client, shot):
    _night, _meet, photo = shot
    other = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    client.force_login(other.user)

    response = client.get(f"/manage/{other.league.slug}/photos/{photo.key}/")

    assert response.status_code == 404


def test_console_photo_of_another_league_forbidden(client, shot):
    night, _meet, photo = shot
    client.force_login(f.LeagueOfficialFactory().user)

    response = client.get(f"/manage/{night.league.slug}/photos/{photo.key}/")

    assert response.status_code == 403


def test_official_removes_a_closed_meets_photos(client, shot, django_capture_on_commit_callbacks):
    night, meet, photo = shot
    services.close_meet(meet=meet, actor=night.user, override_reason="Venue closed early")
    client.force_login(night.user)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/manage/{night.league.slug}/meets/{meet.pk}/photos/remove/",
            {"reason": "The season is over"},
        )

    assert response.status_code == 302
    assert response["Location"].endswith(f"/meets/{meet.pk}/#photos")
    photo.refresh_from_db()
    assert photo.removed_by == night.user
    assert m.Ruling.objects.get(kind="photos_removed").reason == "The season is over"
    page = client.get(f"/manage/{night.league.slug}/meets/{meet.pk}/").content.decode()
    assert "1 photo removed by" in page
    gone = client.get(f"/manage/{night.league.slug}/photos/{photo.key}/")
    assert gone.status_code == 404


def test_remove_photos_page_asks_why_first(client, shot):
    night, meet, _photo = shot
    services.close_meet(meet=meet, actor=night.user, override_reason="Venue closed early")
    client.force_login(night.user)

    page = client.get(f"/manage/{night.league.slug}/meets/{meet.pk}/photos/remove/")

    assert page.status_code == 200
    assert "1 photo of this meet's score displays is kept" in page.content.decode()


def test_remove_photos_without_a_reason_refused(client, shot):
    night, meet, photo = shot
    services.close_meet(meet=meet, actor=night.user, override_reason="Venue closed early")
    client.force_login(night.user)

    response = client.post(f"/manage/{night.league.slug}/meets/{meet.pk}/photos/remove/", {})

    assert response.status_code == 400
    photo.refresh_from_db()
    assert photo.removed_at is None
