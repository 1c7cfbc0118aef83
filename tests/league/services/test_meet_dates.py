"""Meet dates a person can trust (issue 26 §4): a date outside the season, out of order or off
the league day needs the official's reason; a meet does not start before its day; a meet not
yet started can be moved or cancelled, each with a reason, audited."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.selectors.standings import standings
from flipwell.league.services.meets.announcements import announce_absence
from flipwell.league.services.meets.close import close_meet
from flipwell.league.services.meets.schedule import cancel_meet, reschedule_meet, schedule_meet
from flipwell.league.services.meets.start import start_meet
from flipwell.rules import written_day
from tests import factories as f
from tests.league.league_night import DATE, build_night
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db

WEEK = datetime.timedelta(days=7)


def _played_one(night):
    """Meet 1 (Tuesday 6 January 2026) played and closed."""
    close_meet(meet=start_night(night), actor=night.user, override_reason="Short night")


def test_schedule_meet_dated_1999_needs_a_reason():
    """issue 26 §4: meet 2 dated 1999 in a season whose meet 1 was in 2026 was accepted; it is
    outside the season and before meet 1: refused without a reason, nothing written."""
    night = build_night()
    _played_one(night)

    with pytest.raises(ValidationError) as caught:
        schedule_meet(
            season=night.season, number=2, date=datetime.date(1999, 1, 5), actor=night.user
        )

    assert caught.value.refusal == "date_needs_reason"
    assert caught.value.message_dict["date_reason"] == [
        "Meet 2's date needs a reason: Tuesday 5 January 1999 is outside the season: 10 weekly "
        "meets and as many weeks again for nights moved run from Tuesday 6 January 2026 to "
        "Monday 25 May 2026 (meet 1, Tuesday 6 January 2026; R2-a); Tuesday 5 January 1999 is "
        "before meet 1 (Tuesday 6 January 2026): meets are played in order. Give the reason "
        "for this date, or choose another."
    ]
    assert not m.Meet.objects.filter(season=night.season, number=2).exists()


def test_schedule_meet_odd_date_with_a_reason_is_recorded_and_audited():
    """issue 26 §4, R2-a: with the official's reason the date stands; the reason is a Ruling
    and the audit event names the checks it answers."""
    night = build_night()
    _played_one(night)
    thursday = DATE + WEEK + datetime.timedelta(days=2)

    meet = schedule_meet(
        season=night.season,
        number=2,
        date=thursday,
        actor=night.user,
        date_reason="The venue hosts a tournament on Tuesday",
    )

    ruling = m.Ruling.objects.get(kind="meet_date")
    event = m.AuditEvent.objects.get(action="meet.scheduled", object_id=str(meet.pk))
    assert (meet.date, ruling.reason, ruling.official) == (
        thursday,
        "The venue hosts a tournament on Tuesday",
        night.user,
    )
    assert event.data == {
        "number": 2,
        "date": "2026-01-15",
        "date_checks": ["not_league_day"],
        "date_reason": "The venue hosts a tournament on Tuesday",
    }


def test_schedule_meet_on_the_next_league_day_needs_no_reason():
    """R2-a: a week after meet 1, on the league day: no reason asked, no ruling recorded."""
    night = build_night()
    _played_one(night)

    meet = schedule_meet(season=night.season, number=2, date=DATE + WEEK, actor=night.user)

    assert meet.date == DATE + WEEK
    assert not m.Ruling.objects.filter(kind="meet_date").exists()


def test_start_meet_dated_ahead_is_refused():
    """issue 26 §4: a meet dated a week ahead could be started; it starts on its day, not
    before, and nothing is started."""
    night = build_night()
    today = timezone.localdate(timezone=ZoneInfo(night.league.time_zone))
    ahead = today + WEEK
    planned = schedule_meet(
        season=night.season, number=1, date=ahead, actor=night.user, date_reason="Far ahead"
    )

    with pytest.raises(ValidationError) as caught:
        start_meet(season=night.season, number=1, actor=night.user, seed=1)

    assert (caught.value.refusal, caught.value.status) == ("meet_not_today", 409)
    assert caught.value.messages == [
        f"Meet 1 is dated {written_day(ahead)}: it can start on that day, not before (today is "
        f"{written_day(today)}). If it is played tonight, reschedule it to today first."
    ]
    planned.refresh_from_db()
    assert (planned.status, m.Group.objects.filter(meet=planned).count()) == ("planned", 0)


def test_start_meet_given_an_off_day_date_needs_a_reason():
    """issue 26 §4, R2-a: a date given at the start is checked as when scheduling."""
    night = build_night()
    wednesday = DATE + datetime.timedelta(days=1)

    with pytest.raises(ValidationError) as caught:
        start_meet(season=night.season, number=1, date=wednesday, actor=night.user, seed=1)
    started = start_meet(
        season=night.season,
        number=1,
        date=wednesday,
        actor=night.user,
        seed=1,
        date_reason="Moved for the holiday",
    )

    assert caught.value.refusal == "date_needs_reason"
    event = m.AuditEvent.objects.get(action="meet.started")
    assert (started.meet.date, event.data["date_checks"], event.data["date_reason"]) == (
        wednesday,
        ["not_league_day"],
        "Moved for the holiday",
    )


def test_start_meet_keeps_a_scheduled_date_without_asking_again():
    """issue 26 §4: the date answered when scheduling is not asked about again at the start."""
    night = build_night()
    wednesday = DATE + datetime.timedelta(days=1)
    schedule_meet(
        season=night.season, number=1, date=wednesday, actor=night.user, date_reason="Holiday"
    )

    started = start_meet(season=night.season, number=1, date=wednesday, actor=night.user, seed=1)

    assert started.meet.status == m.Meet.Status.OPEN


def test_reschedule_meet_moves_it_with_a_ruling_and_an_audit_event():
    """issue 26 §4: a meet not yet started is moved; the reason is a Ruling, the audit event
    has the old and new dates and the checks the new date fails."""
    night = build_night()
    _played_one(night)
    meet = schedule_meet(season=night.season, number=2, date=DATE + WEEK, actor=night.user)
    wednesday = DATE + WEEK + datetime.timedelta(days=1)

    moved = reschedule_meet(meet=meet, date=wednesday, reason="Snow on Tuesday", actor=night.user)

    event = m.AuditEvent.objects.get(action="meet.rescheduled")
    assert m.Meet.objects.get(pk=meet.pk).date == moved.date == wednesday
    assert m.Ruling.objects.get(kind="meet_rescheduled").reason == "Snow on Tuesday"
    assert event.data == {
        "number": 2,
        "from": "2026-01-13",
        "to": "2026-01-14",
        "date_checks": ["not_league_day"],
        "reason": "Snow on Tuesday",
    }


def test_reschedule_meet_without_a_reason_is_refused():
    """issue 26 §4: moving a night is an official's decision: it needs a reason."""
    night = build_night()
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)

    with pytest.raises(ValidationError) as caught:
        reschedule_meet(meet=meet, date=DATE + WEEK, reason="  ", actor=night.user)

    assert caught.value.message_dict == {
        "reason": ["Moving meet 1 needs a reason: say why the official decided it."]
    }
    assert m.Meet.objects.get(pk=meet.pk).date == DATE


