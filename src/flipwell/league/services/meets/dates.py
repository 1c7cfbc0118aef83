"""A meet's place in the season: its number and its date, checked (R2-a).

Words:
- *date check*: a way a date fails the league's calendar (outside the season, out of order,
  off the league day: `flipwell.rules.meet_date_checks`).
- *date reason*: why the LO chose a date that fails a date check; recorded as a Ruling
  ``meet_date``.
- *its day*: the meet's date in the league's time zone; a meet never starts before it.
"""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import rules_edge
from flipwell.league.services._protocol import Write
from flipwell.rules import MeetDateProblem, meet_date_checks
from flipwell.rules import written_day as _day


def check_number(season: m.Season, number: int) -> None:
    """Refuse a meet number outside the season's meets."""
    if not 1 <= number <= season.number_of_meets:
        raise Refusal(
            {"number": f"{season} has meets 1 to {season.number_of_meets}, not {number}."},
            code="no_such_meet",
        )


def date_problems(meet: m.Meet, on: datetime.date) -> tuple[MeetDateProblem, ...]:
    """The date checks meet `meet` fails on `on` (`meet_date_checks`, R2-a; 1 query)."""
    season = meet.season
    near = dict(
        season.meets.filter(number__in=(1, meet.number - 1, meet.number + 1))
        .exclude(pk=meet.pk)
        .values_list("number", "date")
    )
    zone = ZoneInfo(season.league.time_zone)
    with rules_edge("date", code="date_refused"):
        return meet_date_checks(
            number=meet.number,
            on=on,
            league_day=season.weekday,
            number_of_meets=season.number_of_meets,
            set_up=timezone.localdate(season.created_at, timezone=zone),
            first_meet=near.get(1),
            previous=near.get(meet.number - 1),
            following=near.get(meet.number + 1),
        )


def checked_date(
    write: Write, meet: m.Meet, on: datetime.date, reason: str | None
) -> tuple[list[str], str]:
    """The checks `on` fails for `meet` and the official's reason for them: a date that fails
    one needs `reason` (field ``date_reason``), recorded as a Ruling ``meet_date`` by `write`.
    Returns ([], "") for a plain date (a reason given then is not needed, and is not
    recorded)."""
    problems = date_problems(meet, on)
    if not problems:
        return [], ""
    why = (reason or "").strip()
    if not why:
        listed = "; ".join(p.message for p in problems)
        asked = (
            f"Meet {meet.number}'s date needs a reason: {listed}. Give the reason for this "
            "date, or choose another."
        )
        raise Refusal({"date_reason": asked}, code="date_needs_reason")
    write.ruling(
        kind="meet_date",
        subject=f"{meet.season}, meet {meet.number}: {on.isoformat()}"[:200],
        reason=why,
        meet=meet if meet.pk else None,  # a meet scheduled now is not stored yet
    )
    return [p.check for p in problems], why


def refuse_before_its_day(meet: m.Meet, *, given: bool) -> None:
    """A meet is played on its date: it cannot start before that day, in the league's time.

    A date `given` with the start that is ahead is the request's mistake (on ``date``); a
    scheduled meet whose day has not come is the league's state (``meet_not_today``), about
    the request as a whole, which sent no date."""
    today = timezone.localdate(timezone=ZoneInfo(meet.season.league.time_zone))
    if meet.date <= today:
        return
    if given:
        raise Refusal(
            {
                "date": f"Meet {meet.number} would be dated {_day(meet.date)}: it can start on "
                f"that day, not before (today is {_day(today)}). Give today's date to start it "
                "tonight."
            },
            code="date_after_today",
        )
    raise ConflictError(
        f"Meet {meet.number} is dated {_day(meet.date)}: it can start on that day, not "
        f"before (today is {_day(today)}). If it is played tonight, reschedule it to today "
        "first.",
        code="meet_not_today",
    )
