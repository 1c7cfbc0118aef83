"""Issuing and revoking API tokens (see `flipwell.league.models.tokens` for the words).

The JSON API checks them (`flipwell.api.tokens`); the console and the command line issue and
revoke them here.

A token is ``fw_`` followed by 43 random URL-safe characters (256 bits): only its SHA-256 is
stored, which is enough for a secret that random (no slow hash is needed against guessing).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from flipwell.league.audit import record_event
from flipwell.league.models import ApiToken, League, LeagueOfficial
from flipwell.league.services.permissions import require_role

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Scope = Literal["read_private", "scores", "manage"]
SCOPES: tuple[Scope, ...] = ("read_private", "scores", "manage")
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
