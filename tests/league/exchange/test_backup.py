"""Backup and restore: every fact survives the round trip, on SQLite and PostgreSQL."""

import datetime
import json
import os
import stat

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from flipwell.cli import main
from flipwell.league import models as m
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.exchange.backup.format import (
    FORMAT_VERSION,
    USER_FIELDS,
    BackupError,
    backup_checksum,
    backup_models,
    backup_signature,
    seal,
)
from flipwell.league.exchange.backup.reading import backup_contents, json_depth
from flipwell.league.exchange.backup.restoring import restore_backup
from flipwell.league.exchange.backup.writing import write_backup
from flipwell.league.exchange.demo import create_demo_league
from flipwell.league.selectors.standings import standings
from flipwell.league.services.season_files import import_season_file
from flipwell.league.services.special_rulings import add_special_ruling
from flipwell.league.services.tokens import issue_api_token
from flipwell.rules.season import fold_season
from tests import factories as f
from tests.golden import golden_data
from tests.league.two_leagues import TUESDAY_ADDRESS, build_two_leagues

GOLDEN = golden_data()


def _golden_season():
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    return import_season_file(
        league=official.league,
        name="Winter 2026",
        data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )


def _standings(season):
    return fold_season(season_facts(season)).standings()


def _tables(path):
    return json.loads(path.read_text())["tables"]


def _signed(document):
    """The document signed by this installation, with a checksum that matches it, as `backup`
    would have written it."""
    return json.dumps(seal(document))


def _table(document, label):
    return next(t for t in document["tables"] if t["model"] == label)["rows"]


def _empty_the_database():
    """Every row gone; the id sequences left where they were (the restore sets each itself:
    `test_restore_resets_id_sequences_so_new_rows_get_new_ids` empties them with theirs)."""
    call_command("flush", interactive=False, verbosity=0, reset_sequences=False)


def test_backup_models_come_after_every_model_they_point_to():
    ordered = backup_models()

    position = {model: i for i, model in enumerate(ordered)}
    late = [
        (model._meta.label, field.name)
        for model in ordered
        for field in model._meta.concrete_fields
        if field.is_relation
        and field.related_model is not model
        and position[field.related_model] > position[model]
    ]
    assert (ordered[0], late) == (User, [])
    assert set(ordered[1:]) == set(m.League._meta.app_config.get_models()) - {
        m.ApiToken,
        m.DerivedResult,
        m.IdempotencyKey,
        m.Notice,
    }


@pytest.mark.django_db
def test_backup_leaves_out_api_tokens(tmp_path):
    """API tokens are league rows but never backed up, not even their hashes."""
    issuer = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    issued = issue_api_token(league=issuer.league, name="tv", scopes=["scores"], actor=issuer.user)
    path = tmp_path / "backup.json"

    write_backup(path=path)

    assert [t["model"] for t in _tables(path) if "token" in t["model"]] == []
    assert issued.token.token_hash not in path.read_text()


def test_backup_flush_restore_keeps_golden_standings_and_every_row(transactional_db, tmp_path):
    """The round trip of the brief: import, back up, flush, restore; nothing changes."""
    season = _golden_season()
    before = _standings(season)
    first, second = tmp_path / "first.json", tmp_path / "second.json"

    assert main(["backup", str(first)]) == 0
    call_command("flush", interactive=False, verbosity=0)
    assert m.Season.objects.count() == 0
    assert main(["restore", str(first)]) == 0

    restored = m.Season.objects.get(pk=season.pk)
    assert _standings(restored) == before
    write_backup(path=second)
    assert _tables(second) == _tables(first)


def test_restore_resets_id_sequences_so_new_rows_get_new_ids(transactional_db, tmp_path):
    season = _golden_season()
    path = tmp_path / "backup.json"
    write_backup(path=path)
    call_command("flush", interactive=False, verbosity=0)
    restore_backup(path=path)

    league = f.LeagueFactory()
    meet = f.MeetFactory(season=f.SeasonFactory(league=league))

    assert league.pk > season.league_id
    assert meet.pk > m.Meet.objects.filter(season=season).order_by("-pk").first().pk


