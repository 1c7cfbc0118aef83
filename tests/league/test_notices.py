"""Notices by e-mail (issue 13, part 3): queued once per event and player inside the service's
transaction, sent by the worker after the commit, retried on failure, never to a player who
did not choose them or stopped them; the unsubscribe link works. Sent through Django's locmem
e-mail backend (pytest-django's `mailoutbox`)."""

from __future__ import annotations

import datetime
import re
import smtplib
import threading
import time
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.core.mail.backends import locmem
from django.core.mail.backends.base import BaseEmailBackend
from django.db import connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from flipwell.cli import main
from flipwell.league import models as m
from flipwell.league.notice_links import absence_tokens, preferences_for_token
from flipwell.league.notice_worker import LEASE, backoff, claim, queue_due_reminders, work_once
from flipwell.league.notices import (
    queue_meet_closed,
    queue_meet_started,
)
from flipwell.league.player_link_tokens import token_for
from flipwell.league.services._edge import fold
from flipwell.league.services.forfeits import designate_late_join_forfeits
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.league.services.meets.announcements import announce_absence
from flipwell.league.services.meets.close import close_meet
from flipwell.league.services.meets.schedule import schedule_meet
from flipwell.league.services.notices import set_notice_preferences
from flipwell.league.services.player_links import issue_player_link
from flipwell.league.services.violations.penalties import record_violation
from flipwell.league.services.violations.restarts import record_game_restart
from flipwell.web.emails import preferences_url
from tests import factories as f
from tests.league.league_night import DATE, build_night, game, play, start

pytestmark = pytest.mark.django_db

ALL = ("groups", "results", "reminder", "ruling")


@pytest.fixture(autouse=True)
def notices_on(settings):
    settings.NOTICES_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://league.example.org"


class FailingBackend(BaseEmailBackend):
    """A mail server that cannot be reached; counts the messages tried."""

    tried = 0

    def send_messages(self, email_messages):  # type: ignore[no-untyped-def]
        FailingBackend.tried += len(email_messages)
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class RefusingBackend(BaseEmailBackend):
    """A mail server that refuses the first message it is given, and sends the others."""

    refused = False

    def send_messages(self, email_messages):  # type: ignore[no-untyped-def]
        if not RefusingBackend.refused:
            RefusingBackend.refused = True
            raise smtplib.SMTPRecipientsRefused({"x@example.org": (550, b"No such user")})
        return len(email_messages)


def subscribe(night, player, *kinds):
    return set_notice_preferences(
        league=night.league,
        player=player,
        email=f"{player.first_name.lower()}.{player.pk}@example.org",
        kinds=kinds or ALL,
        actor=night.user,
    )


def test_meet_start_sends_each_subscribed_player_their_group_once(mailoutbox):
    night = build_night()
    ann, ben = night.players[0], night.players[5]
    subscribe(night, ann, "groups")
    subscribe(night, ben, "groups")
    subscribe(night, night.players[1], "results")  # did not choose groups

    meet = start(night)
    first = work_once()
    again = work_once()

    assert (first.sent, again.sent, len(mailoutbox)) == (2, 0, 2)
    by_address = {mail.to[0]: mail for mail in mailoutbox}
    mail = by_address[f"{ann.first_name.lower()}.{ann.pk}@example.org"]
    group = m.GroupMember.objects.get(group__meet=meet, player=ann).group
    names = [str(p) for p in group.players.order_by("group_memberships__position")]
    assert mail.subject == f"{night.league}: your group at meet 1"
    assert f"You play in group {group.number} with " in mail.body
    assert all(name in mail.body for name in names)
    target = preferences_for_token(_unsubscribe_token(mail.extra_headers["List-Unsubscribe"]))
    assert (target.player, target.league) == (ann.pk, night.league.pk)
    assert set(m.Notice.objects.values_list("state", flat=True)) == {"sent"}


def _unsubscribe_token(header: str) -> str:
    """The preferences token of a List-Unsubscribe header, which must be a preferences link
    (`preferences_url`). The token is signed with the second it was made in, so one made here
    may differ from the mail's; its player may not."""
    page = preferences_url(0, 0).rsplit("/", 2)[0] + "/"  # the link's address before its token
    found = re.fullmatch(rf"<{re.escape(page)}([^/]+)/>", header)
    assert found, header
    return found.group(1)


