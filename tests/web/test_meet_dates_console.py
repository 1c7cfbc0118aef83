"""Meet dates in the console (issue 26 §4): the schedule form asks the date's reason, and the
meet's hub moves or cancels a meet not yet started."""

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f

pytestmark = pytest.mark.django_db

DATE = datetime.date(2026, 1, 6)  # a Tuesday, the factory season's league day


@pytest.fixture
def lo(client):
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, created_at=f.SET_UP_2026
    )
    official.season = season
    return official


def test_schedule_form_dated_1999_asks_for_a_reason(client, lo):
    """issue 26 §4: the console scheduled a meet dated 1999; the form now shows why it needs a
    reason, next to the reason's field, and schedules nothing."""
    response = client.post(
        f"/manage/tuesday/seasons/{lo.season.pk}/meets/",
        {"number": "1", "date": "1999-01-05"},
    )

    assert response.status_code == 400
    assert (
        response.context["form"]
        .errors["date_reason"][0]
        .startswith("Meet 1's date needs a reason: Tuesday 5 January 1999 is outside the season")
    )
    assert not m.Meet.objects.exists()


def test_schedule_form_with_a_reason_schedules_it(client, lo):
    """issue 26 §4, R2-a: the reason given, the meet is scheduled and the ruling kept."""
    response = client.post(
        f"/manage/tuesday/seasons/{lo.season.pk}/meets/",
        {"number": "1", "date": "2026-01-08", "date_reason": "Tuesday is a holiday"},
    )

    assert response.status_code == 302
    assert m.Meet.objects.get().date == datetime.date(2026, 1, 8)
    assert m.Ruling.objects.get(kind="meet_date").reason == "Tuesday is a holiday"


def test_meet_hub_offers_to_move_or_cancel_a_planned_meet(client, lo):
    meet = services.schedule_meet(season=lo.season, number=1, date=DATE, actor=lo.user)

    response = client.get(f"/manage/tuesday/meets/{meet.pk}/")

    assert "Move or cancel this meet" in response.text
    assert f'action="/manage/tuesday/meets/{meet.pk}/reschedule/"' in response.text


def test_reschedule_form_moves_the_meet(client, lo):
    """issue 26 §4: the hub's form moves a planned meet, with its reason, audited."""
    meet = services.schedule_meet(season=lo.season, number=1, date=DATE, actor=lo.user)

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/reschedule/",
        {"action": "reschedule", "date": "2026-01-13", "reason": "Snow"},
        follow=True,
    )

    assert response.redirect_chain == [(f"/manage/tuesday/meets/{meet.pk}/", 302)]
    assert "Meet 1 moved to Tuesday 13 January 2026." in response.text
    assert m.Meet.objects.get(pk=meet.pk).date == datetime.date(2026, 1, 13)
    assert m.AuditEvent.objects.filter(action="meet.rescheduled").count() == 1


def test_reschedule_form_without_a_reason_shows_the_form_again(client, lo):
    meet = services.schedule_meet(season=lo.season, number=1, date=DATE, actor=lo.user)

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/reschedule/",
        {"action": "reschedule", "date": "2026-01-13", "reason": ""},
    )

    assert response.status_code == 400
    assert response.context["reschedule_form"].errors["reason"] == ["This field is required."]
    assert m.Meet.objects.get(pk=meet.pk).date == DATE


def test_cancel_form_cancels_and_renumbers(client, lo):
    """issue 26 §4: cancelling meet 1 removes it; meet 2 becomes meet 1."""
    first = services.schedule_meet(season=lo.season, number=1, date=DATE, actor=lo.user)
    second = services.schedule_meet(
        season=lo.season, number=2, date=DATE + datetime.timedelta(days=7), actor=lo.user
    )

    response = client.post(
        f"/manage/tuesday/meets/{first.pk}/reschedule/",
        {"action": "cancel", "reason": "The venue is closed"},
        follow=True,
    )

    assert response.redirect_chain == [(f"/manage/tuesday/seasons/{lo.season.pk}/meets/", 302)]
    assert "Meet 1 (Tuesday 06 January 2026) is cancelled; meet 2 is now meet 1." in response.text
    assert list(m.Meet.objects.values_list("pk", "number")) == [(second.pk, 1)]


def test_cancel_form_of_a_scorekeeper_is_refused(client, lo):
    """issue 26 §4: a scorekeeper cannot cancel a meet; nothing is removed."""
    meet = services.schedule_meet(season=lo.season, number=1, date=DATE, actor=lo.user)
    keeper = f.LeagueOfficialFactory(league=lo.league, role=m.LeagueOfficial.Role.SCOREKEEPER)
    client.force_login(keeper.user)

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/reschedule/", {"action": "cancel", "reason": "Mine"}
    )

    assert response.status_code == 403
    assert m.Meet.objects.filter(pk=meet.pk).exists()
