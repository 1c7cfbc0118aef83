"""The migrations match the models, and moving a model between apps keeps its rows.

Each data migration's test walks from the migration before it to the one after it (and back,
where it can go back), on the original migrations (`_original_migrations`: a fresh database
is made through the squashed ones, which replace them). The tests are in the order of their
migrations, so one worker walks the history once instead of from the latest state and back for
each test; the module leaves the database at the latest state again (`back_to_latest`).
"""

import io
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from flipwell.league import models as m


@pytest.mark.django_db
def test_migrations_cover_every_model_change():
    said = io.StringIO()

    call_command("makemigrations", "--check", "--dry-run", stdout=said)  # SystemExit if not

    assert said.getvalue() == "No changes detected\n"


def _original_migrations() -> MigrationExecutor:
    """An executor on the original migrations: the squashed ones replace them on a fresh
    database, and their own steps (0010, 0013, ...) are not nodes of the squashed graph."""
    executor = MigrationExecutor(connection)
    loader = MigrationLoader(connection, replace_migrations=False)
    for key, squashed in loader.replacements.items():  # recorded as applied, but not a step
        loader.graph.remove_replacement_node(key, squashed.replaces)
        loader.applied_migrations.pop(key, None)
    executor.loader = loader
    return executor


def _migrate(targets):
    executor = _original_migrations()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(scope="module", autouse=True)
