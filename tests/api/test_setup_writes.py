"""Setting a league up through the API (issue 23 §2): open a league with an installation
token, create a season and change its schedule before it begins, build the machine pool,
read and change the league's readings before the first meet. Each write: its scope, another
league's official refused, 409 with a code for a state conflict, 422 on the field sent."""

from __future__ import annotations

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league.services.setup.league_openers import create_league_opener
from flipwell.league.services.tokens import issue_api_token
from tests import factories as f
from tests.api.conftest import bearer, post, token
from tests.league.league_night import start

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple 7"
SEASON = {"name": "Spring 2026", "weekday": 1, "start_time": "19:30", "number_of_meets": 8}


def opener_token(*scopes: str, username: str = "opener") -> tuple[str, m.ApiToken]:
    """An installation token (scope leagues, and `scopes`) of an account that may open
    leagues."""
    user = create_league_opener(username=username, password=PASSWORD)
    issued = issue_api_token(
        league=None, name="setup script", scopes=("leagues", *scopes), actor=user
    )
    return issued.secret, issued.token


def patch(client, url: str, body: object, secret: str, **headers: str):
    return client.patch(url, body, content_type="application/json", **bearer(secret), **headers)


def error(response) -> tuple[int, str, list[str]]:
    body = response.json()["error"]
    return response.status_code, body["code"], sorted(body["fields"])


# --- opening a league ------------------------------------------------------------------------


def test_installation_token_opens_a_league_its_issuer_officiates(client):
    secret, issued = opener_token()
    body = {"name": "Tuesday Flippers", "slug": "tuesday", "venue": "The Bar"}

    response = post(client, "/api/v1/leagues", body, secret)

    assert response.status_code == 201
    assert response["Location"] == "http://testserver/api/v1/leagues/tuesday"
    assert response.json()["name"] == "Tuesday Flippers"
    assert response.json()["time_zone"] == "UTC"
    assert client.get(response["Location"]).json()["slug"] == "tuesday"
    official = m.LeagueOfficial.objects.get(league__slug="tuesday")
    assert (official.user, official.role) == (issued.issued_by, "league_official")


def test_a_leagues_token_may_not_open_a_league(client, night):
    response = post(
        client, "/api/v1/leagues", {"name": "Other", "slug": "other"}, token(night.official)
    )

    assert error(response) == (403, "forbidden", [])
    assert "installation token" in response.json()["error"]["message"]
    assert not m.League.objects.filter(slug="other").exists()


def test_an_installation_token_whose_issuer_may_no_longer_open_leagues_is_403(client, night):
    secret, issued = opener_token()
    issued.issued_by.user_permissions.clear()

    response = post(client, "/api/v1/leagues", {"name": "Other", "slug": "other"}, secret)

    assert error(response) == (403, "forbidden", [])
    assert not m.League.objects.filter(slug="other").exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Again", "slug": "taken"}, "slug"),
        ({"name": "Zoned", "slug": "zoned", "time_zone": "Mars/Olympus"}, "time_zone"),
        ({"name": "   ", "slug": "blank"}, "name"),
        ({"name": "Bad", "slug": "no spaces"}, "slug"),
    ],
)
def test_open_league_refusals_are_422_on_the_field(client, body, field):
    f.LeagueFactory(slug="taken")
    secret, _ = opener_token()

    response = post(client, "/api/v1/leagues", body, secret)

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == [field]


def test_open_league_retried_with_its_key_opens_one_league(client):
    secret, _ = opener_token()
    body = {"name": "Tuesday Flippers", "slug": "tuesday"}
    key = {"HTTP_IDEMPOTENCY_KEY": "open-1"}

    first = client.post(
        "/api/v1/leagues", body, content_type="application/json", **bearer(secret), **key
    )
    again = client.post(
        "/api/v1/leagues", body, content_type="application/json", **bearer(secret), **key
    )

    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert m.League.objects.filter(slug="tuesday").count() == 1


# --- an installation token in the leagues it officiates ---------------------------------------


def test_installation_token_manages_the_league_it_opened_and_no_other(client, night):
    secret, _ = opener_token("manage")
    post(client, "/api/v1/leagues", {"name": "Tuesday Flippers", "slug": "tuesday"}, secret)

    own = post(client, "/api/v1/leagues/tuesday/seasons", SEASON, secret)
    other = post(client, f"/api/v1/leagues/{night.league.slug}/seasons", SEASON, secret)

    assert own.status_code == 201
    assert error(other) == (403, "forbidden", [])
    assert "holds no role" in other.json()["error"]["message"]
    assert not night.league.seasons.filter(name=SEASON["name"]).exists()


def test_installation_token_without_manage_may_not_create_a_season(client):
    secret, _ = opener_token()
    post(client, "/api/v1/leagues", {"name": "Tuesday Flippers", "slug": "tuesday"}, secret)

    response = post(client, "/api/v1/leagues/tuesday/seasons", SEASON, secret)

    assert error(response) == (403, "forbidden", [])
    assert "'manage'" in response.json()["error"]["message"]


