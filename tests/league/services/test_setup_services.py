"""Setting a league up: opening it, its machine pool, its officials."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.models import ApiToken
from flipwell.league.services._edge import record_ruling
from flipwell.league.services.tokens import issue_api_token
from tests import factories as f

pytestmark = pytest.mark.django_db

LO = m.LeagueOfficial.Role.LEAGUE_OFFICIAL
KEEPER = m.LeagueOfficial.Role.SCOREKEEPER


@pytest.fixture
def lo():
    return f.LeagueOfficialFactory()


def actions(league):
    return list(m.AuditEvent.objects.filter(league=league).values_list("action", flat=True))


# --- opening a league ------------------------------------------------------------------------


def test_open_league_by_anybody_when_no_league_exists():
    user = f.UserFactory()

    league = services.open_league(name="Tuesday", slug="tuesday", actor=user)

    assert m.LeagueOfficial.objects.get(league=league).user == user
    assert m.LeagueOfficial.objects.get(league=league).role == LO


def test_open_league_refused_to_a_non_staff_user_once_a_league_exists(lo):
    with pytest.raises(PermissionDenied):
        services.open_league(name="Mine", slug="mine", actor=f.UserFactory())

    assert not m.League.objects.filter(slug="mine").exists()


def test_open_league_by_staff_when_leagues_exist(lo):
    staff = f.UserFactory(is_staff=True)

    league = services.open_league(name="Mine", slug="mine", venue="Bar", actor=staff)

    assert (league.name, league.venue) == ("Mine", "Bar")


def test_open_league_with_a_taken_slug_names_the_field(lo):
    staff = f.UserFactory(is_staff=True)

    with pytest.raises(ValidationError) as error:
        services.open_league(name="Again", slug=lo.league.slug, actor=staff)

    assert list(error.value.message_dict) == ["slug"]


# --- machines --------------------------------------------------------------------------------


def test_create_machine_adds_it_to_the_pool_with_an_audit_event(lo):
    machine = services.create_machine(
        league=lo.league, title=" Medieval Madness ", balls_per_game=3, location="left",
        actor=lo.user,
    )  # fmt: skip

    assert (machine.title, machine.status, machine.location) == (
        "Medieval Madness",
        m.Machine.Status.PLAYABLE,
        "left",
    )
    assert actions(lo.league) == ["machine.created"]


def test_create_machine_refuses_balls_per_game_out_of_range(lo):
    with pytest.raises(ValidationError) as error:
        services.create_machine(league=lo.league, title="Elvira", balls_per_game=11, actor=lo.user)

    assert error.value.message_dict == {
        "balls_per_game": ["Balls per game is from 1 to 10 (usually 3 or 5)."]
    }


def test_create_machine_refuses_a_twin_at_the_same_location(lo):
    f.MachineFactory(league=lo.league, title="Elvira", location="")

    with pytest.raises(ValidationError) as error:
        services.create_machine(league=lo.league, title="elvira", balls_per_game=3, actor=lo.user)

    assert list(error.value.message_dict) == ["title"]


def test_create_machine_refused_to_a_scorekeeper(lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=KEEPER)

    with pytest.raises(PermissionDenied):
        services.create_machine(league=lo.league, title="X", balls_per_game=3, actor=keeper.user)


def test_update_machine_changes_location_and_balls(lo):
    machine = f.MachineFactory(league=lo.league, balls_per_game=3)

    services.update_machine(machine=machine, location="back", balls_per_game=5, actor=lo.user)

    machine.refresh_from_db()
    assert (machine.location, machine.balls_per_game) == ("back", 5)
    event = m.AuditEvent.objects.get(action="machine.updated")
    assert event.data == {
        "before": {"location": "", "balls_per_game": 3},
        "after": {"location": "back", "balls_per_game": 5},
    }


def test_update_machine_refused_to_another_leagues_official(lo):
    machine = f.MachineFactory(league=lo.league)

    with pytest.raises(PermissionDenied):
        services.update_machine(machine=machine, location="x", actor=f.LeagueOfficialFactory().user)


def test_set_machine_status_takes_it_out_with_a_ruling_and_keeps_its_games(lo):
    season = f.SeasonFactory(league=lo.league, created_at=f.SET_UP_2026)
    for rank in (1, 2, 3, 4):
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank)
    machine = f.MachineFactory(league=lo.league)
    services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=lo.user, seed=1
    )

    ruling = services.set_machine_status(
        machine=machine, status="unplayable", reason="Sold to a collector", actor=lo.user
    )

    machine.refresh_from_db()
    assert machine.status == m.Machine.Status.UNPLAYABLE
    assert (ruling.kind, ruling.reason) == ("machine_status", "Sold to a collector")
    assert m.Game.objects.filter(machine=machine).count() == 1


def test_set_machine_status_needs_a_reason(lo):
    machine = f.MachineFactory(league=lo.league)

    with pytest.raises(ValidationError) as error:
        services.set_machine_status(machine=machine, status="unplayable", reason=" ", actor=lo.user)

    assert list(error.value.message_dict) == ["reason"]
    machine.refresh_from_db()
    assert machine.status == m.Machine.Status.PLAYABLE


def test_set_machine_status_refuses_the_status_it_has(lo):
    machine = f.MachineFactory(league=lo.league)

    with pytest.raises(ValidationError) as error:
        services.set_machine_status(machine=machine, status="playable", reason="x", actor=lo.user)

    assert list(error.value.message_dict) == ["status"]


def test_set_machine_status_ruling_touches_no_group(lo):
    season = f.SeasonFactory(league=lo.league)
    entry = f.SeasonEntryFactory(season=season)
    services.link_official_player(official=lo, player=entry.player, actor=lo.user)
    machine = f.MachineFactory(league=lo.league)

    ruling = services.set_machine_status(
        machine=machine, status="unplayable", reason="Flipper broken", actor=lo.user
    )

    assert ruling.official_involved is False  # no group is touched by a pool decision


# --- officials -------------------------------------------------------------------------------


def test_invite_official_gives_no_role_until_the_account_accepts(lo):
    """Issue 34 §3: a role needs the account's consent."""
    user = f.UserFactory(username="bo")

    invitation = services.invite_official(
        league=lo.league, who="Bo", role="scorekeeper", actor=lo.user
    )
    before = m.LeagueOfficial.objects.filter(user=user).exists()
    official = services.accept_invitation(invitation=invitation, user=user)

    assert before is False
    assert (official.user, official.role) == (user, KEEPER)
    assert actions(lo.league) == ["invitation.sent", "official.added", "invitation.accepted"]


