"""The league's machines in the console: status, declarations at the current meet, announced
problems, the maintenance sheet, and the special rulings list (Appendix A)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import (
    league_machines,
    league_seasons,
    meet_facts,
    other_leagues_rulings,
    special_ruling_rows,
)
from flipwell.league.selectors.machine_history import (
    MachineSheet,
    ProblemLine,
    sheets_open_first,
)
from flipwell.league.selectors.machines import maintenance_sheet
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import (
    AmendSpecialRulingForm,
    CloseReportForm,
    CopySpecialRulingForm,
    MachineDeclarationForm,
    MachineProblemForm,
    MachineRepairForm,
    SpecialRulingForm,
)
from flipwell.web.views.manage._common import action, attempt, done, official, page, run


@console_page(LO_ONLY)
def machines(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """Machines: their open problems (reports from the QR codes: reported, not yet ruled;
    close one, saying why), record a repair; at the open meet, declare one unplayable or
    repaired, announce a problem."""
    open_meets = [s.open_meet for s in league_seasons(league) if s.open_meet is not None]
    meet = open_meets[0] if open_meets else None
    choices = [(x.pk, x.title) for x in league_machines(league)]
    which = action(request)
    sheet = sheets_open_first(maintenance_sheet(league))
    reports = _open_reports(sheet)
    declare = MachineDeclarationForm(request.POST if which == "declare" else None, machines=choices)
    problem = MachineProblemForm(request.POST if which == "problem" else None, machines=choices)
    repair = MachineRepairForm(request.POST if which == "repair" else None, machines=choices)
    offered = [(r.report_id or 0, f"{title}: {r.ruled}") for title, r in reports]
    close = CloseReportForm(request.POST if which == "close" else None, reports=offered)
    answered = _repair_or_close(request, which, repair, close)
    if answered is not None:
        return answered
    if meet is not None and which == "declare":
        row = run(declare, _declare, meet=meet, actor=official(request))
        if row is not None:
            return done(request, f"{row.machine.title} declared {row.kind}.")
    elif meet is not None and which == "problem":
        announced = run(
            problem, services.announce_machine_problem, meet=meet, actor=official(request)
        )
        if announced is not None:
            return done(request, f"Problem on {announced.machine.title} announced.")
    context = {
        "league": league,
        "role": role,
        "machines": league_machines(league),
        "meet": meet,
        "facts": meet_facts(meet) if meet is not None else None,
        "sheet": sheet,
        "reports": reports,
        "any_open": any(row.open_problems for row in sheet),
        "declare": declare,
        "problem": problem,
        "repair": repair,
        "close": close,
    }
    return page(request, "manage/machines.html", context, failed=bool(which))


def _repair_or_close(
    request: HttpRequest, which: str, repair: MachineRepairForm, close: CloseReportForm
) -> HttpResponse | None:
    """Record a repair or close a report, as posted; the redirect once done, else None."""
    if which == "repair":
        fixed = run(repair, services.record_machine_repair, actor=official(request))
        if fixed is not None:
            return done(request, f"{fixed.machine.title} recorded repaired.")
    elif which == "close":
        closed = run(close, services.close_machine_problem_report, actor=official(request))
        if closed is not None:
            return done(request, f"Report on {closed.machine.title} closed.")
    return None


def _open_reports(sheet: Sequence[MachineSheet]) -> list[tuple[str, ProblemLine]]:
    """(machine title, report) of every open problem report, reported, not yet ruled;
    newest first."""
    found = [(row.title, p) for row in sheet for p in row.open_problems if p.report_id is not None]
    return sorted(found, key=lambda pair: pair[1].at, reverse=True)


def _declare(*, kind: str, **arguments: Any) -> m.MachineDeclaration:
    """The declaration the official chose: unplayable (declare_machine_unplayable) or
    repaired (declare_machine_repaired), with the form's other arguments."""
    if kind == "unplayable":
        return services.declare_machine_unplayable(**arguments)
    return services.declare_machine_repaired(**arguments)


@console_page(LO_ONLY)
def special_rulings(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """The league's special rulings list: load Appendix A, add a ruling, amend one, copy
    another league's ruling on one of the league's titles (RA-a..RA-e)."""
    which = action(request)
    add = SpecialRulingForm(request.POST if which == "add" else None)
    amend = AmendSpecialRulingForm(request.POST if which == "amend" else None, league=league)
    copy = CopySpecialRulingForm(request.POST if which == "copy" else None, league=league)
    if which == "load":
        loaded = services.load_appendix_a(league=league, actor=official(request))
        return done(
            request,
            f"Appendix A loaded: {len(loaded)} ruling{'' if len(loaded) == 1 else 's'} added.",
        )
    if which == "add":
        row = run(add, services.add_special_ruling, league=league, actor=official(request))
        if row is not None:
            return done(request, f"Special ruling added for {row.machine_title}.")
    elif which == "amend":
        row = run(amend, services.amend_special_ruling, league=league, actor=official(request))
        if row is not None:
            return done(request, f"{row.machine_title} #{row.number} amended.")
    elif which == "copy":
        row = attempt(
            copy,
            lambda: services.copy_special_ruling(
                league=league, source=copy.cleaned_data["ruling"], actor=official(request)
            ),
        )
        if row is not None:
            return done(request, f"Copied as {row.machine_title} #{row.number}.")
    context = {
        "league": league,
        "role": role,
        "rulings": special_ruling_rows(league),
        "add": add,
        "amend": amend,
        "copy": copy,
        "others": other_leagues_rulings(league),
        "amending": request.POST.get("ruling") if which == "amend" else None,
    }
    return page(request, "manage/special_rulings.html", context, failed=bool(which))
