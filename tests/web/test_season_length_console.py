"""The console's "End the season early / change the number of meets" (issue 37 §3; R2-a,
R6.1-d, A68): the preview, folded with the new number and never stored, says who becomes
eligible or ineligible and who clinches; only the confirmation cuts, and keeps the ruling."""

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f
from tests.golden import import_golden_in_progress

pytestmark = pytest.mark.django_db

WHY = "The venue closes: the season ends with meet 3."


@pytest.fixture
def storm(client):
    """The golden season after 3 of 10 meets in league "storm", meet 4 planned; the LO signed in."""
    official = f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__slug="storm"
    )
    season = import_golden_in_progress(official)
    services.schedule_meet(
        season=season, number=4, date=datetime.date(2026, 1, 28), actor=official.user
    )
    client.force_login(official.user)
    return season


def url(season):
    return f"/manage/storm/seasons/{season.pk}/length/"


def test_season_length_page_offers_to_end_after_the_last_meet_started(client, storm):
    response = client.get(url(storm))

    assert response.status_code == 200
    assert response.context["form"].initial == {"number_of_meets": 3}
    assert "meet 3 is the last one started" in response.text


def test_season_length_preview_lists_the_changes_and_writes_nothing(client, storm):
    """A68: zoe (no game yet, joins at meet 4) becomes not eligible; players clinch."""
    response = client.post(url(storm), {"action": "preview", "number_of_meets": "3", "reason": WHY})

    assert response.status_code == 200
    rows = response.context["changes"]
    changes = {row["name"]: (row["before"].text, row["after"].text) for row in rows}
    zoe = next(name for name in changes if name.startswith("Zoe"))
    assert changes[zoe] == ("no game yet", "not eligible")
    assert ("still in the race", "clinched") in changes.values()
    assert "meets left: 7 → <strong>0</strong>" in response.text
    assert "Cancelled: meet 4" in response.text
    assert 'name="action" value="confirm"' in response.text
    assert m.Season.objects.get(pk=storm.pk).number_of_meets == 10
    assert not m.Ruling.objects.filter(kind="season_cut").exists()


def test_season_length_preview_refuses_fewer_meets_than_started(client, storm):
    response = client.post(url(storm), {"action": "preview", "number_of_meets": "2", "reason": WHY})

    assert response.status_code == 400
    assert response.context["form"].errors["number_of_meets"][0].startswith("Meet 3 has started")


def test_season_length_confirm_cuts_the_season_and_records_the_ruling(client, storm):
    response = client.post(
        url(storm), {"action": "confirm", "number_of_meets": "3", "reason": WHY}, follow=True
    )

    assert response.redirect_chain == [("/manage/storm/seasons/", 302)]
    assert "Winter 2026 now has 3 meets; planned meet 4 cancelled." in response.text
    ruling = m.Ruling.objects.get(kind="season_cut")
    assert (ruling.reason, ruling.official) == (WHY, storm.league.officials.get().user)
    assert m.Season.objects.get(pk=storm.pk).number_of_meets == 3