def test_reschedule_or_cancel_a_started_meet_is_refused():
    """issue 26 §4: only a meet not yet started can be moved or cancelled."""
    night = build_night()
    meet = start_night(night)

    with pytest.raises(ValidationError) as moving:
        reschedule_meet(meet=meet, date=DATE + WEEK, reason="Late", actor=night.user)
    with pytest.raises(ValidationError) as cancelling:
        cancel_meet(meet=meet, reason="Power cut", actor=night.user)

    assert moving.value.message_dict["meet"] == [
        "Meet 1 has started (Open): only a meet not yet started can be rescheduled."
    ]
    assert cancelling.value.message_dict["meet"] == [
        "Meet 1 has started (Open): only a meet not yet started can be cancelled."
    ]
    assert m.Meet.objects.filter(pk=meet.pk, date=DATE).exists()


def test_cancel_meet_removes_it_and_moves_the_later_meets_down():
    """issue 26 §4: meet 2 is cancelled: it and its notices go, meet 3 becomes meet 2, the
    season keeps its 10 meets (1 played, 9 left), and the audit event says all of it."""
    night = build_night()
    _played_one(night)
    second = schedule_meet(season=night.season, number=2, date=DATE + WEEK, actor=night.user)
    third = schedule_meet(season=night.season, number=3, date=DATE + 2 * WEEK, actor=night.user)
    announce_absence(meet=second, player=night.players[0], actor=night.user)

    cancelled = cancel_meet(meet=second, reason="The venue is closed", actor=night.user)

    assert (cancelled.number, cancelled.date, cancelled.renumbered) == (2, DATE + WEEK, ((3, 2),))
    assert list(night.season.meets.order_by("number").values_list("pk", "number")) == [
        (night.season.meets.get(number=1).pk, 1),
        (third.pk, 2),
    ]
    assert not m.AnnouncedAbsence.objects.filter(player=night.players[0]).exists()
    table = standings(night.season)
    assert (table.meets_played, table.meets_left) == (1, 9)
    event = m.AuditEvent.objects.get(action="meet.cancelled")
    assert event.data == {
        "number": 2,
        "date": "2026-01-13",
        "reason": "The venue is closed",
        "absences_removed": [night.players[0].pk],
        "lateness_notices_removed": [],
        "renumbered": [[3, 2]],
    }
    assert m.Ruling.objects.get(kind="meet_cancelled").reason == "The venue is closed"


def test_cancel_meet_then_the_next_meet_starts_in_sequence():
    """issue 26 §4: after meet 2 is cancelled, the meet that was 3 is the next to play."""
    night = build_night()
    _played_one(night)
    second = schedule_meet(season=night.season, number=2, date=DATE + WEEK, actor=night.user)
    schedule_meet(season=night.season, number=3, date=DATE + 2 * WEEK, actor=night.user)
    cancel_meet(meet=second, reason="The venue is closed", actor=night.user)

    started = start_meet(season=night.season, number=2, actor=night.user, seed=1)

    assert (started.meet.number, started.meet.date) == (2, DATE + 2 * WEEK)


@pytest.mark.parametrize("role", ["scorekeeper", "other_league"])
def test_reschedule_and_cancel_refuse_anyone_but_the_leagues_official(role):
    """issue 26 §4: only the league's official moves or cancels its meets; nothing changes."""
    night = build_night()
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    if role == "scorekeeper":
        actor = f.LeagueOfficialFactory(
            league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER
        ).user
    else:
        actor = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL).user

    with pytest.raises(PermissionDenied):
        reschedule_meet(meet=meet, date=DATE + WEEK, reason="Mine now", actor=actor)
    with pytest.raises(PermissionDenied):
        cancel_meet(meet=meet, reason="Mine now", actor=actor)

    assert m.Meet.objects.filter(pk=meet.pk, date=DATE).exists()
    assert not m.AuditEvent.objects.filter(action__in=("meet.rescheduled", "meet.cancelled"))
