"""The roster import in bulk: 10,000 rows, a fixed number of queries, progress on the command
line, and the same line-and-column errors as one by one registration (issue 8, fault 9)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.services.players.roster_import import import_players_csv
from tests import factories as f

pytestmark = pytest.mark.django_db

HEADER = "first_name,last_name,ifpa_number,ifpa_rank\n"


@pytest.fixture
def flip_well_lo() -> m.LeagueOfficial:
    return f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, user__username="lo", league__name="Flip Well"
    )


def _season(flip_well_lo: m.LeagueOfficial, name: str = "Winter 2026") -> m.Season:
    return f.SeasonFactory(league=flip_well_lo.league, name=name, number_of_meets=10)


def _roster(rows: int, *, first: int = 1) -> str:
    """`rows` new players; odd ones have an IFPA number (100,000 + i) and rank i."""
    lines = [
        f"Pat{i},Roster{i},{100_000 + i},{i}" if i % 2 else f"Pat{i},Roster{i},,"
        for i in range(first, first + rows)
    ]
    return HEADER + "\n".join(lines) + "\n"


def _queries(flip_well_lo: m.LeagueOfficial, name: str, text: str) -> int:
    season = _season(flip_well_lo, name)
    with CaptureQueriesContext(connection) as captured:
        import_players_csv(season=season, csv_text=text, actor=flip_well_lo.user)
    return len(captured)


def test_import_players_csv_ten_thousand_rows_enters_everyone(flip_well_lo):
    season = _season(flip_well_lo)
    known = f.PlayerFactory(first_name="Pat1", last_name="Roster1", ifpa_number=100_001)
    namesake = f.PlayerFactory(first_name="pat2", last_name="ROSTER2", ifpa_number=None)
    f.SeasonEntryFactory(season=_season(flip_well_lo, "Autumn 2025"), player=namesake)

    result = import_players_csv(season=season, csv_text=_roster(10_000), actor=flip_well_lo.user)

    assert (len(result.entries), len(result.created_players)) == (10_000, 9_998)
    assert season.entries.count() == 10_000
    assert m.Player.objects.count() == 10_000
    sample = [result.entries[i].pk for i in (0, 1, 5000, 9999)]
    stored = m.SeasonEntry.objects.select_related("player").in_bulk(sample)
    assert [
        (e.player.first_name, e.player.last_name, e.player.ifpa_number, e.ifpa_rank_at_start)
        for e in (stored[pk] for pk in sample)
    ] == [
        ("Pat1", "Roster1", 100_001, 1),
        ("pat2", "ROSTER2", None, None),
        ("Pat5001", "Roster5001", 105_001, 5001),
        ("Pat10000", "Roster10000", None, None),
    ]
    assert (result.entries[0].player, result.entries[1].player) == (known, namesake)
    assert set(season.entries.values_list("joined_at_meet", flat=True)) == {1}


def test_import_players_csv_queries_do_not_grow_with_the_rows(flip_well_lo):
    # 160 rows fill one SQLite insert batch (999 parameters); PostgreSQL has no such limit.
    few = _queries(flip_well_lo, "Few", _roster(10))
    many = _queries(flip_well_lo, "Many", _roster(160, first=1_000))

    assert many == few


def test_import_players_csv_same_unnumbered_name_twice_refused_at_second_line(flip_well_lo):
    season = _season(flip_well_lo)

    with pytest.raises(PlayersCsvError) as caught:
        import_players_csv(
            season=season, csv_text=HEADER + "Cy,Cole,,\nAda,Archer,,\ncy,COLE,,\n",
            actor=flip_well_lo.user,
        )  # fmt: skip

    assert (
        str(caught.value) == "line 4, column last_name: Cy Cole is already entered in Winter 2026."
    )
    assert (m.Player.objects.count(), m.SeasonEntry.objects.count()) == (0, 0)


def test_import_players_csv_ambiguous_name_refused_naming_line(flip_well_lo):
    season = _season(flip_well_lo)
    earlier = _season(flip_well_lo, "Autumn 2025")
    for _ in range(2):
        f.SeasonEntryFactory(season=earlier, player__first_name="Cy", player__last_name="Cole")

    with pytest.raises(PlayersCsvError) as caught:
        import_players_csv(season=season, csv_text=HEADER + "Cy,Cole,,\n", actor=flip_well_lo.user)

    assert (caught.value.line, caught.value.column) == (2, "last_name")
    assert caught.value.message.startswith("Several players named Cy Cole have no IFPA number")


def test_import_players_csv_too_long_name_refused_naming_column(flip_well_lo):
    season = _season(flip_well_lo)
    long_name = "X" * 81

    with pytest.raises(PlayersCsvError) as caught:
        import_players_csv(
            season=season, csv_text=HEADER + f"Ada,Archer,,\n{long_name},Bell,,\n",
            actor=flip_well_lo.user,
        )  # fmt: skip

    assert str(caught.value) == (
        "line 3, column first_name: Ensure this value has at most 80 characters (it has 81)."
    )
    assert m.SeasonEntry.objects.count() == 0


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_import_players_command_draws_progress_by_rows(flip_well_lo, tmp_path):
    season = _season(flip_well_lo)
    path = tmp_path / "roster.csv"
    path.write_text(_roster(1_500))
    terminal = FakeTerminal()

    call_command("import_players", "--season", str(season.pk), str(path), stderr=terminal)

    frames = terminal.getvalue().split("\r")
    assert frames[1].startswith("Importing players [")
    assert frames[1].endswith("]    0/1500")
    assert "] 1000/1500" in terminal.getvalue()
    assert frames[-1].endswith("] 1500/1500\n")
    assert season.entries.count() == 1_500