@pytest.mark.django_db
def test_backup_keeps_acting_accounts_with_only_their_names_email_and_password(tmp_path):
    season = _golden_season()
    official = season.league.officials.get().user
    f.UserFactory(username="bystander")
    User.objects.filter(pk=official.pk).update(is_staff=True, is_superuser=True)
    path = tmp_path / "backup.json"

    write_backup(path=path)

    users = next(t for t in _tables(path) if t["model"] == "auth.user")["rows"]
    assert [(row["pk"], sorted(row["fields"])) for row in users] == [
        (official.pk, sorted(USER_FIELDS))
    ]
    assert users[0]["fields"]["password"] == official.password


@pytest.mark.django_db
def test_backup_keeps_an_account_that_only_recorded_a_fact(tmp_path):
    scorer = f.UserFactory(username="scorer")
    f.ViolationFactory(official=scorer)
    path = tmp_path / "backup.json"

    write_backup(path=path)

    users = next(t for t in _tables(path) if t["model"] == "auth.user")["rows"]
    assert "scorer" in [row["fields"]["username"] for row in users]


@pytest.mark.django_db
def test_backup_file_is_private_and_written_atomically(tmp_path):
    f.LeagueFactory()
    path = tmp_path / "backup.json"
    path.write_text("the old backup")

    summary = write_backup(path=path)

    document = json.loads(path.read_text())
    assert (document["format"], document["format_version"]) == ("flipwell-backup", FORMAT_VERSION)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["backup.json"]
    assert summary.rows["league.league"] == 1


@pytest.mark.django_db
def test_backup_keeps_microseconds_of_datetimes(tmp_path):
    league = f.LeagueFactory(
        created_at=datetime.datetime(2026, 1, 2, 3, 4, 5, 678901, datetime.UTC)
    )
    path = tmp_path / "backup.json"

    write_backup(path=path)

    leagues = next(t for t in _tables(path) if t["model"] == "league.league")["rows"]
    assert leagues[0]["fields"]["created_at"] == "2026-01-02T03:04:05.678901+00:00"
    assert leagues[0]["pk"] == league.pk


@pytest.mark.django_db
def test_backup_to_missing_folder_says_so(tmp_path, capsys):
    assert main(["backup", str(tmp_path / "nope" / "backup.json")]) == 1

    assert capsys.readouterr().err == (
        f"flipwell backup: cannot write {tmp_path}/nope/backup.json: the folder "
        f"{tmp_path}/nope does not exist\n"
    )


@pytest.mark.django_db
def test_restore_into_a_database_with_data_is_refused_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "backup.json"
    f.LeagueFactory(slug="first")
    write_backup(path=path)
    f.LeagueFactory(slug="second")

    assert main(["restore", str(path)]) == 1

    err = capsys.readouterr().err
    assert err.startswith("flipwell restore: refusing to restore: this database already holds ")
    assert "A restore needs an empty database" in err
    assert sorted(m.League.objects.values_list("slug", flat=True)) == ["first", "second"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"tables": []}', 'is not a flipwell backup: it has no "format": "flipwell-backup"'),
        (
            '{"format": "flipwell-backup", "format_version": 99, "tables": []}',
            "is a backup in format version 99; this flipwell reads version 1 only",
        ),
        (
            '{"format": "flipwell-backup", "format_version": 1, "tables": '
            '[{"model": "league.nothing", "rows": []}]}',
            "unknown table 'league.nothing'",
        ),
    ],
)
def test_restore_refuses_a_file_that_is_not_a_backup_it_reads(tmp_path, content, message):
    path = tmp_path / "backup.json"
    document = json.loads(content) if content.startswith('{"') else None
    path.write_text(_signed(document) if document else content)

    with pytest.raises(BackupError, match=message):
        restore_backup(path=path)


