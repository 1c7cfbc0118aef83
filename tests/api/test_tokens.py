"""API tokens: only a hash is stored, officials issue and revoke them, the commands work."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import CommandError, call_command

from flipwell.api.tokens import token_for_secret
from flipwell.league import models as m
from flipwell.league.models import ApiToken
from flipwell.league.services.tokens import issue_api_token, revoke_api_token, token_hash
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_issue_stores_only_the_hash(official):
    issued = issue_api_token(
        league=official.league, name="scoreboard", scopes=["scores"], actor=official.user
    )

    row = ApiToken.objects.get()
    assert issued.secret.startswith("fw_")
    assert row.token_hash == token_hash(issued.secret)
    assert issued.secret not in {row.token_hash, row.prefix, row.name}
    assert (row.read_private, row.scores, row.manage) == (False, True, False)
    assert m.AuditEvent.objects.filter(action="api_token.issued").count() == 1


def test_issue_refuses_unknown_or_missing_scopes(official):
    with pytest.raises(ValidationError) as unknown:
        issue_api_token(league=official.league, name="x", scopes=["admin"], actor=official.user)
    with pytest.raises(ValidationError) as none:
        issue_api_token(league=official.league, name="x", scopes=[], actor=official.user)

    assert list(unknown.value.message_dict) == ["scopes"]
    assert list(none.value.message_dict) == ["scopes"]
    assert not ApiToken.objects.exists()


def test_only_a_league_official_issues_tokens(official):
    scorekeeper = f.LeagueOfficialFactory(
        league=official.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )

    with pytest.raises(PermissionDenied):
        issue_api_token(league=official.league, name="x", scopes=["scores"], actor=scorekeeper.user)


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
