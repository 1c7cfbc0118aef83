"""Files for other programs: the IFPA results CSV, the meets as iCalendar, roster checking.

Words:
- *IFPA results CSV*: one row per player of a season, in final position order (once the
  playoffs are complete, the qualifiers by their playoff places, then everyone else by the
  standings: `flipwell.rules.season_final_positions`), with his IFPA number; *attended* counts the
  meets at which he played at least one game, and a player who attended fewer than the
  *attendance threshold* is marked ``below_threshold`` = ``yes`` (the IFPA counts only players
  who took part enough; the league decides how many meets that is, by default half the
  season's meets, rounded up: `flipwell.rules.final_positions.attendance_threshold`). A name
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
from flipwell.league.adapters import player_key
from flipwell.league.csv_cells import csv_text
from flipwell.league.exchange.exports import FoldedSeason, fold
from flipwell.league.players_csv import roster_problems
from flipwell.league.selectors.playoffs import playoff_bracket
from flipwell.league.services import ImportResult, import_players_csv
from flipwell.rules import attendance, attendance_threshold, season_final_positions

if TYPE_CHECKING:
    from django.contrib.auth.models import User

IFPA_COLUMNS = (
    "position",
    "first_name",
    "last_name",
    "ifpa_number",
    "meets_attended",
    "below_threshold",
)


@dataclass(frozen=True)
class IfpaExport:
    """The IFPA results file of a season and the threshold it was made with."""

    csv: str
    threshold: int


def ifpa_results(season: m.Season, *, threshold: int | None) -> IfpaExport:
    """The season's IFPA results CSV (see the module docstring); read-only."""
    folded: FoldedSeason = fold(season)
    limit = attendance_threshold(season.number_of_meets, override=threshold)
    numbers = dict(
        m.SeasonEntry.objects.filter(season=season).values_list("player_id", "player__ifpa_number")
    )
    standings = {s.player: s for s in folded.result.standings()}
    rows: list[tuple[object, ...]] = []
    for position, key in season_final_positions(list(standings), _playoff_places(season)):
        standing = standings[key]
        first_name, last_name = folded.names[standing.player]
        attended, below = attendance(standing.nights, threshold=limit)
        number = numbers.get(int(standing.player))
        rows.append(
            (
                position,
                first_name,
                last_name,
                "" if number is None else number,
                attended,
                "yes" if below else "no",
            )
        )
    return IfpaExport(csv=csv_text(IFPA_COLUMNS, rows), threshold=limit)


def _playoff_places(season: m.Season) -> list[list[tuple[int, str]]]:
    """Each division's final places once every division's final is complete, else none."""
    bracket = playoff_bracket(season)
    if not bracket.divisions or not all(d.complete for d in bracket.divisions):
        return []
    return [[(place, player_key(p.id)) for place, p in d.places] for d in bracket.divisions]


def meets_calendar(season: m.Season, *, now: datetime.datetime | None = None) -> str:
    """Every stored meet of the season as an iCalendar (RFC 5545) text with CRLF lines.

    The icalendar library escapes the text values and folds long lines (at 75 octets, never
    inside a UTF-8 character).
    """
    league = season.league
    zone = ZoneInfo(league.time_zone)
    stamp = (now or datetime.datetime.now(tz=datetime.UTC)).astimezone(datetime.UTC)
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
