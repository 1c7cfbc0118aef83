"""Files for other programs: the IFPA results CSV, the meets as iCalendar, roster checking.

Words:
- *IFPA results CSV*: the players of a season the IFPA counts, in final position order, with
  their IFPA numbers and the meets each attended (``meets_attended``). Who is listed, and the
  positions, come from `flipwell.league.selectors.ifpa.ifpa_submission` (the IFPA's
  league rules): a player who attended fewer than half the meets played is left out unless they
  reached the finals, and the players behind him move up. One kind of results per file:
  regular season (the standings) or post-finals (the playoff places first). A name
  a spreadsheet would run as a formula is written as text (``'=...``,
  `flipwell.league.csv_cells`).
- *meets calendar*: RFC 5545 text, one VEVENT per stored meet, CRLF line ends, long lines
  folded at 75 octets, times in UTC.
- *roster check*: `flipwell.league.players_csv.roster_problems`, every bad line of a roster
  CSV (the web's roster upload uses the same checker).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from icalendar import Calendar, Event

from flipwell.league import models as m
from flipwell.league.csv_cells import csv_text
from flipwell.league.players_csv import roster_problems
from flipwell.league.selectors.ifpa import IfpaSubmission, ifpa_submission
from flipwell.league.services import ImportResult, import_players_csv
from flipwell.rules import IfpaResults

if TYPE_CHECKING:
    from django.contrib.auth.models import User

IFPA_COLUMNS = (
    "position",
    "first_name",
    "last_name",
    "ifpa_number",
    "meets_attended",
)


@dataclass(frozen=True)
class IfpaExport:
    """The IFPA results file of a season and the submission it was made from."""

    csv: str
    submission: IfpaSubmission


def ifpa_results(
    season: m.Season, *, results: IfpaResults | None = None, threshold: int | None = None
) -> IfpaExport:
    """The season's IFPA results CSV (see the module docstring); read-only.

    Raises ValidationError as `ifpa_submission` (post-finals before the playoffs end).
    """
    submission = ifpa_submission(season, results=results, threshold=threshold)
    rows = [
        (
            line.position,
            line.first_name,
            line.last_name,
            "" if line.ifpa_number is None else line.ifpa_number,
            line.meets_attended,
        )
        for line in submission.included
    ]
    return IfpaExport(csv=csv_text(IFPA_COLUMNS, rows), submission=submission)


def meets_calendar(season: m.Season) -> str:
    """Every stored meet of the season as an iCalendar (RFC 5545) text with CRLF lines.

    The icalendar library escapes the text values and folds long lines (at 75 octets, never
    inside a UTF-8 character). Its ``DTSTAMP`` is when the calendar last changed (`_stamp`),
    not the time of the request: the same facts give the same text, byte for byte, so its
    ETag holds while nothing changed and a subscribed calendar is not downloaded again.
    """
    league = season.league
    zone = ZoneInfo(league.time_zone)
    stamp = _stamp(season)
    calendar = Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", "-//flipwell//flipwell league meets//EN")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", f"{league.name}: {season.name}")
    for meet in season.meets.order_by("number"):
        start = datetime.datetime.combine(meet.date, season.start_time, tzinfo=zone)
        event = Event()
        event.add("uid", f"flipwell-meet-{meet.pk}@{league.slug}")
        event.add("dtstamp", stamp)
        event.add("dtstart", start.astimezone(datetime.UTC))
        event.add("summary", f"{league.name}: {season.name}, meet {meet.number}")
        if league.venue:
            event.add("location", league.venue)
        event.add("status", "CONFIRMED")
        calendar.add_component(event)
    text: bytes = calendar.to_ical()
    return text.decode("utf-8")


def _stamp(season: m.Season) -> datetime.datetime:
    """When the season's calendar last changed, to the second: the league's latest audit event
    (every service that changes a meet, a season or the league records one), or the season's
    creation when later (a season stored without one)."""
    latest = (
        m.AuditEvent.objects.filter(league=season.league_id)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    stamp = max(season.created_at, latest) if latest is not None else season.created_at
    return stamp.astimezone(datetime.UTC).replace(microsecond=0)


def import_roster(*, season: m.Season, csv_text: str, actor: User) -> ImportResult:
    """Check every row, then `import_players_csv` (all or nothing).

    Raises ValidationError keyed ``line N`` / ``line N, column`` with every bad row's
    message when any row is bad (nothing written); otherwise as the service.
    """
    problems = roster_problems(csv_text)
    if problems:
        fields: dict[str, list[str]] = {}
        for p in problems:
            where = f"line {p.line}" if p.column is None else f"line {p.line}, {p.column}"
            fields.setdefault(where, []).append(p.message)
        raise ValidationError(fields)
    return import_players_csv(season=season, csv_text=csv_text, actor=actor)
