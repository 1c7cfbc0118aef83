"""Invitations to a role in the console (issue 34 §3): an official invites an account by its
user name or e-mail address; the answer is the same whether or not the account exists; the
account sees the invitation on its console home and accepts or declines; only an accepted
invitation gives the role; an official may withdraw one; every decision is audited."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone

from flipwell.league import models as m
from tests import factories as f

pytestmark = pytest.mark.django_db

OFFICIALS = "/manage/tuesday/officials/"
ANSWER = re.compile(r"If an account has the user name or e-mail address [^,]+, ([^<]+)<")


@pytest.fixture
def lo(client):
    official = f.LeagueOfficialFactory(
        league__slug="tuesday", league__name="Tuesday Flippers", user__username="lo"
    )
    client.force_login(official.user)
    return official


def _invite(client, who, role="scorekeeper"):
    return client.post(OFFICIALS, {"action": "invite", "who": who, "role": role}, follow=True)


def _answer(response):
    """The sentence that answers an invitation, after the name or address it repeats."""
    said = ANSWER.search(response.content.decode())
    return said.group(1) if said else None


def test_invitation_gives_no_role_before_it_is_accepted(client, lo):
    """Issue 34 §3: another league's official gets no role in this one without consent."""
    other = f.LeagueOfficialFactory(user__username="rival").user

    response = _invite(client, "rival", role="league_official")

    assert response.status_code == 200
    assert not m.LeagueOfficial.objects.filter(league=lo.league, user=other).exists()
    assert m.Invitation.objects.get().user == other


def test_invitation_answer_is_the_same_whether_or_not_the_account_exists(client, lo):
    """Issue 34 §3: the officials page never tells whether an account name exists."""
    f.UserFactory(username="bo")

    known = _invite(client, "bo")
    unknown = _invite(client, "nobody-here")

    assert known.status_code == unknown.status_code == 200
    assert known.redirect_chain == unknown.redirect_chain == [(OFFICIALS, 302)]
    assert "If an account has the user name or e-mail address bo, it is invited" in known.text
    assert _answer(known) == _answer(unknown)
    assert _answer(known).startswith("it is invited to be scorekeeper of Tuesday Flippers;")
    assert not m.LeagueOfficial.objects.filter(user__username__in=["bo", "nobody-here"]).exists()
    assert m.Invitation.objects.count() == 2


def test_invited_account_sees_and_accepts_the_invitation_on_its_home(client, lo):
    invitee = f.UserFactory(username="bo", email="bo@example.org")
    _invite(client, "BO@example.org")
    invitation = m.Invitation.objects.get()
    client.force_login(invitee)

    home = client.get("/manage/")
    accepted = client.post(f"/manage/invitations/{invitation.pk}/", {"action": "accept"})

    assert "invites you to be scorekeeper of <strong>Tuesday Flippers</strong>" in home.text
    assert accepted.status_code == 302
    assert accepted["Location"] == "/manage/tuesday/"
    held = m.LeagueOfficial.objects.get(league=lo.league, user=invitee)
    assert held.role == m.LeagueOfficial.Role.SCOREKEEPER
    invitation.refresh_from_db()
    assert (invitation.decision, invitation.decided_by) == ("accepted", invitee)
    events = m.AuditEvent.objects.filter(league=lo.league).order_by("pk")
    assert [(e.action, e.actor) for e in events] == [
        ("invitation.sent", lo.user),
        ("official.added", invitee),
        ("invitation.accepted", invitee),
    ]


def test_invited_account_declines_and_gets_no_role(client, lo):
    invitee = f.UserFactory(username="bo")
    _invite(client, "bo")
    invitation = m.Invitation.objects.get()
    client.force_login(invitee)

    declined = client.post(f"/manage/invitations/{invitation.pk}/", {"action": "decline"})
    again = client.post(f"/manage/invitations/{invitation.pk}/", {"action": "accept"})

    assert declined.status_code == 302
    assert again.status_code == 409
    assert "This invitation was declined already." in again.text
    assert not m.LeagueOfficial.objects.filter(user=invitee).exists()
    assert m.AuditEvent.objects.filter(action="invitation.declined", actor=invitee).count() == 1
    assert "invites you" not in client.get("/manage/").text


