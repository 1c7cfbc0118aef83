"""Every cache (`flipwell.league.derived.caches`) serves what a fresh fold gives (R3-e: a
changed fact re-derives the standings): the standings read from this process's memo, from the
stored fold, and from the page memo equal those folded from the facts now, after every write."""

from __future__ import annotations

import pytest
from django.test import Client

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import ruleset_for
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.derived import caches, results
from flipwell.rules import fold_season
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


def _fresh_standings(season: m.Season) -> object:
    """The standings folded from the stored facts now, with no cache on the way."""
    facts = season_facts(season)
    return fold_season(facts, ruleset=ruleset_for(season.league)).players


def _members(game: m.Game) -> list[m.Player]:
    return [gm.player for gm in game.group.members.order_by("position")]


def _each_cache(season: m.Season) -> dict[str, object]:
    """The season's standings as each cache serves them."""
    served = {"memo": results.season_fold(season).result.players}
    caches.forget()
    served["stored fold"] = results.season_fold(season).result.players
    served["many seasons"] = results.season_folds([season])[0].result.players
    return served


def test_a_standing_read_from_any_cache_equals_a_fresh_fold_after_every_write():
    night = night_.build_night(players=8)
    meet = night_.start(night)
    season = m.Season.objects.get(pk=night.season.pk)
    for group, by in ((1, 1000), (2, 500)):
        game = night_.game(meet, group, 1)
        night_.play(game, {p: by * (i + 1) for i, p in enumerate(_members(game))})
        fresh = _fresh_standings(season)

        for cache, served in _each_cache(season).items():
            assert served == fresh, f"the {cache} served other standings than the facts give"


def test_the_standings_page_from_the_page_memo_equals_a_fresh_render():
    night = night_.build_night(players=8)
    meet = night_.start(night)
    game = night_.game(meet, 1, 1)
    night_.play(game, {p: 1000 * (i + 1) for i, p in enumerate(_members(game))})
    url = f"/leagues/{night.season.league.slug}/seasons/{night.season.pk}/"
    client = Client()
    caches.forget()
    rendered = client.get(url).content

    remembered = client.get(url).content  # from the page memo: the view does not run
    caches.forget()
    fresh = client.get(url).content

    assert remembered == rendered == fresh
    assert _members(game)[0].last_name.encode() in fresh  # a page with the standings
