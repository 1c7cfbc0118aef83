"""A league night before and at its start: announced absences and lateness notices, and the
start with its groups preview (R3.1-d, R2.2-a, §4).

Words:
- *lateness notice*: a player's word that he will be late, and what it means tonight
  (R2.2-a, A59), in the league's time.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import (
    before_start_warning,
    meet_facts,
    season_players,
)
from flipwell.league.selectors.meet_times import scheduled_start
from flipwell.league.selectors.standings import start_proposal
from flipwell.league.services.meets.announcements import AnnouncedLateness
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import (
    LatenessForm,
    StartMeetForm,
    WithdrawAnnouncementForm,
    player_choice_form,
)
from flipwell.web.views.manage._common import (
    action,
    done,
    meet_of,
    official,
    page,
    run,
)
from flipwell.web.views.manage._night import night_context


@console_page(LO_ONLY)
def attendance(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Announced absences before the start (R3.1-d), and lateness notices until the close,
    each with when the official was told (R2.2-a); either withdrawn before the start."""
    the_meet = meet_of(league, meet_id)
    players = season_players(the_meet.season)
    which = action(request)
    absence = player_choice_form(players)(request.POST if which == "absence" else None)
    late = LatenessForm(request.POST if which == "late" else None, meet=the_meet, players=players)
    if which == "absence":
        row = run(absence, services.announce_absence, meet=the_meet, actor=official(request))
        if row is not None:
            return done(request, f"{row.player}'s absence is recorded.")
    elif which == "late":
        told = run(late, services.announce_lateness, meet=the_meet, actor=official(request))
        if told is not None:
            return done(request, _lateness_message(told))
    withdraw_errors: list[str] = []
    if which in ("withdraw_absence", "withdraw_late"):
        kind = "absence" if which == "withdraw_absence" else "lateness"
        withdrawing = WithdrawAnnouncementForm(request.POST)
        withdrawn = run(
            withdrawing,
            services.withdraw_announcement,
            meet=the_meet,
            kind=kind,
            actor=official(request),
        )
        if withdrawn is not None:
            what = "absence" if kind == "absence" else "lateness notice"
            return done(request, f"{withdrawn.player}'s {what} is withdrawn.")
        withdraw_errors = [str(e) for errors in withdrawing.errors.values() for e in errors]
    context = {
        **night_context(league, role, the_meet, "attendance"),
        "facts": meet_facts(the_meet),
        "absence": absence,
        "late": late,
        "withdraw_errors": withdraw_errors,
    }
    return page(request, "manage/attendance.html", context, failed=bool(which))


def _lateness_message(told: AnnouncedLateness) -> str:
    """What a recorded lateness notice means tonight (R2.2-a, A59), in the league's time."""
    notice, wait_until = told.notice, told.tardiness.wait_until
    who = str(notice.player)
    if wait_until is not None:
        return (
            f"{who}'s lateness notice is recorded: the group waits until "
            f"{wait_until:%H:%M} at the latest (R2.2-a)."
        )
    start = scheduled_start(notice.meet)
    told_at = notice.recorded_at.astimezone(start.tzinfo)
    return (
        f"{who}'s lateness notice is recorded, told at {told_at:%H:%M}, after the "
        f"{start:%H:%M} start: the group does not wait, and {who} joins on arrival when "
        "the rules allow it (R2.2-a, R2.3-a)."
    )


@console_page(LO_ONLY)
def start(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Start the meet: the ladder's groups as a preview, or the official's with a reason."""
    the_meet = meet_of(league, meet_id)
    proposal = start_proposal(the_meet)
    form = StartMeetForm(
        request.POST or None,
        initial={"date": the_meet.date},  # a dated meet's Date field shows its date
        players=[(line.player.id, line.player.name) for line in proposal.present],
        groups=proposal.group_numbers,
        count=proposal.group_count,
    )
    if request.method == "POST":
        started = run(
            form,
            services.start_meet,
            season=the_meet.season,
            number=the_meet.number,
            actor=official(request),
        )
        if started is not None:
            warned = " ".join(started.warnings)
            messages.success(request, f"Meet {the_meet.number} started. {warned}".strip())
            # On to the night's hub: the groups, their score sheets, what comes next.
            return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet_id]))
    context = {
        **night_context(league, role, the_meet, "start"),
        "preview": proposal.preview,
        "form": form,
        "early": before_start_warning(the_meet, "start"),
    }
    return page(request, "manage/start.html", context, failed=form.is_bound)
