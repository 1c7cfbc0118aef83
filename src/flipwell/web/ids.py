"""Ids and small numbers read from a URL, a query string or a form's text.

Words: an *id* is a row's primary key as a request carries it: ASCII digits, a whole number
from 1 to the largest bigint (`limits.ID`). Anything else names no row, so a URL with it is
not found and a query or form value with it opens nothing: it never reaches the database,
which would fail on it (SQLite cannot bind an integer past 64 bits; ``int("²")`` fails though
``"²".isdigit()`` holds).
"""

from __future__ import annotations

import re

from flipwell.league import limits
from flipwell.league.limits import Bound

ASCII_DIGITS = re.compile(r"[0-9]{1,19}", re.ASCII)
"""At most 19 digits: every bigint, and never a number Python takes long to read."""


def parse_number(raw: str | None, bound: Bound) -> int | None:
    """`raw` (stripped) as a whole number within `bound`; None for anything else (blank, a
    sign, non-ASCII digits, too many digits, out of the bound)."""
    text = (raw or "").strip()
    if not ASCII_DIGITS.fullmatch(text):
        return None
    number = int(text)
    return number if bound.minimum <= number <= bound.maximum else None


def parse_id(raw: str | None) -> int | None:
    """The id a query string or a form sent as text (``?edit=12``); None when it names no row
    (see the module's words)."""
    return parse_number(raw, limits.ID)


class IdConverter:
    """The URL converter ``<id:...>``: an id in the path. A path with a number past the
    bigint range matches no pattern, so it is a 404 like any other row that does not exist
    (Django's ``<int:...>`` matches any digits and hands the database a number it may
    refuse)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(f"{value!r} is not an id")
        return number

    def to_url(self, value: int | str) -> str:
        return str(value)
