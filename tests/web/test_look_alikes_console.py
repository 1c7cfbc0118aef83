"""issue 34 §3, look-alike input on the console: the same normalisation as the API
(`flipwell.league.validators`): a second "Bea Adams" with a zero-width space, a machine title
with a right-to-left override, ``LEAGUE-B`` beside ``league-b``, a slug that shadows a route
and a time zone that names a file of the machine are refused, and nothing is stored."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.validators import clean_line, line_key, reserved_slugs
from tests import factories as f
from tests.league.league_night import build_night

pytestmark = pytest.mark.django_db

ZWSP, RLO, PDF, ZWJ, BOM = "\u200b", "\u202e", "\u202c", "\u200d", "\ufeff"


@pytest.fixture
def look_alike_night(client):
    night = build_night(players=4, machines=2)
    client.force_login(night.user)
    night.slug = night.league.slug
    services.register_player(
        season=night.season, first_name="Bea", last_name="Adams", actor=night.user
    )
    return night


def test_clean_line_removes_invisible_and_bidi_characters_and_extra_spaces():
    assert clean_line(f" {BOM}Bea{ZWSP}  Ad{ZWJ}ams\u00a0") == "Bea Adams"
    assert clean_line(f"{RLO}Medieval Madness{PDF}") == "Medieval Madness"
    assert clean_line("Ｍｅｄｉｅｖａｌ") == "Medieval"
    assert line_key("BEA adams") == line_key(f"bea{ZWSP} ADAMS")


def test_reserved_slugs_are_the_urlconfs_first_segments():
    reserved = reserved_slugs()

    assert {"manage", "login", "logout", "api", "static", "admin", "leagues", "sheet"} <= reserved
    assert {"tv", "me", "print", "live", "forgot-password", "set-password"} <= reserved


def test_console_registering_a_second_bea_adams_with_a_zero_width_space_is_refused(
    client, look_alike_night
):
    url = f"/manage/{look_alike_night.slug}/seasons/{look_alike_night.season.pk}/roster/"

    response = client.post(
        url, {"action": "register", "first_name": f"Bea{ZWSP}", "last_name": f"A{ZWSP}dams"}
    )

    assert response.status_code == 400
    assert "Bea Adams is already entered" in response.text
    assert m.Player.objects.filter(first_name__startswith="Bea").count() == 1


def test_console_renaming_keeps_no_invisible_character(client, look_alike_night):
    bea = m.Player.objects.get(first_name="Bea")
    url = f"/manage/{look_alike_night.slug}/seasons/{look_alike_night.season.pk}/roster/"

    client.post(
        url,
        {"action": "edit", "player": bea.pk, "first_name": f"{RLO}Bea{PDF}", "last_name": "Adams"},
    )

    bea.refresh_from_db()
    assert bea.first_name == "Bea"


def test_console_machine_with_a_right_to_left_override_is_the_machine_the_league_has(
    client, look_alike_night
):
    url = f"/manage/{look_alike_night.slug}/machines/pool/"
    title = look_alike_night.machines[0].title

    one = client.post(url, {"action": "add", "title": f"{RLO}{title}{PDF}", "balls_per_game": 3})
    many = client.post(
        url,
        {"action": "add_many", "many-titles": f"{title.upper()}{ZWSP}", "many-balls_per_game": 3},
    )

    assert (one.status_code, many.status_code) == (400, 400)
    assert m.Machine.objects.filter(league=look_alike_night.league).count() == 2


@pytest.fixture
def staff(client):
    client.force_login(f.UserFactory(is_staff=True, is_superuser=True))
    f.LeagueFactory(slug="league-b")


def _open(client, **fields):
    body = {"action": "create", "name": "New", "slug": "new", "time_zone": "UTC", **fields}
    return client.post("/manage/leagues/new/", body)


def test_console_league_b_in_capitals_beside_league_b_is_refused(client, staff):
    response = _open(client, slug="LEAGUE-B")

    assert response.status_code == 400
    assert "is taken by another league" in response.text
    assert m.League.objects.count() == 1


@pytest.mark.parametrize("slug", ["manage", "login", "api", "static"])
def test_console_a_slug_that_shadows_a_route_is_refused(client, staff, slug):
    response = _open(client, slug=slug)

    assert response.status_code == 400
    assert "one of flipwell&#x27;s own pages" in response.text
    assert m.League.objects.count() == 1


@pytest.mark.parametrize("zone", ["localtime", "posix/Europe/Berlin"])
def test_console_a_time_zone_that_names_a_file_of_the_machine_is_refused(client, staff, zone):
    response = _open(client, time_zone=zone)

    assert response.status_code == 400
    assert m.League.objects.count() == 1


def test_console_a_league_with_a_plain_slug_opens(client, staff):
    response = _open(client, slug="league-c", name=f"League{ZWSP} C")

    assert response.status_code == 302
    assert m.League.objects.get(slug="league-c").name == "League C"


def test_console_renaming_a_player_to_a_look_alike_of_another_is_refused(client, look_alike_night):
    services.register_player(
        season=look_alike_night.season,
        first_name="Cy",
        last_name="Dane",
        actor=look_alike_night.user,
    )
    cy = m.Player.objects.get(first_name="Cy")
    url = f"/manage/{look_alike_night.slug}/seasons/{look_alike_night.season.pk}/roster/"

    response = client.post(
        url, {"action": "edit", "player": cy.pk, "first_name": "BEA", "last_name": f"Ad{ZWSP}ams"}
    )

    assert response.status_code == 400
    assert "Bea Adams is already a player of" in response.text
    cy.refresh_from_db()
    assert (cy.first_name, cy.last_name) == ("Cy", "Dane")
