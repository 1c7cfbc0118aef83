"""The notice worker: what ``flipwell work`` does on every pass (queue the reminders, send
the queued notices).

Words (see also `flipwell.league.notices`):
- *pass*: queue the reminders now due (`queue_due_reminders`), then send every due notice
  (pending, `next_attempt_at` reached), in batches, oldest first.
- *claim*: in one short transaction the worker locks a batch of due rows (``FOR UPDATE SKIP
  LOCKED`` on PostgreSQL: two workers never take the same row, and neither waits for the
  other; SQLite's transactions take its one write lock first, ``transaction_mode``
  IMMEDIATE, so claims there run one after the other), counts the attempt and moves
  `next_attempt_at` a *lease* ahead of the clock at that moment; then it commits and sends
  outside any transaction, so no lock (and on SQLite no write lock) is held while a mail
  server answers. Any number of workers may run at once (``flipwell work`` on every host).
  A worker killed while sending leaves its rows to be taken again when the lease ends: a
  notice is sent at least once, and twice only if the worker died between the server's
  acceptance and the row's update.
- *held*: a claimed row is the claiming worker's while its attempt count is the one the
  claim set: the worker records the outcome only on such a row, so a worker whose lease ran
  out (and whose rows another worker took) changes nothing the other records.
- *backoff*: after the n-th failed attempt the next waits 2^(n-1) minutes (1, 2, 4, ...);
  after ``NOTICE_MAX_ATTEMPTS`` attempts the notice is *failed*, with the last error kept.
- *skipped*: the player stopped that kind of notice (or every notice) after it was queued; or
  a reminder whose meet has started, or whose player has announced their absence since.
- *reminder*: queued for a planned meet once its scheduled start (R2-a) is less than
  ``NOTICE_REMINDER_HOURS`` away, to each player who chose it, is entered by then and has not
  announced their absence; the dedupe key queues it once however many passes see it.
"""

from __future__ import annotations

import datetime
import logging
import smtplib
import socket
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.notice_links import absence_tokens
from flipwell.league.notices import (
    NoticeFacts,
    ReminderFacts,
    draft,
    enabled,
    store_notices,
    subscriptions,
    writer,
)
from flipwell.league.selectors.meet_times import scheduled_start

logger = logging.getLogger(__name__)

LEASE = datetime.timedelta(minutes=10)
BATCH = 20
"""Notices claimed at once: sent within the lease even at ``EMAIL_TIMEOUT`` (10 s) each."""
SERVER_DOWN = (
    smtplib.SMTPConnectError,
    smtplib.SMTPServerDisconnected,
    ConnectionError,
    TimeoutError,
    socket.gaierror,
)
"""Errors that say the mail server cannot be reached (not that it refused one message)."""
MAX_BACKOFF = datetime.timedelta(hours=6)


@dataclass
class PassResult:
    """What one pass did: notices queued (reminders) and each outcome's count."""

    reminders: int = 0
    sent: int = 0
    retried: int = 0
    failed: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.reminders} reminders queued, {self.sent} sent, {self.retried} to retry, "
            f"{self.failed} failed, {self.skipped} skipped"
        )


def backoff(attempts: int) -> datetime.timedelta:
    """How long to wait after the `attempts`-th failed attempt (see the module docstring)."""
    return min(datetime.timedelta(minutes=2 ** max(attempts - 1, 0)), MAX_BACKOFF)


def work_once(*, now: datetime.datetime | None = None, batch: int = BATCH) -> PassResult:
    """One pass (see the module docstring); returns what it did. Never raises for a mail
    server's refusal: that is a failed attempt, retried later. `now`: the pass's clock,
    fixed (tests); by default each batch reads the time when it is claimed, so a long pass's
    last batch gets a whole lease too."""
    result = PassResult(reminders=queue_due_reminders(now or timezone.now()))
    while True:
        moment = now or timezone.now()
        ids = claim(now=moment, batch=batch)
        if not ids:
            return result
        _deliver(ids, now=moment, result=result)
        if len(ids) < batch:
            return result


def claim(*, now: datetime.datetime, batch: int = BATCH) -> list[int]:
    """Lock and lease up to `batch` due notices; returns their ids (see *claim*)."""
    with transaction.atomic():
        due = m.Notice.objects.filter(
            state=m.Notice.State.PENDING, next_attempt_at__lte=now
        ).order_by("next_attempt_at", "id")
        if connection.features.has_select_for_update_skip_locked:
            due = due.select_for_update(skip_locked=True)
        ids = list(due.values_list("id", flat=True)[:batch])
        if ids:
            m.Notice.objects.filter(pk__in=ids).update(
                attempts=F("attempts") + 1, next_attempt_at=now + LEASE
            )
    return ids


def _deliver(ids: list[int], *, now: datetime.datetime, result: PassResult) -> None:
    notices = list(
        m.Notice.objects.filter(pk__in=ids).select_related("meet").order_by("next_attempt_at", "id")
    )
    addressed = _subscriptions(notices)
    stale = _stale_reminders(notices)
    mail = get_connection(fail_silently=False)
    try:
        for done, notice in enumerate(notices):
            subscription = addressed.get((notice.league_id, notice.player_id))
            if subscription is None or not subscription.wants(notice.kind) or notice.pk in stale:
                _finish(notice, state=m.Notice.State.SKIPPED, now=now)
                result.skipped += 1
                continue
            try:
                _message(notice, subscription.email, mail).send()
            except SERVER_DOWN as error:
                # The server is unreachable: the rest of the batch waits for the next attempt
                # instead of each waiting out the connection timeout (and the lease).
                for left in notices[done:]:
                    _failed(left, error, now=now, result=result)
                return
            except Exception as error:  # a refused message (a bad address) fails alone
                _failed(notice, error, now=now, result=result)
            else:
                _finish(notice, state=m.Notice.State.SENT, now=now)
                result.sent += 1
    finally:
        try:
            mail.close()
        except Exception:  # a connection that never opened
            logger.debug("closing the mail connection failed", exc_info=True)


