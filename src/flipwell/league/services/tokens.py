"""Issuing and revoking API tokens (see `flipwell.league.models.tokens` for the words).

The JSON API checks them (`flipwell.api.tokens`); the console and the command line issue and
revoke them here.

A token is ``fw_`` followed by 43 random URL-safe characters (256 bits): only its SHA-256 is
stored, which is enough for a secret that random (no slow hash is needed against guessing).
An installation token (no league, scope ``leagues``) is issued on the command line only, to an
account that may open leagues (`may_create_league`).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from django.core.exceptions import PermissionDenied
from django.utils import timezone

from flipwell.league.models import ApiToken, League, LeagueOfficial
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.setup import may_create_league, token_hash
from flipwell.league.services._protocol import Actor, league_write
from flipwell.league.services.permissions import require_role

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Scope = Literal["read_private", "scores", "manage"]
"""A scope used in one league (a league token's, or an installation token's in a league where
its issuer holds the role the scope needs)."""
SCOPES: tuple[Scope, ...] = ("read_private", "scores", "manage")
OPEN_LEAGUES = "leagues"
"""The installation token's own scope: open new leagues."""
INSTALLATION_SCOPES: tuple[str, ...] = (OPEN_LEAGUES, *SCOPES)
TOKEN_PREFIX = "fw_"
SHOWN_PREFIX_LENGTH = 10


@dataclass(frozen=True)
class IssuedToken:
    """A new token: the stored row and the secret, which is shown once and never again."""

    token: ApiToken
    secret: str


def issue_api_token(
    *, league: League | None, name: str, scopes: Collection[str], actor: User
) -> IssuedToken:
    """Issue a token for `league` with `scopes` (a non-empty subset of `SCOPES`), or, with no
    league, an installation token (`INSTALLATION_SCOPES`, ``leagues`` among them).

    Side effects: inserts the ApiToken (hash only) and an audit event ``api_token.issued``.
    Raises PermissionDenied unless `actor` is a league official of `league` (for an
    installation token: unless `may_create_league` allows them); ValidationError (nothing
    written) for an empty name or an unknown or missing scope.
    """
    wanted = set(scopes)
    _check_scopes(wanted, installation=league is None)
    label = name.strip()
    if not label:
        raise Refusal({"name": "Name the token (who or what will use it)."}, code="name_required")
    # An account: an official of `league`, or one that may open leagues (checked here).
    with league_write(
        league=league, actor=Actor.account(actor), action="issue API tokens"
    ) as write:
        _require_issuer(actor, league)
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = ApiToken(
            league=league,
            name=label,
            prefix=secret[:SHOWN_PREFIX_LENGTH],
            token_hash=token_hash(secret),
            read_private="read_private" in wanted,
            scores="scores" in wanted,
            manage="manage" in wanted,
            leagues=OPEN_LEAGUES in wanted,
            issued_by=actor,
        )
        token.full_clean()
        token.save()
        data = {"name": label, "prefix": token.prefix, "scopes": sorted(wanted)}
        write.event("api_token.issued", token, data)
    return IssuedToken(token=token, secret=secret)


def _check_scopes(wanted: set[str], *, installation: bool) -> None:
    """ValidationError on ``scopes`` for a scope unknown to the token's kind, or none."""
    allowed = INSTALLATION_SCOPES if installation else SCOPES
    unknown = sorted(wanted - set(allowed))
    if unknown:
        kind = "an installation token" if installation else "a league's token"
        raise Refusal(
            {
                "scopes": f"Unknown scope {', '.join(unknown)} for {kind}; allowed: "
                f"{', '.join(allowed)}."
            },
            code="unknown_scope",
        )
    if not wanted:
        raise Refusal(
            {"scopes": f"Give at least one scope: {', '.join(allowed)}."}, code="scopes_required"
        )
    if installation and OPEN_LEAGUES not in wanted:
        raise Refusal(
            {"scopes": f"A token of no league opens leagues: give it the {OPEN_LEAGUES} scope."},
            code="leagues_scope_required",
        )


def _require_issuer(actor: User, league: League | None) -> None:
    """PermissionDenied unless `actor` may issue a token of `league` (None: installation)."""
    if league is None:
        if not may_create_league(actor):
            raise PermissionDenied(
                "Only an account that may open leagues may issue an installation token."
            )
        return
    require_role(
        actor=actor,
        league=league,
        roles=(LeagueOfficial.Role.LEAGUE_OFFICIAL,),
        action="issue API tokens",
    )


def revoke_api_token(*, token: ApiToken, actor: User) -> ApiToken:
    """Revoke a token: it is refused from now on (the row stays, for the record).

    Side effects: sets revoked_at and revoked_by, an audit event ``api_token.revoked``.
    Raises PermissionDenied unless `actor` is a league official of the token's league (an
    installation token: its issuer, staff or a superuser); ValidationError when it is already
    revoked.
    """
    with league_write(league=None, actor=Actor.account(actor), action="revoke API tokens") as write:
        # Only the token's row: its league may be none (an outer join, which PostgreSQL
        # cannot lock on that side).
        token = (
            ApiToken.objects.select_for_update(of=("self",))
            .select_related("league")
            .get(pk=token.pk)
        )
        if token.league is None:
            if not (actor.pk == token.issued_by_id or actor.is_staff or actor.is_superuser):
                raise PermissionDenied(
                    "Only its issuer or a flipwell administrator may revoke an installation token."
                )
        else:
            require_role(
                actor=actor,
                league=token.league,
                roles=(LeagueOfficial.Role.LEAGUE_OFFICIAL,),
                action="revoke API tokens",
            )
        if token.revoked_at is not None:
            raise ConflictError(
                f"Token {token.prefix}… was already revoked.", code="token_already_revoked"
            )
        token.revoked_at = timezone.now()
        token.revoked_by = actor
        token.save(update_fields=["revoked_at", "revoked_by"])
        write.event("api_token.revoked", token, {"prefix": token.prefix}, league=token.league)
    return token
