"""issue 34 §3: ``flipwell restore --trust-unsigned`` checks every row as a write would. A
crafted backup whose rows cross leagues (a league-B ledger entry on league A's season and
player), name a player of another league, or hold NUL, an invisible character, a route's name
as a slug or a machine's own zone file as a time zone is refused with a message naming the
row, and nothing is restored."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from flipwell.cli import main
from flipwell.league import models as m
from flipwell.league.exchange.backup.format import BackupError, backup_checksum
from flipwell.league.exchange.backup.restoring import restore_backup
from flipwell.league.exchange.backup.writing import write_backup
from tests import factories as f


@pytest.fixture
def backed_up_two_leagues(transactional_db, tmp_path):
    """League A (a season, Bea entered in it) and league B (its official, a 20.00 payment),
    backed up as a document; the database then emptied (its rows: the restore sets the id
    sequences itself)."""
    a = f.SeasonEntryFactory(season__league__slug="league-a")
    b = f.LeagueOfficialFactory(league__slug="league-b")
    f.LedgerEntryFactory(league=b.league, created_by=b.user)
    path = tmp_path / "backup.json"
    write_backup(path=path)
    call_command("flush", interactive=False, verbosity=0, reset_sequences=False)
    document = json.loads(path.read_text())
    document["ids"] = {
        "league_b": b.league.pk,
        "season_a": a.season.pk,
        "player_a": a.player.pk,
    }
    return document


def _rows(document, label):
    return next(t for t in document["tables"] if t["model"] == label)["rows"]


def _restore_trusted(tmp_path, document):
    """Restore `document` as another installation's file (`--trust-unsigned`)."""
    document = {k: v for k, v in document.items() if k not in ("ids", "signature", "checksum")}
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps({**document, "checksum": backup_checksum(document)}))
    return restore_backup(path=path, trust_unsigned=True)


def _nothing_restored():
    held = (User.objects.count(), m.League.objects.count(), m.LedgerEntry.objects.count())
    return held == (0, 0, 0)


def test_restore_refuses_a_ledger_entry_of_league_b_on_league_as_season_and_player(
    backed_up_two_leagues, tmp_path
):
    (entry,) = _rows(backed_up_two_leagues, "league.ledgerentry")
    entry["fields"]["season"] = backed_up_two_leagues["ids"]["season_a"]
    entry["fields"]["player"] = backed_up_two_leagues["ids"]["player_a"]

    with pytest.raises(
        BackupError,
        match=rf"league\.ledgerentry row 1 \(pk {entry['pk']}\) crosses leagues \(league in "
        rf"league {backed_up_two_leagues['ids']['league_b']}, season in league \d+\)",
    ):
        _restore_trusted(tmp_path, backed_up_two_leagues)

    assert _nothing_restored()


def test_restore_refuses_a_ledger_entry_naming_another_leagues_player(
    backed_up_two_leagues, tmp_path
):
    (entry,) = _rows(backed_up_two_leagues, "league.ledgerentry")
    entry["fields"]["player"] = backed_up_two_leagues["ids"]["player_a"]

    with pytest.raises(
        BackupError,
        match=rf"league\.ledgerentry row 1 \(pk {entry['pk']}\) of league "
        rf"{backed_up_two_leagues['ids']['league_b']} names player "
        rf"{backed_up_two_leagues['ids']['player_a']}, who "
        "is not a player of that league",
    ):
        _restore_trusted(tmp_path, backed_up_two_leagues)

    assert _nothing_restored()


def test_restore_of_the_untouched_file_restores_both_leagues(backed_up_two_leagues, tmp_path):
    summary = _restore_trusted(tmp_path, backed_up_two_leagues)

    assert summary.rows["league.league"] == 2
    assert m.LedgerEntry.objects.count() == 1


@pytest.mark.parametrize(
    ("label", "field", "value", "problem"),
    [
        ("league.player", "first_name", "Bea\x00", r"holds the control character U\+0000"),
        ("league.player", "last_name", "Adams\x1b[2J", r"holds the control character U\+001B"),
        ("league.league", "name", "Tues\x07day", r"holds the control character U\+0007"),
        ("league.player", "first_name", "Bea\u200b", "holds invisible characters"),
        ("league.league", "slug", "manage", "is one of flipwell's own pages"),
        ("league.league", "time_zone", "localtime", "is not a known time zone"),
        ("league.league", "time_zone", "posix/Europe/Berlin", "is not a known time zone"),
    ],
)
def test_restore_refuses_a_value_no_write_stores_naming_its_row(
    backed_up_two_leagues, tmp_path, label, field, value, problem
):
    row = _rows(backed_up_two_leagues, label)[0]
    row["fields"][field] = value

    with pytest.raises(BackupError) as refused:
        _restore_trusted(tmp_path, backed_up_two_leagues)

    said = str(refused.value)
    assert f"{label} row pk {row['pk']}, field '{field}': " in said
    assert re.search(problem, said), said
    assert _nothing_restored()


def test_restore_command_prints_the_refusal_naming_the_row(backed_up_two_leagues, tmp_path, capsys):
    (entry,) = _rows(backed_up_two_leagues, "league.ledgerentry")
    entry["fields"]["season"] = backed_up_two_leagues["ids"]["season_a"]
    document = {
        k: v for k, v in backed_up_two_leagues.items() if k not in ("ids", "signature", "checksum")
    }
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps({**document, "checksum": backup_checksum(document)}))

    assert main(["restore", "--trust-unsigned", str(path)]) == 1

    assert f"league.ledgerentry row 1 (pk {entry['pk']}) crosses leagues" in capsys.readouterr().err
    assert _nothing_restored()