def test_another_accounts_invitation_is_404(client, lo):
    f.UserFactory(username="bo")
    _invite(client, "bo")
    invitation = m.Invitation.objects.get()
    client.force_login(f.UserFactory(username="eve"))

    response = client.post(f"/manage/invitations/{invitation.pk}/", {"action": "accept"})

    assert response.status_code == 404
    assert not m.LeagueOfficial.objects.filter(user__username="eve").exists()


def test_official_withdraws_an_invitation_before_it_is_accepted(client, lo):
    invitee = f.UserFactory(username="bo")
    _invite(client, "bo")
    invitation = m.Invitation.objects.get()

    page = client.get(OFFICIALS)
    withdrawn = client.post(OFFICIALS, {"action": "withdraw", "invitation": invitation.pk})
    client.force_login(invitee)
    late = client.post(f"/manage/invitations/{invitation.pk}/", {"action": "accept"})

    assert "Withdraw the invitation of bo" in page.text
    assert withdrawn.status_code == 302
    assert late.status_code == 409
    assert not m.LeagueOfficial.objects.filter(user=invitee).exists()
    event = m.AuditEvent.objects.get(action="invitation.withdrawn")
    assert event.actor == lo.user


def test_expired_invitation_cannot_be_accepted(client, lo):
    invitee = f.UserFactory(username="bo")
    _invite(client, "bo")
    invitation = m.Invitation.objects.get()
    invitation.expires_at = timezone.now() - datetime.timedelta(minutes=1)
    invitation.save()
    client.force_login(invitee)

    response = client.post(f"/manage/invitations/{invitation.pk}/", {"action": "accept"})

    assert response.status_code == 409
    assert "This invitation has expired" in response.text
    assert not m.LeagueOfficial.objects.filter(user=invitee).exists()


def test_invitation_to_a_scorekeeper_of_the_league_changes_his_role_once_accepted(client, lo):
    keeper = f.LeagueOfficialFactory(
        league=lo.league, role=m.LeagueOfficial.Role.SCOREKEEPER, user__username="kim"
    )
    _invite(client, "kim", role="league_official")
    keeper.refresh_from_db()
    before = keeper.role
    client.force_login(keeper.user)

    client.post(f"/manage/invitations/{m.Invitation.objects.get().pk}/", {"action": "accept"})

    keeper.refresh_from_db()
    assert (before, keeper.role) == ("scorekeeper", "league_official")


def test_scorekeeper_cannot_invite(client, lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=m.LeagueOfficial.Role.SCOREKEEPER)
    client.force_login(keeper.user)

    response = client.post(OFFICIALS, {"action": "invite", "who": "x", "role": "scorekeeper"})

    assert response.status_code == 403
    assert not m.Invitation.objects.exists()


def test_official_page_changes_a_role_without_an_invitation(client, lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=m.LeagueOfficial.Role.SCOREKEEPER)

    response = client.post(
        f"/manage/tuesday/officials/{keeper.pk}/", {"action": "role", "role": "league_official"}
    )

    assert response.status_code == 302
    keeper.refresh_from_db()
    assert keeper.role == m.LeagueOfficial.Role.LEAGUE_OFFICIAL


def test_invitation_of_another_league_cannot_be_withdrawn_from_this_one(client, lo):
    """Issue 34 §3: a league's invitations are its own."""
    elsewhere = f.LeagueOfficialFactory(league__slug="wednesday")
    client.force_login(elsewhere.user)
    client.post(
        "/manage/wednesday/officials/", {"action": "invite", "who": "bo", "role": "scorekeeper"}
    )
    theirs = m.Invitation.objects.get()
    client.force_login(lo.user)

    response = client.post(OFFICIALS, {"action": "withdraw", "invitation": theirs.pk})

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.decision == ""
