"""Who is writing: the API token in ``Authorization: Bearer fw_...``, and what it may do.

A token acts as the official who issued it (the services check his role in the league as
they would for the web app), limited to its league and scopes (`flipwell.api.tokens`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from ninja.security import HttpBearer

from flipwell.api.models import ApiToken
from flipwell.api.tokens import Scope, require_scope, token_for_secret
from flipwell.league.models import League

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class TokenAuth(HttpBearer):
    """A live API token (any league, any scope); a missing, unknown or revoked one is a 401."""

    openapi_scheme = "bearer"

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        return token_for_secret(token.strip())


def acting_official(request: HttpRequest, *, league: League, scope: Scope) -> User:
    """The official the request's token acts for; PermissionDenied (403) when the token is of
    another league or lacks `scope`."""
    token = request.auth  # type: ignore[attr-defined]
    assert isinstance(token, ApiToken)  # TokenAuth ran before the endpoint
    require_scope(token, league=league, scope=scope)
    return token.issued_by
