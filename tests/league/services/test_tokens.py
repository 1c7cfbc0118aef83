"""API token services: only a hash is stored, only a league official issues and revokes."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.selectors.setup import token_hash
from flipwell.league.services.tokens import issue_api_token, revoke_api_token
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_issue_stores_only_the_hash(official):
    issued = issue_api_token(
        league=official.league, name="scoreboard", scopes=["scores"], actor=official.user
    )

    row = m.ApiToken.objects.get()
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
    assert not m.ApiToken.objects.exists()


def test_only_a_league_official_issues_tokens(official):
    scorekeeper = f.LeagueOfficialFactory(
        league=official.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )

    with pytest.raises(PermissionDenied):
        issue_api_token(league=official.league, name="x", scopes=["scores"], actor=scorekeeper.user)


def test_a_tokens_name_says_revoked_once_it_is(official):
    issued = issue_api_token(
        league=official.league, name="scoreboard", scopes=["scores"], actor=official.user
    )
    live = str(issued.token)

    revoked = revoke_api_token(token=issued.token, actor=official.user)

    assert (live.endswith("(revoked)"), str(revoked)) == (False, f"{live} (revoked)")


def test_revoke_twice_is_refused_the_second_time(official):
    issued = issue_api_token(
        league=official.league, name="x", scopes=["manage"], actor=official.user
    )

    revoked = revoke_api_token(token=issued.token, actor=official.user)

    events = m.AuditEvent.objects.filter(action="api_token.revoked").count()
    assert (revoked.revoked_by, events) == (official.user, 1)
    with pytest.raises(ValidationError, match="already revoked"):
        revoke_api_token(token=issued.token, actor=official.user)
