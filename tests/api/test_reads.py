"""Public reads over the golden season: every endpoint, numbers as JSON numbers, pages."""

from __future__ import annotations

import datetime
import json
import re
from fractions import Fraction

import pytest

from flipwell.league import models as m
from flipwell.league.services.season_files import import_season_file
from tests import factories as f
from tests.golden import GOLDEN

BARE_KEY = re.compile(r"^\d|(?:bonus to|and|between) \d|\d's\b")
"""A player id where an explanation puts a player: the rules' keys are the database ids."""

pytestmark = pytest.mark.django_db


def test_leagues_list_pages_with_next_link(client):
    for _ in range(3):
        f.LeagueFactory()

    first = client.get("/api/v1/leagues?limit=2").json()
    second = client.get(first["next"]).json()

    assert len(first["results"]) == 2
    assert len(second["results"]) == 1
    assert second["next"] is None
    assert {x["slug"] for x in first["results"] + second["results"]} == set(
        m.League.objects.values_list("slug", flat=True)
    )


def test_league_detail_and_unknown_league_is_404_in_the_error_shape(client, official):
    league = official.league

    found = client.get(f"/api/v1/leagues/{league.slug}")
    missing = client.get("/api/v1/leagues/no-such-league")

    assert found.json() == {
        "slug": league.slug,
        "name": league.name,
        "venue": league.venue,
        "time_zone": league.time_zone,
        "current_season": None,
    }
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_bad_cursor_is_422_on_the_cursor_field(client):
    response = client.get("/api/v1/leagues?cursor=bm9wZQ")

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["cursor"]


def test_seasons_players_and_meets_of_the_golden_season(client, golden):
    league = golden.league

    seasons = client.get(f"/api/v1/leagues/{league.slug}/seasons").json()
    season = client.get(f"/api/v1/seasons/{golden.pk}").json()
    players = client.get(f"/api/v1/seasons/{golden.pk}/players?limit=200").json()
    meets = client.get(f"/api/v1/seasons/{golden.pk}/meets").json()

    assert [s["id"] for s in seasons["results"]] == [golden.pk]
    assert season["number_of_meets"] == golden.number_of_meets
    assert len(players["results"]) == len(GOLDEN["entrants"])
    assert players["next"] is None
    assert [x["number"] for x in meets["results"]] == list(range(1, 11))
    assert {x["status"] for x in meets["results"]} == {"closed"}


def test_standings_match_the_golden_file_and_points_are_numbers(client, golden):
    body = client.get(f"/api/v1/seasons/{golden.pk}/standings").json()
    names = {(e["first_name"], e["last_name"]): e["player"] for e in GOLDEN["entrants"]}
    by_id = {
        p.pk: names[(p.first_name, p.last_name)]
        for p in m.Player.objects.filter(season_entries__season=golden)
    }

    got = [(by_id[x["player"]["id"]], x["league_points_exact"]) for x in body["lines"]]

    assert got == [(e["player"], e["league_points"]) for e in GOLDEN["expected_standings"]]
    first = body["lines"][0]
    assert first["league_points"] == 214
    assert isinstance(first["league_points"], int | float)
    assert first["race_status"] in ("clinched", "alive", "eliminated", None)
    assert len(first["points_after_meet"]) == 10


def test_fractional_points_are_a_decimal_number_and_an_exact_fraction(client, golden):
    lines = client.get(f"/api/v1/seasons/{golden.pk}/standings").json()["lines"]

    halves = [x for x in lines if "/" in x["league_points_exact"]]

    assert halves, "the golden season has a credit of half a night"
    for line in halves:
        numerator, denominator = map(int, line["league_points_exact"].split("/"))
        assert line["league_points"] == round(numerator / denominator, 6)


def test_player_history_explains_every_point(client, golden):
    entry = golden.entries.first()

    body = client.get(f"/api/v1/seasons/{golden.pk}/players/{entry.player_id}/history").json()

    assert body["player"]["id"] == entry.player_id
    assert len(body["meets"]) == 10
    played = [g for meet in body["meets"] for g in meet["games"]]
    assert played
    assert all(g["explanation"] for g in played)
    assert body["meets"][-1]["total_after_exact"] == body["league_points_exact"]


def test_player_history_explanations_name_players_by_name(client, golden):
    """R3.2-e, R3.2-f: every explanation line writes players by name, never by database id."""
    entry = golden.entries.select_related("player").order_by("pk").first()

    body = client.get(f"/api/v1/seasons/{golden.pk}/players/{entry.player_id}/history").json()

    assert body["meets"][0]["games"][0]["explanation"] == [
        "Bea Adams finished 1st of 4: 7 points [R3.2-e]",
        "Bea Adams's 2,044,630 > Dee Cruz + Cal Brooks's 1,149,020: bonus to Bea Adams [R3.2-f]",
    ]
    lines = [
        line
        for meet in body["meets"]
        for line in (
            *meet["match_bonus_explanation"],
            *(x for g in meet["games"] for x in g["explanation"]),
        )
    ]
    assert [line for line in lines if BARE_KEY.search(line)] == []


def test_history_of_a_player_not_in_the_season_is_404(client, golden):
    stranger = f.PlayerFactory()

    response = client.get(f"/api/v1/seasons/{golden.pk}/players/{stranger.pk}/history")

    assert response.status_code == 404


