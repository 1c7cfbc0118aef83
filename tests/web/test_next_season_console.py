"""The console's "Next season from this one" and a season's roster and standings as CSV
(issue 27 §1)."""

import csv
import io

import pytest

from flipwell.league import models as m
from flipwell.league.players_csv import parse_players_csv
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def winter(client):
    official = f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__slug="tuesday"
    )
    season = f.SeasonFactory(league=official.league, name="Winter 2026")
    players = [
        f.SeasonEntryFactory(
            season=season,
            ifpa_rank_at_start=rank,
            player__first_name=first,
            player__last_name="Flipper",
            player__ifpa_number=number,
        ).player
        for rank, first, number in ((3, "Alice", 101), (9, "Bob", None), (None, "Carol", 303))
    ]
    client.force_login(official.user)
    return season, players


def test_next_season_form_ticks_every_player_of_the_season(client, winter):
    season, players = winter

    response = client.get(f"/manage/tuesday/seasons/{season.pk}/next/")

    assert response.status_code == 200
    assert response.context["form"].initial == {
        "weekday": season.weekday,
        "carried": [p.pk for p in sorted(players, key=lambda p: p.first_name)],
    }
    assert response.text.count('name="carried"') == 3


def test_next_season_form_starts_the_season_with_the_players_left_ticked(client, winter):
    """issue 27 §1: the official unticks who leaves; on to the new season's roster."""
    season, (alice, _bob, carol) = winter

    response = client.post(
        f"/manage/tuesday/seasons/{season.pk}/next/",
        {"action": "next", "name": "Spring 2027", "weekday": "3",
         "carried": [str(alice.pk), str(carol.pk)]},
        follow=True,
    )  # fmt: skip

    spring = m.Season.objects.get(name="Spring 2027")
    assert response.redirect_chain == [(f"/manage/tuesday/seasons/{spring.pk}/roster/", 302)]
    assert "Spring 2027 is prepared from Winter 2026 with 2 of its 3 players." in response.text
    assert spring.weekday == m.Weekday.THURSDAY
    assert sorted(spring.entries.values_list("player_id", flat=True)) == sorted(
        [alice.pk, carol.pk]
    )


def test_next_season_form_keeps_the_ticks_when_the_name_is_taken(client, winter):
    season, (alice, _bob, _carol) = winter

    response = client.post(
        f"/manage/tuesday/seasons/{season.pk}/next/",
        {"action": "next", "name": "Winter 2026", "weekday": "1", "carried": [str(alice.pk)]},
    )

    assert response.status_code == 400
    assert response.context["form"].errors["name"] == [
        f"{season.league.name} already has a season called “Winter 2026”: choose another name."
    ]
    assert m.Season.objects.count() == 1


def test_roster_csv_of_a_season_is_the_import_format(client, winter):
    """issue 27 §1: the roster exported reads back as a roster import."""
    season, _players = winter

    response = client.get(f"/manage/tuesday/seasons/{season.pk}/roster.csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="tuesday-winter-2026-roster.csv"' in response["Content-Disposition"]
    assert [
        (row.first_name, row.ifpa_number, row.ifpa_rank)
        for row in parse_players_csv(response.content.decode())
    ] == [("Alice", 101, 3), ("Bob", None, 9), ("Carol", 303, None)]


def test_standings_csv_of_a_season_lists_every_player(client, winter):
    season, _players = winter

    response = client.get(f"/manage/tuesday/seasons/{season.pk}/standings.csv")

    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert sorted(row["first_name"] for row in rows) == ["Alice", "Bob", "Carol"]


def test_season_files_are_refused_to_a_scorekeeper(client, winter):
    season, _players = winter
    scorekeeper = f.LeagueOfficialFactory(
        league=season.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )
    client.force_login(scorekeeper.user)

    roster = client.get(f"/manage/tuesday/seasons/{season.pk}/roster.csv")
    form = client.get(f"/manage/tuesday/seasons/{season.pk}/next/")

    assert (roster.status_code, form.status_code) == (403, 403)


def test_seasons_page_links_the_next_season_and_the_season_files(client, winter):
    season, _players = winter

    response = client.get("/manage/tuesday/seasons/")

    assert f'href="/manage/tuesday/seasons/{season.pk}/next/"' in response.text
    assert f'href="/manage/tuesday/seasons/{season.pk}/roster.csv"' in response.text
    assert f'href="/manage/tuesday/seasons/{season.pk}/standings.csv"' in response.text