@pytest.mark.django_db
def test_restore_refuses_a_backup_of_a_newer_schema(tmp_path):
    path = tmp_path / "backup.json"
    applied = sorted(
        name for app, name in MigrationRecorder(connection).applied_migrations() if app == "league"
    )
    path.write_text(
        _signed(
            {
                "format": "flipwell-backup",
                "format_version": 1,
                "migrations": {"league": [*applied, "9999_from_the_future"]},
                "tables": [],
            }
        )
    )

    with pytest.raises(BackupError, match=r"made by a newer flipwell: .* 9999_from_the_future"):
        restore_backup(path=path)


@pytest.mark.django_db
def test_restore_with_a_bad_row_writes_nothing(tmp_path):
    path = tmp_path / "backup.json"
    f.MachineFactory()
    write_backup(path=path)
    document = json.loads(path.read_text())
    machines = next(t for t in document["tables"] if t["model"] == "league.machine")
    machines["rows"][0]["fields"]["balls_per_game"] = 99  # the model's validator refuses it
    path.write_text(_signed(document))
    m.Machine.objects.all().delete()
    m.League.objects.all().delete()
    User.objects.all().delete()

    with pytest.raises(
        BackupError, match=r"league\.machine row pk \d+, field 'balls_per_game': Ensure this"
    ):
        restore_backup(path=path)

    assert (m.League.objects.count(), m.Machine.objects.count()) == (0, 0)


def test_backup_round_trip_of_the_demo_league_keeps_every_row(transactional_db, tmp_path):
    """Playoffs, open meets and two seasons of the same players survive too."""
    create_demo_league(today=datetime.date(2026, 3, 10))
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    write_backup(path=first)
    call_command("flush", interactive=False, verbosity=0)

    restore_backup(path=first)
    write_backup(path=second)

    assert _tables(second) == _tables(first)
    assert m.PlayoffResult.objects.count() > 0


# --- a restore trusts no file: rows, values, references, the fold, the checksum ---


@pytest.fixture
def backup_document(transactional_db, tmp_path):
    """A backup of one league with an official, as a document; the database then emptied."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    f.MachineFactory(league=official.league)
    path = tmp_path / "backup.json"
    write_backup(path=path)
    _empty_the_database()
    return json.loads(path.read_text())


def _restore_edited(tmp_path, document, *, verify=True):
    path = tmp_path / "edited.json"
    path.write_text(_signed(document))
    return restore_backup(path=path, verify=verify)


def _nothing_restored():
    return (User.objects.count(), m.League.objects.count(), m.Machine.objects.count()) == (0, 0, 0)


def test_restore_refuses_a_superuser_flag_naming_the_table_row_and_field(backup_document, tmp_path):
    (user,) = _table(backup_document, "auth.user")
    user["fields"]["is_superuser"] = True

    with pytest.raises(
        BackupError,
        match=rf"auth\.user row 1 \(pk {user['pk']}\): unknown field 'is_superuser'; "
        r"`flipwell backup` writes only email, first_name, last_name, password, username",
    ):
        _restore_edited(tmp_path, backup_document)

    assert _nothing_restored()


def test_restore_refuses_an_unknown_field_of_a_league_row(backup_document, tmp_path):
    (league,) = _table(backup_document, "league.league")
    league["fields"]["owner"] = 1

    with pytest.raises(
        BackupError, match=r"league\.league row 1 \(pk \d+\): unknown field 'owner'"
    ):
        _restore_edited(tmp_path, backup_document)

    assert _nothing_restored()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda row: row.update(model="auth.user"), r'row 1 is not a \{"pk", "fields"\} object'),
        (lambda row: row.update(pk="1"), r"row 1: pk '1' is not a positive whole number"),
        (lambda row: row.update(fields=[]), r'row 1 \(pk \d+\): "fields" is not an object'),
    ],
)
def test_restore_refuses_a_row_not_shaped_as_backup_writes_it(
    backup_document, tmp_path, edit, message
):
    edit(_table(backup_document, "league.machine")[0])

    with pytest.raises(BackupError, match=rf"league\.machine {message}"):
        _restore_edited(tmp_path, backup_document)

    assert _nothing_restored()


def test_restore_refuses_a_value_its_model_does_not_allow(backup_document, tmp_path):
    (official,) = _table(backup_document, "league.leagueofficial")
    official["fields"]["role"] = "owner"

    with pytest.raises(
        BackupError, match=r"league\.leagueofficial row pk \d+, field 'role': Value 'owner'"
    ):
        _restore_edited(tmp_path, backup_document)

    assert _nothing_restored()


def test_restore_refuses_a_ruleset_override_value_not_allowed(backup_document, tmp_path):
    """A stored override the rules refuse would make every page of the league fail."""
    (league,) = _table(backup_document, "league.league")
    league["fields"]["ruleset_overrides"] = {"dues_period": "weekly"}

    with pytest.raises(
        BackupError,
        match=r"league\.league row pk \d+, field 'ruleset_overrides': Ruleset setting "
        r"dues_period cannot be 'weekly'; allowed: 'season', 'meet'\.",
    ):
        _restore_edited(tmp_path, backup_document)

    assert _nothing_restored()


def test_restore_keeps_an_allowed_ruleset_override(backup_document, tmp_path):
    (league,) = _table(backup_document, "league.league")
    league["fields"]["ruleset_overrides"] = {"dues_period": "meet"}

    _restore_edited(tmp_path, backup_document)

    assert list(m.League.objects.values_list("ruleset_overrides", flat=True)) == [
        {"dues_period": "meet"}
    ]


def test_restore_maps_a_special_ruling_kind_of_an_older_backup(transactional_db, tmp_path):
    """Before migration 0013 a special ruling's kind was stored as a short code ("major"); a
    backup of that time restores with the rules' value ("major_malfunction", RA-a)."""
    f.SpecialRulingFactory(kind=m.SpecialRuling.Kind.MAJOR_MALFUNCTION)
    path = tmp_path / "backup.json"
    write_backup(path=path)
    _empty_the_database()
    document = json.loads(path.read_text())
    (ruling,) = _table(document, "league.specialruling")
    ruling["fields"]["kind"] = "major"

    _restore_edited(tmp_path, document)

    assert list(m.SpecialRuling.objects.values_list("kind", flat=True)) == ["major_malfunction"]


