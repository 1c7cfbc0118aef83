"""The console's incident forms (forfeits, late arrivals, malfunctions, compensatory games)
offer each game's players: the players of a game's group, one option group per group, and
refuse a player who does not play the game chosen, naming its players (issue 33 §3)."""

import re

import pytest

from flipwell.league import models as m
from tests.league.league_night import build_night, game, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_meet_night(client):
    """Meet 1 open with two groups of four."""
    night = build_night(players=8, machines=8)
    night.meet = start(night)
    night.url = f"/manage/{night.season.league.slug}/meets/{night.meet.pk}/"
    client.force_login(night.user)
    return night


def _groups(html, field_id):
    """A select's option groups: label -> the names offered in it."""
    select = re.search(rf'<select name="[^"]+"[^>]*id="{field_id}"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, field_id
    return {
        label: re.findall(r'<option value="\d+"[^>]*>([^<]*)<', options)
        for label, options in re.findall(
            r'<optgroup label="([^"]+)">(.*?)</optgroup>', select[1], re.S
        )
    }


def _members(open_meet_night, number):
    members = m.GroupMember.objects.filter(group__meet=open_meet_night.meet, group__number=number)
    return [str(row.player) for row in members.order_by("position").select_related("player")]


@pytest.mark.parametrize(
    ("page", "field_id"),
    [
        ("forfeits/", "id_forfeit_player"),
        ("forfeits/", "id_late_player"),
        ("malfunctions/", "id_malfunction_player"),
        ("malfunctions/", "id_malfunction_slammer"),
        ("malfunctions/", "id_grant_player"),
    ],
)
def test_incident_form_offers_each_groups_players_together(client, open_meet_night, page, field_id):
    html = client.get(open_meet_night.url + page).text

    assert _groups(html, field_id) == {
        "Group 1": _members(open_meet_night, 1),
        "Group 2": _members(open_meet_night, 2),
    }


def _stranger_message(open_meet_night):
    first = game(open_meet_night.meet, 1, 1)
    stranger = m.GroupMember.objects.get(
        group__meet=open_meet_night.meet, group__number=2, position=1
    )
    names = _members(open_meet_night, 1)
    said = (
        f"{stranger.player} does not play game 1 of group 1: its players are "
        f"{', '.join(names[:-1])} and {names[-1]}."
    )
    return first, stranger.player, said


def test_forfeit_form_refuses_a_player_of_another_group_naming_the_games_players(
    client, open_meet_night
):
    first, stranger, said = _stranger_message(open_meet_night)

    response = client.post(
        open_meet_night.url + "forfeits/",
        {"action": "forfeit", "game": first.pk, "player": stranger.pk, "reason": "absent",
         "countable": "on"},
    )  # fmt: skip

    assert response.status_code == 400
    assert said in response.text.replace("&#x27;", "'")
    assert not m.Forfeit.objects.exists()


def test_malfunction_form_refuses_a_player_of_another_group_naming_the_games_players(
    client, open_meet_night
):
    first, stranger, said = _stranger_message(open_meet_night)

    response = client.post(
        open_meet_night.url + "malfunctions/",
        {"action": "malfunction", "game": first.pk, "player": stranger.pk, "ball": "1",
         "reason_code": "forced_tilt_stuck_ball", "ball_in_play": "on"},
    )  # fmt: skip

    assert response.status_code == 400
    assert said in response.text.replace("&#x27;", "'")
    assert not m.Malfunction.objects.exists()


def test_incident_form_of_one_group_offers_only_its_players(client, open_meet_night):
    html = client.get(open_meet_night.url + "malfunctions/?group=2").text

    select = re.search(
        r'<select name="player"[^>]*id="id_malfunction_player"[^>]*>(.*?)</select>', html, re.S
    )
    assert re.findall(r'<option value="\d+"[^>]*>([^<]*)<', select[1]) == _members(
        open_meet_night, 2
    )
