"""The migrations match the models, and moving a model between apps keeps its rows."""

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from flipwell.league import models as m


@pytest.mark.django_db
def test_migrations_cover_every_model_change():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


OLD_TOKEN_STATE = [("league", "0010_append_only_delete"), ("api", "0009_api_token")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_api_token_move_to_league_keeps_the_rows(transactional_db):
    """league 0012 / api 0010 move ApiToken into the league app: a stored token survives."""
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(OLD_TOKEN_STATE)
    user = old.get_model("auth", "User").objects.create(username="lo")
    league = old.get_model("league", "League").objects.create(name="Tuesday", slug="tuesday")
    old.get_model("api", "ApiToken").objects.create(
        league=league,
        name="tv",
        prefix="fw_abcdefg",
        token_hash="f" * 64,
        scores=True,
        issued_by=user,
    )

    _migrate(latest)

    row = m.ApiToken.objects.get()
    assert (row.league.slug, row.name, row.token_hash, row.scores, row.issued_by.username) == (
        "tuesday",
        "tv",
        "f" * 64,
        True,
        "lo",
    )
    assert m.ApiToken._meta.db_table == "league_apitoken"