def test_restore_gives_an_older_backups_notice_subscriptions_their_leagues(
    transactional_db, tmp_path
):
    """issue 26 §1: a backup made before subscriptions belonged to a league holds them without
    one; each goes to the league whose official set it (its audit event), else to each league
    the player is entered in, as league migration 0019 does."""
    two = build_two_leagues()  # Tuesday's official set Dee's address
    m.NoticeSubscription.objects.create(league=two.tuesday, player=two.kruz, email="k@x.org")
    path = tmp_path / "backup.json"
    write_backup(path=path)
    _empty_the_database()
    document = json.loads(path.read_text())
    for row in _table(document, "league.noticesubscription"):
        del row["fields"]["league"]

    _restore_edited(tmp_path, document)

    restored = m.NoticeSubscription.objects.order_by("player__last_name")
    assert [(str(row.player), row.league.name, row.email) for row in restored] == [
        ("Dee Cruz", "Tuesday Flippers", TUESDAY_ADDRESS),
        ("Dee Kruz", "Wednesday Wizards", "k@x.org"),
    ]


def test_restore_gives_an_older_backups_special_rulings_their_leagues(transactional_db, tmp_path):
    """issue 34 §3: a backup made before special rulings belonged to a league holds them
    without one; each goes to the league of its audit event, else a copy to each league with
    a machine of that title, else it is dropped, as league migration 0031 does."""
    a = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    b = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    for official in (a, b):
        f.MachineFactory(league=official.league, title="The Addams Family")
    add_special_ruling(
        league=b.league, actor=b.user, machine_title="Godzilla", kind="major_malfunction",
        text="Ours.", reproducible=True, reproduction="Shoot it.", cause_and_effect="Stuck.",
    )  # fmt: skip
    f.SpecialRulingFactory(league=a.league, machine_title="Addams Family", text="Seeded.")
    f.SpecialRulingFactory(league=a.league, machine_title="Cyclone", text="Nobody's.")
    path = tmp_path / "backup.json"
    write_backup(path=path)
    _empty_the_database()
    document = json.loads(path.read_text())
    for row in _table(document, "league.specialruling"):
        del row["fields"]["league"]

    _restore_edited(tmp_path, document)

    restored = m.SpecialRuling.objects.order_by("machine_title", "league_id")
    assert [(row.machine_title, row.league_id, row.text) for row in restored] == [
        ("Addams Family", a.league_id, "Seeded."),
        ("Addams Family", b.league_id, "Seeded."),
        ("Godzilla", b.league_id, "Ours."),
    ]


