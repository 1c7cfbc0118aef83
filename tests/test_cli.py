"""The `flipwell` command line: `flipwell standings FILE`."""

from pathlib import Path

from flipwell.cli import main

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