def test_invite_official_finds_an_account_by_its_email_address(lo):
    user = f.UserFactory(username="bo", email="Bo@Example.org")

    invitation = services.invite_official(
        league=lo.league, who="bo@example.org", role="league_official", actor=lo.user
    )

    assert invitation.user == user


def test_invite_official_keeps_an_invitation_that_found_no_account(lo):
    invitation = services.invite_official(
        league=lo.league, who="nobody", role="scorekeeper", actor=lo.user
    )

    assert (invitation.invited_as, invitation.user) == ("nobody", None)
    event = m.AuditEvent.objects.get(action="invitation.sent")
    assert set(event.data) == {"invited_as", "role", "expires_at"}  # never the account


def test_invite_official_expires_after_the_configured_days(lo, settings):
    settings.INVITATION_DAYS = 3

    invitation = services.invite_official(league=lo.league, who="x", role="scorekeeper",
                                          actor=lo.user)  # fmt: skip

    assert invitation.expires_at - invitation.created_at == datetime.timedelta(days=3)


def test_invite_official_refused_to_a_scorekeeper(lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=KEEPER)

    with pytest.raises(PermissionDenied):
        services.invite_official(league=lo.league, who="x", role="scorekeeper", actor=keeper.user)

    assert not m.Invitation.objects.exists()


def test_invite_official_refuses_an_unknown_role_and_an_empty_name(lo):
    with pytest.raises(ValidationError) as role:
        services.invite_official(league=lo.league, who="x", role="king", actor=lo.user)
    with pytest.raises(ValidationError) as empty:
        services.invite_official(league=lo.league, who="  ", role="scorekeeper", actor=lo.user)

    assert list(role.value.message_dict) == ["role"]
    assert list(empty.value.message_dict) == ["who"]


def test_accept_invitation_of_another_account_is_refused(lo):
    f.UserFactory(username="bo")
    invitation = services.invite_official(league=lo.league, who="bo", role="scorekeeper",
                                          actor=lo.user)  # fmt: skip

    with pytest.raises(PermissionDenied):
        services.accept_invitation(invitation=invitation, user=f.UserFactory())