def test_meet_start_queues_nothing_when_the_installation_sends_no_email(settings, mailoutbox):
    settings.NOTICES_EMAIL = False
    night = build_night()
    subscribe(night, night.players[0])

    start(night)
    work_once()

    assert (m.Notice.objects.count(), len(mailoutbox)) == (0, 0)


def test_hook_run_twice_queues_one_notice_per_player():
    night = build_night()
    subscribe(night, night.players[0], "groups")
    meet = start(night)

    with transaction.atomic():
        again = queue_meet_started(meet)

    assert (again, m.Notice.objects.count()) == (0, 1)


def test_rolled_back_write_queues_nothing():
    night = build_night()
    subscribe(night, night.players[0], "groups")

    def start_then_fail():
        with transaction.atomic():
            start(night)
            raise RuntimeError("the request failed after the meet started")

    with pytest.raises(RuntimeError):
        start_then_fail()

    assert m.Notice.objects.count() == 0


def test_unsubscribed_player_gets_nothing_even_if_queued_before(mailoutbox):
    night = build_night()
    ann, ben = night.players[0], night.players[1]
    subscribe(night, ann, "groups")
    subscribe(night, ben, "groups")
    m.NoticeSubscription.objects.filter(player=ben).update(unsubscribed_at=timezone.now())
    start(night)
    m.NoticeSubscription.objects.filter(player=ann).update(unsubscribed_at=timezone.now())

    result = work_once()

    assert (result.sent, result.skipped, len(mailoutbox)) == (0, 1, 0)
    assert list(m.Notice.objects.values_list("player_id", "state")) == [(ann.pk, "skipped")]


def test_queue_meet_started_costs_the_same_queries_for_every_group():
    night = build_night(players=16, machines=8)
    for player in night.players:
        subscribe(night, player, "groups")
    with transaction.atomic():
        meet = start(night)
        m.Notice.objects.all().delete()

        with CaptureQueriesContext(connection) as queries:
            queued = queue_meet_started(meet)

    assert (queued, len(queries)) == (16, 5)


def test_failed_send_is_retried_later_then_sent(settings, mailoutbox):
    night = build_night()
    subscribe(night, night.players[0], "groups")
    start(night)
    settings.EMAIL_BACKEND = "tests.league.test_notices.FailingBackend"
    now = timezone.now()

    failed = work_once(now=now)
    notice = m.Notice.objects.get()
    early = work_once(now=now + datetime.timedelta(seconds=30))
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    later = work_once(now=now + backoff(1))

    assert (failed.retried, notice.state, notice.attempts) == (1, "pending", 1)
    assert notice.last_error == "SMTPServerDisconnected: Connection unexpectedly closed"
    assert notice.next_attempt_at == now + datetime.timedelta(minutes=1)
    assert (early.sent, later.sent, len(mailoutbox)) == (0, 1, 1)
    assert m.Notice.objects.get().state == "sent"


def test_unreachable_server_stops_the_batch_after_one_try(settings):
    settings.EMAIL_BACKEND = "tests.league.test_notices.FailingBackend"
    FailingBackend.tried = 0
    night = build_night()
    for player in night.players[:3]:
        subscribe(night, player, "groups")
    start(night)

    result = work_once()

    assert (FailingBackend.tried, result.retried) == (1, 3)
    assert set(m.Notice.objects.values_list("state", "attempts")) == {("pending", 1)}


def test_refused_message_fails_alone(settings):
    settings.EMAIL_BACKEND = "tests.league.test_notices.RefusingBackend"
    RefusingBackend.refused = False
    night = build_night()
    for player in night.players[:3]:
        subscribe(night, player, "groups")
    start(night)

    result = work_once()

    assert (result.sent, result.retried) == (2, 1)