def test_restore_refuses_a_reference_to_a_row_it_does_not_hold(backup_document, tmp_path):
    _table(backup_document, "league.machine")[0]["fields"]["league"] = 999_999

    with pytest.raises(BackupError, match="a row refers to a row the backup does not hold"):
        _restore_edited(tmp_path, backup_document)

    assert _nothing_restored()


def test_restore_refuses_a_season_the_rules_cannot_fold(transactional_db, tmp_path):
    """A player entered from meet 1 of a season whose meets were played without him: every
    page of the season would fail (issue 8 fault 1's state), so the file is refused."""
    _golden_season()
    path = tmp_path / "backup.json"
    write_backup(path=path)
    _empty_the_database()
    document = json.loads(path.read_text())
    players, entries = _table(document, "league.player"), _table(document, "league.seasonentry")
    players.append({"pk": 999, "fields": {**players[0]["fields"], "first_name": "Late"}})
    players[-1]["fields"]["ifpa_number"] = None
    entries.append({"pk": 999, "fields": {**entries[0]["fields"], "player": 999}})

    with pytest.raises(BackupError, match=r"the season 'Winter 2026' of .* does not add up"):
        _restore_edited(tmp_path, document)

    assert (m.Season.objects.count(), User.objects.count()) == (0, 0)


def test_restore_refuses_an_edited_file_unless_told_not_to_verify(
    backup_document, tmp_path, capsys
):
    path = tmp_path / "edited.json"
    path.write_text(_signed(backup_document))
    document = json.loads(path.read_text())
    _table(document, "league.machine")[0]["fields"]["title"] = "Edited"
    path.write_text(json.dumps(document))

    assert main(["restore", str(path)]) == 1
    assert "does not match its checksum: the file is damaged or was edited" in (
        capsys.readouterr().err
    )
    assert _nothing_restored()
    assert main(["restore", "--no-verify", str(path)]) == 0
    assert list(m.Machine.objects.values_list("title", flat=True)) == ["Edited"]


def test_restore_refuses_a_file_without_checksum_unless_told_not_to_verify(
    backup_document, tmp_path
):
    path = tmp_path / "old.json"
    del backup_document["checksum"]
    path.write_text(json.dumps(backup_document))

    with pytest.raises(BackupError, match=r"has no checksum.*`flipwell restore --no-verify "):
        restore_backup(path=path)
    assert _nothing_restored()

    summary = restore_backup(path=path, verify=False)
    assert summary.rows["league.machine"] == 1


def test_backup_checksum_matches_the_written_file(db, tmp_path):
    _golden_season()
    path = tmp_path / "backup.json"
    write_backup(path=path)

    document = json.loads(path.read_text())

    assert document["checksum"] == backup_checksum(document)
    assert document["checksum"].startswith("sha256:")


def test_restore_refuses_two_rows_with_one_primary_key(backup_document, tmp_path):
    machines = _table(backup_document, "league.machine")
    machines.append(machines[0])

    with pytest.raises(BackupError, match=r"the league\.machine rows do not fit this database"):
        _restore_edited(tmp_path, backup_document)

    assert _nothing_restored()


# --- the signature: made by this installation, unchanged since (issue 26 §5) ---


@pytest.fixture
def ledger_backup(transactional_db, tmp_path):
    """A backup of one league with a 20.00 dues payment, as a document; the database then
    emptied."""
    official = f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__name="Tuesday", league__slug="tue"
    )
    f.LedgerEntryFactory(league=official.league, created_by=official.user, amount_cents=2000)
    path = tmp_path / "backup.json"
    write_backup(path=path)
    _empty_the_database()
    return json.loads(path.read_text())


