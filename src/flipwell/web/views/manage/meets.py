"""The season's meets in the console, and a league night's hub: its groups, how players reach
their score sheets, rescheduling and closing the meet.

Words:
- *next machine row*: a group's next machine on its panel: who picks and which machines are
  refused, and why (`choices`).
- *gone*: a player recorded absent for the rest of the match, with whether it may be
  withdrawn.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.allowed_machines import AllowedMachines, meet_allowed_machines
from flipwell.league.selectors.console import (
    before_start_warning,
    match_absences_at,
    meet_date_warnings,
    next_meet,
    season_meets,
)
from flipwell.league.selectors.machine_history import open_problem_machines
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_board.values import MeetBoard
from flipwell.league.selectors.photos import PhotoRef, meet_photos, meet_removal
from flipwell.web.auth import ANY_ROLE, LO_ONLY, console_page
from flipwell.web.forms import (
    CancelMeetForm,
    CloseMeetForm,
    RescheduleMeetForm,
    ScheduleMeetForm,
)
from flipwell.web.scoresheet_tokens import path_for
from flipwell.web.views.manage._common import (
    action,
    meet_of,
    official,
    page,
    run,
    season_of,
)
from flipwell.web.views.manage._night import night_context


@console_page(ANY_ROLE)
def meets(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """A season's meets, and scheduling the next ones (schedule_meet)."""
    season = season_of(league, season_id)
    upcoming = next_meet(season)
    initial = (
        {"number": upcoming.number, "date": upcoming.date}
        if upcoming is not None and upcoming.planned is None
        else {}
    )
    form = ScheduleMeetForm(request.POST or None, initial=initial)
    if request.method == "POST":
        meet = run(form, services.schedule_meet, season=season, actor=official(request))
        if meet is not None:
            warned = "; ".join(meet_date_warnings(meet))
            message = f"Meet {meet.number} scheduled on {meet.date:%A %d %B %Y}."
            if warned:
                messages.warning(request, f"{message} Warning: {warned}.")
            else:
                messages.success(request, message)
            # On to the meet: its attendance, then its start.
            return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet.pk]))
    context = {
        "league": league,
        "role": role,
        "season": season,
        "meets": season_meets(season),
        "form": form,
        "upcoming": upcoming,
    }
    return page(request, "manage/meets.html", context, failed=form.is_bound)


