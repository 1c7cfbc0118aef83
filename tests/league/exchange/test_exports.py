"""Season exports: the JSON is a season file `flipwell standings` reads; the CSV tables."""

import csv
import datetime
import io
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from flipwell.cli import main
from flipwell.league import models as m
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.exchange.exports import (
    SCORES_COLUMNS,
    STANDINGS_COLUMNS,
    decimal_points,
    scores_csv,
    season_export,
)
from flipwell.league.selectors.season_folds import fold
from flipwell.league.services.season_files import import_season_file
from flipwell.rules.season import fold_season
from flipwell.seasonfile import load_season
from tests import factories as f
from tests.golden import golden_data

pytestmark = pytest.mark.django_db

GOLDEN = golden_data()


@pytest.fixture
def flip_well_official():
    return f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__name="Flip Well"
    )


def _import(flip_well_official, data=GOLDEN, name="Winter 2026", **kwargs):
    return import_season_file(
        league=flip_well_official.league,
        name=name,
        data=data,
        first_meet=datetime.date(2026, 1, 7),
        actor=flip_well_official.user,
        **kwargs,
    )


def _pk(first_name, last_name):
    return m.Player.objects.get(first_name=first_name, last_name=last_name).pk


def _line(standing):
    return (
        standing.player,
        standing.league_points,
        standing.games_played,
        standing.forfeits,
        standing.countable_forfeits,
        standing.offenses,
        standing.credit_used_at,
        standing.season_forfeited_at,
    )


def test_json_export_read_back_gives_the_same_standings(flip_well_official, tmp_path):
    season = _import(flip_well_official)
    path = tmp_path / "export.json"

    call_command("export_season", season=season.pk, format="json", output=path)

    name, facts = load_season(path)
    from_file = [_line(s) for s in fold_season(facts).standings()]
    from_database = [_line(s) for s in fold_season(season_facts(season)).standings()]
    assert (name, from_file) == ("Flip Well: Winter 2026", from_database)


def test_flipwell_standings_prints_an_export(flip_well_official, tmp_path, capsys):
    season = _import(flip_well_official)
    path = tmp_path / "export.json"
    assert main(["export-season", "--season", str(season.pk), "--format", "json", "-o"]) == 2
    capsys.readouterr()

    assert (
        main(["export-season", f"--season={season.pk}", "--format=json", f"--output={path}"]) == 0
    )
    assert main(["standings", str(path)]) == 0

    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Flip Well: Winter 2026: standings after 10 meets"
    assert lines[4].split()[:4] == ["1", "Cal", "Brooks", "214"]


def test_json_export_holds_standings_with_exact_points(flip_well_official):
    season = _import(flip_well_official)

    export = season_export(fold(season))

    ned = next(s for s in export["standings"] if s["last_name"] == "Park")
    assert ned == {
        "rank": 11,
        "player": str(_pk("Ned", "Park")),
        "first_name": "Ned",
        "last_name": "Park",
        "league_points": "359/2",
        "league_points_decimal": "179.5",
        "games_played": 36,
        "forfeits": 4,
        "countable_forfeits": 4,
        "offenses": 0,
        "credit_used_at": 3,
        "season_forfeited_at": None,
    }


def test_json_export_imports_as_a_season_with_the_same_standings(flip_well_official):
    season = _import(flip_well_official)
    export = season_export(fold(season))

    copy = _import(flip_well_official, data=export, name="Copy")

    assert [_line(s) for s in fold_season(season_facts(copy)).standings()] == [
        _line(s) for s in fold_season(season_facts(season)).standings()
    ]


def test_json_export_carries_the_season_readings_and_an_import_keeps_them_r2_a(flip_well_official):
    """A season file holds the readings its season is folded under; imported into a league
    that reads otherwise now, the season keeps the file's (R2-a, R2.5-a)."""
    flip_well_official.league.ruleset_overrides = {"season_forfeit_limit": 9}
    flip_well_official.league.save()
    season = _import(flip_well_official)
    export = season_export(fold(season))
    flip_well_official.league.ruleset_overrides = {}
    flip_well_official.league.save()

    copy = _import(flip_well_official, data=export, name="Copy")

    assert export["readings"] == {"season_forfeit_limit": 9}
    assert copy.ruleset_overrides == {"season_forfeit_limit": 9}


def test_season_file_without_readings_imports_under_the_league_readings(flip_well_official):
    """A file without readings (an older export, a league's own file) takes the league's."""
    flip_well_official.league.ruleset_overrides = {"dues_period": "meet"}
    flip_well_official.league.save()

    season = _import(flip_well_official)

    assert "readings" not in GOLDEN
    assert season.ruleset_overrides == {"dues_period": "meet"}


