"""Read-only views of invitations to a role in a league (words:
`flipwell.league.models.invitations`): a league's pending ones, as its officials see them
(what was typed, never the account it found), and an account's own.
Each function runs one query.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils import timezone

from flipwell.league import models as m

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


def _pending() -> Q:
    return Q(decision="", expires_at__gt=timezone.now())


def league_invitations(league: m.League) -> QuerySet[m.Invitation]:
    """The league's pending invitations, newest first."""
    return (
        m.Invitation.objects.filter(_pending(), league=league)
        .select_related("league", "invited_by")
        .order_by("-created_at", "-pk")
    )


def league_invitation(league: m.League, invitation_id: int) -> m.Invitation | None:
    """One invitation of the league, pending or decided, or None."""
    return (
        m.Invitation.objects.filter(league=league, pk=invitation_id)
        .select_related("league", "invited_by", "decided_by")
        .first()
    )


def account_invitations(user: AbstractBaseUser | AnonymousUser) -> QuerySet[m.Invitation]:
    """The pending invitations of the signed-in account `user`, newest first."""
    if not user.is_authenticated:
        return m.Invitation.objects.none()
    return (
        m.Invitation.objects.filter(_pending(), user_id=user.pk)
        .select_related("league", "invited_by")
        .order_by("-created_at", "-pk")
    )


def account_invitation(
    user: AbstractBaseUser | AnonymousUser, invitation_id: int
) -> m.Invitation | None:
    """One invitation of `user`'s, pending or decided, or None (another's is None too)."""
    if not user.is_authenticated:
        return None
    return (
        m.Invitation.objects.filter(user_id=user.pk, pk=invitation_id)
        .select_related("league", "invited_by", "decided_by")
        .first()
    )
