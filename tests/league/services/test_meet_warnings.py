"""Warnings when a meet starts: a season below the design size (R1-a), a mid-season change
of grouping scheme (R4.1-e), a meet off the league day or less than a week after the last
(R2-a), as the rules give them; never errors."""

import datetime

import pytest

from flipwell.league.services.meets.close import close_meet
from flipwell.league.services.meets.start import start_meet
from tests.league.league_night import DATE, build_night
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db

WEEK = datetime.timedelta(weeks=1)


def test_start_meet_one_warns_of_a_season_below_design_size():
    """R1-a: 3 machines is below the 4 the FWPL rules are designed for; still started."""
    night = build_night(players=8, machines=3)

    warnings = start_meet_warnings(night, number=1)

    assert warnings == [
        "the season has 3 machines; the FWPL rules are designed for 4 or more (R1-a)"
    ]


def test_start_meet_at_design_size_has_no_warning():
    """R1-a, R4.1-e: 8 players and 8 machines, table groups: nothing to warn about."""
    night = build_night(players=8, machines=8)

    assert start_meet_warnings(night, number=1) == []


def test_start_meet_override_after_table_meet_warns_of_regrouping():
    """R4.1-e: meet 1 used the §4.1 table; meet 2's own groups change the scheme mid-season."""
    night = build_night(players=7)
    close_meet(meet=start_night(night), actor=night.user, override_reason="Short night")
    p = night.players

    started = start_meet(
        season=night.season, number=2, date=DATE + WEEK, actor=night.user, seed=1,
        override_groups=[p[:3], p[3:]], override_reason="Two tables in the back room",
    )  # fmt: skip

    assert list(started.warnings) == [
        "meet 2 changes the grouping scheme from 'table' to 'Two tables in the back room': "
        "mid-season regrouping should be avoided (R4.1-e)"
    ]


def start_meet_warnings(night, *, number):
    started = start_meet(season=night.season, number=number, date=DATE, actor=night.user, seed=1)
    return list(started.warnings)


def test_start_meet_warns_of_a_meet_a_week_early_and_off_the_league_day():
    """R2-a: the season's meets are weekly on its league day (a Tuesday here); meet 2 started
    the Saturday after meet 1 is warned about, and started all the same, with the official's
    reason for the date (issue 26 §4)."""
    night = build_night(players=8, machines=8)
    close_meet(meet=start_night(night), actor=night.user, override_reason="Short night")

    started = start_meet(
        season=night.season, number=2, date=DATE + datetime.timedelta(days=4), actor=night.user,
        seed=1, date_reason="The venue is closed on Tuesday",
    )  # fmt: skip

    assert list(started.warnings) == [
        "meet 2 is on a Saturday, not on the league day (Tuesdays, R2-a)",
        "meet 2 is 4 days after meet 1 (2026-01-06), less than a week: meets are weekly (R2-a)",
    ]
