"""The score sheet's service worker and manifest, as the app serves them (the offline reload
itself is tested in the browser: tests/browser/test_offline.py)."""

import datetime

import pytest
from django.contrib.staticfiles import finders

from flipwell.league import services
from flipwell.web.middleware import CONTENT_SECURITY_POLICY
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import factories as f


@pytest.mark.django_db
def test_service_worker_is_served_from_the_sheets_folder_and_never_cached(client):
    response = client.get("/sheet/service-worker.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.content


def test_content_security_policy_allows_the_worker_and_the_manifest():
    directives = CONTENT_SECURITY_POLICY.split("; ")

    assert "worker-src 'self'" in directives
    assert "manifest-src 'self'" in directives


@pytest.mark.django_db
def test_score_sheet_links_its_manifest_and_registers_the_worker_from_a_static_script(client):
    official = f.LeagueOfficialFactory()
    season = f.SeasonFactory(league=official.league, created_at=f.SET_UP_2026)
    for rank in (1, 2, 3, 4):
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank)
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone", "Attack from Mars"):
        f.MachineFactory(league=official.league, title=title)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=7
    )

    page = client.get(scoresheet_path(started.groups[0])).content.decode()

    assert 'rel="manifest"' in page
    assert 'data-worker="/sheet/service-worker.js"' in page
    assert finders.find("flipwell/sheet.webmanifest")
