"""issue 34 §3, league 0033: names, titles and time zones stored before look-alike input was
normalised are cleaned as a write would store them now; slugs keep their addresses."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_CLEAN_NAMES = [("league", "0031_special_ruling_league")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_stored_names_titles_and_zones_are_cleaned(transactional_db):
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(BEFORE_CLEAN_NAMES)
    model = old.get_model
    league = model("league", "League").objects.create(
        name="Tues\u200bday  Flippers", slug="Manage", time_zone="posix/Europe/Berlin"
    )
    other = model("league", "League").objects.create(name="B", slug="b", time_zone="localtime")
    model("league", "Player").objects.create(first_name="\u202eBea\u202c", last_name="Ａdams ")
    model("league", "Machine").objects.create(league=league, title="Medieval\u200d Madness\x07")

    new = _migrate(latest)

    stored = new.get_model("league", "League").objects.get(pk=league.pk)
    player = new.get_model("league", "Player").objects.get()
    machine = new.get_model("league", "Machine").objects.get()
    assert (stored.name, stored.slug, stored.time_zone) == (
        "Tuesday Flippers",
        "Manage",
        "Europe/Berlin",
    )
    assert (player.first_name, player.last_name) == ("Bea", "Adams")
    assert machine.title == "Medieval Madness"
    zone = new.get_model("league", "League").objects.get(pk=other.pk).time_zone
    assert (zone not in ("localtime", "posixrules") and "/" in zone) or zone == "UTC"
