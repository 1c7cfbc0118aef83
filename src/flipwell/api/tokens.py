"""Issuing, revoking and checking API tokens (see `flipwell.api.models` for the words).

A token is ``fw_`` followed by 43 random URL-safe characters (256 bits): only its SHA-256 is
stored, which is enough for a secret that random (no slow hash is needed against guessing).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from flipwell.api.models import ApiToken
from flipwell.league.audit import record_event
from flipwell.league.models import League, LeagueOfficial
from flipwell.league.services.permissions import require_role

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Scope = Literal["read_private", "scores", "manage"]
SCOPES: tuple[Scope, ...] = ("read_private", "scores", "manage")
_LO = LeagueOfficial.Role.LEAGUE_OFFICIAL
SCOPE_ROLES: dict[Scope, tuple[str, ...]] = {
    "read_private": (_LO,),
    "scores": (_LO, LeagueOfficial.Role.SCOREKEEPER),
    "manage": (_LO,),
}
"""The roles in the token's league that the issuer must hold now for the token to use a scope
(the roles the console asks for the same work)."""
TOKEN_PREFIX = "fw_"
SHOWN_PREFIX_LENGTH = 10


@dataclass(frozen=True)
class IssuedToken:
    """A new token: the stored row and the secret, which is shown once and never again."""

    token: ApiToken
    secret: str


def token_hash(secret: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def issue_api_token(
    *, league: League, name: str, scopes: Collection[str], actor: User
) -> IssuedToken:
    """Issue a token for `league` with `scopes` (a non-empty subset of `SCOPES`).

    Side effects: inserts the ApiToken (hash only) and an audit event ``api_token.issued``.
    Raises PermissionDenied unless `actor` is a league official of `league`; ValidationError
    (nothing written) for an empty name or an unknown or missing scope.
    """
    wanted = set(scopes)
    unknown = sorted(wanted - set(SCOPES))
    if unknown:
        raise ValidationError(
            {"scopes": f"Unknown scope {', '.join(unknown)}; allowed: {', '.join(SCOPES)}."}
        )
    if not wanted:
        raise ValidationError({"scopes": f"Give at least one scope: {', '.join(SCOPES)}."})
    label = name.strip()
    if not label:
        raise ValidationError({"name": "Name the token (who or what will use it)."})
    with transaction.atomic():
        require_role(
            actor=actor,
            league=league,
            roles=(LeagueOfficial.Role.LEAGUE_OFFICIAL,),
            action="issue API tokens",
        )
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = ApiToken(
            league=league,
            name=label,
            prefix=secret[:SHOWN_PREFIX_LENGTH],
            token_hash=token_hash(secret),
            read_private="read_private" in wanted,
            scores="scores" in wanted,
            manage="manage" in wanted,
            issued_by=actor,
        )
        token.full_clean()
        token.save()
        record_event(
            action="api_token.issued",
            obj=token,
            league=league,
            actor=actor,
            data={"name": label, "prefix": token.prefix, "scopes": sorted(wanted)},
        )
    return IssuedToken(token=token, secret=secret)


def revoke_api_token(*, token: ApiToken, actor: User) -> ApiToken:
    """Revoke a token: it is refused from now on (the row stays, for the record).

    Side effects: sets revoked_at and revoked_by, an audit event ``api_token.revoked``.
    Raises PermissionDenied unless `actor` is a league official of the token's league;
    ValidationError when it is already revoked.
    """
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().select_related("league").get(pk=token.pk)
        require_role(
            actor=actor,
            league=token.league,
            roles=(LeagueOfficial.Role.LEAGUE_OFFICIAL,),
            action="revoke API tokens",
        )
        if token.revoked_at is not None:
            raise ValidationError(f"Token {token.prefix}… was already revoked.")
        token.revoked_at = timezone.now()
        token.revoked_by = actor
        token.save(update_fields=["revoked_at", "revoked_by"])
        record_event(
            action="api_token.revoked",
            obj=token,
            league=token.league,
            actor=actor,
            data={"prefix": token.prefix},
        )
    return token


def token_for_secret(secret: str) -> ApiToken | None:
    """The live (not revoked) token with this secret, or None."""
    if not secret.startswith(TOKEN_PREFIX):
        return None
    return (
        ApiToken.objects.select_related("league", "issued_by")
        .filter(token_hash=token_hash(secret), revoked_at__isnull=True)
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
