"""Public pages: reachable without login, showing only public data, one test per page."""

import datetime
import json
from fractions import Fraction
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.selectors.standings import standings
from flipwell.league.services.season_files import import_season_file
from flipwell.web.templatetags.flipwell_numbers import num, ordinal
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "golden_season.json").read_text())


@pytest.fixture
def open_night():
    """A started meet of 8 players: two groups, game 1 of group 1 confirmed."""
    night = night_.build_night(players=8, machines=8)
    meet = night_.start(night)
    members = list(night_.group(meet, 1).members.order_by("position"))
    scores = {mm.player: 1_000_000 * (i + 1) for i, mm in enumerate(members)}
    night_.play(night_.game(meet, 1, 1), scores)
    return night, meet


# --- the league list ---


def test_league_list_shows_every_league(client):
    f.LeagueFactory(name="Tuesday Flippers", venue="The Silver Ball", slug="tuesday")

    response = client.get("/")

    assert response.status_code == 200
    assert "Tuesday Flippers" in response.text
    assert "The Silver Ball" in response.text
    assert 'href="/leagues/tuesday/"' in response.text


def test_league_list_without_leagues_says_how_to_start(client):
    response = client.get("/")

    assert "flipwell demo" in response.text


def test_vendored_htmx_is_served_by_the_app(client):
    response = client.get("/static/flipwell/htmx.min.js")

    assert response.status_code == 200
    assert b"htmx" in b"".join(response.streaming_content)


# --- standings ---


def test_league_home_shows_standings_playoff_line_and_chart(client, tuesday_golden):
    response = client.get("/leagues/tuesday/")

    assert response.status_code == 200
    page = response.context["page"]
    assert page.season.id == tuesday_golden.pk
    assert len(page.standings.lines) == len(GOLDEN["expected_standings"])
    assert response.text.count('class="in') == page.standings.playoff_qualifiers
    assert response.text.count('in cut"') == 1
    assert '<svg class="chart points-chart wide"' in response.text
    assert '<svg class="chart points-chart narrow"' in response.text  # for a phone
    assert response.text.count('<svg class="spark"') == len(page.standings.lines)


def test_league_home_shows_league_points_as_exact_decimals(client, tuesday_golden):
    response = client.get("/leagues/tuesday/")

    fractional = [
        line for line in response.context["page"].standings.lines if line.league_points % 1
    ]
    assert fractional, "the golden season has quarter-point credits"
    assert f">{num(fractional[0].league_points)}<" in response.text


def test_league_home_without_season_says_so(client):
    f.LeagueFactory(slug="empty")

    response = client.get("/leagues/empty/")

    assert response.status_code == 200
    assert "no season yet" in response.text


def test_league_home_of_unknown_league_is_404(client):
    assert client.get("/leagues/nope/").status_code == 404


def test_season_page_shows_that_season(client, tuesday_golden):
    response = client.get(f"/leagues/tuesday/seasons/{tuesday_golden.pk}/")

    assert response.status_code == 200
    assert response.context["page"].season.name == "Winter 2026"


def test_season_page_of_another_league_is_404(client, tuesday_golden):
    f.LeagueFactory(slug="other")

    assert client.get(f"/leagues/other/seasons/{tuesday_golden.pk}/").status_code == 404


def test_standings_page_query_count_does_not_grow_with_the_season(client, tuesday_golden):
    with CaptureQueriesContext(connection) as queries:
        client.get("/leagues/tuesday/")

    assert len(queries) <= 30


# --- a meet ---


def test_meet_page_shows_groups_scores_and_who_picks_next(client, open_night):
    night, meet = open_night

    response = client.get(f"/leagues/{night.league.slug}/meets/{meet.pk}/")

    assert response.status_code == 200
    group1, group2 = response.context["page"].groups
    assert group1.now.endswith("picks the machine for game 2.")
    assert group1.next_picker in response.text
    assert "4,000,000" in response.text.replace("<wbr>", "")  # a long score's break points
    assert group2.now.startswith("Game 1 on ")
    assert 'hx-trigger="every 10s, flipwell:live"' in response.text