def _checksummed_only(document):
    """The document with its SHA-256 checksum computed again, as anybody who edits it can."""
    return json.dumps({**document, "checksum": backup_checksum(document)})


def test_backup_is_signed_and_its_checksum_covers_the_signature(db, tmp_path):
    f.LeagueFactory()
    path = tmp_path / "backup.json"
    write_backup(path=path)

    document = json.loads(path.read_text())

    assert document["signature"] == backup_signature(document)
    assert document["signature"].startswith("hmac-sha256:")
    assert document["checksum"] == backup_checksum(document)


def test_restore_refuses_an_edited_ledger_amount_with_a_recomputed_checksum(
    ledger_backup, tmp_path, capsys
):
    """issue 26 §5: restore accepted a backup whose ledger amounts were edited and whose
    SHA-256 was computed again; the signature needs the installation's secret key."""
    _table(ledger_backup, "league.ledgerentry")[0]["fields"]["amount_cents"] = 200000
    path = tmp_path / "edited.json"
    path.write_text(_checksummed_only(ledger_backup))

    assert main(["restore", str(path)]) == 1

    err = capsys.readouterr().err
    assert err == (
        f"flipwell restore: {path} is not signed by this installation: another flipwell (with "
        "another SECRET_KEY) made it, or someone changed it after `flipwell backup` wrote it "
        "and computed its checksum again. Restore a backup this installation made; only if you "
        "trust this file (you made it on another installation of yours), `flipwell restore "
        f"--trust-unsigned {path}` restores it and shows what it holds.\n"
    )
    assert (m.League.objects.count(), m.LedgerEntry.objects.count()) == (0, 0)


def test_restore_trust_unsigned_warns_and_shows_what_the_file_holds(
    ledger_backup, tmp_path, capsys
):
    """issue 26 §5: a backup this installation did not sign restores only when told to, and
    the operator sees the ledger it brings before trusting it."""
    _table(ledger_backup, "league.ledgerentry")[0]["fields"]["amount_cents"] = 200000
    path = tmp_path / "edited.json"
    path.write_text(_checksummed_only(ledger_backup))

    assert main(["restore", "--trust-unsigned", str(path)]) == 0

    err = capsys.readouterr().err
    assert err.startswith(f"Warning: {path} is not signed by this installation")
    assert "Restoring it as --trust-unsigned asks: every row is still checked" in err
    assert (
        "  League “Tuesday” (tue): 0 seasons, 0 players, 0 meets, 1 ledger entries "
        "(in all: payment 2,000.00)\n"
    ) in err
    assert list(m.LedgerEntry.objects.values_list("amount_cents", flat=True)) == [200000]


def test_restore_refuses_a_backup_signed_by_another_installation(ledger_backup, tmp_path):
    """A backup from another installation (another SECRET_KEY) needs --trust-unsigned."""
    document = {k: v for k, v in ledger_backup.items() if k not in ("signature", "checksum")}
    document["signature"] = backup_signature(document, secret="another installation's key")
    path = tmp_path / "other.json"
    path.write_text(_checksummed_only(document))

    with pytest.raises(BackupError, match=r"is not signed by this installation"):
        restore_backup(path=path)
    summary = restore_backup(path=path, trust_unsigned=True)

    assert summary.rows["league.ledgerentry"] == 1


def test_restore_of_an_unsigned_backup_says_so_and_restores_when_trusted(
    ledger_backup, tmp_path, capsys
):
    """Backups made before flipwell signed them: refused in plain words, restorable by flag."""
    del ledger_backup["signature"]
    path = tmp_path / "old.json"
    path.write_text(_checksummed_only(ledger_backup))

    assert main(["restore", str(path)]) == 1
    assert "is not signed, so flipwell cannot tell that this installation made it" in (
        capsys.readouterr().err
    )
    assert main(["restore", "--trust-unsigned", str(path)]) == 0
    assert m.LedgerEntry.objects.count() == 1


