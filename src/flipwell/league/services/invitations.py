"""Invitations to a role in a league (words: `flipwell.league.models.invitations`).

A league official invites an account by its user name or e-mail address, with a role; the
account accepts (only then does it hold the role) or declines, and an official of the league
may withdraw the invitation while it is pending. An invitation expires after
``settings.INVITATION_DAYS``. Whether the name or address found an account is never told to
the inviter: the invitation is stored, audited and answered the same either way. Every
decision is in the league's audit log: who, when.
"""

from __future__ import annotations

import datetime
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.limits import INVITEE_LENGTH
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import league_changed
from flipwell.league.services._protocol import Actor, Write, league_write, official_write
from flipwell.league.services.setup.officials import change_role, role_named

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = [
    "accept_invitation",
    "decline_invitation",
    "invite_official",
    "withdraw_invitation",
]

Decision = m.Invitation.Decision


def invite_official(*, league: m.League, who: str, role: str, actor: User) -> m.Invitation:
    """Invite the account whose user name or e-mail address (any case) is `who` to `role` in
    `league`; it holds the role once it accepts (`accept_invitation`).

    Side effects: an Invitation, expiring in ``settings.INVITATION_DAYS``, kept even when
    `who` finds no account (its account is then none: nothing the inviter sees differs); an
    audit event ``invitation.sent`` with what was typed and the role, never the account.
    Raises PermissionDenied unless `actor` is a league official of `league`; ValidationError
    (``invitee_missing``, ``invitee_too_long``, an unknown role) for the request itself.
    """
    typed = (who or "").strip()
    if not typed:
        raise Refusal(
            {"who": "Type the user name or e-mail address of the account to invite."},
            code="invitee_missing",
        )
    if len(typed) > INVITEE_LENGTH:
        raise Refusal(
            {"who": f"A user name or e-mail address has at most {INVITEE_LENGTH} characters."},
            code="invitee_too_long",
        )
    wanted = role_named(role)
    with official_write(league=league, actor=actor, action="invite officials") as write:
        now = timezone.now()
        invitation = m.Invitation.objects.create(
            league=league,
            invited_as=typed,
            user=_account(typed),
            role=wanted,
            invited_by=actor,
            created_at=now,
            expires_at=now + datetime.timedelta(days=settings.INVITATION_DAYS),
        )
        data = {"invited_as": typed, "role": wanted.value, "expires_at": _iso(invitation)}
        write.event("invitation.sent", invitation, data)
    return invitation


def _account(typed: str) -> Any:
    """The active account signing in as `typed`, else the one with that e-mail address (the
    oldest, should several share it); None for none."""
    users = get_user_model()._default_manager.filter(is_active=True)
    named = users.filter(username__iexact=typed).order_by("pk").first()
    if named is not None or "@" not in typed:
        return named
    return users.filter(email__iexact=typed).order_by("pk").first()


def _iso(invitation: m.Invitation) -> str:
    return invitation.expires_at.isoformat()


def withdraw_invitation(*, invitation: m.Invitation, actor: User) -> m.Invitation:
    """An official of the invitation's league withdraws it while it is pending.

    Side effects: the invitation decided ``withdrawn`` by `actor`, now; an audit event
    ``invitation.withdrawn``. Raises PermissionDenied unless `actor` is a league official of
    its league; ConflictError (``invitation_decided``, ``invitation_expired``) once it is no
    longer pending.
    """
    league = invitation.league
    with official_write(league=league, actor=actor, action="withdraw invitations") as write:
        locked = _pending(invitation)
        _decide(locked, Decision.WITHDRAWN, by=actor)
        write.event("invitation.withdrawn", locked, {"invited_as": locked.invited_as})
    return locked


def accept_invitation(*, invitation: m.Invitation, user: User) -> m.LeagueOfficial:
    """The invited account accepts: it holds the invitation's role in its league from now on
    (an official of the league already gets the new role).

    Side effects: the invitation decided ``accepted`` by `user`; a LeagueOfficial (or his
    role changed); audit events ``invitation.accepted`` and ``official.added`` (or
    ``official.role_changed``); a new league revision. Raises PermissionDenied when the
    invitation is not `user`'s; ConflictError (``invitation_decided``,
    ``invitation_expired``) once it is no longer pending; ValidationError when the role
    change would leave the league without a league official.
    """
    with _account_write(invitation, user, action="accept an invitation") as write:
        locked = _pending(invitation, user=user)
        league_changed(locked.league)
        official = _give_role(write, locked, user)
        _decide(locked, Decision.ACCEPTED, by=user)
        _record(write, locked, "invitation.accepted")
    return official


def _account_write(
    invitation: m.Invitation, user: User, *, action: str
) -> AbstractContextManager[Write]:
    """The invited account's write (`Actor.account`): `_pending` checks the invitation is
    his, after its lock. A role changes no number: nothing is refolded."""
    league = m.League.objects.get(invitations=invitation.pk)
    return league_write(league=league, actor=Actor.account(user), action=action)


def _give_role(write: Write, invitation: m.Invitation, user: User) -> m.LeagueOfficial:
    """`user` holds the invitation's role in its league: a new official, or a new role."""
    league = invitation.league
    wanted = role_named(invitation.role)
    official = (
        m.LeagueOfficial.objects.select_for_update()
        .select_related("user", "league")
        .filter(league=league, user=user)
        .first()
    )
    if official is None:
        official = m.LeagueOfficial.objects.create(user=user, league=league, role=wanted)
        data = {"username": user.get_username(), "role": wanted.value, "invitation": invitation.pk}
        write.event("official.added", official, data)
    elif official.role != wanted:
        write.event("official.role_changed", official, change_role(official, wanted))
    return official


def decline_invitation(*, invitation: m.Invitation, user: User) -> m.Invitation:
    """The invited account declines: it gets no role.

    Side effects: the invitation decided ``declined`` by `user`; an audit event
    ``invitation.declined``. Raises PermissionDenied when the invitation is not `user`'s;
    ConflictError (``invitation_decided``, ``invitation_expired``) once it is no longer
    pending.
    """
    with _account_write(invitation, user, action="decline an invitation") as write:
        locked = _pending(invitation, user=user)
        _decide(locked, Decision.DECLINED, by=user)
        _record(write, locked, "invitation.declined")
    return locked


def _pending(invitation: m.Invitation, *, user: User | None = None) -> m.Invitation:
    """`invitation` locked, refused unless it is pending (and, given `user`, is his)."""
    locked = (
        m.Invitation.objects.select_for_update()
        .select_related("league", "invited_by")
        .get(pk=invitation.pk)
    )
    if user is not None and (not user.is_authenticated or locked.user_id != user.pk):
        raise PermissionDenied("This invitation is not yours.")
    if locked.decision:
        raise ConflictError(
            f"This invitation was {locked.get_decision_display().lower()} already.",
            code="invitation_decided",
        )
    if locked.expires_at <= timezone.now():
        raise ConflictError(
            f"This invitation has expired: ask a league official of {locked.league} for a new one.",
            code="invitation_expired",
        )
    return locked


def _decide(invitation: m.Invitation, decision: str, *, by: User) -> None:
    invitation.decision = decision
    invitation.decided_at = timezone.now()
    invitation.decided_by = by
    invitation.save(update_fields=["decision", "decided_at", "decided_by"])


def _record(write: Write, invitation: m.Invitation, action: str) -> None:
    """The invited account's decision, in its league's audit log."""
    data = {"role": invitation.role, "invited_by": invitation.invited_by.get_username()}
    write.event(action, invitation, data)