def test_send_failing_every_attempt_ends_failed(settings):
    settings.NOTICE_MAX_ATTEMPTS = 2
    settings.EMAIL_BACKEND = "tests.league.test_notices.FailingBackend"
    night = build_night()
    subscribe(night, night.players[0], "groups")
    start(night)
    now = timezone.now()

    first = work_once(now=now)
    second = work_once(now=now + backoff(1))

    assert (first.retried, second.failed) == (1, 1)
    assert m.Notice.objects.values_list("state", "attempts").get() == ("failed", 2)


def test_claimed_notice_is_not_claimed_again_while_its_lease_runs():
    night = build_night()
    subscribe(night, night.players[0], "groups")
    start(night)
    now = timezone.now()

    first = claim(now=now)
    second = claim(now=now + datetime.timedelta(minutes=5))

    assert (len(first), second) == (1, [])


def test_meet_close_sends_each_subscribed_player_their_night(mailoutbox):
    night = build_night()
    ann = night.players[0]
    subscribe(night, ann, "results")
    meet = start(night)

    close_meet(meet=meet, actor=night.user, override_reason="The venue closed early")
    work_once()

    (mail,) = mailoutbox
    assert mail.subject == f"{night.league}: your night at meet 1"
    assert "Meet 1 of " in mail.body
    assert "League points tonight: " in mail.body
    assert "After 1 meet you are " in mail.body
    assert " of 8, with " in mail.body


def test_reminder_is_queued_once_within_the_window_without_absent_players(mailoutbox):
    night = build_night()
    ann, ben = night.players[0], night.players[1]
    subscribe(night, ann, "reminder")
    subscribe(night, ben, "reminder")
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    f.AnnouncedAbsenceFactory(meet=meet, player=ben, recorded_by=night.user)
    zone = ZoneInfo(night.league.time_zone)
    begins = datetime.datetime.combine(DATE, night.season.start_time, tzinfo=zone)

    too_early = queue_due_reminders(begins - datetime.timedelta(hours=25))
    due = queue_due_reminders(begins - datetime.timedelta(hours=3))
    again = queue_due_reminders(begins - datetime.timedelta(hours=2))
    work_once()

    assert (too_early, due, again) == (0, 1, 0)
    (mail,) = mailoutbox
    assert mail.to == [f"{ann.first_name.lower()}.{ann.pk}@example.org"]
    assert mail.subject == f"{night.league}: meet 1 on Tuesday 6 January"
    assert "is on Tuesday 6 January at 19:00" in mail.body
    assert "Tell the league official before the start" in mail.body


def test_reminder_carries_the_one_tap_absence_link_of_a_player_with_a_personal_link(
    mailoutbox,
):
    night = build_night()
    ann, ben = night.players[0], night.players[1]
    subscribe(night, ann, "reminder")
    subscribe(night, ben, "reminder")
    link = issue_player_link(season=night.season, player=ann, actor=night.user)
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    zone = ZoneInfo(night.league.time_zone)
    begins = datetime.datetime.combine(DATE, night.season.start_time, tzinfo=zone)

    queue_due_reminders(begins - datetime.timedelta(hours=3))
    work_once()

    expected = f"https://league.example.org/me/{token_for(link)}/#meet-1"
    by_address = {mail.to[0]: mail.body for mail in mailoutbox}
    assert expected in by_address[f"{ann.first_name.lower()}.{ann.pk}@example.org"]
    assert absence_tokens(meet) == {ann.pk: token_for(link)}  # Ben has none: he is told to ask
    assert (
        "Tell the league official" in by_address[f"{ben.first_name.lower()}.{ben.pk}@example.org"]
    )


def test_ruling_on_a_late_entrant_is_sent_to_them(mailoutbox):
    night = build_night()
    late = f.SeasonEntryFactory(season=night.season, joined_at_meet=3).player
    subscribe(night, late, "ruling")

    designate_late_join_forfeits(
        season=night.season, player=late, countable=False, reason="Moved here", actor=night.user
    )
    work_once()

    (mail,) = mailoutbox
    assert mail.subject == f"{night.league}: your forfeits before you joined {night.season.name}"
    assert "Your forfeits before meet 3 do not count" in mail.body
    assert "The official's reason: Moved here" in mail.body


