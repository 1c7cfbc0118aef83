"""Checking API tokens: which live token a secret is, and what it may do.

Tokens are issued and revoked by `flipwell.league.services.tokens` (the words are in
`flipwell.league.models.tokens`).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from flipwell.league.models import ApiToken, League, LeagueOfficial
from flipwell.league.services.tokens import TOKEN_PREFIX, Scope, token_hash

_LO = LeagueOfficial.Role.LEAGUE_OFFICIAL
SCOPE_ROLES: dict[Scope, tuple[str, ...]] = {
    "read_private": (_LO,),
    "scores": (_LO, LeagueOfficial.Role.SCOREKEEPER),
    "manage": (_LO,),
}
"""The roles in the token's league that the issuer must hold now for the token to use a scope
(the roles the console asks for the same work)."""


def token_for_secret(secret: str) -> ApiToken | None:
    """The live (not revoked) token with this secret, or None."""
    if not secret.startswith(TOKEN_PREFIX):
        return None
    return (
        ApiToken.objects.select_related("league", "issued_by")
        .filter(token_hash=token_hash(secret), revoked_at__isnull=True)
        .order_by("pk")  # one row (a unique hash): no need for the model's ordering
        .first()
    )


def require_scope(
    token: ApiToken, *, league: League, scope: Scope, doing: str | None = None
) -> None:
    """PermissionDenied unless `token` belongs to `league` and carries `scope` (`doing`: what
    the request needs it for, named in the refusal)."""
    if token.league_id != league.pk:
        raise PermissionDenied(f"This API token belongs to another league, not {league}.")
    if not getattr(token, scope):
        needed = f" needed to {doing}" if doing else ""
        raise PermissionDenied(
            f"This API token lacks the {scope!r} scope{needed}; a league official of {league} "
            "can issue one that has it."
        )


def require_issuer_role(token: ApiToken, *, scope: Scope) -> None:
    """PermissionDenied unless the official who issued `token` still holds a role in its
    league that allows `scope` (`SCOPE_ROLES`; a superuser always does). One query."""
    issuer = token.issued_by
    if issuer.is_superuser:
        return
    role = (
        LeagueOfficial.objects.filter(user_id=issuer.pk, league_id=token.league_id)
        .values_list("role", flat=True)
        .first()
    )
    if role not in SCOPE_ROLES[scope]:
        held = "no longer holds a role" if role is None else "is no longer a league official"
        raise PermissionDenied(
            f"This API token was issued by {issuer.get_username()}, who {held} in "
            f"{token.league}: it may not use the {scope!r} scope. A league official can issue "
            "a new token."
        )