def test_meet_page_htmx_request_gets_only_the_board(client, open_night):
    night, meet = open_night

    response = client.get(
        f"/leagues/{night.league.slug}/meets/{meet.pk}/", headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="board"')
    assert "<html" not in response.text


def test_meet_page_of_another_league_is_404(client, open_night):
    _night, meet = open_night
    f.LeagueFactory(slug="other")

    assert client.get(f"/leagues/other/meets/{meet.pk}/").status_code == 404


def test_closed_meet_page_does_not_poll(client, tuesday_golden):
    meet = tuesday_golden.meets.get(number=1)

    response = client.get(f"/leagues/tuesday/meets/{meet.pk}/")

    assert response.status_code == 200
    assert "hx-trigger" not in response.text


# --- a player ---


def test_player_page_explains_every_point_with_names(client, tuesday_golden):
    entry = tuesday_golden.entries.select_related("player").order_by("pk").first()

    response = client.get(f"/leagues/tuesday/players/{entry.player_id}/")

    assert response.status_code == 200
    history = response.context["page"].history
    assert len(history.meets) == 10
    lines = [x for meet in history.meets for game in meet.games for x in game.explanation]
    assert any(line.startswith(f"{entry.player} finished") for line in lines)
    assert history.meets[0].games[0].explanation == (
        "Bea Adams finished 1st of 4: 7 points [R3.2-e]",
        "Bea Adams's 2,044,630 > Dee Cruz + Cal Brooks's 1,149,020: bonus to Bea Adams [R3.2-f]",
    )
    assert f"{entry.player.first_name} {entry.player.last_name}" in response.text


def test_player_page_of_a_player_not_in_the_league_is_404(client, tuesday_golden):
    stranger = f.PlayerFactory()

    assert client.get(f"/leagues/tuesday/players/{stranger.pk}/").status_code == 404


def test_player_page_with_a_bad_season_parameter_is_404(client, tuesday_golden):
    entry = tuesday_golden.entries.first()

    response = client.get(f"/leagues/tuesday/players/{entry.player_id}/?season=x")

    assert response.status_code == 404


# --- playoffs ---


def test_playoffs_page_without_a_playoff_night_says_so(client, tuesday_golden):
    response = client.get("/leagues/tuesday/playoffs/")

    assert response.status_code == 200
    assert "No playoff night yet" in response.text


def test_playoffs_page_shows_divisions_bracket_and_places(client):
    from flipwell.league.exchange.demo import create_demo_league

    demo = create_demo_league()

    response = client.get(f"/leagues/{demo.league.slug}/playoffs/")

    assert response.status_code == 200
    (division, diagram, narrow), *_ = response.context["diagrams"]
    assert division.complete
    assert '<svg class="chart bracket wide"' in diagram
    assert '<svg class="chart bracket narrow"' in narrow  # for a phone
    assert "Final places" in response.text
    assert division.places[0][1].name in response.text


# --- machines and the maintenance sheet ---


def test_machines_page_lists_machines_with_their_special_rulings(client):
    league = f.LeagueFactory(slug="arcade")
    f.MachineFactory(league=league, title="The Addams Family", location="Front row")
    f.SpecialRulingFactory(
        league=league,
        machine_title="The Addams Family",
        text="Thing flips into outlane.",
        reproduction_notes="Lock a ball in Thing.",
    )
    f.SpecialRulingFactory(
        league=league,
        machine_title="Godzilla",
        text="Not here.",
        reproduction_notes="Start multiball.",
    )

    response = client.get("/leagues/arcade/machines/")

    assert response.status_code == 200
    assert "The Addams Family" in response.text
    assert "Thing flips into outlane." in response.text
    assert "Not here." not in response.text


def test_maintenance_page_shows_notes_but_not_who_wrote_them(client):
    league = f.LeagueFactory(slug="arcade")
    machine = f.MachineFactory(league=league, title="Godzilla")
    f.MaintenanceNoteFactory(
        machine=machine, text="Left flipper weak.", created_by__username="secret-lo"
    )

    response = client.get("/leagues/arcade/maintenance/")

    assert response.status_code == 200
    assert "Left flipper weak." in response.text
    assert "secret-lo" not in response.text


# --- nothing private ---


def test_public_pages_show_no_ledger_entry(client, tuesday_golden):
    f.LedgerEntryFactory(league=tuesday_golden.league, note="Paid in cash to Bob")

    for url in ("/leagues/tuesday/", "/leagues/tuesday/machines/", "/leagues/tuesday/playoffs/"):
        assert "Paid in cash" not in client.get(url).text


# --- number formatting ---


def test_num_formats_scores_and_exact_points():
    assert (num(1234567), num(Fraction(79, 4)), num(Fraction(92)), num(None)) == (
        "1,234,567",
        "19.75",
        "92",
        "–",
    )


def test_ordinal_names_places():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
    ]


