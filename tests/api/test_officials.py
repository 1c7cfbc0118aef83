"""Officials, scorekeepers and invitations through the API (issue 34 §2 and §3): a league
official's token lists the league's officials and invitations, invites (the same answer
whether or not the account exists), withdraws and removes a role; the invited account's own
token lists, accepts and declines its invitations under /api/v1/me/invitations."""

from __future__ import annotations

import uuid

import pytest

from flipwell.league import models as m
from tests import factories as f
from tests.api.conftest import bearer, post, token

pytestmark = pytest.mark.django_db

LO = m.LeagueOfficial.Role.LEAGUE_OFFICIAL


@pytest.fixture
def league(official):
    return official.league


def _invite(client, league, secret, who, role="scorekeeper", key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key or uuid.uuid4().hex}  # an invitation needs a key
    return client.post(
        f"/api/v1/leagues/{league.slug}/invitations",
        {"who": who, "role": role},
        content_type="application/json",
        **bearer(secret),
        **headers,
    )


def _own_token(user_official):
    """A token of the invited account (a league official elsewhere)."""
    return token(user_official, "manage")


def test_api_invitation_gives_no_role_until_the_account_accepts(client, official, league):
    """Issue 34 §3: another league's official is invited, not given a role."""
    rival = f.LeagueOfficialFactory(role=LO, user__username="rival")
    secret = token(official, "manage")

    sent = _invite(client, league, secret, "rival", role="league_official")
    mine = client.get("/api/v1/me/invitations", **bearer(_own_token(rival)))

    assert sent.status_code == 201
    assert sent["Location"].endswith(
        f"/api/v1/leagues/{league.slug}/invitations/{sent.json()['id']}"
    )
    assert sent.json()["status"] == "pending"
    assert not m.LeagueOfficial.objects.filter(league=league, user=rival.user).exists()
    assert [i["league"] for i in mine.json()["results"]] == [league.slug]

    accepted = post(
        client,
        f"/api/v1/me/invitations/{sent.json()['id']}/acceptance",
        {},
        _own_token(rival),
    )

    assert accepted.status_code == 201
    assert accepted.json()["official"]["role"] == "league_official"
    assert accepted.json()["invitation"]["status"] == "accepted"
    assert m.LeagueOfficial.objects.get(league=league, user=rival.user).role == LO


def test_api_invitation_answer_is_the_same_whether_or_not_the_account_exists(
    client, official, league
):
    f.UserFactory(username="bo")
    secret = token(official, "manage")

    known = _invite(client, league, secret, "bo").json()
    unknown = _invite(client, league, secret, "nobody").json()

    def shape(body):
        return {k: v for k, v in body.items() if k not in ("id", "invited_as", "created_at",
                                                          "expires_at")}  # fmt: skip

    assert shape(known) == shape(unknown)
    assert set(known) == {"id", "invited_as", "role", "invited_by", "created_at",
                          "expires_at", "status"}  # fmt: skip


def test_api_invitation_is_stored_once_per_idempotency_key(client, official, league):
    secret = token(official, "manage")

    first = _invite(client, league, secret, "bo", key="invite-bo-1")
    again = _invite(client, league, secret, "bo", key="invite-bo-1")

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json()["id"] == first.json()["id"]
    assert m.Invitation.objects.count() == 1


def test_api_lists_officials_and_pending_invitations(client, official, league):
    keeper = f.LeagueOfficialFactory(
        league=league, role=m.LeagueOfficial.Role.SCOREKEEPER, user__username="zed"
    )
    secret = token(official, "manage")
    _invite(client, league, secret, "bo")

    officials = client.get(f"/api/v1/leagues/{league.slug}/officials", **bearer(secret))
    invitations = client.get(f"/api/v1/leagues/{league.slug}/invitations", **bearer(secret))

    assert [(o["id"], o["role"]) for o in officials.json()["results"]] == [
        (official.pk, "league_official"),
        (keeper.pk, "scorekeeper"),
    ]
    assert [i["invited_as"] for i in invitations.json()["results"]] == ["bo"]


