"""issue 34 §3, look-alike input through the API: a name with a zero-width space is the same
"Bea Adams", a title with a right-to-left override the same machine, ``LEAGUE-B`` the same
slug as ``league-b``; a route's name is no league's slug, and only canonical zone names are
time zones. Normalised in one place (`flipwell.league.validators`)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.services.setup.league_openers import create_league_opener
from flipwell.league.services.tokens import issue_api_token
from tests.api.conftest import post, token

pytestmark = pytest.mark.django_db

ZWSP, RLO, PDF = "\u200b", "\u202e", "\u202c"


def _opener() -> str:
    user = create_league_opener(username="opener", password="correct horse battery staple 7")
    return issue_api_token(league=None, name="setup", scopes=("leagues",), actor=user).secret


def _fields(response) -> list[str]:
    return sorted(response.json()["error"]["fields"])


def test_a_second_bea_adams_with_a_zero_width_space_is_the_same_player(client, night):
    services.register_player(
        season=night.season, first_name="Bea", last_name="Adams", actor=night.user
    )
    url = f"/api/v1/seasons/{night.season.pk}/players"

    response = post(
        client,
        url,
        {"first_name": f"Be{ZWSP}a", "last_name": f"ADAMS{ZWSP}"},
        token(night.official),
    )

    assert response.status_code == 409
    assert _fields(response) == ["last_name"]
    assert "Bea Adams is already entered" in response.json()["error"]["message"] + str(
        response.json()["error"]["fields"]
    )
    assert m.Player.objects.filter(last_name__iexact="adams").count() == 1


def test_a_full_width_name_is_stored_as_typed_on_a_keyboard(client, night):
    url = f"/api/v1/seasons/{night.season.pk}/players"

    response = post(
        client, url, {"first_name": "Ｄｅｅ", "last_name": " Long  Name "}, token(night.official)
    )

    assert response.status_code == 201
    player = m.Player.objects.get(pk=response.json()["player_id"])
    assert (player.first_name, player.last_name) == ("Dee", "Long Name")


def test_a_title_with_a_right_to_left_override_is_the_machine_the_league_has(client, night):
    url = f"/api/v1/leagues/{night.league.slug}/machines"
    title = night.machines[0].title

    response = post(client, url, {"title": f"{RLO}{title}{PDF}"}, token(night.official))

    assert response.status_code == 422
    assert _fields(response) == ["title"]
    assert m.Machine.objects.filter(league=night.league).count() == len(night.machines)


def test_a_title_differing_only_in_case_and_invisible_characters_is_refused(client, night):
    url = f"/api/v1/leagues/{night.league.slug}/machines"
    title = night.machines[0].title

    response = post(
        client, url, {"title": title.upper().replace(" ", f" {ZWSP}")}, token(night.official)
    )

    assert response.status_code == 422
    assert _fields(response) == ["title"]


def test_league_b_in_capitals_beside_league_b_is_refused(client, night):
    secret = _opener()
    post(client, "/api/v1/leagues", {"name": "B", "slug": "league-b"}, secret)

    response = post(client, "/api/v1/leagues", {"name": "Also B", "slug": "LEAGUE-B"}, secret)

    assert response.status_code == 422
    assert _fields(response) == ["slug"]
    assert m.League.objects.filter(slug__iexact="league-b").count() == 1


def test_a_new_leagues_slug_is_stored_in_lower_case(client, night):
    response = post(client, "/api/v1/leagues", {"name": "C", "slug": "League-C"}, _opener())

    assert response.status_code == 201
    assert m.League.objects.filter(name="C").get().slug == "league-c"


@pytest.mark.parametrize("slug", ["manage", "login", "api", "static", "admin", "Manage", "sheet"])
def test_a_slug_that_shadows_a_route_is_refused(client, night, slug):
    response = post(client, "/api/v1/leagues", {"name": "Shadow", "slug": slug}, _opener())

    assert response.status_code == 422
    assert _fields(response) == ["slug"]
    assert "one of flipwell's own pages" in str(response.json()["error"]["fields"]["slug"])
    assert not m.League.objects.filter(name="Shadow").exists()


@pytest.mark.parametrize(
    "zone", ["localtime", "posix/Europe/Berlin", "right/Europe/Berlin", "posixrules"]
)
def test_a_time_zone_that_names_a_file_of_the_machine_is_refused(client, night, zone):
    body = {"name": "Zoned", "slug": "zoned", "time_zone": zone}

    response = post(client, "/api/v1/leagues", body, _opener())

    assert response.status_code == 422
    assert _fields(response) == ["time_zone"]
    assert not m.League.objects.filter(slug="zoned").exists()


def test_a_canonical_time_zone_is_accepted(client, night):
    body = {"name": "Zoned", "slug": "zoned", "time_zone": "Europe/Berlin"}

    response = post(client, "/api/v1/leagues", body, _opener())

    assert response.status_code == 201
