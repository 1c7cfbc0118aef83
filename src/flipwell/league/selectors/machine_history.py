"""A machine's history, read from its facts: problems, rulings, repairs and reliability.

Words:
- *history*: every fact about a machine, oldest first: malfunctions recorded on it (on the
  machine that failed, even when the game then moved, R7.3-s), declarations at meets, status
  changes, replacements, repairs, problem reports and maintenance notes (R7.3-u).
- *problem*: a malfunction, a problem report, or the machine made unplayable (a declaration
  or leaving the pool); with who reported it, when, on which game, what was ruled, and when
  it was repaired. Open or not is `flipwell.rules.machine_care`'s.
- *reliability*: over the league's current season, from its first meet's day to its last
  (or today): games played on the machine, malfunctions per 100 games, days out of service.

`machine_histories` reads every machine of a league in a fixed number of queries.
"""

from __future__ import annotations

import datetime
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from django.db import models
from django.db.models import Max, Min
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.selectors.seasons import current_season
from flipwell.rules.machine_care import (
    Move,
    Problem,
    Reliability,
    Span,
    StatusChange,
    machine_at,
    machines_played,
    out_of_service_spans,
    problem_states,
    reliability,
)

REPORTED_NOT_RULED = "reported, not yet ruled"


@dataclass(frozen=True)
class SheetLine:
    """One line of a machine's history."""

    at: datetime.datetime
    what: str
    """"malfunction", "declaration", "note", "status", "replacement", "repair" or
    "report"."""
    text: str
    meet: int | None
    by: str


@dataclass(frozen=True)
class ProblemLine:
    """One problem on a machine: what, when, by whom, on which game, what was ruled, and when
    it was repaired (or closed); `report_id` for a problem report (the console closes it)."""

    key: str
    what: str
    at: datetime.datetime
    by: str
    game: str
    ruled: str
    open: bool
    repaired_at: datetime.datetime | None
    closed_at: datetime.datetime | None
    report_id: int | None = None


@dataclass(frozen=True)
class MachineSheet:
    """One machine's maintenance sheet (R7.3-u): its history, its problems (open first, then
    newest first) and its reliability this season (None before the season's first meet)."""

    machine_id: int
    title: str
    status: str
    malfunctions: int
    lines: tuple[SheetLine, ...]
    problems: tuple[ProblemLine, ...] = ()
    reliability: Reliability | None = None
    season: str = ""

    @property
    def open_problems(self) -> tuple[ProblemLine, ...]:
        """The problems still open."""
        return tuple(p for p in self.problems if p.open)


@dataclass
class _Facts:
    """What one machine's sheet is built from, gathered from the league's rows."""

    lines: list[SheetLine] = field(default_factory=list)
    problems: list[tuple[Problem, ProblemLine]] = field(default_factory=list)
    repairs: list[datetime.datetime] = field(default_factory=list)
    changes: list[m.MachineStatusChange] = field(default_factory=list)
    declared: list[datetime.date] = field(default_factory=list)
    """The days of the meets it was declared unplayable at: out of service then (R7.3-r)."""
    malfunctions: int = 0
    season_malfunctions: int = 0
    season_games: int = 0


def machine_histories(
    league: m.League, *, machine_id: int | None = None
) -> tuple[MachineSheet, ...]:
    """Every machine of `league` (or the one `machine_id`) with its history, problems and
    reliability, by title (R7.3-u). A fixed number of queries whatever the league's size."""
    machines = m.Machine.objects.filter(league=league).order_by("title", "id")
    if machine_id is not None:
        machines = machines.filter(pk=machine_id)
    rows = list(machines)
    facts: dict[int, _Facts] = defaultdict(_Facts)
    season = current_season(league)
    span = _season_span(league, season)
    moves = _moves(league)
    _malfunctions(league, facts, moves, season)
    _season_games(league, facts, moves, season)
    _replacements(league, facts)
    _declarations(league, facts)
    _status_changes(league, facts)
    _repairs(league, facts)
    _reports(league, facts)
    _notes(league, facts)
    return tuple(_sheet(machine, facts[machine.pk], span, season, league) for machine in rows)