def test_season_file_with_a_reading_not_allowed_refused(flip_well_official):
    with pytest.raises(ValidationError) as caught:
        _import(flip_well_official, data={**GOLDEN, "readings": {"season_forfeit_limit": 0}})

    assert caught.value.messages == [
        "not a valid season file: Ruleset setting season_forfeit_limit cannot be 0; allowed: a "
        "whole number from 1 to 400 (R2.5-a: at 0 every player would be out before the first "
        "game)."
    ]
    assert m.Season.objects.count() == 0


def test_json_export_marks_the_open_meet(flip_well_official):
    season = _import(
        flip_well_official, {**GOLDEN, "meets": GOLDEN["meets"][:2]}, open_last_meet=True
    )

    export = season_export(fold(season))

    assert [(meet["number"], meet["date"], meet["status"]) for meet in export["meets"]] == [
        (1, "2026-01-07", "closed"),
        (2, "2026-01-14", "open"),
    ]


def test_standings_csv_header_and_rows(flip_well_official, capsys):
    season = _import(flip_well_official)

    assert main(["export-season", "--season", str(season.pk), "--format", "csv"]) == 0

    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert (
        tuple(rows[0])
        == STANDINGS_COLUMNS
        == (
            "rank",
            "player_id",
            "first_name",
            "last_name",
            "league_points",
            "league_points_exact",
            "games_played",
            "forfeits",
            "countable_forfeits",
            "offenses",
            "credit_used_at",
            "season_forfeited_at",
        )
    )
    cal = str(_pk("Cal", "Brooks"))
    assert rows[1] == ["1", cal, "Cal", "Brooks", "214", "214", "40", "0", "0", "0", "", ""]
    assert rows[22] == [
        "22",
        str(_pk("Gus", "Hale")),
        "Gus",
        "Hale",
        "123.2",
        "616/5",
        "20",
        "12",
        "12",
        "0",
        "6",
        "8",
    ]
    assert len(rows) == 1 + 22


def test_scores_csv_header_and_first_row(flip_well_official, tmp_path):
    season = _import(flip_well_official)
    standings, scores = tmp_path / "standings.csv", tmp_path / "scores.csv"

    call_command("export_season", season=season.pk, format="csv", output=standings, scores=scores)

    rows = list(csv.reader(io.StringIO(scores.read_text())))
    assert tuple(rows[0]) == SCORES_COLUMNS
    assert rows[1] == [
        "1",
        "2026-01-07",
        "1",
        "1",
        "Demolition Man",
        str(_pk("Bea", "Adams")),
        "Bea",
        "Adams",
        "2044630",
        "2044630",
        "1",
        "8",
        "",
    ]
    assert len(rows) == 1 + sum(
        len(game["scores"])
        for meet in GOLDEN["meets"]
        for group in meet["groups"]
        for game in group["games"]
    )
    assert standings.read_text().startswith("rank,player_id,")


def test_scores_csv_marks_forfeits(flip_well_official):
    season = _import(flip_well_official)

    rows = list(csv.DictReader(io.StringIO(scores_csv(fold(season)))))

    zoe = [r for r in rows if r["last_name"] == "Quinn" and r["forfeit"]]
    ned_meet_3 = [r for r in rows if r["last_name"] == "Park" and r["meet"] == "3"]
    assert zoe == []  # her missed games before joining are no score sheet's rows
    assert [
        (r["machine_score"], r["place"], r["game_points"], r["forfeit"]) for r in ned_meet_3
    ] == [("", "", "0", "countable")] * 4


def test_scores_with_json_is_refused(flip_well_official, capsys):
    season = _import(flip_well_official, {**GOLDEN, "meets": GOLDEN["meets"][:1]})

    status = main(
        ["export-season", "--season", str(season.pk), "--format", "json", "--scores", "x.csv"]
    )

    assert (status, capsys.readouterr().err) == (
        1,
        "flipwell export-season: --scores goes with --format csv; a JSON export already holds "
        "every score\n",
    )


def test_export_of_unknown_season_lists_the_seasons(flip_well_official, capsys):
    season = _import(flip_well_official, {**GOLDEN, "meets": GOLDEN["meets"][:1]})

    assert main(["export-season", "--season", "999", "--format", "csv"]) == 1

    assert capsys.readouterr().err == (
        f"flipwell export-season: there is no season 999; the seasons are {season.pk} "
        "(Flip Well: Winter 2026)\n"
    )


@pytest.mark.parametrize(
    ("points", "text"),
    [
        (214, "214"),
        (Fraction(359, 2), "179.5"),
        (Fraction(1, 3), "0.333333"),
    ],
)
def test_decimal_points_exact_when_possible(points, text):
    assert decimal_points(points) == text
