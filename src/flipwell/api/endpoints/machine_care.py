"""A machine's history and the broken-machine loop: its problems, history and reliability
(public), a problem report (any scope of a token of its league: it is reported, not yet
ruled), a repair and the closing of a report (scope: manage)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.endpoints.params import MachineId, ReportId, Slug
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.schemas.machines import (
    CloseReportIn,
    MachineHistoryOut,
    ProblemReportIn,
    ProblemReportOut,
    RepairIn,
    RepairOut,
)
from flipwell.api.writing import after_check, official, write
from flipwell.league import services
from flipwell.league.selectors.machine_history import machine_histories


@router.get(
    "/leagues/{slug}/machines/{machine_id}/history",
    response={200: MachineHistoryOut, **ERROR_RESPONSES},
)
def machine_history(request: HttpRequest, slug: Slug, machine_id: MachineId) -> Any:
    """One machine's problems (open first: who reported each, when, on which game, what was
    ruled, when repaired), every fact about it, and its reliability this season
    (malfunctions per 100 games, days out of service; R7.3-u)."""
    league = queries.league(slug)
    machine = queries.machine(league, machine_id)
    (sheet,) = machine_histories(league, machine_id=machine.pk)
    return sheet


@router.post(
    "/leagues/{slug}/machines/{machine_id}/problem-reports",
    response={201: ProblemReportOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def report_machine_problem(
    request: HttpRequest, slug: Slug, machine_id: MachineId, payload: ProblemReportIn
) -> Any:
    """Report a problem on a machine (scope: scores): it lands in the official's console as
    reported, not yet ruled; never a ruling."""
    league = queries.league(slug)
    return write(
        request,
        services.report_machine_problem,
        payload,
        by=official(league, "scores"),
        actor_as=None,  # a report names no actor (its audit event has none)
        location=f"/api/v1/leagues/{slug}/machines/{machine_id}/history",
        machine=after_check(queries.machine, league, machine_id),
    )


@router.post(
    "/leagues/{slug}/problem-reports/{report_id}/close",
    response={200: ProblemReportOut, **ERROR_RESPONSES},
    **WRITE,
)
def close_machine_problem_report(
    request: HttpRequest, slug: Slug, report_id: ReportId, payload: CloseReportIn
) -> Any:
    """Close a problem report that needs nothing more, saying why (scope: manage); 409
    ``report_already_closed`` when it is."""
    league = queries.league(slug)
    return write(
        request,
        services.close_machine_problem_report,
        payload,
        by=official(league, "manage"),
        report=after_check(queries.problem_report, league, report_id),
    )


@router.post(
    "/leagues/{slug}/machines/{machine_id}/repairs",
    response={201: RepairOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def record_machine_repair(
    request: HttpRequest, slug: Slug, machine_id: MachineId, payload: RepairIn
) -> Any:
    """Record a machine repaired, saying what was done (scope: manage): every problem
    reported before is repaired, a machine out of the pool comes back, one declared
    unplayable at the open meet is declared repaired (R7.3-r)."""
    league = queries.league(slug)
    return write(
        request,
        services.record_machine_repair,
        payload,
        by=official(league, "manage"),
        location=f"/api/v1/leagues/{slug}/machines/{machine_id}/history",
        machine=after_check(queries.machine, league, machine_id),
    )
