"""Announcements on the pages (issue 27 §3): withdrawn from the personal link or the console's
attendance page before the meet starts, not offered once a meet has started, and a warning
when the official starts or closes a meet before its start time (R2.2-a, R3.1-d)."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.player_link_tokens import token_for
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def meet_next_week(client):
    """Meet 1 of Spring a week from now, at 19:00; Ana has a personal link."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    season = f.SeasonFactory(league=official.league, name="Spring", number_of_meets=3)
    ana = f.SeasonEntryFactory(
        season=season, player__first_name="Ana", player__last_name="Flipper"
    ).player
    f.SeasonEntryFactory(season=season)
    meet = services.schedule_meet(
        season=season,
        number=1,
        date=timezone.localdate() + datetime.timedelta(days=7),
        actor=official.user,
        date_reason="A week from now, whatever the season's days",
    )
    link = services.issue_player_link(season=season, player=ana, actor=official.user)
    return official, meet, ana, f"/me/{token_for(link)}/"


def test_player_link_page_withdraws_an_absence(client, meet_next_week):
    """issue 27 §3: the page offered no way back from "I'll be absent"."""
    url = meet_next_week[3]
    client.post(url, {"action": "absence", "meet": "1"})
    page = client.get(url)

    response = client.post(url, {"action": "withdraw_absence", "meet": "1"}, follow=True)

    assert "withdraw my absence" in page.text
    assert "Your absence from meet 1 is withdrawn: see you there." in response.text
    assert not m.AnnouncedAbsence.objects.exists()
    assert "I'll be absent from meet 1" in response.text


def test_player_link_page_offers_no_lateness_for_a_meet_started_early(client):
    """issue 27 §3: "I'll be late to meet 1" was offered after meet 1 had started early."""
    official = f.LeagueOfficialFactory(league__slug="tuesday", league__time_zone="UTC")
    season = f.SeasonFactory(
        league=official.league, number_of_meets=3, start_time=datetime.time(23, 59, 59)
    )
    players = [f.SeasonEntryFactory(season=season).player for _ in range(4)]
    f.MachineFactory(league=official.league)
    today = datetime.datetime.now(datetime.UTC).date()
    services.schedule_meet(
        season=season, number=1, date=today, actor=official.user, date_reason="Tonight"
    )
    services.start_meet(season=season, number=1, date=today, seed=1, actor=official.user)
    link = services.issue_player_link(season=season, player=players[0], actor=official.user)

    response = client.get(f"/me/{token_for(link)}/")

    assert response.status_code == 200
    assert "I'll be late to meet 1" not in response.text
    assert "The meet has started" in response.text


def test_attendance_page_withdraws_a_lateness_notice(client, meet_next_week):
    """issue 27 §3: the console could record a notice but not withdraw it."""
    official, meet, ana, _ = meet_next_week
    services.announce_lateness(meet=meet, player=ana, actor=official.user)
    client.force_login(official.user)
    page = client.get(f"/manage/tuesday/meets/{meet.pk}/attendance/")

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/attendance/",
        {"action": "withdraw_late", "player": ana.pk},
        follow=True,
    )

    assert 'value="withdraw_late"' in page.text
    assert "Ana Flipper&#x27;s lateness notice is withdrawn." in response.text
    assert not m.LatenessNotice.objects.exists()
    assert m.AuditEvent.objects.filter(action="meet.lateness_withdrawn").count() == 1


def test_start_page_warns_before_the_start_time(client, meet_next_week):
    """issue 27 §3: starting before the start time came with no warning."""
    official, meet, _, _ = meet_next_week
    client.force_login(official.user)

    response = client.get(f"/manage/tuesday/meets/{meet.pk}/start/")

    assert "You are about to start it before its start time" in response.text


@pytest.fixture
def open_meet(client):
    """Start meet 1 of Spring on a day (today by default) through `start_meet`: four
    players, four machines, the meets starting at 23:30 in a time zone where it is not yet
    23:00 (so today's meet is open before its start time)."""
    zone = next(
        name
        for name in ("UTC", "Pacific/Pago_Pago")
        if timezone.now().astimezone(ZoneInfo(name)).hour < 23
    )
    official = f.LeagueOfficialFactory(league__slug="tuesday", league__time_zone=zone)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, start_time=datetime.time(23, 30)
    )
    for _ in range(4):
        f.SeasonEntryFactory(season=season)
        f.MachineFactory(league=official.league)
    today = timezone.now().astimezone(ZoneInfo(zone)).date()
    client.force_login(official.user)

    def start(days_ago: int = 0) -> m.Meet:
        started = services.start_meet(
            season=season,
            number=1,
            date=today - datetime.timedelta(days=days_ago),
            actor=official.user,
            seed=1,
            date_reason="The night the bar had free",
        )
        return started.meet

    return start


def test_close_page_warns_before_the_start_time(client, open_meet):
    """issue 27 §3: closing before the start time came with no warning."""
    meet = open_meet()

    response = client.get(f"/manage/tuesday/meets/{meet.pk}/close/")

    assert "You are about to close it before its start time" in response.text


def test_close_page_after_the_start_time_has_no_warning(client, open_meet):
    meet = open_meet(days_ago=2)

    response = client.get(f"/manage/tuesday/meets/{meet.pk}/close/")

    assert response.status_code == 200
    assert "before its start time" not in response.text
