"""Finding one's way (issue #11, item 13): public pages link the officials' sign-in, the console
links the public board, TV and print pages, and a roster player's name and IFPA number can be
corrected (edit_player, audited)."""

import datetime
from types import SimpleNamespace

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def lo(client):
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, created_at=f.SET_UP_2026
    )
    players = [
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=r).player for r in (1, 2, 3, 4)
    ]
    return SimpleNamespace(
        user=official.user, league=official.league, season=season, players=players
    )


def test_navigation_public_pages_link_the_sign_in(client, lo):
    client.logout()

    for url in ("/", "/leagues/tuesday/", "/leagues/tuesday/machines/"):
        assert "Officials: sign in</a>" in client.get(url).text, url


def test_navigation_console_meet_links_board_tv_and_print_pages(client, lo):
    f.MachineFactory(league=lo.league)
    meet = services.start_meet(
        season=lo.season, number=1, date=datetime.date(2026, 1, 6), actor=lo.user, seed=1
    ).meet

    page = client.get(f"/manage/tuesday/meets/{meet.pk}/").text

    for link in (
        f'href="/leagues/tuesday/meets/{meet.pk}/"',
        'href="/tv/tuesday/"',
        f'href="/print/tuesday/meets/{meet.pk}/sheets/"',
        'href="/print/tuesday/standings/"',
    ):
        assert link in page


def test_edit_player_corrects_name_and_ifpa_number_with_an_audit_event(lo):
    player = lo.players[0]

    edited = services.edit_player(
        season=lo.season, player=player, first_name=" Ada ", last_name="Lovelace",
        ifpa_number=1815, actor=lo.user,
    )  # fmt: skip

    assert (edited.first_name, edited.last_name, edited.ifpa_number) == ("Ada", "Lovelace", 1815)
    event = m.AuditEvent.objects.get(action="player.edited")
    assert event.data["to"] == {"first_name": "Ada", "last_name": "Lovelace", "ifpa_number": 1815}
    assert event.data["from"]["first_name"] == player.first_name


def test_edit_player_another_players_ifpa_number_is_refused_by_name(lo):
    owner = lo.players[1]
    m.Player.objects.filter(pk=owner.pk).update(ifpa_number=77)

    with pytest.raises(ValidationError) as caught:
        services.edit_player(
            season=lo.season, player=lo.players[0], first_name="Ada", last_name="L",
            ifpa_number=77, actor=lo.user,
        )  # fmt: skip

    assert caught.value.message_dict == {
        "ifpa_number": [f"IFPA number 77 is {owner}'s: check the number on ifpapinball.com."]
    }


def test_edit_player_empty_name_and_stranger_are_refused(lo):
    stranger = f.PlayerFactory()

    with pytest.raises(ValidationError) as empty:
        services.edit_player(season=lo.season, player=lo.players[0], first_name=" ",
                             last_name="L", ifpa_number=None, actor=lo.user)  # fmt: skip
    with pytest.raises(ValidationError) as absent:
        services.edit_player(season=lo.season, player=stranger, first_name="A",
                             last_name="B", ifpa_number=None, actor=lo.user)  # fmt: skip

    assert list(empty.value.message_dict) == ["first_name"]
    assert absent.value.message_dict["player"] == [
        f"{stranger} is not entered in Spring: edit them from a roster they are on."
    ]
    assert not m.AuditEvent.objects.filter(action="player.edited").exists()


def test_edit_player_by_a_scorekeeper_is_forbidden(lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=m.LeagueOfficial.Role.SCOREKEEPER)

    with pytest.raises(PermissionDenied):
        services.edit_player(season=lo.season, player=lo.players[0], first_name="A",
                             last_name="B", ifpa_number=None, actor=keeper.user)  # fmt: skip


def test_roster_edit_link_opens_a_prefilled_form_that_saves(client, lo):
    player = lo.players[2]
    url = f"/manage/tuesday/seasons/{lo.season.pk}/roster/"

    opened = client.get(f"{url}?edit={player.pk}")
    saved = client.post(
        url, {"action": "edit", "player": player.pk, "first_name": "Bea",
              "last_name": "Adams", "ifpa_number": ""},
    )  # fmt: skip

    assert f'value="{player.first_name}"' in opened.text
    assert saved.status_code == 302
    player.refresh_from_db()
    assert (player.first_name, player.last_name) == ("Bea", "Adams")


@pytest.fixture
def two_groups(lo):
    """Meet 1 open with two groups of four."""
    lo.players += [f.SeasonEntryFactory(season=lo.season).player for _ in range(4)]
    for _ in range(4):
        f.MachineFactory(league=lo.league)
    started = services.start_meet(
        season=lo.season, number=1, date=datetime.date(2026, 1, 6), actor=lo.user, seed=2
    )
    lo.meet = started.meet
    lo.groups = {
        g.number: [mm.player for mm in g.members.order_by("position")] for g in started.groups
    }
    return lo


FORM_OF = {"forfeits": "forfeit", "malfunctions": "report", "violations": "form"}
"""A console page -> its form (in the page's context) that picks a game and a player."""


@pytest.mark.parametrize("page", list(FORM_OF))
def test_navigation_console_forms_list_only_the_chosen_groups_players_and_games(
    client, two_groups, page
):
    response = client.get(f"/manage/tuesday/meets/{two_groups.meet.pk}/{page}/?group=2")

    form = response.context[FORM_OF[page]]
    players = [label for value, label in form.fields["player"].choices if value]
    games = [label for value, label in form.fields["game"].choices if value]
    assert sorted(players) == sorted(str(p) for p in two_groups.groups[2])
    assert [label[:9] for label in games] == ["Group 2 ·"] * len(games) != []
    assert 'aria-current="page">group 2</a>' in response.text


def test_navigation_console_form_refuses_another_groups_player_when_a_group_is_chosen(
    client, two_groups
):
    game = m.Game.objects.get(group__meet=two_groups.meet, group__number=2)
    outsider = two_groups.groups[1][0]

    response = client.post(
        f"/manage/tuesday/meets/{two_groups.meet.pk}/forfeits/?group=2",
        {"action": "forfeit", "game": game.pk, "player": outsider.pk, "reason": "absent",
         "countable": "on"},
    )  # fmt: skip

    assert response.status_code == 400
    assert "Player: that player is not one of the players offered here" in response.text
    assert not m.Forfeit.objects.exists()