# --- seasons ---------------------------------------------------------------------------------


def test_create_season(client, night):
    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/seasons",
        {**SEASON, "dues_cents": 2000},
        token(night.official, "manage"),
    )

    season = m.Season.objects.get(league=night.league, name="Spring 2026")
    assert response.status_code == 201
    assert response["Location"] == f"http://testserver/api/v1/seasons/{season.pk}"
    assert response.json()["start_time"] == "19:30:00"
    assert (response.json()["state"], response.json()["is_current"]) == ("published", True)
    assert (season.weekday, season.number_of_meets, season.dues_cents) == (1, 8, 2000)


def test_create_season_with_a_used_name_is_422_on_name(client, night):
    body = {**SEASON, "name": night.season.name}

    response = post(
        client, f"/api/v1/leagues/{night.league.slug}/seasons", body, token(night.official)
    )

    assert error(response) == (422, "season_name_taken", ["name"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"weekday": 7}, "weekday"),
        ({"number_of_meets": 0}, "number_of_meets"),
        ({"start_time": "19:30+02:00"}, "start_time"),
        ({"start_time": "half past seven"}, "start_time"),
    ],
)
def test_create_season_with_bad_input_is_422_on_the_field(client, night, change, field):
    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/seasons",
        {**SEASON, **change},
        token(night.official),
    )

    assert error(response) == (422, "invalid_input", [field])


def test_another_leagues_official_may_not_create_a_season(client, night):
    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/seasons",
        SEASON,
        token(f.LeagueOfficialFactory()),
    )

    assert error(response) == (403, "forbidden", [])
    assert "another league" in response.json()["error"]["message"]


def test_change_season_schedule_before_its_first_meet(client, night):
    url = f"/api/v1/seasons/{night.season.pk}"

    response = patch(
        client, url, {"weekday": 3, "start_time": "20:00:00"}, token(night.official, "manage")
    )

    night.season.refresh_from_db()
    assert response.status_code == 200
    assert (response.json()["weekday"], response.json()["start_time"]) == (3, "20:00:00")
    assert (night.season.weekday, night.season.start_time) == (3, datetime.time(20, 0))
    assert night.season.number_of_meets == 10
    event = m.AuditEvent.objects.get(action="season.schedule_changed")
    assert event.data["after"]["start_time"] == "20:00:00"


def test_change_season_schedule_after_its_first_meet_is_409_season_started(client, night):
    start(night)

    response = patch(
        client, f"/api/v1/seasons/{night.season.pk}", {"weekday": 3}, token(night.official)
    )

    night.season.refresh_from_db()
    assert error(response) == (409, "season_started", ["request"])
    assert "Meet 1" in response.json()["error"]["message"]
    assert night.season.weekday != 3


def test_fewer_meets_than_the_last_one_scheduled_is_409_on_number_of_meets(client, night):
    f.MeetFactory(season=night.season, number=6, date=datetime.date(2026, 2, 10))

    response = patch(
        client, f"/api/v1/seasons/{night.season.pk}", {"number_of_meets": 5}, token(night.official)
    )

    assert error(response) == (409, "meets_scheduled", ["number_of_meets"])
    night.season.refresh_from_db()
    assert night.season.number_of_meets == 10


def test_another_leagues_official_may_not_change_a_schedule(client, night):
    response = patch(
        client,
        f"/api/v1/seasons/{night.season.pk}",
        {"weekday": 3},
        token(f.LeagueOfficialFactory()),
    )

    assert error(response) == (403, "forbidden", [])


# --- machines --------------------------------------------------------------------------------


def test_add_a_machine_and_read_it(client, night):
    url = f"/api/v1/leagues/{night.league.slug}/machines"
    body = {"title": "Medieval Madness", "balls_per_game": 5, "location": "back room"}

    response = post(client, url, body, token(night.official, "manage"))
    read = client.get(response["Location"])

    machine = m.Machine.objects.get(title="Medieval Madness")
    assert response.status_code == 201
    assert response["Location"] == f"http://testserver{url}/{machine.pk}"
    assert read.status_code == 200
    assert read["ETag"]
    assert read.json() == {
        "id": machine.pk,
        "title": "Medieval Madness",
        "balls_per_game": 5,
        "location": "back room",
        "status": "playable",
    }


def test_add_a_title_the_league_has_at_that_location_is_422_on_title(client, night):
    url = f"/api/v1/leagues/{night.league.slug}/machines"

    response = post(client, url, {"title": night.machines[0].title}, token(night.official))

    assert error(response) == (422, "machine_exists", ["title"])


def test_change_a_machine(client, night):
    machine = night.machines[0]
    url = f"/api/v1/leagues/{night.league.slug}/machines/{machine.pk}"

    response = patch(client, url, {"location": "by the door"}, token(night.official))

    machine.refresh_from_db()
    assert response.status_code == 200
    assert response.json()["location"] == "by the door"
    assert (machine.location, machine.balls_per_game) == ("by the door", 3)


