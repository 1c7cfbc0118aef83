"""Queries compiled once per process (`flipwell.league.derived.compiled`, issue #10): the same
rows as the ORM's, each call with its own value, SQLite's booleans read as booleans, and a
server worker that compiles them all before its first request without touching the
database."""

from __future__ import annotations

import pytest
from django.db import DatabaseError

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.derived.compiled import CompiledQuery, flag, rows_together
from flipwell.league.selectors import revisions
from tests import factories as f
from tests.worker_process import worker_state

pytestmark = pytest.mark.django_db


def test_a_compiled_query_gives_the_orm_rows_for_each_value():
    leagues = [f.LeagueFactory(), f.LeagueFactory()]
    by_slug = CompiledQuery(lambda v: m.League.objects.filter(slug=v).values_list("id", "name"))
    by_id = CompiledQuery(lambda v: m.League.objects.filter(pk=v).values_list("slug"))

    for league in leagues:
        assert by_slug.rows(league.slug) == [(league.pk, league.name)]
        assert by_id.rows(league.pk) == [(league.slug,)]
    assert by_slug.rows("no-such-league") == []


def test_queries_run_together_give_each_its_own_rows_and_are_each_logged(
    django_assert_num_queries,
):
    """On PostgreSQL in one round trip (pipeline mode), on SQLite one by one: the same rows
    as each query alone, and the query log counts each (the tests' query counts stay true)."""
    leagues = [f.LeagueFactory(), f.LeagueFactory()]
    queries = {
        "name": CompiledQuery(lambda v: m.League.objects.filter(pk=v).values_list("name")),
        "none": CompiledQuery(lambda v: m.League.objects.filter(pk=v, name="").values_list("slug")),
        "all": CompiledQuery(
            lambda v: m.League.objects.filter(pk__gte=v).order_by("pk").values_list("pk", "slug")
        ),
    }

    with django_assert_num_queries(3):
        found = rows_together(queries, leagues[0].pk)

    assert found == {key: query.rows(leagues[0].pk) for key, query in queries.items()}
    assert found["name"] == [(leagues[0].name,)]
    assert found["all"] == [(league.pk, league.slug) for league in leagues]


def test_a_query_run_together_that_fails_raises_django_s_error():
    broken = CompiledQuery(
        lambda v: (
            m.League.objects.filter(pk=v).extra(where=["no_such_column = 1"]).values_list("pk")
        )
    )
    league = f.LeagueFactory()

    with pytest.raises(DatabaseError):
        rows_together({"broken": broken}, league.pk)


def test_a_compiled_query_is_compiled_once_per_engine(monkeypatch):
    league = f.LeagueFactory()
    built: list[object] = []

    def build(value: object):
        built.append(value)
        return m.League.objects.filter(pk=value).values_list("slug")

    query = CompiledQuery(build)
    for _ in range(3):
        assert query.rows(league.pk) == [(league.slug,)]

    assert len(built) == 1


def test_revision_lookups_answer_none_for_a_missing_row_and_the_revision_otherwise():
    season = f.SeasonFactory()
    league = season.league

    assert revisions.by_slug(league.slug) == league.revision
    assert revisions.by_season(season.pk) == league.revision
    assert revisions.by_slug("gone") is None
    assert revisions.by_season(season.pk + 1000) is None


def test_flag_reads_a_boolean_column_as_either_engine_gives_it():
    assert [flag(v) for v in (0, 1, False, True, None)] == [False, True, False, True, None]


def test_season_facts_name_late_entrants_whose_forfeits_do_not_count():
    """R2.4-f, A46: an entrant whose late-join forfeits the LO made not countable (a boolean
    column, read through a compiled query) is named; the others are not."""
    season = f.SeasonFactory()
    kept = f.SeasonEntryFactory(season=season, joined_at_meet=2)
    excused = f.SeasonEntryFactory(
        season=season, joined_at_meet=2, late_join_forfeits_countable=False
    )
    f.SeasonEntryFactory(season=season, late_join_forfeits_countable=True)

    facts = season_facts(season)

    assert facts.late_join_non_countable == {player_key(excused.player_id)}
    assert facts.joined_at[player_key(kept.player_id)] == 2


def test_a_server_worker_compiles_every_query_before_its_first_request_without_the_database():
    """`flipwell.wsgi` compiles them with the database unreachable: nothing connects."""
    script = (
        "import json, flipwell.wsgi\n"
        "from django.db import connection\n"
        "from flipwell.league.derived.compiled import _EVERY\n"
        "print(json.dumps({'queries': len(_EVERY),"
        " 'compiled': all(q._compiled for q in _EVERY),"
        " 'connected': connection.connection is not None}))\n"
    )
    found = worker_state(script)

    assert found["queries"] >= 17  # the season's facts and the revision lookups
    assert found == {**found, "compiled": True, "connected": False}
