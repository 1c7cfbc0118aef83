"""Who may call a service for a league: its officials, by role (superusers may do anything)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied

from flipwell.league.models import League, LeagueOfficial

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def require_role(*, actor: User, league: League, roles: tuple[str, ...], action: str) -> None:
    """Raise `PermissionDenied` unless `actor` holds one of `roles` in `league`.

    Nobody signed in (an anonymous user) holds no role: refused like anybody else.
    """
    if actor.is_superuser:
        return
    wanted = " or ".join(LeagueOfficial.Role(role).label.lower() for role in roles)
    if not actor.is_authenticated:
        raise PermissionDenied(f"Sign in: only a {wanted} of {league} may {action}.")
    if not LeagueOfficial.objects.filter(user=actor, league=league, role__in=roles).exists():
        raise PermissionDenied(f"Only a {wanted} of {league} may {action}.")
