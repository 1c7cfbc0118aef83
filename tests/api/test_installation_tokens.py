"""Installation tokens (no league, scope ``leagues``): who may have one, what it may carry, the
command that issues it, who revokes it (issue 23 §2: a client opens a league through the API).
"""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from flipwell.api.tokens import token_for_secret
from flipwell.league import models as m
from flipwell.league.services.setup.league_openers import create_league_opener
from flipwell.league.services.tokens import issue_api_token, revoke_api_token
from tests import factories as f

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple 7"


@pytest.fixture
def opener():
    return create_league_opener(username="opener", password=PASSWORD)


def test_an_installation_token_has_no_league_and_the_leagues_scope(opener):
    issued = issue_api_token(league=None, name="script", scopes=["leagues", "manage"], actor=opener)

    assert issued.token.league is None
    assert (issued.token.leagues, issued.token.manage, issued.token.scores) == (True, True, False)
    assert str(issued.token).endswith("for the installation")
    assert m.AuditEvent.objects.get(action="api_token.issued").data["scopes"] == [
        "leagues",
        "manage",
    ]


def test_an_installation_token_without_the_leagues_scope_is_refused(opener):
    with pytest.raises(ValidationError) as caught:
        issue_api_token(league=None, name="script", scopes=["manage"], actor=opener)

    assert list(caught.value.message_dict) == ["scopes"]
    assert not m.ApiToken.objects.exists()


def test_a_leagues_token_may_not_open_leagues(official):
    with pytest.raises(ValidationError) as caught:
        issue_api_token(
            league=official.league, name="x", scopes=["leagues", "manage"], actor=official.user
        )

    assert "leagues" in caught.value.message_dict["scopes"][0]


def test_an_account_that_may_not_open_leagues_gets_no_installation_token(official):
    with pytest.raises(PermissionDenied):
        issue_api_token(league=None, name="x", scopes=["leagues"], actor=official.user)


def test_the_database_keeps_the_leagues_scope_on_installation_tokens(official):
    for league, leagues in ((None, False), (official.league, True)):
        with pytest.raises(IntegrityError), transaction.atomic():
            m.ApiToken.objects.create(
                league=league,
                name="x",
                prefix="fw_x",
                token_hash=f"{leagues}" * 8,
                manage=True,
                leagues=leagues,
                issued_by=official.user,
            )


def test_command_issues_an_installation_token_without_a_league(opener):
    out = io.StringIO()

    call_command(
        "issue_api_token",
        "--as",
        "opener",
        "--scope",
        "leagues",
        "--scope",
        "manage",
        "ci",
        stdout=out,
    )

    token = token_for_secret(out.getvalue().strip())
    assert token is not None
    assert (token.league, token.leagues, token.manage) == (None, True, True)


def test_command_refuses_an_installation_token_to_an_account_that_may_not_open(official):
    with pytest.raises(CommandError, match="may open leagues"):
        call_command(
            "issue_api_token",
            "--as",
            official.user.username,
            "--scope",
            "leagues",
            "ci",
            stdout=io.StringIO(),
        )


def test_its_issuer_or_staff_revoke_an_installation_token_and_nobody_else(opener, official):
    first = issue_api_token(league=None, name="a", scopes=["leagues"], actor=opener)
    second = issue_api_token(league=None, name="b", scopes=["leagues"], actor=opener)

    with pytest.raises(PermissionDenied):
        revoke_api_token(token=first.token, actor=official.user)
    revoke_api_token(token=first.token, actor=opener)
    revoke_api_token(token=second.token, actor=f.UserFactory(is_staff=True))

    assert token_for_secret(first.secret) is None
    assert token_for_secret(second.secret) is None
    assert m.AuditEvent.objects.filter(action="api_token.revoked").count() == 2
