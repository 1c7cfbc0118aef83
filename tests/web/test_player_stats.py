"""A person's statistics on the public player page and the league's high scores (issue #13).

The golden season is imported once or twice: a second import of the same file is the same
games again, so every count of a person over both seasons is twice the count over one.
"""

import datetime
import json
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.derived.caches import forget as forget_memo
from flipwell.league.selectors.people import person, player_stats
from flipwell.league.services import merge_players, undo_player_merge
from flipwell.league.services.season_files import import_season_file
from flipwell.serving.http_cache import forget_pages
from tests import factories as f

pytestmark = pytest.mark.django_db

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "golden_season.json").read_text())


def _import(tuesday_official, name):
    return import_season_file(
        league=tuesday_official.league,
        name=name,
        data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7),
        actor=tuesday_official.user,
    )


@pytest.fixture
def one_season(tuesday_official):
    return _import(tuesday_official, "Winter 2026")


@pytest.fixture
def two_seasons(tuesday_official):
    """Two seasons; Bea Adams entered the second as a new row (her first row was renamed in
    between, so the import did not recognise her)."""
    first = _import(tuesday_official, "Winter 2026")
    bea = first.entries.get(player__first_name="Bea").player
    m.Player.objects.filter(pk=bea.pk).update(first_name="Beatrice")
    second = _import(tuesday_official, "Spring 2026")
    return first, second, bea, second.entries.get(player__first_name="Bea").player


def _bea(season):
    return season.entries.get(player__last_name="Adams").player


def _page(client, player, query=""):
    return client.get(f"/leagues/tuesday/players/{player.pk}/{query}")


def test_player_page_shows_stats_of_the_season(client, one_season):
    response = _page(client, _bea(one_season))

    stats = response.context["page"].stats
    assert [line.season.name for line in stats.seasons] == ["Winter 2026"]
    assert stats.meets_attended == stats.seasons[0].meets_attended
    assert stats.games_played == sum(record.games for record in stats.machines)
    assert "Head-to-head" in response.text
    assert "Every season in Tuesday Flippers" in response.text


def test_player_stats_of_merged_rows_count_both_seasons(two_seasons):
    _, _, old, new = two_seasons
    alone = player_stats(person(old.pk))
    official = m.LeagueOfficial.objects.get()
    merge_players(
        league=official.league, kept=old, merged=new, reason="Same person.", actor=official.user
    )

    both = player_stats(person(old.pk))

    assert [line.season.name for line in both.seasons] == ["Winter 2026", "Spring 2026"]
    assert both.games_played == 2 * alone.games_played
    assert both.meets_held == 2 * alone.meets_held
    assert both.points_per_meet == alone.points_per_meet
    assert [(h.opponent.name, h.games, h.won) for h in both.head_to_head] == [
        (h.opponent.name, 2 * h.games, 2 * h.won) for h in alone.head_to_head
    ]
    assert [(r.machine, r.games, r.average_place) for r in both.machines] == [
        (r.machine, 2 * r.games, r.average_place) for r in alone.machines
    ]


def test_player_stats_after_an_undo_are_those_before_the_merge(two_seasons):
    _, _, old, new = two_seasons
    before = player_stats(person(old.pk))
    official = m.LeagueOfficial.objects.get()
    merge = merge_players(
        league=official.league, kept=old, merged=new, reason="Same person.", actor=official.user
    )
    undo_player_merge(league=official.league, merge=merge, reason="No.", actor=official.user)

    assert player_stats(person(old.pk)) == before


def test_player_page_of_a_merged_row_redirects_to_the_person(client, two_seasons):
    _, second, old, new = two_seasons
    official = m.LeagueOfficial.objects.get()
    merge_players(
        league=official.league, kept=old, merged=new, reason="Same person.", actor=official.user
    )

    response = _page(client, new, f"?season={second.pk}")

    assert response.status_code == 302
    assert response["Location"] == f"/leagues/tuesday/players/{old.pk}/?season={second.pk}"
    page = client.get(response["Location"]).context["page"]
    assert page.person.name == "Beatrice Adams"
    assert [s.name for s in page.seasons] == ["Spring 2026", "Winter 2026"]
    assert page.history.player.id == new.pk
    assert page.also_as == ("Bea Adams",)


def test_player_page_query_count_does_not_grow_with_seasons(client, tuesday_official):
    """Two seasons against three (each page has seasons its standings did not fold)."""
    _import(tuesday_official, "Winter 2026")
    _import(tuesday_official, "Spring 2026")
    other = f.LeagueOfficialFactory(league__slug="other")
    for name in ("Winter 2026", "Spring 2026", "Summer 2026"):
        import_season_file(
            league=other.league,
            name=name,
            data=GOLDEN,
            first_meet=datetime.date(2026, 1, 7),
            actor=other.user,
        )
    counts = []
    for slug in ("tuesday", "other"):
        bea = m.Player.objects.filter(
            last_name="Adams", season_entries__season__league__slug=slug
        ).first()
        client.get(f"/leagues/{slug}/players/{bea.pk}/")  # every fold stored
        forget_memo()
        forget_pages()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/leagues/{slug}/players/{bea.pk}/").status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_high_scores_page_lists_each_machines_best_scores(client, one_season):
    response = client.get("/leagues/tuesday/high-scores/")

    assert response.status_code == 200
    machines = response.context["page"].machines
    assert machines, "the golden season has games"
    for machine in machines:
        scores = [line.score for line in machine.scores]
        assert scores == sorted(scores, reverse=True)
        assert 1 <= len(scores) <= 3
    assert 'aria-current="page">High scores' in response.text


def test_high_scores_page_query_count_does_not_grow_with_seasons(client, tuesday_official):
    _import(tuesday_official, "Winter 2026")
    forget_memo()
    forget_pages()
    client.get("/leagues/tuesday/high-scores/")
    forget_memo()
    forget_pages()
    with CaptureQueriesContext(connection) as one:
        client.get("/leagues/tuesday/high-scores/")
    _import(tuesday_official, "Spring 2026")
    client.get("/leagues/tuesday/high-scores/")
    forget_memo()
    forget_pages()
    with CaptureQueriesContext(connection) as two:
        client.get("/leagues/tuesday/high-scores/")

    assert len(one) == len(two)