@require_safe  # closing is `close`, after its confirmation step
@console_page(ANY_ROLE)
def meet(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """The hub of a league night: groups, games, how players reach their score sheets, and
    the way to close the meet (`close`, which asks first). A group nobody can continue offers
    the official its next machine and its absence (`group`)."""
    the_meet = meet_of(league, meet_id)
    return render(request, "manage/meet.html", meet_context(league, role, the_meet))


def _by_group(photos: tuple[PhotoRef, ...]) -> dict[int, list[PhotoRef]]:
    """The photos by group id, in their order."""
    found: dict[int, list[PhotoRef]] = {}
    for ref in photos:
        found.setdefault(ref.group_id, []).append(ref)
    return found


def meet_context(
    league: m.League, role: str, the_meet: m.Meet, refused: dict[int, list[str]] | None = None
) -> dict[str, Any]:
    board = meet_board(the_meet) if the_meet.status != m.Meet.Status.PLANNED else None
    photos = meet_photos(the_meet) if board is not None else ()
    sheets = (
        {g.id: path_for(g.id, the_meet.pk) for g in board.groups}
        if board is not None and the_meet.status == m.Meet.Status.OPEN
        else {}
    )
    is_open = the_meet.status == m.Meet.Status.OPEN
    troubled = open_problem_machines(league) if is_open else {}
    # Each group's next machine as the API and the score sheet show it (allowed_machines).
    choices = meet_allowed_machines(the_meet, board) if board is not None and is_open else {}
    context = {
        **night_context(league, role, the_meet, "hub"),
        "board": board,
        "sheets": sheets,
        "next_machines": {gid: _next_machine_rows(c, troubled) for gid, c in choices.items()},
        "refused": refused or {},
        "photos": photos,
        "group_photos": _by_group(photos),
        "gone": _gone(board, match_absences_at(the_meet)) if board is not None else (),
    }
    if the_meet.status == m.Meet.Status.CLOSED:
        context["removal"] = meet_removal(the_meet)
    if the_meet.status == m.Meet.Status.PLANNED:
        context |= {
            "reschedule_form": RescheduleMeetForm(initial={"date": the_meet.date}),
            "cancel_form": CancelMeetForm(),
        }
    return context


def _next_machine_rows(choices: AllowedMachines, troubled: dict[int, int]) -> dict[str, Any]:
    """A group's next machine for its panel: who picks and what is refused (`choices`), the
    allowed machines with their open problems (id, title, count; R7.3-u) and those with any."""
    options = [(o.id, o.title, troubled.get(o.id, 0)) for o in choices.allowed]
    return {
        "choices": choices,
        "options": options,
        "troubled": [(title, n) for _, title, n in options if n],
    }


def _gone(
    board: MeetBoard, absences: tuple[m.MatchAbsence, ...]
) -> list[tuple[m.MatchAbsence, bool]]:
    """Each absence for the rest of the match with whether it may be withdrawn: not one of a
    whole group's (its games were stored as played by nobody)."""
    absent: dict[int, set[int]] = {}
    for absence in absences:
        absent.setdefault(absence.group_id, set()).add(absence.player_id)
    whole = {g.id for g in board.groups if absent.get(g.id) == set(g.players)}
    return [(a, a.group_id not in whole) for a in absences]


@console_page(LO_ONLY)
def reschedule(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Move a meet not yet started to another date, or cancel it; each asks why (R2-a). The
    meet's hub shows both forms; this page shows them again when one was refused."""
    the_meet = meet_of(league, meet_id)
    posted = action(request)
    moving = RescheduleMeetForm(
        request.POST if posted == "reschedule" else None, initial={"date": the_meet.date}
    )
    cancelling = CancelMeetForm(request.POST if posted == "cancel" else None)
    if posted == "reschedule":
        moved = run(moving, services.reschedule_meet, meet=the_meet, actor=official(request))
        if moved is not None:
            messages.success(request, f"Meet {moved.number} moved to {moved.date:%A %d %B %Y}.")
            return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet_id]))
    elif posted == "cancel":
        cancelled = run(cancelling, services.cancel_meet, meet=the_meet, actor=official(request))
        if cancelled is not None:
            moved_down = ", ".join(
                f"meet {old} is now meet {new}" for old, new in cancelled.renumbered
            )
            messages.success(
                request,
                f"Meet {cancelled.number} ({cancelled.date:%A %d %B %Y}) is cancelled"
                + (f"; {moved_down}." if moved_down else "."),
            )
            return HttpResponseRedirect(
                reverse("web:manage_meets", args=[league.slug, the_meet.season_id])
            )
    context = {
        **night_context(league, role, the_meet, "hub"),
        "reschedule_form": moving,
        "cancel_form": cancelling,
    }
    return page(request, "manage/reschedule.html", context, failed=bool(posted))


@console_page(LO_ONLY)
def close(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Close the meet, after a confirmation step: the page says what closing does and which
    groups are unfinished (closing those needs a reason, A52); its POST closes."""
    the_meet = meet_of(league, meet_id)
    form = CloseMeetForm(request.POST or None)
    if request.method == "POST":
        closed = run(form, services.close_meet, meet=the_meet, actor=official(request))
        if closed is not None:
            messages.success(request, f"Meet {the_meet.number} is closed.")
            return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet_id]))
    board = meet_board(the_meet) if the_meet.status == m.Meet.Status.OPEN else None
    context = {
        **night_context(league, role, the_meet, "hub"),
        "unfinished": [g for g in board.groups if not g.finished] if board else [],
        "form": form,
        "early": before_start_warning(the_meet, "close"),
    }
    return page(request, "manage/close_meet.html", context, failed=form.is_bound)
