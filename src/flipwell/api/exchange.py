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
CRLF = "\r\n"
MAX_LINE_OCTETS = 75


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
    """Every stored meet of the season as an iCalendar (RFC 5545) text with CRLF lines."""
    league = season.league
    zone = ZoneInfo(league.time_zone)
    stamp = _utc(now or datetime.datetime.now(tz=datetime.UTC))
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//flipwell//flipwell league meets//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{_text(f'{league.name}: {season.name}')}",
    ]
    for meet in season.meets.order_by("number"):
        start = datetime.datetime.combine(meet.date, season.start_time, tzinfo=zone)
        lines += [
            "BEGIN:VEVENT",
            f"UID:flipwell-meet-{meet.pk}@{league.slug}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{_utc(start)}",
            f"SUMMARY:{_text(f'{league.name}: {season.name}, meet {meet.number}')}",
            *([f"LOCATION:{_text(league.venue)}"] if league.venue else []),
            "STATUS:CONFIRMED",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + CRLF for line in lines)


def _utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def _text(value: str) -> str:
    """A TEXT value escaped (RFC 5545 §3.3.11)."""
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def _fold(line: str) -> str:
    """Fold a content line at 75 octets, never inside a UTF-8 character (RFC 5545 §3.1)."""
    parts: list[str] = []
    current, size, limit = "", 0, MAX_LINE_OCTETS
    for char in line:
        octets = len(char.encode("utf-8"))
        if size + octets > limit:
            parts.append(current)
            current, size, limit = "", 0, MAX_LINE_OCTETS - 1  # continuation starts with " "
        current += char
        size += octets
    parts.append(current)
    return (CRLF + " ").join(parts)


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