def test_api_officials_need_the_manage_scope_of_the_league(client, official, league):
    reader = token(official, "read_private")
    stranger = token(f.LeagueOfficialFactory(role=LO), "manage")

    refused = [
        client.get(f"/api/v1/leagues/{league.slug}/officials", **bearer(reader)).status_code,
        _invite(client, league, reader, "bo").status_code,
        _invite(client, league, stranger, "bo").status_code,
    ]

    assert refused == [403, 403, 403]
    assert not m.Invitation.objects.exists()


def test_api_withdraws_an_invitation_and_it_cannot_be_accepted(client, official, league):
    invitee = f.LeagueOfficialFactory(role=LO, user__username="bo")
    secret = token(official, "manage")
    sent = _invite(client, league, secret, "bo").json()

    withdrawn = post(
        client, f"/api/v1/leagues/{league.slug}/invitations/{sent['id']}/withdrawal", {}, secret
    )
    again = post(
        client, f"/api/v1/leagues/{league.slug}/invitations/{sent['id']}/withdrawal", {}, secret
    )
    late = post(client, f"/api/v1/me/invitations/{sent['id']}/acceptance", {}, _own_token(invitee))

    assert withdrawn.status_code == 200
    assert withdrawn.json()["status"] == "withdrawn"
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "invitation_decided"
    assert late.status_code == 409
    assert not m.LeagueOfficial.objects.filter(league=league, user=invitee.user).exists()


def test_api_declines_an_invitation(client, official, league):
    invitee = f.LeagueOfficialFactory(role=LO, user__username="bo")
    sent = _invite(client, league, token(official, "manage"), "bo").json()

    declined = post(client, f"/api/v1/me/invitations/{sent['id']}/decline", {}, _own_token(invitee))

    assert declined.status_code == 200
    assert declined.json()["status"] == "declined"
    assert not m.LeagueOfficial.objects.filter(league=league, user=invitee.user).exists()
    assert m.AuditEvent.objects.get(action="invitation.declined").actor == invitee.user


def test_api_another_accounts_invitation_is_404(client, official, league):
    f.UserFactory(username="bo")
    sent = _invite(client, league, token(official, "manage"), "bo").json()
    eve = f.LeagueOfficialFactory(role=LO, user__username="eve")

    response = post(client, f"/api/v1/me/invitations/{sent['id']}/acceptance", {}, _own_token(eve))

    assert response.status_code == 404
    assert not m.LeagueOfficial.objects.filter(league=league, user=eve.user).exists()


def test_api_removes_a_scorekeeper(client, official, league):
    keeper = f.LeagueOfficialFactory(league=league, role=m.LeagueOfficial.Role.SCOREKEEPER)
    secret = token(official, "manage")

    response = client.delete(
        f"/api/v1/leagues/{league.slug}/officials/{keeper.pk}", **bearer(secret)
    )
    last = client.delete(f"/api/v1/leagues/{league.slug}/officials/{official.pk}", **bearer(secret))

    assert response.status_code == 200
    assert response.json()["id"] == keeper.pk
    assert not m.LeagueOfficial.objects.filter(pk=keeper.pk).exists()
    assert last.status_code == 409  # the league's state forbids it now
    assert m.LeagueOfficial.objects.filter(pk=official.pk).exists()


def test_api_changes_an_officials_role_and_links_his_player_record(client, official):
    """The console's Officials page abilities through the API: another role for an official
    of the league (he is asked nothing), and his own player record linked (R1.1-a)."""
    scorekeeper = f.LeagueOfficialFactory(league=official.league, role="scorekeeper")
    secret = token(official, "manage")
    player = f.SeasonEntryFactory(season=f.SeasonFactory(league=official.league)).player
    url = f"/api/v1/leagues/{official.league.slug}/officials/{scorekeeper.pk}"

    changed = client.put(url, {"role": "league_official"}, content_type="application/json",
                         **bearer(secret))  # fmt: skip
    linked = client.put(f"{url}/player", {"player_id": player.pk},
                        content_type="application/json", **bearer(secret))  # fmt: skip
    unlinked = client.put(f"{url}/player", {"player_id": None},
                          content_type="application/json", **bearer(secret))  # fmt: skip

    assert changed.status_code == 200, changed.content
    assert changed.json()["role"] == "league_official"
    assert linked.json()["player_id"] == player.pk
    assert unlinked.json()["player_id"] is None
    scorekeeper.refresh_from_db()
    assert scorekeeper.role == "league_official"
