"""The ratings on the public pages (issue 37 §1): the league's Ratings page and the rating on a
player page. Not an FWPL rule: the pages say that the standings alone decide the playoffs (§6,
R6.1-d)."""

import datetime
import json
import re
from pathlib import Path

import pytest

from flipwell.league.selectors import ratings
from flipwell.league.services.season_files import import_season_file
from tests import factories as f

pytestmark = pytest.mark.django_db

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "golden_season.json").read_text())


@pytest.fixture
def season():
    ratings.forget()
    official = f.LeagueOfficialFactory(league__slug="tuesday", league__name="Tuesday Flippers")
    return import_season_file(
        league=official.league,
        name="Winter 2026",
        data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )


def _cells(html, css_class):
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(rf'<td class="{css_class}">([^<]+)</td>', body)


def test_ratings_page_lists_players_best_first_and_says_the_standings_decide(client, season):
    response = client.get("/leagues/tuesday/ratings/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "The standings alone decide who goes to the playoffs" in page
    shown = [int(n.replace(",", "")) for n in _cells(page, "num")[1::3]]
    lines = ratings.league_ratings(season.league)
    assert shown == [line.rating for line in lines]
    assert shown == sorted(shown, reverse=True)
    assert 'aria-current="page">Ratings</a>' in page


def test_player_page_shows_rating_range_chart_and_rivals(client, season):
    bea = season.entries.get(player__last_name="Adams").player

    page = client.get(f"/leagues/tuesday/players/{bea.pk}/").content.decode()

    section = page.split('id="rating-heading"', 1)[1].split("</section>", 1)[0]
    assert re.search(
        r"<strong>[\d,]+</strong> <span class=\"muted\">\(about [\d,]+ ± \d+\)", section
    )
    assert 'class="chart rating-chart"' in section
    assert "Against each rival" in section
    assert "Best machine:" in section
    assert "the standings alone decide the playoffs" in section
    assert "R6" not in section  # plain words: no rule codes outside a why fold


def test_another_leagues_ratings_page_lists_none_of_these_players(client, season):
    f.LeagueFactory(slug="wednesday", name="Wednesday")

    page = client.get("/leagues/wednesday/ratings/").content.decode()

    assert "Nobody has played enough games to be rated yet." in page
    assert "Adams" not in page