def _subscriptions(notices: list[m.Notice]) -> dict[tuple[int, int], m.NoticeSubscription]:
    """(league id, player id) -> the subscription a notice of that league to that player goes
    to: the league's own, never another league's address (one query)."""
    if not notices:
        return {}
    rows = m.NoticeSubscription.objects.filter(
        league_id__in={n.league_id for n in notices},
        player_id__in={n.player_id for n in notices},
    )
    return {(row.league_id, row.player_id): row for row in rows}


def _stale_reminders(notices: list[m.Notice]) -> set[int]:
    """The reminders no longer to send: their meet has started, or the player has announced
    their absence since it was queued (one query)."""
    reminders = [n for n in notices if n.kind == m.NoticeKind.REMINDER and n.meet is not None]
    if not reminders:
        return set()
    absent = set(
        m.AnnouncedAbsence.objects.filter(
            meet_id__in={n.meet_id for n in reminders},
            player_id__in={n.player_id for n in reminders},
        ).values_list("meet_id", "player_id")
    )
    return {
        n.pk
        for n in reminders
        if n.meet is None
        or n.meet.status != m.Meet.Status.PLANNED
        or (n.meet_id, n.player_id) in absent
    }


def _message(notice: m.Notice, address: str, mail: object) -> EmailMessage:
    url = writer().preferences_url(notice.league_id, notice.player_id)
    return EmailMessage(
        subject=notice.subject,
        body=notice.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[address],
        headers={
            # RFC 8058: a mail program's "unsubscribe" button posts to the same page.
            "List-Unsubscribe": f"<{url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
        connection=mail,
    )


def _held(notice: m.Notice) -> QuerySet[m.Notice]:
    """The notice's row while this worker holds it (see *held*)."""
    return m.Notice.objects.filter(
        pk=notice.pk, state=m.Notice.State.PENDING, attempts=notice.attempts
    )


def _finish(notice: m.Notice, *, state: str, now: datetime.datetime) -> None:
    _held(notice).update(
        state=state, sent_at=now if state == m.Notice.State.SENT else None, last_error=""
    )


def _failed(
    notice: m.Notice, error: Exception, *, now: datetime.datetime, result: PassResult
) -> None:
    text = f"{type(error).__name__}: {error}"[:1000]
    result.errors.append(f"notice {notice.pk}: {text}")
    if notice.attempts >= settings.NOTICE_MAX_ATTEMPTS:
        if _held(notice).update(state=m.Notice.State.FAILED, last_error=text):
            result.failed += 1
            logger.warning(
                "notice %s failed for good after %s attempts: %s", notice.pk, notice.attempts, text
            )
    elif _held(notice).update(last_error=text, next_attempt_at=now + backoff(notice.attempts)):
        result.retried += 1
        logger.info(
            "notice %s attempt %s failed, retried later: %s", notice.pk, notice.attempts, text
        )


def queue_due_reminders(now: datetime.datetime | None = None) -> int:
    """Queue the reminder of every planned meet whose scheduled start is less than
    ``NOTICE_REMINDER_HOURS`` away (and not past), to each subscribed player entered in its
    season by then who has not announced their absence. Run by ``flipwell work`` on every
    pass; the dedupe key sends each reminder once. Returns how many were queued."""
    if not enabled():
        return 0
    now = now or timezone.now()
    horizon = now + datetime.timedelta(hours=settings.NOTICE_REMINDER_HOURS)
    # A day either side of the window in dates: the exact start is checked in the league's zone.
    meets = [
        meet
        for meet in m.Meet.objects.filter(
            status=m.Meet.Status.PLANNED,
            date__gte=(now - datetime.timedelta(days=1)).date(),
            date__lte=(horizon + datetime.timedelta(days=1)).date(),
        ).select_related("season__league")
        if now <= scheduled_start(meet) <= horizon
    ]
    queued = 0
    for meet in meets:  # the meets of one day: a handful
        queued += _queue_reminders(meet)
    return queued


def _queue_reminders(meet: m.Meet) -> int:
    season = meet.season
    entered = m.SeasonEntry.objects.filter(season=season, joined_at_meet__lte=meet.number)
    absent = m.AnnouncedAbsence.objects.filter(meet=meet).values("player_id")
    with transaction.atomic():
        wanted = subscriptions(
            "reminder",
            entered.exclude(player_id__in=absent).values("player_id"),
            league_id=season.league_id,
        )
        start = scheduled_start(meet)
        tokens = absence_tokens(meet)
        drafts = [
            draft(
                NoticeFacts(
                    kind="reminder",
                    player=subscription.player,
                    league=season.league,
                    season=season,
                    meet=meet,
                    about=ReminderFacts(start=start, absence_token=tokens.get(player_id)),
                ),
                key=f"reminder:meet:{meet.pk}",
            )
            for player_id, subscription in wanted.items()
        ]
        return store_notices(league_id=season.league_id, kind="reminder", meet=meet, drafts=drafts)