def open_problem_machines(league: m.League) -> dict[int, int]:
    """Machine id -> how many open problems it has, for the machines with any."""
    return {
        sheet.machine_id: len(sheet.open_problems)
        for sheet in machine_histories(league)
        if sheet.open_problems
    }


def _season_span(
    league: m.League, season: m.Season | None
) -> tuple[datetime.date, datetime.date] | None:
    """The current season's days so far: its first meet's day to its last one's, or to today
    while that is later; None before its first meet's day."""
    if season is None:
        return None
    dates = m.Meet.objects.filter(season=season).aggregate(first=Min("date"), last=Max("date"))
    today = timezone.localdate(timezone=ZoneInfo(league.time_zone))
    first, last = dates["first"], dates["last"]
    if first is None or first > today:
        return None
    return first, min(last, today)


def _moves(league: m.League) -> dict[int, list[tuple[Move, int, int]]]:
    """Game id -> its replacements as the rules' moves, with the old and new machine ids."""
    found: dict[int, list[tuple[Move, int, int]]] = defaultdict(list)
    rows = m.MachineReplacement.objects.filter(game__machine__league=league).values_list(
        "game_id", "created_at", "old_machine_id", "new_machine_id"
    )
    for game_id, at, old, new in rows:
        found[game_id].append((Move(at=at, old=str(old), new=str(new)), old, new))
    return found


def _malfunctions(
    league: m.League,
    facts: dict[int, _Facts],
    moves: dict[int, list[tuple[Move, int, int]]],
    season: m.Season | None,
) -> None:
    rows = m.Malfunction.objects.filter(game__machine__league=league).select_related(
        "game__group__meet", "player", "official"
    )
    for row in rows:
        game_moves = [move for move, _, _ in moves.get(row.game_id, ())]
        machine = int(machine_at(str(row.game.machine_id), game_moves, row.created_at))
        meet = row.game.group.meet
        where = f"meet {meet.number}, group {row.game.group.number}, game {row.game.number}"
        ruled = (
            f"{_label(m.Malfunction.Kind, row.kind)} malfunction "
            f"({_label(m.Malfunction.ReasonCode, row.reason_code)}): {row.player}, ball {row.ball}"
            + (f". {row.note}" if row.note else "")
        )
        by = row.official.get_username()
        about = facts[machine]
        about.malfunctions += 1
        about.season_malfunctions += int(season is not None and meet.season_id == season.pk)
        about.lines.append(
            SheetLine(row.created_at, "malfunction", f"{ruled}; {where}", meet.number, by)
        )
        problem = Problem(key=f"malfunction:{row.pk}", at=row.created_at)
        about.problems.append(
            (problem, _line(problem, "malfunction", by=by, game=where, ruled=ruled))
        )


def _season_games(
    league: m.League,
    facts: dict[int, _Facts],
    moves: dict[int, list[tuple[Move, int, int]]],
    season: m.Season | None,
) -> None:
    if season is None:
        return
    games = m.Game.objects.filter(group__meet__season=season).values_list("pk", "machine_id")
    for game_id, machine_id in games:
        game_moves = [move for move, _, _ in moves.get(game_id, ())]
        for machine in machines_played(str(machine_id), game_moves):
            facts[int(machine)].season_games += 1


def _replacements(league: m.League, facts: dict[int, _Facts]) -> None:
    replacements = m.MachineReplacement.objects.filter(old_machine__league=league)
    for row in replacements.select_related("new_machine", "game__group__meet", "official"):
        game = row.game
        text = (
            f"game moved to {row.new_machine.title}: {row.reason}; meet {game.group.meet.number}"
            f", group {game.group.number}, game {game.number}"
        )
        facts[row.old_machine_id].lines.append(
            SheetLine(
                row.created_at,
                "replacement",
                text,
                game.group.meet.number,
                row.official.get_username(),
            )
        )


