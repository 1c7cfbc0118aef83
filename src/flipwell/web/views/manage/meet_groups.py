"""One group's actions at a league night, posted from the meet's hub: choose or draw the next
machine, and record or withdraw an absence for the rest of the match (§5, R2.4-a). A refused
post shows the hub again (`meets.meet_context`) with the error.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import (
    meet_players,
)
from flipwell.league.selectors.lookups import meet_group
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import (
    MatchAbsenceForm,
    OfficialMachineForm,
    WithdrawMatchAbsenceForm,
)
from flipwell.web.views.manage._common import (
    action,
    found,
    meet_of,
    official,
    run,
)
from flipwell.web.views.manage.meets import meet_context


@require_POST
@console_page(LO_ONLY)
def group(
    request: HttpRequest, league: m.League, role: str, meet_id: int, number: int
) -> HttpResponse:
    """The official's actions for one group, posted from the meet's hub: choose or draw the
    machine of its next game when nobody may pick (official_chooses_next_machine, A66), or
    record players absent for the rest of the match (record_match_absence, R2.4-a) or withdraw
    one recorded by mistake (withdraw_match_absence)."""
    the_meet = meet_of(league, meet_id)
    the_group = found(meet_group(the_meet, number), "group")
    which = action(request)
    if which in ("choose", "draw"):
        form, message = _next_machine(request, league, the_group, which)
    elif which == "absence":
        form, message = _match_absence(request, the_group)
    elif which == "withdraw_absence":
        form, message = _withdraw_match_absence(request, the_group)
    else:
        return HttpResponseBadRequest(
            "Choose an action: choose, draw, absence or withdraw_absence."
        )
    if message:
        messages.success(request, message)
        return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet_id]))
    refused = {number: [str(e) for errors in form.errors.values() for e in errors]}
    return render(
        request, "manage/meet.html", meet_context(league, role, the_meet, refused), status=400
    )


def _next_machine(
    request: HttpRequest, league: m.League, group: m.Group, which: str
) -> tuple[forms.Form, str]:
    """The official chooses (or draws) the group's next machine; the message once done."""
    # Drawing ignores a machine left chosen in the select.
    form = OfficialMachineForm(request.POST if which == "choose" else {}, league=league)
    chosen = run(form, services.official_chooses_next_machine, group=group, actor=official(request))
    if chosen is None:
        return form, ""
    how = "drawn" if which == "draw" else "chosen"
    return form, (
        f"Group {group.number}'s game {chosen.game.number} is on {chosen.game.machine.title} "
        f"({how} by the official)."
    )


def _match_absence(request: HttpRequest, group: m.Group) -> tuple[forms.Form, str]:
    """Players absent for the rest of the group's match; the message once recorded."""
    form = MatchAbsenceForm(request.POST, players=meet_players(group.meet, group=group.number))
    recorded = run(form, services.record_match_absence, group=group, actor=official(request))
    if recorded is None:
        return form, ""
    names = ", ".join(str(a.player) for a in recorded.absences)
    first = recorded.from_game
    last = first + recorded.forfeits // len(recorded.absences) - 1  # game 4
    games = f"game {last} is" if first == last else f"games {first} to {last} are"
    return form, (
        f"Group {group.number}: {names} absent for the rest of the match; {games} "
        f"{'their forfeit' if first == last else 'their forfeits'}."
    )


def _withdraw_match_absence(request: HttpRequest, group: m.Group) -> tuple[forms.Form, str]:
    """A player's absence for the rest of the match withdrawn; the message once done."""
    form = WithdrawMatchAbsenceForm(
        request.POST, players=meet_players(group.meet, group=group.number)
    )
    withdrawn = run(form, services.withdraw_match_absence, group=group, actor=official(request))
    if withdrawn is None:
        return form, ""
    return form, (
        f"Group {group.number}: {withdrawn.player}'s absence is withdrawn; their score is "
        "entered again from the game in play on."
    )