def test_retire_a_machine_and_put_it_back(client, night):
    machine = night.machines[0]
    url = f"/api/v1/leagues/{night.league.slug}/machines/{machine.pk}/status"
    secret = token(night.official)

    retired = post(client, url, {"status": "unplayable", "reason": "Sold"}, secret)
    again = post(client, url, {"status": "unplayable", "reason": "Sold"}, secret)
    back = post(client, url, {"status": "playable", "reason": "Bought back"}, secret)

    assert retired.status_code == 201
    assert retired["Location"].endswith(f"/machines/{machine.pk}")
    assert retired.json()["machine"]["status"] == "unplayable"
    assert m.Ruling.objects.get(pk=retired.json()["ruling_id"]).reason == "Sold"
    assert error(again) == (409, "machine_already_in_status", ["status"])
    assert back.json()["machine"]["status"] == "playable"


def test_another_leagues_machine_is_404_and_its_official_403(client, night):
    other = build_other()
    url = f"/api/v1/leagues/{night.league.slug}/machines/{other.pk}"

    mine = patch(client, url, {"location": "x"}, token(night.official))
    theirs = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/machines",
        {"title": "Twilight Zone"},
        token(f.LeagueOfficialFactory()),
    )

    assert error(mine) == (404, "not_found", [])
    assert error(theirs) == (403, "forbidden", [])
    assert client.get(url).status_code == 404


def build_other() -> m.Machine:
    return f.MachineFactory(league=f.LeagueFactory())


def test_machine_writes_need_the_manage_scope(client, night):
    machine = night.machines[0]
    secret = token(night.official, "scores")
    base = f"/api/v1/leagues/{night.league.slug}/machines"

    answers = [
        post(client, base, {"title": "Twilight Zone"}, secret),
        patch(client, f"{base}/{machine.pk}", {"location": "x"}, secret),
        post(
            client, f"{base}/{machine.pk}/status", {"status": "unplayable", "reason": "x"}, secret
        ),
    ]

    assert [error(a) for a in answers] == [(403, "forbidden", [])] * 3


# --- the league's readings -------------------------------------------------------------------


def test_read_the_ruleset(client, night):
    response = client.get(f"/api/v1/leagues/{night.league.slug}/ruleset")

    body = response.json()
    limit = next(s for s in body["settings"] if s["name"] == "season_forfeit_limit")
    assert response.status_code == 200
    assert response["ETag"]
    assert (body["changeable"], body["locked"]) == (True, "")
    assert limit["value"] == limit["default"]
    assert limit["reading"]["rules"]


def test_change_a_reading_before_the_first_meet(client, night):
    url = f"/api/v1/leagues/{night.league.slug}/ruleset"
    body = {"setting": "season_forfeit_limit", "value": "8", "reason": "Short season"}

    response = patch(client, url, body, token(night.official, "manage"))

    limit = next(s for s in response.json()["settings"] if s["name"] == "season_forfeit_limit")
    night.season.refresh_from_db()
    assert response.status_code == 200
    assert (limit["value"], limit["changed"]) == ("8", True)
    assert night.season.ruleset_overrides == {"season_forfeit_limit": 8}
    assert m.Ruling.objects.filter(kind="ruleset_setting").count() == 1


def test_change_a_reading_after_the_first_meet_is_409_with_the_reason(client, night):
    start(night)
    url = f"/api/v1/leagues/{night.league.slug}/ruleset"
    body = {"setting": "season_forfeit_limit", "value": "8", "reason": "Short season"}

    response = patch(client, url, body, token(night.official))
    read = client.get(url).json()

    assert error(response) == (409, "season_begun", ["value"])
    assert f"{night.season.name} has begun" in response.json()["error"]["message"]
    assert (read["changeable"], read["locked"]) == (False, response.json()["error"]["message"])
    assert m.Ruling.objects.filter(kind="ruleset_setting").count() == 0


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"setting": "no_such_setting", "value": "1", "reason": "x"}, "setting", "unknown_setting"),
        (
            {"setting": "season_forfeit_limit", "value": "many", "reason": "x"},
            "value",
            "invalid_setting_value",
        ),
        (
            {"setting": "season_forfeit_limit", "value": "8", "reason": " "},
            "reason",
            "reason_required",
        ),
    ],
)
def test_a_bad_reading_is_422_on_the_field(client, night, body, field, code):
    url = f"/api/v1/leagues/{night.league.slug}/ruleset"

    response = patch(client, url, body, token(night.official))

    assert error(response) == (422, code, [field])


def test_another_leagues_official_may_not_change_a_reading(client, night):
    url = f"/api/v1/leagues/{night.league.slug}/ruleset"
    body = {"setting": "season_forfeit_limit", "value": "8", "reason": "x"}

    response = patch(client, url, body, token(f.LeagueOfficialFactory()))

    assert error(response) == (403, "forbidden", [])
    night.league.refresh_from_db()
    assert night.league.ruleset_overrides == {}