@pytest.fixture
def live_season():
    """The golden season's first 4 meets in a 10-meet season, meet 4 open."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    return import_season_file(
        league=official.league,
        name="Winter",
        data={**GOLDEN, "meets": GOLDEN["meets"][:4], "number_of_meets": 10},
        first_meet=datetime.date(2026, 1, 7),
        open_last_meet=True,
        actor=official.user,
    )


def test_season_page_during_open_meet_says_live_and_meets_left(client, live_season):
    """issue 26 §4: an open meet is no meet played yet and is among the meets left (R6.1-d
    race): 3 played + 7 left = 10 (it said 4 played and 7 left); its points are provisional."""
    response = client.get(f"/leagues/{live_season.league.slug}/seasons/{live_season.pk}/")

    assert (
        "live standings during meet 4 of 10: 3 meets played, 7 still to score (meet 4 "
        "included). Meet 4's points are provisional until it closes; the table updates "
        "itself as scores are confirmed." in response.text
    )
    assert "Provisional: the points from meet 4, which is being played" in response.text


def test_season_page_refreshes_its_standings_on_the_live_stream_during_an_open_meet(
    client, live_season
):
    """issue 36: the standings (table, legend, chart) refresh themselves on the league's live
    stream while a meet is played, and only when the standings part of its revision changed
    (live.js's ``data-live-refresh="standings"``), its stream bringing their part
    (``data-live-watch``: flipwell.web.live_parts); a season with no meet open is not live."""
    url = f"/leagues/{live_season.league.slug}/seasons/{live_season.pk}/"

    page = client.get(url).text

    live_season.league.refresh_from_db()
    assert (
        f'<div id="standings-live" hx-get="{url}" hx-trigger="flipwell:live" '
        'hx-select="#standings-live" hx-swap="outerHTML" data-live-refresh="standings" '
        f'data-live-events="/live/{live_season.league.slug}/events/" '
        f'data-live-revision="{live_season.league.revision}" '
        f'data-live-watch="standings={live_season.pk}">' in page
    )
    assert "flipwell/live.js" in page


def test_season_page_without_an_open_meet_is_not_live(client, golden):
    page = client.get(f"/leagues/{golden.league.slug}/seasons/{golden.pk}/").text

    assert '<div id="standings-live">' in page
    assert "data-live-refresh" not in page
    assert "flipwell/live.js" not in page


def test_player_page_during_open_meet_marks_the_provisional_points(client, live_season):
    """issue 26 §4: the player page's league points include the open meet's, marked
    provisional, and the statistics' meets held leave it out, so the numbers add up."""
    standing = standings(live_season).lines[0]
    player_id = standing.player.id
    provisional = num(standing.provisional_points)

    response = client.get(f"/leagues/{live_season.league.slug}/players/{player_id}/")

    assert standing.provisional_points > 0
    assert f"({provisional} of them provisional: meet 4 is being played)" in response.text
    assert f"({provisional} provisional, meet 4)" in response.text
    assert '<span class="badge status-open">provisional</span>' in response.text


def test_standings_explain_the_bracketed_forfeits_in_words(client, tuesday_golden):
    """Issue #11, item 11: the "(4)" of the Forfeits column is explained on the page itself,
    not only in a hover title a phone never shows."""
    response = client.get("/leagues/tuesday/")

    assert "in brackets, those that count toward forfeiting the season" in response.text
    assert 'title="forfeits (countable)"' not in response.text
