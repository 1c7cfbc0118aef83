"""Parsing a roster CSV into rows to register: a pure function, no database.

The file has a header row naming exactly the columns ``first_name``, ``last_name``,
``ifpa_number`` and ``ifpa_rank`` (in any order). Both IFPA columns may be empty: a player
without an IFPA number, or unranked (placed at the bottom of the first ladder, R4.3-b).

A name written as text by flipwell's own CSV exports (``'=Bob``, see
`flipwell.league.csv_cells`) is read back as the name it stands for (``=Bob``), so a roster
made from an export registers the same names.

Words: a *line* is the file's line number, 1 for the header, as a spreadsheet shows it; a
*column* is a header name. Every error names both, so the official can fix the file. The
*roster check* (`roster_problems`) parses every row on its own, so that every bad line is
reported, not only the first; the web's roster upload and the API's import both use it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from flipwell.league.csv_cells import restore

COLUMNS = ("first_name", "last_name", "ifpa_number", "ifpa_rank")

MAX_IFPA = 2**31 - 1
"""The largest IFPA number or rank, `flipwell.league.limits.IFPA` (a test holds them equal;
that module loads the models, which this pure parser does not need)."""


class PlayersCsvError(ValueError):
    """A roster CSV problem at one line (and column, when one is to blame)."""

    def __init__(self, line: int, column: str | None, message: str) -> None:
        self.line = line
        self.column = column
        self.message = message
        where = f"line {line}" if column is None else f"line {line}, column {column}"
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class PlayerRow:
    """One player to register, from one line of the file."""

    line: int
    first_name: str
    last_name: str
    ifpa_number: int | None
    ifpa_rank: int | None


def parse_players_csv(text: str) -> list[PlayerRow]:
    """Every row of a roster CSV, or a `PlayersCsvError` for the first bad line.

    Blank lines are skipped. A repeated IFPA number is refused at its second line.
    """
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise PlayersCsvError(
            1, None, f"the file is empty; expected the header {_expected()}"
        ) from None
    except csv.Error as exc:
        raise PlayersCsvError(reader.line_num, None, f"not readable as CSV ({exc})") from exc
    index = _column_index(header)
    rows: list[PlayerRow] = []
    first_line_of_number: dict[int, int] = {}
    while True:
        line = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise PlayersCsvError(line, None, f"not readable as CSV ({exc})") from exc
        if not any(field.strip() for field in fields):
            continue
        if len(fields) != len(header):
            raise PlayersCsvError(
                line, None, f"has {len(fields)} fields, but the header has {len(header)}"
            )
        row = _row(line, {name: fields[i].strip() for name, i in index.items()})
        if row.ifpa_number is not None:
            earlier = first_line_of_number.setdefault(row.ifpa_number, line)
            if earlier != line:
                raise PlayersCsvError(
                    line,
                    "ifpa_number",
                    f"IFPA number {row.ifpa_number} is already on line {earlier}",
                )
        rows.append(row)
    return rows


def _expected() -> str:
    return ",".join(COLUMNS)


def _column_index(header: list[str]) -> dict[str, int]:
    names = [name.strip().lower() for name in header]
    for name in names:
        if names.count(name) > 1:
            raise PlayersCsvError(1, name, "this column appears more than once")
    unknown = [name for name in names if name not in COLUMNS]
    if unknown:
        raise PlayersCsvError(1, unknown[0], f"unknown column; the header must be {_expected()}")
    missing = [name for name in COLUMNS if name not in names]
    if missing:
        raise PlayersCsvError(1, missing[0], f"missing column; the header must be {_expected()}")
    return {name: names.index(name) for name in COLUMNS}


def _row(line: int, values: dict[str, str]) -> PlayerRow:
    names = {name: restore(values[name]).strip() for name in ("first_name", "last_name")}
    values = {**values, **names}
    for name in ("first_name", "last_name"):
        if not values[name]:
            raise PlayersCsvError(line, name, "is empty; every player needs a first and last name")
    return PlayerRow(
        line=line,
        first_name=values["first_name"],
        last_name=values["last_name"],
        ifpa_number=_positive_int_or_none(line, "ifpa_number", values["ifpa_number"]),
        ifpa_rank=_positive_int_or_none(line, "ifpa_rank", values["ifpa_rank"]),
    )


def _positive_int_or_none(line: int, column: str, value: str) -> int | None:
    """An IFPA number or rank: ASCII digits, 1 to `MAX_IFPA` (the IFPA's own ids are 32-bit;
    a longer number would not fit the database's column)."""
    if not value:
        return None
    digits = value.lstrip("0")
    if not value.isascii() or not value.isdigit() or not digits:
        raise PlayersCsvError(
            line,
            column,
            f"{value[:20]!r} is not a whole number of 1 or more (leave it empty if none)",
        )
    if len(digits) > len(str(MAX_IFPA)) or int(digits) > MAX_IFPA:
        raise PlayersCsvError(
            line, column, f"{value[:20]!r} is too large: the IFPA's numbers go up to {MAX_IFPA}"
        )
    return int(digits)


def roster_problems(text: str) -> list[PlayersCsvError]:
    """Every bad line of a roster CSV (empty when each row parses on its own and no IFPA
    number repeats); the header's problem alone when the header is bad."""
    try:
        records = _records(text)
    except PlayersCsvError as error:
        return [error]
    if not records:
        return _parse_problem(text)
    (_, header), rows = records[0], records[1:]
    problems: list[PlayersCsvError] = []
    header_problems = _parse_problem(_csv_text([header]))
    if header_problems:
        return header_problems
    index = _column_index(header)
    for line, fields in rows:
        # What parse_players_csv checks of one row, without reading the file again per row
        # (a megabyte of bad lines took seconds).
        if len(fields) != len(header):
            problems.append(
                PlayersCsvError(
                    line, None, f"has {len(fields)} fields, but the header has {len(header)}"
                )
            )
            continue
        try:
            _row(line, {name: fields[i].strip() for name, i in index.items()})
        except PlayersCsvError as error:
            problems.append(error)
    if not problems:
        try:
            parse_players_csv(text)  # what only the whole file shows: a repeated IFPA number
        except PlayersCsvError as error:
            problems.append(error)
    return problems


def _records(text: str) -> list[tuple[int, list[str]]]:
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    records: list[tuple[int, list[str]]] = []
    while True:
        line = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            return records
        except csv.Error as exc:
            raise PlayersCsvError(line, None, f"not readable as CSV ({exc})") from exc
        if any(field.strip() for field in fields) or not records:
            records.append((line, fields))


def _parse_problem(text: str) -> list[PlayersCsvError]:
    try:
        parse_players_csv(text)
    except PlayersCsvError as error:
        return [error]
    return []


def _csv_text(rows: Sequence[Sequence[str]]) -> str:
    """Rows of an uploaded roster written back as they were, for the parser to read one by
    one: not a file for a spreadsheet, so nothing is neutralised (see `csv_cells`)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()