def test_ladder_and_playoffs_of_a_finished_season(client, golden):
    ladder = client.get(f"/api/v1/seasons/{golden.pk}/ladder").json()
    playoffs = client.get(f"/api/v1/seasons/{golden.pk}/playoffs").json()

    assert ladder["meet_number"] == 11
    active = [e for e in GOLDEN["expected_standings"] if e["season_forfeited_at"] is None]
    assert len(ladder["ladder"]) == len(active)
    assert playoffs == {
        "season_id": golden.pk,
        "date": None,
        "status": "not planned",
        "ties": [],
        "divisions": [],
    }


def test_meet_board_and_game_show_scores_as_integers(client, golden):
    meet = golden.meets.get(number=1)

    board = client.get(f"/api/v1/meets/{meet.pk}").json()
    game_id = board["groups"][0]["games"][0]["id"]
    game = client.get(f"/api/v1/games/{game_id}").json()

    assert board["status"] == "closed"
    assert all(len(g["games"]) == 4 for g in board["groups"])
    scores = board["groups"][0]["games"][0]["scores"]
    assert all(isinstance(s["machine_score"], int | None) for s in scores)
    assert game["submissions"][-1]["confirmed_by"] is not None


def test_huge_machine_score_is_a_json_integer(client, night):
    from tests.league.league_night import game, play, start

    meet = start(night)
    first = game(meet, 1, 1)
    players = [m.player for m in first.group.members.order_by("position")]
    huge = 2**62 + 12345
    play(first, {p: huge - i for i, p in enumerate(players)})

    raw = client.get(f"/api/v1/games/{first.pk}").content.decode()

    assert str(huge) in raw
    assert json.loads(raw)["submissions"][0]["scores"][0]["machine_score"] == huge


def test_machines_and_special_rulings(client, official):
    machine = f.MachineFactory(league=official.league, title="Ghostbusters")
    f.MaintenanceNoteFactory(machine=machine, text="new flipper rubbers")
    f.SpecialRulingFactory(
        league=official.league,
        machine_title="Ghostbusters",
        number=1,
        version=1,
        reproduction_notes="hit the ramp",
    )

    machines = client.get(f"/api/v1/leagues/{official.league.slug}/machines").json()
    slug = official.league.slug
    every = client.get(f"/api/v1/special-rulings?league={slug}").json()
    in_force = client.get(f"/api/v1/leagues/{slug}/special-rulings?machine_title=Ghostbusters")

    assert machines["results"][0]["title"] == "Ghostbusters"
    assert machines["results"][0]["maintenance"][0]["text"] == "new flipper rubbers"
    assert len(every["results"]) == 1
    assert in_force.json()["results"][0]["ruling_id"] == "Ghostbusters #1"


def test_unknown_api_path_answers_the_error_shape(client):
    response = client.get("/api/v1/no/such/thing")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_docs_page_is_self_hosted(client):
    page = client.get("/api/v1/docs").content.decode()

    assert "/static/ninja/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower()
    assert client.get("/static/ninja/swagger-ui-bundle.js").status_code == 200
    assert client.get("/static/ninja/swagger-ui-init.js").status_code == 200


@pytest.fixture
def live(official) -> m.Season:
    """The golden season's first 4 meets in a 10-meet season, meet 4 open."""
    return import_season_file(
        league=official.league,
        name="Live",
        data={**GOLDEN, "meets": GOLDEN["meets"][:4], "number_of_meets": 10},
        first_meet=datetime.date(2026, 1, 7),
        open_last_meet=True,
        actor=official.user,
    )


def test_standings_during_an_open_meet_add_up_and_are_provisional(client, live):
    """issue 26 §4: 3 closed + meet 4 open of 10: 3 played, 7 left (it said 4 and 7), and the
    open meet's points are flagged provisional, line by line."""
    body = client.get(f"/api/v1/seasons/{live.pk}/standings").json()

    assert (body["meets_played"], body["meets_left"], body["open_meet"], body["provisional"]) == (
        3,
        7,
        4,
        True,
    )
    first = body["lines"][0]
    assert first["provisional_points"] > 0
    assert first["points_after_meet"][2] + first["provisional_points"] == first["league_points"]


def test_player_history_and_stats_during_an_open_meet_add_up(client, live):
    """issue 26 §4: the history and the statistics carry the same league points, the open
    meet's part flagged provisional; without it, the stats' points per meet times the meets
    held give the points of the meets held (they showed 78 beside "68/3")."""
    player = client.get(f"/api/v1/seasons/{live.pk}/standings").json()["lines"][0]["player"]
    history = client.get(f"/api/v1/seasons/{live.pk}/players/{player['id']}/history").json()
    stats = client.get(f"/api/v1/leagues/{live.league.slug}/players/{player['id']}/stats").json()

    line = stats["seasons"][0]
    assert (history["provisional"], history["open_meet"], line["provisional"]) == (True, 4, True)
    assert history["league_points"] == line["league_points"]
    assert history["provisional_points"] == line["provisional_points"] > 0
    assert (line["meets_held"], line["meets_attended"]) == (3, 3)
    assert Fraction(line["league_points_exact"]) - Fraction(
        line["provisional_points_exact"]
    ) == 3 * Fraction(line["points_per_meet_exact"])


def test_standings_of_a_closed_season_are_not_provisional(client, golden):
    """issue 26 §4: no open meet, nothing provisional: 10 played, 0 left."""
    body = client.get(f"/api/v1/seasons/{golden.pk}/standings").json()

    assert (body["meets_played"], body["meets_left"], body["open_meet"]) == (10, 0, None)
    assert (body["provisional"], body["lines"][0]["provisional_points"]) == (False, 0)
