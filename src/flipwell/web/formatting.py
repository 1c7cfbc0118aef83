"""How the web app writes numbers: exactly as the rules write them in their explanations.

Words: a *number* is league points (an exact `Fraction`, shown as 19.75 when the decimal is
exact and as 39/7 when not, never through a float), a machine score or a count, with thousands
separators; *money* is an amount in cents shown as 12,345.50. The rules own both formats
(`flipwell.rules.fmt`, `flipwell.rules.money`) so a page and a rule's message never disagree;
views, charts and template filters reach them only through this module.
"""

from __future__ import annotations

from fractions import Fraction

import flipwell.rules as rules


def number(value: int | Fraction) -> str:
    """1234567 -> "1,234,567"; Fraction(79, 4) -> "19.75"; Fraction(39, 7) -> "39/7"."""
    return rules.fmt(value)


def money(cents: int) -> str:
    """1234550 -> "12,345.50"; -250 -> "-2.50"."""
    return rules.money(cents)
