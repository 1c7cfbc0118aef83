"""Who may call a service for a league: its officials, by role (superusers may do anything)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied

from flipwell.league.models import League, LeagueOfficial

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def require_role(*, actor: User, league: League, roles: tuple[str, ...], action: str) -> None:
    """Raise `PermissionDenied` unless `actor` holds one of `roles` in `league`."""
    if actor.is_superuser:
        return
    if not LeagueOfficial.objects.filter(user=actor, league=league, role__in=roles).exists():
        wanted = " or ".join(LeagueOfficial.Role(role).label.lower() for role in roles)
        raise PermissionDenied(f"Only a {wanted} of {league} may {action}.")
