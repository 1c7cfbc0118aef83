"""Parsing a roster CSV: rows out, or an error naming the line and column (no database)."""

import pytest

from flipwell.league.players_csv import (
    PlayerRow,
    PlayersCsvError,
    parse_players_csv,
    roster_problems,
)

HEADER = "first_name,last_name,ifpa_number,ifpa_rank\n"


def _error(text):
    with pytest.raises(PlayersCsvError) as caught:
        parse_players_csv(text)
    return (caught.value.line, caught.value.column)


def test_parse_players_csv_rows():
    text = HEADER + "Ann,Archer,1234,56\nBob,Baker,,\n"

    assert parse_players_csv(text) == [
        PlayerRow(line=2, first_name="Ann", last_name="Archer", ifpa_number=1234, ifpa_rank=56),
        PlayerRow(line=3, first_name="Bob", last_name="Baker", ifpa_number=None, ifpa_rank=None),
    ]


def test_parse_players_csv_columns_in_any_order_with_bom_and_spaces():
    text = "\ufeff ifpa_rank , Last_Name,first_name,ifpa_number\r\n 7 , Archer , Ann ,99\r\n"

    assert parse_players_csv(text) == [
        PlayerRow(line=2, first_name="Ann", last_name="Archer", ifpa_number=99, ifpa_rank=7)
    ]


def test_parse_players_csv_blank_lines_skipped_and_counted():
    rows = parse_players_csv(HEADER + "\nAnn,Archer,,\n,,,\nBob,Baker,,\n")

    assert [row.line for row in rows] == [3, 5]


def test_parse_players_csv_quoted_newline_keeps_line_numbers():
    text = HEADER + '"Ann\nMarie",Archer,,\nBob,Baker,x,\n'

    assert _error(text) == (4, "ifpa_number")


def test_parse_players_csv_header_only_is_no_rows():
    assert parse_players_csv(HEADER) == []


def test_parse_players_csv_empty_file_refused():
    assert _error("") == (1, None)


def test_parse_players_csv_missing_column_refused():
    assert _error("first_name,last_name,ifpa_number\nAnn,Archer,1\n") == (1, "ifpa_rank")


def test_parse_players_csv_unknown_column_refused():
    assert _error("first_name,last_name,ifpa_number,ifpa_rank,email\n") == (1, "email")


def test_parse_players_csv_repeated_column_refused():
    assert _error("first_name,first_name,last_name,ifpa_number,ifpa_rank\n") == (1, "first_name")


def test_parse_players_csv_wrong_field_count_names_line():
    assert _error(HEADER + "Ann,Archer,,\nBob,Baker,\n") == (3, None)


@pytest.mark.parametrize("column", ["first_name", "last_name"])
def test_parse_players_csv_empty_name_refused(column):
    row = {"first_name": "Ann", "last_name": "Archer"} | {column: "  "}
    text = HEADER + f"{row['first_name']},{row['last_name']},,\n"

    assert _error(text) == (2, column)


@pytest.mark.parametrize("value", ["12a", "0", "-3", "1.5", "\u0661\u0662"])
def test_parse_players_csv_bad_ifpa_number_refused(value):
    assert _error(HEADER + f"Ann,Archer,{value},\n") == (2, "ifpa_number")


def test_parse_players_csv_bad_rank_message_says_what_is_allowed():
    with pytest.raises(PlayersCsvError) as caught:
        parse_players_csv(HEADER + "Ann,Archer,,first\n")

    assert str(caught.value) == (
        "line 2, column ifpa_rank: 'first' is not a whole number of 1 or more "
        "(leave it empty if none)"
    )


def test_parse_players_csv_repeated_ifpa_number_names_second_line():
    with pytest.raises(PlayersCsvError) as caught:
        parse_players_csv(HEADER + "Ann,Archer,5,\nBob,Baker,6,\nCy,Cole,5,\n")

    assert (caught.value.line, caught.value.column, caught.value.message) == (
        4,
        "ifpa_number",
        "IFPA number 5 is already on line 2",
    )


def test_roster_problems_every_bad_line_with_its_column():
    text = (
        "first_name,last_name,ifpa_number,ifpa_rank\n"
        "Ada,Flipper,12,3\n"
        ",Nobody,13,4\n"
        '"Bo\nB",Cole,x,\n'
    )

    found = [(p.line, p.column) for p in roster_problems(text)]

    assert found == [(3, "first_name"), (4, "ifpa_number")]
