"""The notices' words (`flipwell.web.emails`): counts, places and lists of names as a notice
writes them. The notices themselves are tested where they are queued and sent
(tests/league/test_notices.py)."""

from __future__ import annotations

import pytest

from flipwell.web.emails import count_of, names_list
from flipwell.web.templatetags.flipwell_numbers import ordinal


@pytest.mark.parametrize(
    ("number", "word", "text"),
    [(1, "point", "1 point"), (2, "point", "2 points"), (0, "forfeit", "0 forfeits")],
)
def test_count_of_is_plural_correct(number, word, text):
    assert count_of(number, word) == text


def test_ordinal_suffixes():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("names", "text"),
    [
        ([], ""),
        (["Ann"], "Ann"),
        (["Ann", "Ben"], "Ann and Ben"),
        (["Ann", "Ben", "Cat"], "Ann, Ben and Cat"),
    ],
)
def test_names_list_joins_with_and(names, text):
    assert names_list(names) == text