def back_to_latest(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Every other module finds the database at the latest migration, whichever of these
    tests ran last on this worker."""
    yield
    with django_db_blocker.unblock():
        executor = _original_migrations()
        executor.migrate(executor.loader.graph.leaf_nodes())


OLD_TOKEN_STATE = [("league", "0010_append_only_delete"), ("api", "0009_api_token")]
TOKEN_MOVED = [("league", "0012_api_token_in_league"), ("api", "0010_api_token_to_league")]


def test_api_token_move_to_league_keeps_the_rows(transactional_db):
    """league 0012 / api 0010 move ApiToken into the league app: a stored token survives."""
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

    moved = _migrate(TOKEN_MOVED)

    row = moved.get_model("league", "ApiToken").objects.get()
    assert (row.league.slug, row.name, row.token_hash, row.scores, row.issued_by.username) == (
        "tuesday",
        "tv",
        "f" * 64,
        True,
        "lo",
    )
    assert m.ApiToken._meta.db_table == "league_apitoken"


BEFORE_RULES_KINDS = [("league", "0013_revisions_and_results")]
RULES_KINDS = [("league", "0014_special_ruling_kind_rules_values")]
SHORT_CODES = ["not_malfunction", "major", "positive", "not_extra_ball"]
RULES_VALUES = [
    "not_a_malfunction",
    "major_malfunction",
    "positive_malfunction",
    "not_an_extra_ball",
]


def _ruling_kinds(apps):
    rulings = apps.get_model("league", "SpecialRuling").objects.order_by("number")
    return list(rulings.values_list("kind", flat=True))


def test_special_ruling_kinds_become_the_rules_values_and_back(transactional_db):
    """league 0013: a stored special ruling's short code ("major") becomes the rules' value
    ("major_malfunction", RA-a), and migrating back restores the short code."""
    old = _migrate(BEFORE_RULES_KINDS)
    for number, kind in enumerate(SHORT_CODES, 1):
        old.get_model("league", "SpecialRuling").objects.create(
            machine_title="Ghostbusters", number=number, kind=kind, text="A ruling."
        )

    forward = _ruling_kinds(_migrate(RULES_KINDS))
    backward = _ruling_kinds(_migrate(BEFORE_RULES_KINDS))

    assert (forward, backward) == (RULES_VALUES, SHORT_CODES)


BEFORE_NOTICE_LEAGUES = [("league", "0017_player_identity")]
NOTICE_LEAGUES = [("league", "0020_sealed_notices_league_required")]


def _subscriptions(apps):
    """(player's first name, league's slug or None, email) of every stored subscription."""
    rows = apps.get_model("league", "NoticeSubscription").objects.all()
    return sorted(
        (row.player.first_name, row.league.slug if getattr(row, "league_id", None) else None,
         row.email)
        for row in rows
    )  # fmt: skip


def test_notice_subscriptions_go_to_the_league_that_collected_them_and_back(transactional_db):
    """issue 26 §1, league 0018 to 0020: a player's one subscription goes to the league whose
    official set it (its audit event), else to the league of the personal link with its
    address, else (no record) to each league the player plays in; a player in no league's is
    dropped. Migrating back keeps one per player, the latest."""
    old = _migrate(BEFORE_NOTICE_LEAGUES)
    model = old.get_model
    lo = model("auth", "User").objects.create(username="lo")
    leagues = {
        slug: model("league", "League").objects.create(name=slug.title(), slug=slug)
        for slug in ("tuesday", "wednesday")
    }
    seasons = {
        slug: model("league", "Season").objects.create(
            league=league, name="Winter", weekday=1, start_time="19:00", number_of_meets=8
        )
        for slug, league in leagues.items()
    }
    players = {}
    for name in ("Set", "Linked", "Unknown", "Nowhere"):
        player = model("league", "Player").objects.create(first_name=name, last_name="Cruz")
        players[name] = player
        model("league", "NoticeSubscription").objects.create(
            player=player, email=f"{name.lower()}@example.org", ruling=True
        )
        if name != "Nowhere":
            for season in seasons.values():
                model("league", "SeasonEntry").objects.create(season=season, player=player)
    model("league", "AuditEvent").objects.create(
        league=leagues["wednesday"],
        actor=lo,
        action="notices.preferences_set",
        object_type="league.Player",
        object_id=str(players["Set"].pk),
        data={"player": players["Set"].pk, "email_given": True, "kinds": ["ruling"]},
    )
    model("league", "PlayerLink").objects.create(
        season=seasons["tuesday"],
        player=players["Linked"],
        key="k" * 22,
        email="linked@example.org",
        created_by=lo,
    )

    forward = _subscriptions(_migrate(NOTICE_LEAGUES))
    backward = _subscriptions(_migrate(BEFORE_NOTICE_LEAGUES))

    assert forward == [
        ("Linked", "tuesday", "linked@example.org"),
        ("Set", "wednesday", "set@example.org"),
        ("Unknown", "tuesday", "unknown@example.org"),
        ("Unknown", "wednesday", "unknown@example.org"),
    ]
    assert backward == [
        ("Linked", None, "linked@example.org"),
        ("Set", None, "set@example.org"),
        ("Unknown", None, "unknown@example.org"),
    ]


BEFORE_SEASON_READINGS = [("league", "0023_playoff_sheets")]
SEASON_READINGS = [("league", "0024_season_readings")]


def _season_readings(apps):
    seasons = apps.get_model("league", "Season").objects.order_by("league__slug", "name")
    return [(s.league.slug, s.name, s.ruleset_overrides) for s in seasons]


def test_season_readings_copied_from_the_league_and_back(transactional_db):
    """league 0022: every existing season takes its league's readings as they are (those its
    standings were shown under until now, R2-a); migrating back drops the seasons' copies and
    leaves the league's readings as they were."""
    old = _migrate(BEFORE_SEASON_READINGS)
    League = old.get_model("league", "League")
    readings = {"tuesday": {"season_forfeit_limit": 8, "dues_period": "meet"}, "wednesday": {}}
    for slug, overrides in readings.items():
        league = League.objects.create(name=slug.title(), slug=slug, ruleset_overrides=overrides)
        for name in ("Spring", "Winter"):
            old.get_model("league", "Season").objects.create(
                league=league, name=name, weekday=1, start_time="19:00", number_of_meets=8
            )

    forward = _season_readings(_migrate(SEASON_READINGS))
    back = _migrate(BEFORE_SEASON_READINGS)
    columns = [f.name for f in back.get_model("league", "Season")._meta.get_fields()]
    leagues = dict(
        back.get_model("league", "League").objects.values_list("slug", "ruleset_overrides")
    )

    assert forward == [
        ("tuesday", "Spring", {"season_forfeit_limit": 8, "dues_period": "meet"}),
        ("tuesday", "Winter", {"season_forfeit_limit": 8, "dues_period": "meet"}),
        ("wednesday", "Spring", {}),
        ("wednesday", "Winter", {}),
    ]
    assert "ruleset_overrides" not in columns
    assert leagues == readings


BEFORE_MACHINE_HISTORY = [("league", "0027_league_ifpa_figures")]
MACHINE_HISTORY = [("league", "0028_machine_history")]


