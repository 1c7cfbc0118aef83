"""Setting a league up in the console: a new league, the machine pool (add, edit, in or out
of the pool), the league's officials (invite, withdraw an invitation, change role, link to a
player, remove) and its API tokens (issue, revoke).

A secret (a new API token) is rendered once in the answer
to the POST that made it: it is never stored in a message, a cookie or the session, and the
console's pages are never cached (`console_page`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import league_players
from flipwell.league.selectors.invitations import league_invitation, league_invitations
from flipwell.league.selectors.lookups import league_api_token
from flipwell.league.selectors.setup import (
    league_api_tokens,
    league_machine,
    league_official,
    league_officials,
    machine_pool,
    may_create_league,
)
from flipwell.league.services.tokens import issue_api_token, revoke_api_token
from flipwell.web.auth import LO_ONLY, console_page, signed_in
from flipwell.web.forms import (
    EditMachineForm,
    InviteOfficialForm,
    IssueTokenForm,
    LinkPlayerForm,
    MachineForm,
    MachinesForm,
    MachineStatusForm,
    NewLeagueForm,
    RevokeTokenForm,
    RoleForm,
    WithdrawInvitationForm,
)
from flipwell.web.views.manage._common import action, attempt, done, official, page, run

# --- a new league ----------------------------------------------------------------------------


@signed_in
def new_league(request: HttpRequest) -> HttpResponse:
    """Open a league (staff, or anybody signed in while no league exists); its creator becomes
    its league official and lands on its console page."""
    if not may_create_league(request.user):
        # A page that says what to do, not Django's bare 403.
        return render(request, "manage/new_league.html", {"refused": True}, status=403)
    form = NewLeagueForm(request.POST or None)
    if request.method == "POST":
        league = run(form, services.open_league, actor=official(request))
        if league is not None:
            messages.success(request, f"{league.name} is open: you are its league official.")
            return HttpResponseRedirect(reverse("web:manage_league", args=[league.slug]))
    return page(request, "manage/new_league.html", {"form": form}, failed=form.is_bound)


# --- the machine pool ------------------------------------------------------------------------


@console_page(LO_ONLY)
def machines(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """The league's machines, in the pool and out, and the forms that add one (create_machine)
    or several at once, a title a line (create_machines)."""
    which = action(request)
    form = MachineForm((request.POST or None) if which != "add_many" else None)
    several = MachinesForm(request.POST if which == "add_many" else None, prefix="many")
    if which == "add_many":
        added = run(several, services.create_machines, league=league, actor=official(request))
        if added is not None:
            titles = ", ".join(machine.title for machine in added)
            return done(
                request,
                f"{len(added)} machine{'' if len(added) == 1 else 's'} added to the pool: "
                f"{titles}.",
            )
    elif request.method == "POST":
        machine = run(form, services.create_machine, league=league, actor=official(request))
        if machine is not None:
            return done(request, f"{machine} added to the pool.")
    context = {
        "league": league,
        "role": role,
        "rows": machine_pool(league),
        "form": form,
        "several": several,
    }
    return page(
        request, "manage/machine_pool.html", context, failed=form.is_bound or several.is_bound
    )


@console_page(LO_ONLY)
def machine(request: HttpRequest, league: m.League, role: str, machine_id: int) -> HttpResponse:
    """One machine: change its location or balls per game; take it out of the pool or put it
    back, saying why."""
    row = league_machine(league, machine_id)
    if row is None:
        raise Http404("No such machine in this league.")
    the_machine = row.machine
    which = action(request)
    edit = EditMachineForm(
        request.POST if which == "edit" else None,
        initial={"location": the_machine.location, "balls_per_game": the_machine.balls_per_game},
    )
    other = (m.Machine.Status.UNPLAYABLE if row.in_pool else m.Machine.Status.PLAYABLE).value
    status = MachineStatusForm(
        request.POST if which == "status" else None, initial={"status": other}
    )
    if which == "edit":
        changed = run(edit, services.update_machine, machine=the_machine, actor=official(request))
        if changed is not None:
            return done(request, f"{changed.title} saved.")
    elif which == "status":
        ruling = run(
            status, services.set_machine_status, machine=the_machine, actor=official(request)
        )
        if ruling is not None:
            return done(request, f"{ruling.subject}.")
    context = {"league": league, "role": role, "row": row, "edit": edit, "status": status}
    return page(request, "manage/machine.html", context, failed=bool(which))


# --- officials -------------------------------------------------------------------------------


@console_page(LO_ONLY)
def officials(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """The league's officials, its pending invitations (withdraw one) and the form that
    invites an account (invite_official). The answer to an invitation is the same whether or
    not the name or address found an account."""
    posted = request.POST if request.method == "POST" else None
    which = action(request)
    invite = InviteOfficialForm(posted if which != "withdraw" else None)
    withdraw = WithdrawInvitationForm(posted if which == "withdraw" else None)
    if which == "withdraw":
        withdrawn = attempt(
            withdraw,
            lambda: services.withdraw_invitation(
                invitation=_invitation(league, withdraw.cleaned_data["invitation"]),
                actor=official(request),
            ),
        )
        if withdrawn is not None:
            return done(request, f"The invitation of {withdrawn.invited_as} is withdrawn.")
    elif posted is not None:
        sent = run(invite, services.invite_official, league=league, actor=official(request))
        if sent is not None:
            return done(request, _invited(sent))
    context: dict[str, Any] = {
        "league": league,
        "role": role,
        "rows": league_officials(league),
        "invitations": league_invitations(league),
        "form": invite,
        "withdraw": withdraw,
        "invitation_days": settings.INVITATION_DAYS,
    }
    return page(request, "manage/officials.html", context, failed=posted is not None)


def _invited(sent: m.Invitation) -> str:
    """The answer to an invitation, the same whether or not it found an account."""
    expires = timezone.localtime(sent.expires_at).strftime("%-d %B %Y")
    return (
        f"If an account has the user name or e-mail address {sent.invited_as}, it is invited "
        f"to be {sent.get_role_display().lower()} of {sent.league}; it holds the role once "
        f"it accepts. The invitation expires on {expires}."
    )


def _invitation(league: m.League, invitation_id: int) -> m.Invitation:
    found = league_invitation(league, invitation_id)
    if found is None:
        raise Http404("No such invitation in this league.")
    return found


@console_page(LO_ONLY)
def official_page(
    request: HttpRequest, league: m.League, role: str, official_id: int
) -> HttpResponse:
    """One official: change their role, link them to their own player record, or remove
    them."""
    row = league_official(league, official_id)
    if row is None:
        raise Http404("No such official in this league.")
    which = action(request)
    players = league_players(league)
    role_form = RoleForm(request.POST if which == "role" else None, initial={"role": row.role})
    link_form = LinkPlayerForm(
        request.POST if which == "link" else None,
        players=players,
        initial={"player": row.player_id},
    )
    remove_errors: list[str] = []
    name = row.user.get_username()
    if which == "role":
        changed = run(
            role_form, services.change_official_role, official=row, actor=official(request)
        )
        if changed is not None:
            return done(request, f"{name} is now {changed.get_role_display().lower()}.")
    elif which == "link":
        linked = run(
            link_form, services.link_official_player, official=row, actor=official(request)
        )
        if linked is not None:
            said = f"linked to {linked.player}" if linked.player else "not linked to a player"
            return done(request, f"{name} is {said}.")
    elif which == "remove":
        try:
            services.remove_official(official=row, actor=official(request))
        except ValidationError as error:
            remove_errors = list(error.messages)
        else:
            messages.success(request, f"{name} is no longer an official of {league}.")
            if row.user_id == request.user.pk:
                return HttpResponseRedirect(reverse("web:manage_home"))
            return HttpResponseRedirect(reverse("web:manage_officials", args=[league.slug]))
    context = {
        "league": league,
        "role": role,
        "row": row,
        "name": name,
        "role_form": role_form,
        "link_form": link_form,
        "remove_errors": remove_errors,
    }
    return page(request, "manage/official.html", context, failed=bool(which))


# --- API tokens ------------------------------------------------------------------------------


@console_page(LO_ONLY)
def api_tokens(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """The league's API tokens: issue one (its secret shown here once) or revoke one."""
    which = action(request)
    issue = IssueTokenForm(request.POST if which == "issue" else None)
    revoke = RevokeTokenForm(request.POST if which == "revoke" else None)
    issued = None
    if which == "issue":
        issued = run(issue, issue_api_token, league=league, actor=official(request))
        if issued is not None:
            issue = IssueTokenForm()
    elif which == "revoke" and revoke.is_valid():
        token = league_api_token(league, revoke.cleaned_data["token"])
        if token is None:
            raise Http404("No such API token in this league.")
        # Another league's token is a 404, as its page would be: looked up here, not on the form.
        revoked = attempt(revoke, lambda: revoke_api_token(token=token, actor=official(request)))
        if revoked is not None:
            return done(request, f"Token {revoked.name} ({revoked.prefix}…) revoked.")
    context = {
        "league": league,
        "role": role,
        "tokens": league_api_tokens(league),
        "issue": issue,
        "revoke": revoke,
        "issued": issued,
    }
    return page(request, "manage/api_tokens.html", context, failed=bool(which) and issued is None)
