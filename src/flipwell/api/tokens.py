"""Checking API tokens: which live token a secret is, and what it may do.

Tokens are issued and revoked by `flipwell.league.services.tokens` (the words are in
`flipwell.league.models.tokens`). A league token acts in its league only; an installation
token (no league) in any league where its issuer holds, at the time, the role a scope needs.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from flipwell.league.models import ApiToken, League, LeagueOfficial
from flipwell.league.selectors import access
from flipwell.league.selectors.setup import token_hash
from flipwell.league.services.tokens import OPEN_LEAGUES, TOKEN_PREFIX, Scope

_LO = LeagueOfficial.Role.LEAGUE_OFFICIAL
SCOPE_ROLES: dict[Scope, tuple[str, ...]] = {
    "read_private": (_LO,),
    "scores": (_LO, LeagueOfficial.Role.SCOREKEEPER),
    "manage": (_LO,),
}
"""The roles in the league acted on that the issuer must hold now for the token to use a scope
(the roles the console asks for the same work)."""


def token_for_secret(secret: str) -> ApiToken | None:
    """The live (not revoked) token with this secret, or None."""
    if not secret.startswith(TOKEN_PREFIX):
        return None
    return access.live_api_token(token_hash(secret))


def request_token(request: HttpRequest, secret: str) -> ApiToken | None:
    """`token_for_secret` read once per request: a write's idempotency key, the contract's
    check of a public endpoint and the authentication all ask for the request's token."""
    known = getattr(request, _REQUEST_TOKEN_ATTRIBUTE, None)
    if known is not None and known[0] == secret:
        return known[1]  # type: ignore[no-any-return]
    token = token_for_secret(secret)
    setattr(request, _REQUEST_TOKEN_ATTRIBUTE, (secret, token))
    return token


_REQUEST_TOKEN_ATTRIBUTE = "_flipwell_api_token"
"""The request's (secret, token or None), as `request_token` read it."""


def require_scope(
    token: ApiToken, *, league: League, scope: Scope, doing: str | None = None
) -> None:
    """PermissionDenied unless `token` belongs to `league` (or is an installation token) and
    carries `scope` (`doing`: what the request needs it for, named in the refusal)."""
    if token.league_id is not None and token.league_id != league.pk:
        raise PermissionDenied(f"This API token belongs to another league, not {league}.")
    if not getattr(token, scope):
        needed = f" needed to {doing}" if doing else ""
        issuer = f"a league official of {league}" if token.league_id else "its issuer"
        raise PermissionDenied(
            f"This API token lacks the {scope!r} scope{needed}; {issuer} can issue one that has it."
        )


def require_issuer_role(token: ApiToken, *, league: League, scope: Scope) -> None:
    """PermissionDenied unless the official who issued `token` holds, now, a role in `league`
    that allows `scope` (`SCOPE_ROLES`; a superuser always does). One query."""
    issuer = token.issued_by
    if issuer.is_superuser:
        return
    role = access.role_of(issuer.pk, league.pk)
    if role not in SCOPE_ROLES[scope]:
        if token.league_id is None:
            held = "holds no role" if role is None else "is not a league official"
        else:
            held = "no longer holds a role" if role is None else "is no longer a league official"
        raise PermissionDenied(
            f"This API token was issued by {issuer.get_username()}, who {held} in "
            f"{league}: it may not use the {scope!r} scope there. A league official can issue "
            "a new token."
        )


def require_opener(token: ApiToken) -> None:
    """PermissionDenied unless `token` is an installation token with the ``leagues`` scope
    (the service then checks that its issuer may still open leagues)."""
    if token.league_id is not None or not token.leagues:
        raise PermissionDenied(
            f"Opening a league needs an installation token with the {OPEN_LEAGUES!r} scope "
            "(issued on the command line: flipwell issue_api_token --as USER --scope "
            f"{OPEN_LEAGUES} NAME), not a league's token."
        )
