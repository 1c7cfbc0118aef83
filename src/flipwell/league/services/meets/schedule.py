"""Scheduling a meet: putting it on the calendar, moving it, or cancelling it, while it
is not yet started (R2-a: the LO designates the league's nights).

Words (see also `flipwell.league.models.meets`):
- a *planned* meet is scheduled and not yet started; only a planned meet moves or is cancelled.
- *renumbered*: the later planned meets of a cancelled one, each moved down one number, so
  the season's meet numbers stay the order of play.

None of these changes a number: the fold reads only the meets that have started (their
groups, games and absences), and a planned meet, its date and its number are none of them (a
cancelled meet's later meets are planned too: meets start in order). The season's number of
meets stays. So these writes name no season and never fold
(`flipwell.league.services._protocol`); the calendar, the console and the player's pages show
the meets, so the league gets a new revision (`league_changed`).
"""

from __future__ import annotations

import copy
import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flipwell.league import models as m
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import league_changed, require_reason
from flipwell.league.services._protocol import official_write
from flipwell.league.services.meets.dates import check_number, checked_date, date_problems
from flipwell.rules import written_day as _day

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def schedule_meet(
    *,
    season: m.Season,
    number: int,
    date: datetime.date,
    actor: User,
    date_reason: str | None = None,
) -> m.Meet:
    """Schedule meet `number` of `season` on `date` (planned), so notices can be recorded.

    A date outside the season, out of order or off the league day (`meet_date_checks`, R2-a)
    needs the official's `date_reason`, recorded as a Ruling. Side effects: inserts a planned
    Meet, a Ruling for a date reason, and an audit event ``meet.scheduled``. Raises
    PermissionDenied unless `actor` is a league official; ValidationError for a number outside
    the season's meets or a date that needs a reason without one; ConflictError
    (``meet_already_scheduled``, naming the meet and its date) for one already scheduled.
    """
    with official_write(league=season.league, actor=actor, action="schedule a meet") as write:
        check_number(season, number)
        _check_not_scheduled(season, number)
        meet = m.Meet(season=season, number=number, date=date)
        meet.full_clean()
        checks, reason = checked_date(write, meet, date, date_reason)
        meet.save()
        write.event(
            "meet.scheduled",
            meet,
            {"number": number, "date": date.isoformat()}
            | ({"date_checks": checks, "date_reason": reason} if checks else {}),
        )
        league_changed(season.league_id)
    return meet


def reschedule_meet(
    *, meet: m.Meet, date: datetime.date, reason: str | None, actor: User
) -> m.Meet:
    """Move a meet not yet started to another `date`, saying why (R2-a: the LO designates the
    league's nights).

    The reason is always needed (a moved night is an official's decision) and covers the date
    checks the new date fails (`meet_date_checks`). Side effects: the Meet's date, a Ruling
    ``meet_rescheduled``, an audit event ``meet.rescheduled`` (old and new date, checks, reason).
    Raises PermissionDenied unless `actor` is a league official; ValidationError for a meet that
    has started, the same date again, or no reason.
    """
    with official_write(
        league=meet.season.league, actor=actor, action="reschedule a meet"
    ) as write:
        meet = _locked(meet)
        _check_planned(meet, doing="rescheduled")
        why = require_reason(reason, field="reason", what=f"Moving meet {meet.number}")
        if date == meet.date:
            same = f"Meet {meet.number} is already on {_day(date)}: give another date."
            raise Refusal({"date": same}, code="same_date")
        checks = [p.check for p in date_problems(meet, date)]
        old = meet.date
        meet.date = date
        meet.save(update_fields=["date"])
        moved = f"{old.isoformat()} to {date.isoformat()}"
        subject = f"{meet.season}, meet {meet.number}: {moved}"[:200]
        write.ruling(kind="meet_rescheduled", subject=subject, reason=why, meet=meet)
        write.event(
            "meet.rescheduled",
            meet,
            {
                "number": meet.number,
                "from": old.isoformat(),
                "to": date.isoformat(),
                "date_checks": checks,
                "reason": why,
            },
        )
        league_changed(meet.season.league_id)
    return meet


def _locked(meet: m.Meet) -> m.Meet:
    """`meet` re-read and locked for the write, with its season and league."""
    return m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)


@dataclass(frozen=True)
class CancelledMeet:
    """A cancelled meet: its number and date, and the later planned meets renumbered down by one
    (old number, new number), so the season's meets stay numbered in the order played."""

    number: int
    date: datetime.date
    renumbered: tuple[tuple[int, int], ...]


def cancel_meet(*, meet: m.Meet, reason: str | None, actor: User) -> CancelledMeet:
    """Cancel a meet not yet started, saying why: that night is not played (R2-a).

    The planned meet is removed with its announced absences and lateness notices (notices for a
    night that will not be held); the later planned meets move down one number, so meet numbers
    stay the order of play, and the season keeps its number of meets: the next meet scheduled
    takes the free number. Nothing played is lost: only a planned meet can be cancelled.

    Side effects: deletes the Meet (and its notices), renumbers the later planned meets, a
    Ruling ``meet_cancelled`` and an audit event ``meet.cancelled`` (number, date, reason,
    notices removed, renumbering). Raises PermissionDenied unless `actor` is a league
    official; ValidationError for a meet that has started or no reason.
    """
    with official_write(league=meet.season.league, actor=actor, action="cancel a meet") as write:
        meet = _locked(meet)
        season = meet.season
        _check_planned(meet, doing="cancelled")
        why = require_reason(reason, field="reason", what=f"Cancelling meet {meet.number}")
        later = list(
            season.meets.select_for_update().filter(number__gt=meet.number).order_by("number")
        )
        renumbered = tuple((x.number, x.number - 1) for x in later)
        subject = f"{season}, meet {meet.number} ({meet.date.isoformat()})"[:200]
        write.ruling(kind="meet_cancelled", subject=subject, reason=why)
        write.event("meet.cancelled", copy.copy(meet), _cancelled_data(meet, renumbered, why))
        number, date = meet.number, meet.date
        meet.delete()  # the event's copy keeps the meet's id, which delete() clears
        for moved in later:  # in order, so each number is free when taken
            moved.number -= 1
            moved.save(update_fields=["number"])
        league_changed(season.league_id)
    return CancelledMeet(number=number, date=date, renumbered=renumbered)


def _cancelled_data(
    meet: m.Meet, renumbered: tuple[tuple[int, int], ...], why: str
) -> dict[str, Any]:
    """The audit data of a cancelled meet: what it was, the notices it takes with it, and the
    later meets renumbered."""
    return {
        "number": meet.number,
        "date": meet.date.isoformat(),
        "reason": why,
        "absences_removed": list(meet.announced_absences.values_list("player_id", flat=True)),
        "lateness_notices_removed": list(meet.lateness_notices.values_list("player_id", flat=True)),
        "renumbered": [list(pair) for pair in renumbered],
    }


def _check_planned(meet: m.Meet, *, doing: str) -> None:
    if meet.status != m.Meet.Status.PLANNED:
        refused = (
            f"Meet {meet.number} has started ({meet.get_status_display()}): only a meet not yet "
            f"started can be {doing}."
        )
        raise ConflictError({"meet": refused}, code="meet_already_started")


def _check_not_scheduled(season: m.Season, number: int) -> None:
    """ConflictError naming the meet when meet `number` of `season` exists already."""
    existing = season.meets.filter(number=number).first()
    if existing is not None:
        raise ConflictError(
            {
                "number": f"Meet {number} on {existing.date.isoformat()} already exists "
                f"({existing.get_status_display().lower()})."
            },
            code="meet_already_scheduled",
        )