def test_late_entrant_notice_names_the_seasons_limit_not_the_leagues_later_one(mailoutbox):
    """A46, R2.5-a: a season is played under the readings it was created with; the league's
    readings changed since (for next season) decide nothing in it: the designation the
    league's readings would refuse is taken, and the notice names the season's own limit."""
    night = build_night()
    night.season.ruleset_overrides = {"season_forfeit_limit": 9}
    night.season.save()
    night.league.ruleset_overrides = {
        "late_join_forfeits_countable": False,
        "season_forfeit_limit": 4,
    }
    night.league.save()
    late = f.SeasonEntryFactory(season=night.season, joined_at_meet=2).player
    subscribe(night, late, "ruling")

    designate_late_join_forfeits(
        season=night.season, player=late, countable=True, reason="Asked", actor=night.user
    )
    work_once()

    (mail,) = mailoutbox
    assert "Your forfeits before meet 2 count toward the 9 that forfeit a season" in mail.body


def test_unsubscribe_link_in_a_notice_stops_every_notice(mailoutbox):
    night = build_night()
    ann = night.players[0]
    subscribe(night, ann, "groups", "results")
    meet = start(night)
    work_once()
    link = re.search(r"https://league\.example\.org(/notices/\S+/)", mailoutbox[0].body)
    assert link is not None
    client = Client(enforce_csrf_checks=True)

    page = client.get(link.group(1))
    stopped = client.post(link.group(1), {"action": "stop"})
    close_meet(meet=meet, actor=night.user, override_reason="The venue closed early")

    assert page.status_code == 200
    assert f"E-mail notices for {ann}" in page.content.decode()
    assert stopped.status_code == 200
    assert "You get no more notices." in stopped.content.decode()
    assert m.NoticeSubscription.objects.get(player=ann).unsubscribed_at is not None
    assert m.Notice.objects.filter(kind="results").count() == 0


def test_one_click_unsubscribe_from_a_mail_program_works():
    night = build_night()
    ann = night.players[0]
    subscribe(night, ann)
    path = preferences_url(night.league.pk, ann.pk).removeprefix("https://league.example.org")

    answer = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})

    assert answer.status_code == 200
    assert m.NoticeSubscription.objects.get(player=ann).unsubscribed_at is not None


def test_player_chooses_notices_again_through_the_link():
    night = build_night()
    ann = night.players[0]
    subscribe(night, ann)
    path = preferences_url(night.league.pk, ann.pk).removeprefix("https://league.example.org")
    client = Client()
    client.post(path, {"action": "stop"})

    answer = client.post(path, {"action": "save", "results": "on"})

    row = m.NoticeSubscription.objects.get(player=ann)
    assert answer.status_code == 200
    assert (row.unsubscribed_at, row.groups, row.results) == (None, False, True)


def test_notices_link_with_a_forged_token_is_404():
    night = build_night()
    subscribe(night, night.players[0])
    forged = preferences_url(night.league.pk, night.players[0].pk).rsplit(":", 1)[0] + ":forged/"

    answer = Client().get(forged.removeprefix("https://league.example.org"))

    assert answer.status_code == 404


def test_official_sets_notices_without_an_address_refused():
    night = build_night()

    with pytest.raises(ValidationError) as caught:
        set_notice_preferences(
            league=night.league,
            player=night.players[0],
            email="",
            kinds=["groups"],
            actor=night.user,
        )

    assert caught.value.message_dict == {
        "email": [f"Give {night.players[0]}'s e-mail address to send them notices."]
    }


def test_violation_is_sent_to_its_violator_with_the_penalty(mailoutbox):
    night = build_night()
    meet = start(night)
    played = game(meet, 1, 1)
    members = list(played.group.members.order_by("position").values_list("player", flat=True))
    violator = m.Player.objects.get(pk=members[1])
    subscribe(night, violator, "ruling")
    subscribe(night, m.Player.objects.get(pk=members[0]), "ruling")  # not the violator
    play(played, {m.Player.objects.get(pk=p): 100 - i for i, p in enumerate(members)})

    record_violation(
        meet=meet, player=violator, kind="opponents_ball", game=played, reason="Seen by the LO",
        actor=night.user,
    )  # fmt: skip
    work_once()

    (mail,) = mailoutbox
    assert mail.subject == f"{night.league}: a violation recorded at meet 1"
    assert "It is a serious violation: your offense 1 this season." in mail.body
    assert "Penalty: game 1 of your match is forfeited.\n" in mail.body
    assert "\nWhy: rules §8.2, §8.5.\n" in mail.body
    assert "The official's reason: Seen by the LO" in mail.body