def test_machine_status_changes_are_read_back_from_their_audit_events(transactional_db):
    """league 0028: a status change made before it (an audit event ``machine.status_changed``)
    becomes a MachineStatusChange with its official, reason and time (R7.3-q)."""
    old = _migrate(BEFORE_MACHINE_HISTORY)
    user = old.get_model("auth", "User").objects.create(username="lo")
    league = old.get_model("league", "League").objects.create(name="Tuesday", slug="tuesday")
    machine = old.get_model("league", "Machine").objects.create(league=league, title="Tron")
    old.get_model("league", "AuditEvent").objects.create(
        league=league,
        actor=user,
        action="machine.status_changed",
        object_type="league.Machine",
        object_id=str(machine.pk),
        data={"from": "playable", "to": "unplayable", "reason": "Coil burnt"},
    )

    after = _migrate(MACHINE_HISTORY)

    row = after.get_model("league", "MachineStatusChange").objects.get()
    assert (row.machine.title, row.previous, row.status, row.reason, row.official.username) == (
        "Tron", "playable", "unplayable", "Coil burnt", "lo",
    )  # fmt: skip


BEFORE_RULING_LEAGUES = [("league", "0030_match_absence")]
RULING_LEAGUES = [("league", "0031_special_ruling_league")]


def _rulings(apps):
    """(title, number, version, league's slug or None, text) of every stored ruling row."""
    rows = apps.get_model("league", "SpecialRuling").objects.all()
    return sorted(
        (row.machine_title, row.number, row.version,
         row.league.slug if getattr(row, "league_id", None) else None, row.text)
        for row in rows
    )  # fmt: skip


def test_special_rulings_go_to_the_league_that_made_them_and_back(transactional_db):
    """issue 34 §3, league 0031: a ruling row goes to the league of the audit event that
    recorded it (its official's), else (Appendix A, loaded for no league) a copy to each
    league with a machine of that title, else it is dropped. Back: one row per title, number
    and version again."""
    old = _migrate(BEFORE_RULING_LEAGUES)
    model = old.get_model
    lo = model("auth", "User").objects.create(username="lo")
    leagues = {
        slug: model("league", "League").objects.create(name=slug.title(), slug=slug)
        for slug in ("tuesday", "wednesday")
    }
    for league in leagues.values():
        model("league", "Machine").objects.create(league=league, title="The Addams Family")
    model("league", "Machine").objects.create(league=leagues["tuesday"], title="Ghostbusters")
    ruling = model("league", "SpecialRuling").objects.create
    ruling(machine_title="Addams Family", number=1, kind="not_a_malfunction", text="Seeded.")
    ruling(machine_title="Godzilla", number=1, kind="not_a_malfunction", text="Nobody's.")
    made = ruling(machine_title="Ghostbusters", number=1, kind="major_malfunction", text="Ours.")
    model("league", "AuditEvent").objects.create(
        league=leagues["wednesday"],
        actor=lo,
        action="special_ruling.added",
        object_type="league.SpecialRuling",
        object_id=str(made.pk),
        data={},
    )

    forward = _rulings(_migrate(RULING_LEAGUES))
    backward = _rulings(_migrate(BEFORE_RULING_LEAGUES))

    assert forward == [
        ("Addams Family", 1, 1, "tuesday", "Seeded."),
        ("Addams Family", 1, 1, "wednesday", "Seeded."),
        ("Ghostbusters", 1, 1, "wednesday", "Ours."),
    ]
    assert backward == [
        ("Addams Family", 1, 1, None, "Seeded."),
        ("Ghostbusters", 1, 1, None, "Ours."),
    ]


BEFORE_CLEAN_NAMES = [("league", "0031_special_ruling_league")]
CLEAN_NAMES = [("league", "0033_clean_names")]


def test_stored_names_titles_and_zones_are_cleaned(transactional_db):
    """issue 34 §3, league 0033: names, titles and time zones stored before look-alike input was
    normalised are cleaned as a write would store them now; slugs keep their addresses."""
    old = _migrate(BEFORE_CLEAN_NAMES)
    model = old.get_model
    league = model("league", "League").objects.create(
        name="Tues\u200bday  Flippers", slug="Manage", time_zone="posix/Europe/Berlin"
    )
    other = model("league", "League").objects.create(name="B", slug="b", time_zone="localtime")
    model("league", "Player").objects.create(first_name="\u202eBea\u202c", last_name="Ａdams ")
    model("league", "Machine").objects.create(league=league, title="Medieval\u200d Madness\x07")

    new = _migrate(CLEAN_NAMES)

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
