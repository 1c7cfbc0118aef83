"""The playoff bracket as people see it on playoffs night (issue 27 §2): the public page, the
printable bracket and the TV explain each tie in one sentence (rule id apart, R6.5-a, R6.1-e),
and show each game's PAPA points and the totals as they accrue (R6.3-a, R6.3-c)."""

import re

import pytest

from flipwell.league import models as m
from tests import factories as f
from tests.playoff_night import reopen_final

pytestmark = pytest.mark.django_db

# The demo's semifinal "6 against 6" at the cut, settled by a tiebreaker game (R6.5-a).
SIX_SIX = re.compile(
    r"(?P<a>[A-Z]\w+ [A-Z]\w+) and (?P<b>[A-Z]\w+ [A-Z]\w+) tied on 6 points; "
    r"(?:(?P=a)|(?P=b)) won the tiebreaker game on [^.<]+ and goes through\."
)


def test_playoffs_page_explains_the_semifinal_tie_r6_5_a(client, demo):
    """R6.5-a: the demo's 6-6 semifinal says who won the tiebreaker game and went through;
    the rule id is only in the small "why" after the sentence."""
    response = client.get(f"/leagues/{demo.league.slug}/playoffs/")

    text = response.text
    assert SIX_SIX.search(text), "no sentence explains the 6-6 semifinal"
    assert (
        '<details class="why"><summary>Why</summary><p>The rulebook: R6.5-a.</p></details>' in text
    )
    assert "[R6.5-a]" not in text


def test_playoffs_page_explains_the_seed_playoffs_r6_1_e(client, demo):
    """R6.1-e: the seed ties settled by single-ball playoffs are explained once."""
    response = client.get(f"/leagues/{demo.league.slug}/playoffs/")

    assert "How the seeds were settled" in response.text
    assert response.text.count("won the single-ball playoff on") == len(
        response.context["page"].bracket.notes
    )
    assert "The rulebook: R6.1-e." in response.text


def test_playoffs_page_shows_each_games_points_and_totals_r6_3_a(client, demo):
    """R6.3-a, R6.3-c: every match has a table of 4-2-1-0 points per game and a total."""
    response = client.get(f"/leagues/{demo.league.slug}/playoffs/")

    (division,) = response.context["page"].bracket.divisions
    final = division.matches[-1]
    assert [len(row.points) for row in final.rows] == [3, 3, 3, 3]
    assert sorted(row.total for row in final.rows) == sorted(sum(row.points) for row in final.rows)
    assert sum(row.total for row in final.rows) == 21
    assert response.text.count('class="match-points"') == len(division.matches)


def test_playoffs_page_shows_a_match_in_progress_r6_3_c(client, demo):
    """R6.3-c: while game 2 of the final is played, its column waits and the totals are game
    1's; the diagram says which game is being played."""
    reopen_final(demo)

    response = client.get(f"/leagues/{demo.league.slug}/playoffs/")

    (division,) = response.context["page"].bracket.divisions
    final = division.matches[-1]
    assert final.in_progress
    assert [column.playing for column in final.columns] == [False, True]
    assert sorted(row.total for row in final.rows) == [0, 1, 2, 4]
    assert 'title="being played"' in response.text
    assert "game 2 playing" in response.text


def test_playoffs_page_links_the_printable_bracket(client, demo):
    response = client.get(f"/leagues/{demo.league.slug}/playoffs/")

    season = demo.finished_season.pk
    assert f'href="/print/{demo.league.slug}/playoffs/?season={season}"' in response.text


def test_console_playoffs_page_links_the_printable_bracket(client, demo):
    official = f.LeagueOfficialFactory(league=demo.league)
    client.force_login(official.user)
    season = demo.finished_season.pk

    response = client.get(f"/manage/{demo.league.slug}/seasons/{season}/playoffs/")

    assert response.status_code == 200
    assert f'href="/print/{demo.league.slug}/playoffs/?season={season}"' in response.text


def test_printable_bracket_shows_diagram_points_and_reasons(client, demo):
    """The printable bracket is public: the diagram, each match's points, the sentences."""
    response = client.get(f"/print/{demo.league.slug}/playoffs/")

    assert response.status_code == 200
    assert '<svg class="chart bracket wide"' in response.text
    assert 'class="match-points"' in response.text
    assert SIX_SIX.search(response.text)
    assert "Final places:" in response.text


def test_printable_bracket_without_a_playoff_night_says_so(client):
    league = f.LeagueFactory(slug="quiet")

    response = client.get("/print/quiet/playoffs/")

    assert response.status_code == 200
    assert "No playoff night yet" in response.text
    assert league.name in response.text


def test_tv_shows_the_live_final_and_the_reasons_r6_5_a(client, demo):
    """R6.3-c, R6.5-a: on playoffs night (the new season not started yet) the TV's bracket
    panel shows the final being played with its points so far, and why ties went as they
    did, without rule ids."""
    reopen_final(demo)
    demo.current_season.meets.update(status=m.Meet.Status.PLANNED)

    response = client.get(f"/tv/{demo.league.slug}/")

    text = response.text
    assert 'aria-label="Playoff bracket"' in text
    assert text.count('class="tv-live-match"') == 1
    assert "game 2 on " in text
    assert SIX_SIX.search(text)
    assert "[R6.5-a]" not in text
    assert "(rule R6.5-a)" not in text


def test_tv_refresh_carries_the_live_bracket(client, demo):
    """The htmx refresh (every 15 s) returns the same bracket panel with the points so far."""
    reopen_final(demo)
    demo.current_season.meets.update(status=m.Meet.Status.PLANNED)

    response = client.get(f"/tv/{demo.league.slug}/", headers={"HX-Request": "true"})

    assert "<html" not in response.text
    assert 'class="tv-live-match"' in response.text


def test_bracket_diagram_lists_the_final_by_place_r6_3_e(client, demo):
    """R6.3-e: once the final is complete its box lists 1st to 4th, the champion first."""
    response = client.get(f"/leagues/{demo.league.slug}/playoffs/")

    ((division, diagram, _narrow),) = response.context["diagrams"]
    champion = division.places[0][1].name
    assert '<text class="player adv"' in diagram
    assert f">1. {champion}</text>" in diagram