def test_malfunction_and_restart_are_sent_to_the_player_they_name(mailoutbox):
    night = build_night()
    meet = start(night)
    first = game(meet, 1, 1)
    player = first.group.members.get(position=1).player
    subscribe(night, player, "ruling")

    report_malfunction(
        game=first, player=player, ball=2, reason_code="forced_tilt_stuck_ball", actor=night.user
    )
    record_game_restart(
        game=first, responsible=player, games_started=3, game_price_cents=50, actor=night.user
    )
    work_once()

    subjects = sorted(mail.subject for mail in mailoutbox)
    assert subjects == [
        f"{night.league}: a malfunction on your ball 2 at meet 1",
        f"{night.league}: game 1 of your group restarted at meet 1",
    ]
    restart = next(mail for mail in mailoutbox if "restarted" in mail.subject)
    assert "3 games were started for 4 players" in restart.body
    assert "You are charged 2.00 for every player's game.\n" in restart.body
    assert "\nWhy: rules R8.6-c, R8.6-d.\n" in restart.body


def test_queue_meet_closed_costs_the_same_queries_for_every_player():
    night = build_night(players=16, machines=8)
    for player in night.players:
        subscribe(night, player, "results")
    meet = start(night)
    with transaction.atomic():
        closed = close_meet(meet=meet, actor=night.user, override_reason="Venue closed early")
        m.Notice.objects.all().delete()
        result, _ = fold(night.season)

        with CaptureQueriesContext(connection) as queries:
            queued = queue_meet_closed(closed.meet, result)

    assert (queued, len(queries)) == (16, 3)


def test_flipwell_work_once_sends_the_queue_and_says_what_it_did(capsys, mailoutbox):
    night = build_night()
    subscribe(night, night.players[0], "groups")
    start(night)

    status = main(["work", "--once"])

    assert (status, len(mailoutbox)) == (0, 1)
    assert capsys.readouterr().out == (
        "0 reminders queued, 1 sent, 0 to retry, 0 failed, 0 skipped\n"
    )


@pytest.mark.django_db(transaction=True)
def test_second_worker_skips_the_notices_another_worker_holds():
    """Two workers never take one notice: rows another worker locked are skipped, not waited
    for (FOR UPDATE SKIP LOCKED). SQLite has no row locks: one writer at a time, and the lease
    keeps a claimed row from being claimed again (the test above)."""
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("row locks are PostgreSQL's; SQLite runs one writer at a time")
    night = build_night()
    subscribe(night, night.players[0], "groups")
    start(night)
    locked, release = threading.Event(), threading.Event()

    def other_worker() -> None:
        with transaction.atomic():
            list(m.Notice.objects.select_for_update())
            locked.set()
            release.wait(10)
        connections.close_all()

    thread = threading.Thread(target=other_worker)
    thread.start()
    locked.wait(10)
    try:
        claimed = claim(now=timezone.now())
    finally:
        release.set()
        thread.join()

    assert (claimed, m.Notice.objects.get().attempts) == ([], 0)


class SlowOutbox(locmem.EmailBackend):
    """Django's outbox behind a mail server that takes a moment per message, so two workers
    sending at once overlap."""

    def send_messages(self, messages):  # type: ignore[no-untyped-def]
        time.sleep(0.02)
        return super().send_messages(messages)


def _queue_of_rulings(night, per_player: int) -> list[int]:
    """`per_player` ruling notices queued to each of the night's players (all subscribed)."""
    for player in night.players:
        subscribe(night, player, "ruling")
    m.Notice.objects.bulk_create(
        m.Notice(
            league=night.league,
            player=player,
            kind="ruling",
            dedupe_key=f"ruling:test:{n}:player:{player.pk}",
            subject=f"Ruling {n} for {player.pk}",
            body="An official's ruling.",
        )
        for player in night.players
        for n in range(per_player)
    )
    return list(m.Notice.objects.values_list("pk", flat=True))


