"""The `flipwell` command line: `flipwell standings FILE`."""

import json
from pathlib import Path

from flipwell.cli import main, render_standings
from flipwell.rules import Ruleset, fold_season
from flipwell.seasonfile import load_season

GOLDEN = Path(__file__).parent / "data" / "golden_season.json"


def test_standings_prints_table_with_playoff_line(capsys):
    """R6.1-g: 21 eligible players (Gus forfeited the season, A05) put the line after 12."""
    assert main(["standings", str(GOLDEN)]) == 0

    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Flip Well Golden Season (Winter 2026): standings after 10 meets"
    assert lines[4].split()[:4] == ["1", "Cal", "Brooks", "214"]
    cut = next(i for i, line in enumerate(lines) if "playoff line" in line)
    assert lines[cut].startswith("- playoff line: top 12 of 21 eligible players")
    assert lines[cut - 1].split()[0] == "12"


def test_standings_of_missing_file_says_so(capsys, tmp_path):
    assert main(["standings", str(tmp_path / "nope.json")]) == 2

    assert "nope.json" in capsys.readouterr().err


def test_standings_of_bad_json_names_the_file(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")

    assert main(["standings", str(bad)]) == 2

    assert capsys.readouterr().err.startswith(f"flipwell: {bad}: not valid JSON")


def test_standings_fold_under_the_files_readings(capsys, tmp_path):
    """R2.5-a, A37: a season file's "readings" are its season's: where a season forfeit
    takes the player's points, Gus (who forfeited the season) prints 0 points, as the fold
    under those readings says."""
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    data["readings"] = {"season_forfeit_keeps_points": False}
    read_so = tmp_path / "season.json"
    read_so.write_text(json.dumps(data), encoding="utf-8")
    assert main(["standings", str(GOLDEN)]) == 0
    as_written = capsys.readouterr().out

    assert main(["standings", str(read_so)]) == 0

    printed = capsys.readouterr().out
    name, facts = load_season(GOLDEN)
    result = fold_season(facts, ruleset=Ruleset(season_forfeit_keeps_points=False))
    names = {e.player: f"{e.first_name} {e.last_name}" for e in facts.entrants}
    assert printed == render_standings(name, result, names) + "\n"
    assert printed != as_written
    assert next(line for line in printed.splitlines() if "Gus Hale" in line).split()[3] == "0"


def test_standings_refuse_readings_the_rules_do_not_allow(capsys, tmp_path):
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    data["readings"] = {"season_forfeit_limit": 0}
    bad = tmp_path / "season.json"
    bad.write_text(json.dumps(data), encoding="utf-8")

    assert main(["standings", str(bad)]) == 2

    error = capsys.readouterr().err
    assert error.startswith(f"flipwell: {bad}: ")
    assert "season_forfeit_limit" in error
