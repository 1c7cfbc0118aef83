"""Numbers as people read them: thousands separators, exact league points as decimals.

Words: *points* are league points, exact fractions (`Fraction`), shown as 19.75 when the
decimal is exact, never through a float; *score* is a machine score, an integer shown with
thousands separators, or a dash when there is none.
"""

from __future__ import annotations

import re
from fractions import Fraction

from django import template
from django.utils.html import format_html

from flipwell.web.formatting import number

register = template.Library()

NO_VALUE = "–"
ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


@register.filter
def num(value: int | Fraction | None) -> str:
    """1234567 -> "1,234,567"; Fraction(79, 4) -> "19.75"; None -> "–"."""
    if value is None or value == "":
        return NO_VALUE
    return number(value)


@register.filter
def ordinal(value: int | None) -> str:
    """1 -> "1st", 12 -> "12th", 23 -> "23rd"; None -> "–"."""
    if value is None:
        return NO_VALUE
    suffix = "th" if 10 <= value % 100 <= 20 else ORDINAL_SUFFIXES.get(value % 10, "th")
    return f"{value}{suffix}"


@register.filter
def words(value: str) -> str:
    """A code as words: "not_a_malfunction" -> "not a malfunction"."""
    return str(value).replace("_", " ")


@register.filter
def rounded(value: int | Fraction | None) -> str:
    """An average to one decimal: Fraction(4, 3) -> "1.3", 14 -> "14.0"; None -> "–"."""
    if value is None:
        return NO_VALUE
    tenths = round(Fraction(value) * 10)
    return f"{tenths // 10:,}.{tenths % 10}"


@register.filter
def score(value: int | None) -> str:
    """A machine score as one unbreakable piece: a player reads it digit by digit, so it never
    wraps inside itself (app.css `.score`; the layout gives it its line):
    1234567890123 -> '<span class="score">1,234,567,890,123</span>'; None -> "–"."""
    return format_html('<span class="score">{}</span>', num(value))


RULE_AT_END = re.compile(r"\s*\[([^\[\]]+)\]\s*$")
"""An explanation's cited rule, written last in brackets ("… 7 points [R3.2-c]")."""


@register.filter
def without_rule(line: str) -> str:
    """An explanation as a player reads it first, its rule id left out:
    "Finished 1st of 3: 7 points [R3.2-c]" -> "Finished 1st of 3: 7 points"."""
    return RULE_AT_END.sub("", str(line))


@register.filter
def rule_of(line: str) -> str:
    """The rule an explanation cites ("… [R3.2-c]" -> "R3.2-c"); "" when it cites none."""
    found = RULE_AT_END.search(str(line))
    return found.group(1) if found else ""
