"""A league's officials and scorekeepers through the API, and invitations to a role: the same
services as the console's Officials page and console home
(`flipwell.league.services.invitations`, `remove_official`).

A league official's token (scope ``manage``) lists the league's officials and pending
invitations, invites an account by its user name or e-mail address (the answer is the same
whether or not an account has it), withdraws an invitation and removes a role. The invited
account, with a token of its own (an installation token, or a league's token with the scope
``manage``), lists its pending invitations under ``/me/invitations`` and accepts or declines
one; only an accepted invitation gives the role. Another account's invitation is a 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from django.http import Http404, HttpRequest
from ninja import Path

from flipwell.api import queries
from flipwell.api.arguments import PLAYER
from flipwell.api.auth import acting_account, acting_official
from flipwell.api.contract import created
from flipwell.api.endpoints.params import Cursor, Limit, Slug
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.paging import page_of_sequence
from flipwell.api.schemas.common import MAX_ID
from flipwell.api.schemas.officials import (
    AcceptedOut,
    InvitationIn,
    InvitationOut,
    InvitationPage,
    MyInvitationOut,
    MyInvitationPage,
    OfficialOut,
    OfficialPage,
    OfficialPlayerIn,
    RoleIn,
)
from flipwell.api.writing import after_check, official, write
from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.invitations import (
    account_invitation,
    account_invitations,
    league_invitation,
    league_invitations,
)
from flipwell.league.selectors.setup import league_official, league_officials

if TYPE_CHECKING:
    from django.contrib.auth.models import User

InvitationId = Annotated[int, Path(ge=1, le=MAX_ID, description="The invitation's id.")]
OfficialId = Annotated[int, Path(ge=1, le=MAX_ID, description="The official's id.")]
MINE = "/me/invitations"


def _official(league: m.League, official_id: int) -> m.LeagueOfficial:
    found = league_official(league, official_id)
    if found is None:
        raise Http404(f"No official {official_id} in {league}.")
    return found


def _invitation(league: m.League, invitation_id: int) -> m.Invitation:
    found = league_invitation(league, invitation_id)
    if found is None:
        raise Http404(f"No invitation {invitation_id} in {league}.")
    return found


def _mine(request: HttpRequest, invitation_id: int) -> tuple[m.Invitation, Any]:
    account = acting_account(request)
    found = account_invitation(account, invitation_id)
    if found is None:
        raise Http404(f"No invitation {invitation_id} for this token's account.")
    return found, account


@router.get("/leagues/{slug}/officials", response={200: OfficialPage, **ERROR_RESPONSES}, **WRITE)
def list_officials(
    request: HttpRequest, slug: Slug, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The league's officials and scorekeepers, league officials first (scope: manage)."""
    league = queries.league(slug)
    acting_official(request, league=league, scope="manage")
    rows = [row.official for row in league_officials(league)]
    items, next_url = page_of_sequence(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.delete(
    "/leagues/{slug}/officials/{official_id}",
    response={200: OfficialOut, **ERROR_RESPONSES},
    **WRITE,
)
def remove_official(request: HttpRequest, slug: Slug, official_id: OfficialId) -> Any:
    """Take away an official's role in the league (scope: manage); his account and rulings
    stay, the API tokens he issued for the league are revoked. Answers the role removed;
    409 when he is the league's last league official."""
    league = queries.league(slug)
    return write(
        request,
        _removed,
        by=official(league, "manage"),
        official=after_check(_official, league, official_id),
    )


def _removed(*, official: m.LeagueOfficial, actor: User) -> m.LeagueOfficial:
    """`services.remove_official`, answered with the role removed."""
    services.remove_official(official=official, actor=actor)
    return official


@router.put(
    "/leagues/{slug}/officials/{official_id}",
    response={200: OfficialOut, **ERROR_RESPONSES},
    **WRITE,
)
def change_official_role(
    request: HttpRequest, slug: Slug, official_id: OfficialId, payload: RoleIn
) -> Any:
    """Give an official of the league another role (scope: manage): he holds one there
    already, so he is asked nothing (a new official is invited). 409 for the role he has
    already, or for demoting the league's last league official."""
    league = queries.league(slug)
    return write(
        request,
        services.change_official_role,
        payload,
        by=official(league, "manage"),
        official=after_check(_official, league, official_id),
    )


@router.put(
    "/leagues/{slug}/officials/{official_id}/player",
    response={200: OfficialOut, **ERROR_RESPONSES},
    **WRITE,
)
def link_official_player(
    request: HttpRequest, slug: Slug, official_id: OfficialId, payload: OfficialPlayerIn
) -> Any:
    """Link an official to his own player record, or unlink it with null (scope: manage), so
    that his rulings on a group he plays in are flagged as an involved official's (R1.1-a).
    422 on ``player_id`` for a player with no season in the league or linked to another."""
    league = queries.league(slug)
    return write(
        request,
        services.link_official_player,
        payload,
        by=official(league, "manage"),
        lookups={"player": PLAYER},
        official=after_check(_official, league, official_id),
    )


@router.get(
    "/leagues/{slug}/invitations", response={200: InvitationPage, **ERROR_RESPONSES}, **WRITE
)
def list_invitations(
    request: HttpRequest, slug: Slug, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The league's pending invitations, newest first (scope: manage): what was typed, never
    whether it found an account."""
    league = queries.league(slug)
    acting_official(request, league=league, scope="manage")
    rows = list(league_invitations(league))
    items, next_url = page_of_sequence(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.post(
    "/leagues/{slug}/invitations", response={201: InvitationOut, **ERROR_RESPONSES}, **WRITE
)
@key_required  # sent again without one, a second invitation would be sent
def invite_official(request: HttpRequest, slug: Slug, payload: InvitationIn) -> Any:
    """Invite the account with this user name or e-mail address to a role in the league
    (scope: manage). The same 201 whether or not an account has it; the account holds the
    role once it accepts, before the invitation expires."""
    league = queries.league(slug)
    return write(
        request,
        services.invite_official,
        payload,
        by=official(league, "manage"),
        location=lambda invitation: f"/api/v1/leagues/{slug}/invitations/{invitation.pk}",
        league=league,
    )


@router.get(
    "/leagues/{slug}/invitations/{invitation_id}",
    response={200: InvitationOut, **ERROR_RESPONSES},
    **WRITE,
)
def get_invitation(request: HttpRequest, slug: Slug, invitation_id: InvitationId) -> Any:
    """One invitation of the league, pending or decided (scope: manage)."""
    league = queries.league(slug)
    acting_official(request, league=league, scope="manage")
    return _invitation(league, invitation_id)


@router.post(
    "/leagues/{slug}/invitations/{invitation_id}/withdrawal",
    response={200: InvitationOut, **ERROR_RESPONSES},
    **WRITE,
)
def withdraw_invitation(request: HttpRequest, slug: Slug, invitation_id: InvitationId) -> Any:
    """Withdraw a pending invitation (scope: manage). 409 ``invitation_decided`` once it was
    accepted, declined or withdrawn, ``invitation_expired`` once expired."""
    league = queries.league(slug)
    return write(
        request,
        services.withdraw_invitation,
        by=official(league, "manage"),
        invitation=after_check(_invitation, league, invitation_id),
    )


@router.get(MINE, response={200: MyInvitationPage, **ERROR_RESPONSES}, **WRITE)
def list_my_invitations(request: HttpRequest, cursor: Cursor = None, limit: Limit = 50) -> Any:
    """The pending invitations of the token's account, newest first (an installation token,
    or a league's token with scope manage)."""
    rows = list(account_invitations(acting_account(request)))
    items, next_url = page_of_sequence(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.post(
    f"{MINE}/{{invitation_id}}/acceptance",
    response={201: AcceptedOut, **ERROR_RESPONSES},
    **WRITE,
)
def accept_my_invitation(request: HttpRequest, invitation_id: InvitationId) -> Any:
    """Accept one of the account's invitations: it holds the role from now on (201).
    409 ``invitation_decided`` or ``invitation_expired`` once it is no longer pending."""
    invitation, account = _mine(request, invitation_id)
    official = services.accept_invitation(invitation=invitation, user=account)
    invitation.refresh_from_db()
    body = {"invitation": invitation, "official": official}
    return created(request, body, f"/api/v1/leagues/{invitation.league.slug}/officials")


@router.post(
    f"{MINE}/{{invitation_id}}/decline",
    response={200: MyInvitationOut, **ERROR_RESPONSES},
    **WRITE,
)
def decline_my_invitation(request: HttpRequest, invitation_id: InvitationId) -> Any:
    """Decline one of the account's invitations: it gets no role. 409 once it is no longer
    pending."""
    invitation, account = _mine(request, invitation_id)
    return services.decline_invitation(invitation=invitation, user=account)
