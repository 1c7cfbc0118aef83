"""Who is writing: the API token in ``Authorization: Bearer fw_...``, and what it may do.

A token acts as the official who issued it, limited to its league and scopes
(`flipwell.api.tokens`), and only while he still holds a role in that league that allows the
scope used (checked on every request: a removed official's token is refused even if it was
somehow not revoked). An installation token (no league) acts in any league where its issuer
holds that role, and alone opens leagues (scope ``leagues``). The services then check his
role as they would for the web app.

Words: an *override* is an official's decision that sets a rule aside with a reason (a
correction after the meet is closed, A45.2): it needs the ``manage`` scope, whatever other
scope the endpoint asks for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from ninja.security import HttpBearer

from flipwell.api.tokens import (
    request_token,
    require_issuer_role,
    require_opener,
    require_scope,
)
from flipwell.league.models import ApiToken, League
from flipwell.league.services.tokens import Scope

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class TokenAuth(HttpBearer):
    """A live API token (any league, any scope); a missing, unknown or revoked one is a 401."""

    openapi_scheme = "bearer"

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        return request_token(request, token.strip())


def acting_official(
    request: HttpRequest, *, league: League, scope: Scope, doing: str | None = None
) -> User:
    """The official the request's token acts for; PermissionDenied (403) when the token is of
    another league, lacks `scope` (`doing` says what it is needed for), or its issuer no
    longer holds a role in `league` that allows `scope`."""
    token = _token(request)
    require_scope(token, league=league, scope=scope, doing=doing)
    require_issuer_role(token, league=league, scope=scope)
    return token.issued_by


def acting_opener(request: HttpRequest) -> User:
    """The account the request's installation token acts for, to open a league;
    PermissionDenied (403) for a league's token or one without the ``leagues`` scope."""
    token = _token(request)
    require_opener(token)
    return token.issued_by


def acting_account(request: HttpRequest) -> User:
    """The account the request's token acts for, about the account's own affairs (its
    invitations): an installation token's issuer, or the issuer of a league's token with the
    scope ``manage`` while he is still a league official of that league; PermissionDenied
    (403) otherwise."""
    token = _token(request)
    if token.league is not None:
        doing = "answer its account's invitations"
        require_scope(token, league=token.league, scope="manage", doing=doing)
        require_issuer_role(token, league=token.league, scope="manage")
    return token.issued_by


def _token(request: HttpRequest) -> ApiToken:
    token = request.auth  # type: ignore[attr-defined]
    assert isinstance(token, ApiToken)  # TokenAuth ran before the endpoint
    return token
