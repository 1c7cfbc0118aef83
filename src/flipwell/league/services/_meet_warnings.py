"""Warnings a league official sees when he starts a meet, as the rules give them (never errors).

Words: a *grouping scheme* is the §4.1 table (`TABLE_SCHEME`) or, for a meet whose groups the
LO set himself, his reason for it (R4.1-d); changing scheme mid-season is warned about
(R4.1-e). A season below the format's design size is warned about at its first meet (R1-a).
A meet off the league day, or less than a week after the one before, is warned about (R2-a).
"""

from __future__ import annotations

from flipwell.league import models as m
from flipwell.league.selectors.console import meet_date_warnings
from flipwell.rules.officials import TABLE_SCHEME, regrouping_warnings, season_warnings


def start_warnings(
    *, meet: m.Meet, override_reason: str, players: int, machines: int
) -> tuple[str, ...]:
    """The rules' warnings for starting `meet` (R2-a and R4.1-e at every meet, R1-a at meet 1).

    players: the season's entrants; machines: the machines at the meet.
    """
    earlier = meet.season.meets.filter(number__lt=meet.number).order_by("number")
    schemes = [r or TABLE_SCHEME for r in earlier.values_list("group_override_reason", flat=True)]
    current = override_reason or TABLE_SCHEME
    changed = bool(schemes) and schemes[-1] != current
    found = regrouping_warnings([*schemes, current])[-1:] if changed else []
    if meet.number == 1:
        found = [*season_warnings(players=players, machines=machines), *found]
    return (*meet_date_warnings(meet), *found)
