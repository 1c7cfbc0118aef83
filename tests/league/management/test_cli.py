"""The `flipwell` database commands: import-players, errors without tracebacks, progress."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from flipwell.cli import DJANGO_COMMANDS, main
from flipwell.league import models as m
from flipwell.league.exchange.progress import Progress
from tests import factories as f

ROSTER = "first_name,last_name,ifpa_number,ifpa_rank\nBea,Adams,1001,312\nCal,Brooks,,\n"


@pytest.fixture
def season():
    official = f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, user__username="lo", league__name="Flip Well"
    )
    return f.SeasonFactory(league=official.league, name="Winter 2026")


@pytest.mark.django_db
def test_import_players_enters_every_row(season, tmp_path, capsys):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER)

    assert main(["import-players", "--season", str(season.pk), str(path)]) == 0

    entered = season.entries.order_by("player__last_name").values_list(
        "player__first_name", "player__last_name", "player__ifpa_number", "ifpa_rank_at_start"
    )
    assert list(entered) == [("Bea", "Adams", 1001, 312), ("Cal", "Brooks", None, None)]
    assert capsys.readouterr().out == (
        "Entered 2 players in Flip Well: Winter 2026 (2 new to flipwell).\n"
    )


@pytest.mark.django_db
def test_import_players_bad_row_names_line_and_column_and_writes_nothing(season, tmp_path, capsys):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER + "Dee,Cruz,12x,\n")

    assert main(["import-players", "--season", str(season.pk), str(path)]) == 1

    assert capsys.readouterr().err == (
        f"flipwell import-players: {path}: line 4, column ifpa_number: '12x' is not a whole "
        "number of 1 or more (leave it empty if none); nothing was imported\n"
    )
    assert (m.SeasonEntry.objects.count(), m.Player.objects.count()) == (0, 0)


@pytest.mark.django_db
def test_import_players_row_the_service_refuses_names_its_line(season, tmp_path, capsys):
    f.PlayerFactory(first_name="Other", last_name="Person", ifpa_number=1001)
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER)

    assert main(["import-players", "--season", str(season.pk), str(path)]) == 1

    err = capsys.readouterr().err
    assert err.startswith(f"flipwell import-players: {path}: line 2, column ifpa_number: ")
    assert m.SeasonEntry.objects.count() == 0


@pytest.mark.django_db
def test_import_players_with_several_officials_asks_who_acts(season, tmp_path):
    f.LeagueOfficialFactory(league=season.league, user__username="second")
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER)

    with pytest.raises(CommandError, match=r"several league officials \(lo, second\)"):
        call_command("import_players", str(path), season=season.pk)
    call_command("import_players", str(path), season=season.pk, username="second")

    assert season.entries.count() == 2


@pytest.mark.django_db
def test_import_players_as_a_scorekeeper_is_refused(season, tmp_path, capsys):
    f.LeagueOfficialFactory(
        league=season.league, user__username="sk", role=m.LeagueOfficial.Role.SCOREKEEPER
    )
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER)

    assert main(["import-players", "--season", str(season.pk), "--as", "sk", str(path)]) == 1

    assert capsys.readouterr().err == (
        "flipwell import-players: Only a league official of Flip Well may import players.\n"
    )


@pytest.mark.django_db
def test_import_players_missing_file_says_so(season, tmp_path, capsys):
    missing = tmp_path / "nope.csv"

    assert main(["import-players", "--season", str(season.pk), str(missing)]) == 1

    assert capsys.readouterr().err == f"flipwell import-players: {missing}: no such file\n"


def test_command_without_its_arguments_prints_usage_and_exits_2(capsys):
    assert main(["import-players"]) == 2

    err = capsys.readouterr().err
    assert err.startswith("usage: flipwell import-players")
    assert "the following arguments are required: --season, file" in err
    assert "Traceback" not in err


def test_every_database_command_is_a_django_command():
    from django.core.management import get_commands

    assert {django_name for django_name, _help in DJANGO_COMMANDS.values()} <= set(get_commands())


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_draws_a_bar_on_a_terminal():
    stream = FakeTerminal()

    with Progress("Working", total=4, stream=stream, width=8) as bar:
        bar.advance(2)
        bar.advance(5)  # never beyond the total

    frames = stream.getvalue().split("\r")
    assert frames[1:] == [
        "Working [........] 0/4",
        "Working [####....] 2/4",
        "Working [########] 4/4",
        "Working [########] 4/4\n",
    ]


def test_progress_writes_nothing_when_not_a_terminal():
    stream = io.StringIO()

    with Progress("Working", total=3, stream=stream) as bar:
        bar.advance(3)

    assert stream.getvalue() == ""


@pytest.mark.django_db
def test_migrate_runs_djangos_migrate(capsys):
    assert main(["migrate", "--check", "--verbosity", "0"]) == 0