def test_restore_verifies_a_backup_signed_with_a_rotated_key(ledger_backup, tmp_path, settings):
    """After SECRET_KEY changes, the old key in SECRET_KEY_FALLBACKS still vouches for it."""
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(ledger_backup))
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a new key after a rotation, long enough to be a key"

    summary = restore_backup(path=path)

    assert summary.rows["league.ledgerentry"] == 1


@pytest.mark.parametrize(
    "content",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"format": "flipwell-backup", "format_version": 1, "tables": [], "x": '
        + "[" * 5000
        + "]" * 5000
        + "}",
    ],
    ids=["bare", "inside-a-backup"],
)
def test_restore_of_deeply_nested_json_is_a_clear_error(db, tmp_path, capsys, content):
    """issue 26 §5: a deeply nested JSON file was a RecursionError traceback."""
    path = tmp_path / "nested.json"
    path.write_text(content)

    assert main(["restore", str(path)]) == 1

    err = capsys.readouterr().err
    assert err.startswith(f"flipwell restore: {path} is not a flipwell backup: its JSON is nested ")
    assert "a backup is at most 64" in err
    assert "Traceback" not in err


def test_json_depth_ignores_brackets_inside_strings():
    assert json_depth('{"a": "[[[{{\\"]]", "b": [[1]]}') == 3


def test_backup_contents_of_rows_not_yet_checked_never_fails():
    """What --trust-unsigned prints is read before any row is checked: odd rows are shown,
    not a traceback."""
    document = {
        "tables": [
            {"model": "league.league", "rows": [{"pk": [1], "fields": {"name": "X" * 500}}]},
            {"model": "league.season", "rows": [{"pk": 1, "fields": {"league": {"a": 1}}}, 7]},
            {"model": "league.ledgerentry", "rows": [{"pk": 1, "fields": []}]},
        ]
    }

    (line,) = backup_contents(document)

    assert line == (f"League “{'X' * 80}” (None): 1 seasons, 0 players, 0 meets, 1 ledger entries")


# --- each season's readings of the rules (R2-a) ---


def test_backup_round_trip_keeps_each_season_readings(transactional_db, tmp_path):
    """A season keeps the readings it was played under through a backup and restore, though
    the league's have changed since (for seasons created later), and folds as before."""
    season = _golden_season()
    season.league.ruleset_overrides = {"season_forfeit_limit": 4}
    season.league.save()
    upcoming = f.SeasonFactory(league=season.league, name="Spring 2026")
    before = standings(season)
    path = tmp_path / "backup.json"
    write_backup(path=path)
    _empty_the_database()

    restore_backup(path=path)

    restored = m.Season.objects.order_by("pk").values_list("name", "ruleset_overrides")
    assert list(restored) == [
        ("Winter 2026", {}),
        ("Spring 2026", {"season_forfeit_limit": 4}),
    ]
    assert upcoming.pk == m.Season.objects.get(name="Spring 2026").pk
    after = standings(m.Season.objects.get(pk=season.pk))
    assert (after, after.season_forfeit_limit) == (before, 12)


def test_restore_gives_an_older_backups_seasons_their_league_readings(transactional_db, tmp_path):
    """A backup made before seasons kept their own readings: each season takes its league's,
    those it was folded under then, as league migration 0022 does."""
    season = f.SeasonFactory(league=f.LeagueFactory(ruleset_overrides={"dues_period": "meet"}))
    f.SeasonFactory(league=f.LeagueFactory(), name="Elsewhere")
    path = tmp_path / "backup.json"
    write_backup(path=path)
    _empty_the_database()
    document = json.loads(path.read_text())
    for row in _table(document, "league.season"):
        del row["fields"]["ruleset_overrides"]

    _restore_edited(tmp_path, document)

    restored = m.Season.objects.order_by("pk").values_list("name", "ruleset_overrides")
    assert list(restored) == [(season.name, {"dues_period": "meet"}), ("Elsewhere", {})]
