"""The signed-in account's console home: its leagues, and the invitations to a role that wait
for its answer (words: `flipwell.league.models.invitations`). Accepting one gives the role
(accept_invitation); declining gives none (decline_invitation). Another account's invitation
is a 404, as one that does not exist.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from flipwell.league import services
from flipwell.league.selectors.console import official_leagues
from flipwell.league.selectors.invitations import account_invitation, account_invitations
from flipwell.league.selectors.setup import may_create_league
from flipwell.league.services import ConflictError
from flipwell.web.auth import signed_in
from flipwell.web.views.manage._common import official


def home_page(
    request: HttpRequest, *, errors: Sequence[str] = (), status: int = 200
) -> HttpResponse:
    """The leagues the signed-in account has a role in, and its pending invitations."""
    context = {
        "leagues": official_leagues(request.user),
        "invitations": account_invitations(request.user),
        "invitation_errors": list(errors),
        "may_create_league": may_create_league(request.user),
    }
    return render(request, "manage/home.html", context, status=status)


@signed_in
@require_POST
def answer(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Accept (``action=accept``) or decline (``action=decline``) one of the account's
    invitations. Accepted: on to the league's console; declined: back home. 409 once it was
    decided or expired."""
    invitation = account_invitation(request.user, invitation_id)
    if invitation is None:
        raise Http404("No such invitation for your account.")
    which = request.POST.get("action", "")
    if which not in ("accept", "decline"):
        return home_page(request, errors=["Choose to accept or decline it."], status=400)
    user = official(request)
    try:
        if which == "accept":
            held = services.accept_invitation(invitation=invitation, user=user)
        else:
            services.decline_invitation(invitation=invitation, user=user)
    except ValidationError as error:
        status = 409 if isinstance(error, ConflictError) else 400
        return home_page(request, errors=error.messages, status=status)
    league = invitation.league
    if which == "decline":
        messages.success(request, f"You declined the invitation to {league}.")
        return HttpResponseRedirect(reverse("web:manage_home"))
    messages.success(request, f"You are now {held.get_role_display().lower()} of {league}.")
    return HttpResponseRedirect(reverse("web:manage_league", args=[league.slug]))