def test_withdrawn_invitation_cannot_be_accepted(lo):
    user = f.UserFactory(username="bo")
    invitation = services.invite_official(league=lo.league, who="bo", role="scorekeeper",
                                          actor=lo.user)  # fmt: skip
    services.withdraw_invitation(invitation=invitation, actor=lo.user)

    with pytest.raises(ValidationError, match="withdrawn already"):
        services.accept_invitation(invitation=invitation, user=user)

    assert not m.LeagueOfficial.objects.filter(user=user).exists()


def test_change_official_role_changes_an_officials_role(lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=KEEPER)

    changed = services.change_official_role(official=keeper, role="league_official", actor=lo.user)

    assert changed.role == LO


def test_change_official_role_refuses_to_demote_the_last_league_official(lo):
    with pytest.raises(ValidationError) as error:
        services.change_official_role(official=lo, role="scorekeeper", actor=lo.user)

    assert list(error.value.message_dict) == ["role"]
    lo.refresh_from_db()
    assert lo.role == LO


def test_remove_official_keeps_the_user(lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=KEEPER)

    services.remove_official(official=keeper, actor=lo.user)

    assert not m.LeagueOfficial.objects.filter(pk=keeper.pk).exists()
    assert User.objects.filter(pk=keeper.user_id).exists()
    assert actions(lo.league) == ["official.removed"]


def test_remove_official_revokes_his_api_tokens_of_the_league(lo):
    other = f.LeagueOfficialFactory(league=lo.league, role=LO)
    elsewhere = f.LeagueOfficialFactory(user=lo.user, role=LO)  # his role in another league
    mine = issue_api_token(league=lo.league, name="phone", scopes=["scores"], actor=lo.user)
    theirs = issue_api_token(league=lo.league, name="tv", scopes=["scores"], actor=other.user)
    kept = issue_api_token(league=elsewhere.league, name="x", scopes=["manage"], actor=lo.user)

    services.remove_official(official=lo, actor=other.user)

    revoked = {t.pk: t.revoked_by for t in ApiToken.objects.all()}
    assert revoked == {mine.token.pk: other.user, theirs.token.pk: None, kept.token.pk: None}
    event = m.AuditEvent.objects.get(action="official.removed")
    assert event.data["revoked_tokens"] == [mine.token.prefix]


def test_remove_official_refuses_the_last_league_official(lo):
    with pytest.raises(ValidationError):
        services.remove_official(official=lo, actor=lo.user)

    assert m.LeagueOfficial.objects.filter(pk=lo.pk).exists()


def test_remove_official_allows_an_lo_when_another_remains(lo):
    other = f.LeagueOfficialFactory(league=lo.league, role=LO)

    services.remove_official(official=lo, actor=other.user)

    assert list(m.LeagueOfficial.objects.filter(league=lo.league)) == [other]


def test_link_official_player_flags_rulings_on_his_group(lo):
    season = f.SeasonFactory(league=lo.league)
    entries = [f.SeasonEntryFactory(season=season, ifpa_rank_at_start=r) for r in (1, 2, 3, 4)]
    f.MachineFactory(league=lo.league)

    services.link_official_player(official=lo, player=entries[0].player, actor=lo.user)

    lo.refresh_from_db()
    made = record_ruling(
        league=lo.league, official=lo.user, kind="test", subject="x", reason="y",
        affected=[e.player.pk for e in entries],
    )  # fmt: skip
    assert (lo.player, made.official_involved) == (entries[0].player, True)


def test_link_official_player_refuses_a_player_of_another_league(lo):
    stranger = f.SeasonEntryFactory().player

    with pytest.raises(ValidationError) as error:
        services.link_official_player(official=lo, player=stranger, actor=lo.user)

    assert list(error.value.message_dict) == ["player"]


def test_link_official_player_refuses_a_player_linked_to_another_official(lo):
    player = f.SeasonEntryFactory(season=f.SeasonFactory(league=lo.league)).player
    other = f.LeagueOfficialFactory(league=lo.league, role=KEEPER, player=player)

    with pytest.raises(ValidationError) as error:
        services.link_official_player(official=lo, player=player, actor=lo.user)

    assert error.value.message_dict == {
        "player": [f"{player} is already linked to official {other.user.username}."]
    }


def test_link_official_player_none_unlinks(lo):
    player = f.SeasonEntryFactory(season=f.SeasonFactory(league=lo.league)).player
    services.link_official_player(official=lo, player=player, actor=lo.user)

    services.link_official_player(official=lo, player=None, actor=lo.user)

    lo.refresh_from_db()
    assert lo.player is None
