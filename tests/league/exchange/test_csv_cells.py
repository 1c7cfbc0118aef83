"""CSV cells: OWASP's formula neutralisation, numbers untouched, and its reverse on import."""

import csv
import io
from decimal import Decimal

import pytest

from flipwell.league.csv_cells import csv_text, neutralise, restore
from flipwell.league.players_csv import parse_players_csv


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Cal", "Cal"),
        ("O'Neil", "O'Neil"),
        ("'=1", "''=1"),
        ("'Quoted", "'Quoted"),
        ("", ""),
        ("-3", "-3"),
        ("179.5", "179.5"),
        ("-12.25", "-12.25"),
        (-3, -3),
        (Decimal("-1.5"), Decimal("-1.5")),
        (None, None),
    ],
)
def test_neutralise_quotes_text_formulas_only(cell, written):
    assert neutralise(cell) == written


@pytest.mark.parametrize("name", ["=1+1", "-2+3", "@cmd", "Cal", "'Quoted", "'=", "-3"])
def test_restore_undoes_neutralise(name):
    assert restore(str(neutralise(name))) == name


def test_csv_text_neutralises_every_cell():
    text = csv_text(("name", "points"), [("=cmd", -3), ("Cal", "-1.5")])

    assert list(csv.reader(io.StringIO(text))) == [
        ["name", "points"],
        ["'=cmd", "-3"],
        ["Cal", "-1.5"],
    ]


def test_parse_players_csv_reads_neutralised_names_as_written_by_exports():
    text = "first_name,last_name,ifpa_number,ifpa_rank\n'=Bob,'-Hale,,\nO'Neil,'Quoted,,\n"

    rows = parse_players_csv(text)

    assert [(r.first_name, r.last_name) for r in rows] == [("=Bob", "-Hale"), ("O'Neil", "'Quoted")]
