"""The console's words say what a button or a page does (issue 33 §3): preparing the next
season, importing the roster CSV, the machine pool beside problems and repairs, and counts
in the right number ("1 forfeit")."""

import re

import pytest
from django.contrib.messages import get_messages

from flipwell.league import models as m
from flipwell.web.words import counted
from tests.league.league_night import build_night, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in_four_night(client):
    night = build_night(players=4, machines=4)
    night.slug = night.season.league.slug
    client.force_login(night.user)
    return night


def test_counted_says_one_thing_in_the_singular():
    assert [counted(n, "forfeit") for n in (0, 1, 2)] == ["0 forfeits", "1 forfeit", "2 forfeits"]
    assert counted(2, "match", "matches") == "2 matches"


def test_next_season_button_says_it_prepares_the_season(client, signed_in_four_night):
    page = client.get(
        f"/manage/{signed_in_four_night.slug}/seasons/{signed_in_four_night.season.pk}/next/"
    ).text

    assert "Prepare the next season" in page
    assert "Start the next season" not in page


def test_roster_import_is_named_the_roster_csv(client, signed_in_four_night):
    page = client.get(
        f"/manage/{signed_in_four_night.slug}/seasons/{signed_in_four_night.season.pk}/roster/"
    ).text

    assert "Import the roster CSV" in page
    assert "IFPA CSV" not in page


def test_league_console_names_the_pool_and_the_problems_apart(client, signed_in_four_night):
    page = client.get(f"/manage/{signed_in_four_night.slug}/").text

    links = re.findall(r'<li><a href="[^"]+">([^<]+)</a></li>', page)
    assert "Machine pool" in links
    assert "Problems and repairs" in links
    assert "Machines" not in links


def test_match_absence_message_counts_its_forfeits_in_the_right_number(
    client, signed_in_four_night
):
    """issue 33 §3: "1 forfeits recorded"; the absence's games in the right number (one game
    from game 4, games 1 to 4 from game 1)."""
    meet = start(signed_in_four_night)
    first, second = (
        m.GroupMember.objects.get(group__meet=meet, group__number=1, position=p).player
        for p in (1, 2)
    )
    for player, from_game in ((first, ""), (second, "4")):
        response = client.post(
            f"/manage/{signed_in_four_night.slug}/meets/{meet.pk}/groups/1/",
            {"action": "absence", "players": [player.pk], "note": "Went home",
             "from_game": from_game},
        )  # fmt: skip

    said = [str(message) for message in get_messages(response.wsgi_request)]

    assert said == [
        f"Group 1: {first} absent for the rest of the match; games 1 to 4 are their forfeits.",
        f"Group 1: {second} absent for the rest of the match; game 4 is their forfeit.",
    ]