def _declarations(league: m.League, facts: dict[int, _Facts]) -> None:
    rows = m.MachineDeclaration.objects.filter(machine__league=league).select_related(
        "meet", "official"
    )
    for row in rows:
        by = row.official.get_username()
        about = facts[row.machine_id]
        text = f"declared {row.kind}: {row.reason}"
        about.lines.append(SheetLine(row.created_at, "declaration", text, row.meet.number, by))
        if row.kind == m.MachineDeclaration.Kind.REPAIRED:
            about.repairs.append(row.created_at)
            continue
        about.declared.append(row.meet.date)
        problem = Problem(key=f"declaration:{row.pk}", at=row.created_at)
        ruled = f"declared unplayable at meet {row.meet.number}: {row.reason}"
        about.problems.append((problem, _line(problem, "unplayable", by=by, ruled=ruled)))


def _status_changes(league: m.League, facts: dict[int, _Facts]) -> None:
    rows = m.MachineStatusChange.objects.filter(machine__league=league).select_related("official")
    for row in rows:
        by = row.official.get_username()
        about = facts[row.machine_id]
        about.changes.append(row)
        out = row.status == m.Machine.Status.UNPLAYABLE
        text = f"{'taken out of' if out else 'back in'} the pool: {row.reason}"
        about.lines.append(SheetLine(row.created_at, "status", text, None, by))
        if not out:
            about.repairs.append(row.created_at)
            continue
        problem = Problem(key=f"status:{row.pk}", at=row.created_at)
        ruled = f"out of the pool: {row.reason}"
        about.problems.append((problem, _line(problem, "out of the pool", by=by, ruled=ruled)))


def _repairs(league: m.League, facts: dict[int, _Facts]) -> None:
    rows = m.MachineRepair.objects.filter(machine__league=league).select_related("official", "meet")
    for row in rows:
        about = facts[row.machine_id]
        about.repairs.append(row.created_at)
        meet = row.meet.number if row.meet else None
        about.lines.append(
            SheetLine(row.created_at, "repair", row.note, meet, row.official.get_username())
        )


def _reports(league: m.League, facts: dict[int, _Facts]) -> None:
    rows = m.MachineProblemReport.objects.filter(machine__league=league).select_related("closed_by")
    for row in rows:
        about = facts[row.machine_id]
        by = row.reported_by or "someone at the venue"
        about.lines.append(SheetLine(row.reported_at, "report", row.text, None, by))
        if row.closed_by is not None:
            ruled = f"closed by {row.closed_by.get_username()}: {row.close_reason}"
        else:
            ruled = REPORTED_NOT_RULED
        problem = Problem(key=f"report:{row.pk}", at=row.reported_at, closed_at=row.closed_at)
        line = _line(problem, "report", by=by, ruled=f"“{row.text}”: {ruled}")
        about.problems.append((problem, _with_report(line, row.pk)))


MALFUNCTION_COPY = re.compile(r"^(major|catastrophic|positive|not serious) malfunction: ")
"""The start of the note recording a malfunction once wrote beside its Malfunction row: a
copy of the row, which is the history's line already (so it is left out)."""


def _notes(league: m.League, facts: dict[int, _Facts]) -> None:
    rows = m.MaintenanceNote.objects.filter(machine__league=league).select_related(
        "meet", "created_by"
    )
    for row in rows:
        if row.meet_id is not None and MALFUNCTION_COPY.match(row.text):
            continue
        meet = row.meet.number if row.meet else None
        facts[row.machine_id].lines.append(
            SheetLine(row.created_at, "note", row.text, meet, row.created_by.get_username())
        )


def _line(problem: Problem, what: str, *, by: str, ruled: str, game: str = "") -> ProblemLine:
    return ProblemLine(
        key=problem.key,
        what=what,
        at=problem.at,
        by=by,
        game=game,
        ruled=ruled,
        open=True,
        repaired_at=None,
        closed_at=problem.closed_at,
    )


def _with_report(line: ProblemLine, report_id: int) -> ProblemLine:
    return ProblemLine(**{**line.__dict__, "report_id": report_id})


