"""The ratings on the public pages (issue 37 §1): the league's Ratings page and the rating on a
player page. Not an FWPL rule: the pages say that the standings alone decide the playoffs (§6,
R6.1-d)."""

import re

import pytest

from flipwell.league.selectors import ratings
from tests import factories as f

pytestmark = pytest.mark.django_db


def _cells(html, css_class):
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(rf'<td class="{css_class}">([^<]+)</td>', body)


def test_ratings_page_lists_players_best_first_and_says_the_standings_decide(
    client, rated_tuesday_season
):
    response = client.get("/leagues/tuesday/ratings/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "The standings alone decide who goes to the playoffs" in page
    shown = [int(n.replace(",", "")) for n in _cells(page, "num")[1::3]]
    lines = ratings.league_ratings(rated_tuesday_season.league)
    assert shown == [line.rating for line in lines]
    assert shown == sorted(shown, reverse=True)
    assert 'aria-current="page">Ratings</a>' in page


def test_player_page_shows_rating_range_chart_and_rivals(client, rated_tuesday_season):
    bea = rated_tuesday_season.entries.get(player__last_name="Adams").player

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


def test_another_leagues_ratings_page_lists_none_of_these_players(client, rated_tuesday_season):
    f.LeagueFactory(slug="wednesday", name="Wednesday")

    page = client.get("/leagues/wednesday/ratings/").content.decode()

    assert "Nobody has played enough games to be rated yet." in page
    assert "Adams" not in page


def test_meet_board_shows_each_players_chance_before_the_game():
    """Before any meet is held every player is new (1500 ± 350): equal chances, 25% each."""
    from tests.league import league_night as night_

    ratings.forget()
    night = night_.build_night(players=8, machines=8)
    meet = night_.start(night)
    from django.test import Client

    page = Client().get(f"/leagues/{night.league.slug}/meets/{meet.pk}/").content.decode()

    lines = re.findall(r'<p class="chances">(.*?)</p>', page)
    assert len(lines) == 2  # two groups of four
    for line in lines:
        assert "Chance to win this game, from the ratings:" in line
        assert re.findall(r"(\d+)%", line) == ["25"] * 4
