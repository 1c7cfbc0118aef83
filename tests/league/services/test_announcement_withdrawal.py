"""Withdrawing an announced absence or lateness before the meet starts, by the LO or through
the player's personal link, and no announcement through the link once a meet has started
(issue 27 §3, R3.1-d, R2.2-a)."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned():
    """Meet 1 of Spring, a week from now; Ana has a personal link."""
    official = f.LeagueOfficialFactory()
    season = f.SeasonFactory(league=official.league, number_of_meets=3)
    ana = f.SeasonEntryFactory(season=season, player__first_name="Ana").player
    meet = services.schedule_meet(
        season=season,
        number=1,
        date=timezone.localdate() + datetime.timedelta(days=7),
        actor=official.user,
        date_reason="A week from now, whatever the season's days",
    )
    link = services.issue_player_link(season=season, player=ana, actor=official.user)
    return official, meet, ana, link


def test_withdraw_announcement_of_an_absence_by_the_official(planned):
    """issue 27 §3, R3.1-d: the absence is gone, so the player is grouped; one audit event."""
    official, meet, ana, _ = planned
    services.announce_absence(meet=meet, player=ana, actor=official.user)

    withdrawn = services.withdraw_announcement(
        meet=meet, player=ana, kind="absence", actor=official.user
    )

    assert withdrawn.player == ana
    assert not m.AnnouncedAbsence.objects.exists()
    event = m.AuditEvent.objects.get(action="meet.absence_withdrawn")
    assert event.data["player"] == ana.pk


def test_withdraw_announcement_of_a_lateness_through_the_link(planned):
    """issue 27 §3, R2.2-a: the player withdraws their own notice; the event names the link."""
    _, meet, _, link = planned
    services.announce_lateness_by_link(link=link, meet=meet)

    services.withdraw_announcement_by_link(link=link, meet=meet, kind="lateness")

    assert not m.LatenessNotice.objects.exists()
    event = m.AuditEvent.objects.get(action="meet.lateness_withdrawn")
    assert event.data["player_link"] == link.pk


def test_withdraw_announcement_after_the_start_refused(planned):
    """R3.1-d: the groups were drawn with it; the withdrawal would change nothing true."""
    official, meet, ana, _ = planned
    services.announce_absence(meet=meet, player=ana, actor=official.user)
    m.Meet.objects.filter(pk=meet.pk).update(status=m.Meet.Status.OPEN)

    with pytest.raises(ValidationError) as caught:
        services.withdraw_announcement(meet=meet, player=ana, kind="absence", actor=official.user)

    assert "has started" in caught.value.message_dict["meet"][0]
    assert m.AnnouncedAbsence.objects.count() == 1


def test_withdraw_announcement_of_nothing_announced_refused(planned):
    official, meet, ana, _ = planned

    with pytest.raises(ValidationError) as caught:
        services.withdraw_announcement(meet=meet, player=ana, kind="lateness", actor=official.user)

    assert caught.value.message_dict["player"] == [
        f"{ana} has no lateness notice for meet 1 to withdraw."
    ]


def test_announce_lateness_by_link_for_a_meet_started_early_refused(planned):
    """issue 27 §3, R2.2-a: a meet started before its start time is under way all the same."""
    _, meet, _, link = planned
    m.Meet.objects.filter(pk=meet.pk).update(status=m.Meet.Status.OPEN)

    with pytest.raises(ValidationError) as caught:
        services.announce_lateness_by_link(link=link, meet=meet)

    assert "Meet 1 has started" in caught.value.message_dict["meet"][0]
    assert not m.LatenessNotice.objects.exists()