def _sheet(
    machine: m.Machine,
    facts: _Facts,
    span: tuple[datetime.date, datetime.date] | None,
    season: m.Season | None,
    league: m.League,
) -> MachineSheet:
    """One machine's sheet from its gathered facts: the rules say which problems are open
    and how reliable it was."""
    states = {s.key: s for s in problem_states([p for p, _ in facts.problems], facts.repairs)}
    problems = [
        ProblemLine(
            **{
                **line.__dict__,
                "open": states[line.key].open,
                "repaired_at": states[line.key].repaired_at,
                "ruled": _ruled(line, repaired=states[line.key].repaired_at is not None),
            }
        )
        for _, line in facts.problems
    ]
    problems.sort(key=lambda p: p.at, reverse=True)
    problems.sort(key=lambda p: not p.open)
    return MachineSheet(
        machine_id=machine.pk,
        title=machine.title,
        status=machine.status,
        malfunctions=facts.malfunctions,
        lines=tuple(sorted(facts.lines, key=lambda line: line.at)),
        problems=tuple(problems),
        reliability=_reliability(machine, facts, span, league),
        season=season.name if season is not None and span is not None else "",
    )


def _ruled(line: ProblemLine, *, repaired: bool) -> str:
    """What was ruled on a problem: a report repaired before anyone ruled on it says no more
    than what was reported (its line says when it was repaired)."""
    if repaired and line.ruled.endswith(f": {REPORTED_NOT_RULED}"):
        return line.ruled.removesuffix(f": {REPORTED_NOT_RULED}")
    return line.ruled


def _reliability(
    machine: m.Machine,
    facts: _Facts,
    span: tuple[datetime.date, datetime.date] | None,
    league: m.League,
) -> Reliability | None:
    if span is None:
        return None
    zone = ZoneInfo(league.time_zone)
    changes = sorted(facts.changes, key=lambda c: c.created_at)
    first_status = changes[0].previous if changes else machine.status
    spans = out_of_service_spans(
        [
            StatusChange(
                on=timezone.localtime(c.created_at, zone).date(),
                out=c.status == m.Machine.Status.UNPLAYABLE,
            )
            for c in changes
        ],
        out_at_start=first_status == m.Machine.Status.UNPLAYABLE,
    )
    return reliability(
        games=facts.season_games,
        malfunctions=facts.season_malfunctions,
        spans=[*spans, *(Span(first=day, last=day) for day in facts.declared)],
        first_day=span[0],
        last_day=span[1],
    )


def _label(choices: type[models.TextChoices], value: str) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return value


def sheets_open_first(sheets: Iterable[MachineSheet]) -> tuple[MachineSheet, ...]:
    """The sheets with open problems first (most first), then the others, by title within."""
    return tuple(sorted(sheets, key=lambda s: (-len(s.open_problems), s.title.lower())))


def unplayable_reasons(meet: m.Meet, machine_ids: Iterable[int]) -> dict[int, str]:
    """Why each of `machine_ids` is unplayable at `meet`, in words: out of the pool (its
    latest status change's reason) or declared unplayable at the meet (its latest
    declaration's reason), R7.3-q, R7.3-r. Three queries."""
    wanted = set(machine_ids)
    machines = m.Machine.objects.filter(pk__in=wanted).values_list("pk", "status")
    changes = m.MachineStatusChange.objects.filter(
        machine_id__in=wanted, status=m.Machine.Status.UNPLAYABLE
    ).values_list("machine_id", "reason")
    declarations = m.MachineDeclaration.objects.filter(meet=meet, machine_id__in=wanted)
    out = dict(changes.order_by("created_at", "id"))
    declared = dict(
        declarations.filter(kind=m.MachineDeclaration.Kind.UNPLAYABLE)
        .order_by("created_at", "id")
        .values_list("machine_id", "reason")
    )
    reasons = {}
    for machine_id, status in machines:
        if status == m.Machine.Status.UNPLAYABLE:
            why = out.get(machine_id)
            reasons[machine_id] = f"out of the pool: {why}" if why else "out of the pool"
        else:
            why = declared.get(machine_id, "")
            reasons[machine_id] = f"declared unplayable tonight: {why}".rstrip(": ")
    return reasons
