"""API tokens: a revoked one no longer authenticates, the commands issue and revoke them.

The services themselves are tested in tests/league/services/test_tokens.py.
"""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from flipwell.api.tokens import token_for_secret
from flipwell.league.services.tokens import issue_api_token, revoke_api_token
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_revoked_token_no_longer_authenticates(official):
    issued = issue_api_token(
        league=official.league, name="x", scopes=["manage"], actor=official.user
    )

    revoke_api_token(token=issued.token, actor=official.user)

    assert token_for_secret(issued.secret) is None
    with pytest.raises(ValidationError):
        revoke_api_token(token=issued.token, actor=official.user)


def test_commands_issue_and_revoke(official):
    out = io.StringIO()
    call_command(
        "issue_api_token",
        "--league",
        official.league.slug,
        "--as",
        official.user.username,
        "--scope",
        "scores",
        "--scope",
        "manage",
        "tablet",
        stdout=out,
    )
    secret = out.getvalue().strip()
    token = token_for_secret(secret)
    assert token is not None
    assert (token.scores, token.manage) == (True, True)

    call_command("revoke_api_token", "--as", official.user.username, token.prefix, stdout=out)

    assert token_for_secret(secret) is None


def test_issue_command_refuses_a_stranger(official):
    stranger = f.UserFactory()

    with pytest.raises(CommandError, match="Only a league official"):
        call_command(
            "issue_api_token",
            "--league",
            official.league.slug,
            "--as",
            stranger.username,
            "--scope",
            "scores",
            "x",
            stdout=io.StringIO(),
        )