@pytest.mark.django_db(transaction=True)
def test_two_workers_sending_at_once_send_each_notice_exactly_once(settings, mailoutbox):
    """Two `flipwell work` passes on one queue, in two threads (two connections) at once on
    PostgreSQL, each claiming two notices at a time: every notice is sent once, by one of
    them. On SQLite (one writer at a time) the second pass runs after the first."""
    settings.EMAIL_BACKEND = "tests.league.test_notices.SlowOutbox"
    night = build_night()
    queued = _queue_of_rulings(night, per_player=3)  # 24 notices
    together = connection.features.has_select_for_update_skip_locked
    barrier = threading.Barrier(2 if together else 1)
    results = []

    def worker() -> None:
        try:
            barrier.wait(10)
            results.append(work_once(batch=2))
        finally:
            if together:
                connections.close_all()

    if together:
        threads = [threading.Thread(target=worker) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    else:
        worker()
        worker()

    subjects = sorted(mail.subject for mail in mailoutbox)
    assert (len(subjects), len(set(subjects))) == (len(queued), len(queued))
    assert sum(r.sent for r in results) == len(queued)
    assert set(m.Notice.objects.values_list("state", "attempts")) == {("sent", 1)}
    if together:
        assert min(r.sent for r in results) > 0  # both took part


class TakenOverOutbox(locmem.EmailBackend):
    """A mail server so slow that the sending worker's lease runs out: during its first
    message another worker, whose clock is past the lease, takes the notice and sends it;
    then the first message is refused."""

    later: datetime.datetime
    taken = False

    def send_messages(self, messages):  # type: ignore[no-untyped-def]
        if TakenOverOutbox.taken:
            return super().send_messages(messages)
        TakenOverOutbox.taken = True
        work_once(now=TakenOverOutbox.later)  # the other worker's pass, on the same rows
        raise smtplib.SMTPRecipientsRefused({"x@example.org": (550, b"No such user")})


def test_worker_whose_lease_ran_out_records_nothing_over_the_next_workers_send(
    settings, mailoutbox
):
    """The worker that took the notice over sent it; the first worker's late refusal neither
    marks it failed nor schedules it again."""
    settings.NOTICE_MAX_ATTEMPTS = 1
    settings.EMAIL_BACKEND = "tests.league.test_notices.TakenOverOutbox"
    night = build_night()
    subscribe(night, night.players[0], "ruling")
    m.Notice.objects.create(
        league=night.league,
        player=night.players[0],
        kind="ruling",
        dedupe_key="ruling:x",
        subject="A ruling",
        body="An official's ruling.",
    )
    now = timezone.now()
    TakenOverOutbox.later = now + LEASE + datetime.timedelta(minutes=1)
    TakenOverOutbox.taken = False

    first = work_once(now=now)

    row = m.Notice.objects.get()
    kept = (row.state, row.attempts, row.sent_at, row.last_error)
    assert kept == ("sent", 2, TakenOverOutbox.later, "")
    assert (first.failed, first.retried, len(first.errors), len(mailoutbox)) == (0, 0, 1, 1)


def test_reminder_is_skipped_once_the_player_announces_their_absence(mailoutbox):
    night = build_night()
    ann, ben = night.players[0], night.players[1]
    subscribe(night, ann, "reminder")
    subscribe(night, ben, "reminder")
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    zone = ZoneInfo(night.league.time_zone)
    begins = datetime.datetime.combine(DATE, night.season.start_time, tzinfo=zone)
    queue_due_reminders(begins - datetime.timedelta(hours=3))
    announce_absence(meet=meet, player=ben, actor=night.user)

    result = work_once()

    assert (result.sent, result.skipped) == (1, 1)
    assert [mail.to for mail in mailoutbox] == [[f"{ann.first_name.lower()}.{ann.pk}@example.org"]]
