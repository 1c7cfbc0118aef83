"""Ratings read from the stored folds (flipwell.league.selectors.ratings): not an FWPL rule
(the standings alone decide the playoffs, §6, R6.1-d); places from the fold (§3.2), a
forfeit no game (R2.4-b), a merged person rated as one."""

import datetime
import math

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.models.results import new_revision
from flipwell.league.selectors import ratings
from flipwell.league.selectors.people import person
from flipwell.league.services import merge_players
from tests import factories as f
from tests.golden import FIRST_MEET, import_golden
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memo():
    ratings.forget()
    yield
    ratings.forget()


def _import(tuesday_official, name, first_meet=FIRST_MEET):
    return import_golden(tuesday_official, name, first_meet)


def _meets_held(season):
    return season.meets.filter(status="closed").count()


def test_every_player_has_a_rating_after_each_meet_held(tuesday_official):
    season = _import(tuesday_official, "Winter 2026")
    bea = season.entries.get(player__last_name="Adams").player

    mine = ratings.player_rating(person(bea.pk))

    assert len(mine.history) == _meets_held(season)
    assert [step.meet for step in mine.history] == sorted(step.meet for step in mine.history)
    assert mine.current is not None
    assert mine.current.rating == mine.history[-1].rating
    assert mine.current.words.startswith("about ")
    assert sum(r.games for r in mine.rivals) == mine.current.games


def test_league_ratings_best_first_and_only_with_enough_games(tuesday_official):
    _import(tuesday_official, "Winter 2026")

    listed = ratings.league_ratings(tuesday_official.league)
    everyone = ratings.league_ratings(tuesday_official.league, min_games=0)

    assert [line.rating for line in listed] == sorted(
        (line.rating for line in listed), reverse=True
    )
    assert all(line.games >= ratings.MIN_RATED_GAMES for line in listed)
    assert len(everyone) >= len(listed) > 0
    assert not ratings.league_ratings(f.LeagueFactory())  # another league: nobody


def test_expected_and_actual_wins_against_rivals_add_up(tuesday_official):
    season = _import(tuesday_official, "Winter 2026")
    bea = season.entries.get(player__last_name="Adams").player

    rivals = ratings.player_rating(person(bea.pk)).rivals

    assert rivals
    for rival in rivals:
        assert 0 <= rival.actual <= rival.games
        assert 0 < rival.expected < rival.games


def test_a_merged_person_is_rated_as_one_across_seasons(tuesday_official):
    first = _import(tuesday_official, "Winter 2026")
    bea = first.entries.get(player__last_name="Adams").player
    m.Player.objects.filter(pk=bea.pk).update(first_name="Beatrice")
    second = _import(tuesday_official, "Spring 2026", first_meet=datetime.date(2026, 6, 3))
    new_bea = second.entries.get(player__first_name="Bea").player
    merge_players(
        league=tuesday_official.league,
        kept=bea,
        merged=new_bea,
        reason="same person",
        actor=tuesday_official.user,
    )

    mine = ratings.player_rating(person(bea.pk))

    assert len(mine.history) == _meets_held(first) + _meets_held(second)
    assert {step.season.name for step in mine.history} == {"Winter 2026", "Spring 2026"}
    assert player_key(new_bea.pk) not in {player_key(r.rival.id) for r in mine.rivals}


def test_win_chances_add_up_to_one(tuesday_official):
    season = _import(tuesday_official, "Winter 2026")
    ids = list(season.entries.values_list("player_id", flat=True)[:4])

    chances = ratings.win_chances_of(ids)

    assert set(chances) == set(ids)
    assert math.isclose(sum(chances.values()), 1.0)


def test_reading_ratings_runs_a_fixed_number_of_queries(tuesday_official):
    season = _import(tuesday_official, "Winter 2026")
    _import(tuesday_official, "Spring 2026", first_meet=datetime.date(2026, 6, 3))
    bea = season.entries.get(player__last_name="Adams").player
    who = person(bea.pk)
    ratings.player_rating(who)  # rated and remembered
    with CaptureQueriesContext(connection) as remembered:
        ratings.player_rating(who)
    ratings.forget()
    with CaptureQueriesContext(connection) as rated:
        ratings.player_rating(who)

    assert len(remembered) <= 3
    assert len(rated) <= 8


def test_a_leagues_page_shows_only_its_own_seasons_and_rivalries(tuesday_official):
    """The rating counts every league's games; what a league shows of it (history steps,
    rivals) is its own seasons' only: nothing of another league crosses."""
    season = _import(tuesday_official, "Winter 2026")
    other = f.LeagueOfficialFactory(league__slug="wednesday")
    elsewhere = _import(other, "Wednesday Winter", first_meet=datetime.date(2026, 1, 8))
    bea = season.entries.get(player__last_name="Adams").player
    other_bea = elsewhere.entries.get(player__last_name="Adams").player
    m.Player.objects.filter(pk=other_bea.pk).update(merged_into=bea)  # one person, two leagues
    who = person(bea.pk)

    everywhere = ratings.player_rating(who)
    here = ratings.player_rating(who, league=tuesday_official.league)

    assert {step.season.name for step in here.history} == {"Winter 2026"}
    assert len(everywhere.history) == 2 * len(here.history)
    assert sum(r.games for r in here.rivals) * 2 == sum(r.games for r in everywhere.rivals)
    assert here.current == everywhere.current  # one rating, from every league


def test_a_score_tonight_does_not_rate_the_installation_again():
    """The meet being played is not rated (tonight's chances come from the ratings before
    it), so a write to it keeps the ratings' memo; a season changed outside its closed meets'
    prefix (here, an admin's repair) is rated again."""
    night = night_.build_night(players=8)
    meet = night_.start(night)
    before = ratings._fingerprint()
    game = night_.game(meet, 1, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]

    night_.play(game, {p: 1000 * (i + 1) for i, p in enumerate(members)})

    assert ratings._fingerprint() == before
    m.Season.objects.filter(pk=night.season.pk).update(revision=new_revision())
    assert ratings._fingerprint() != before
