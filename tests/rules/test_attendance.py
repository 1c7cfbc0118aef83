"""Attendance and tardiness (§2.1, §2.2, §2.3): R2.1-a, R2.2-a, R2.3-a, A59, A60.

The meet starts at 19:00 Central European Summer Time (UTC+2) on 2 June 2025.
"""

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import RuleError, Ruleset
from flipwell.rules.attendance import (
    AnnouncedTardiness,
    JoinDecision,
    announced_tardiness,
    announcement_open,
    join_game_in_progress,
    meet_date_checks,
    meet_date_warnings,
    next_meet_date,
)

CEST = timezone(timedelta(hours=2))
START = datetime(2025, 6, 2, 19, 0, tzinfo=CEST)


def at(hour: int, minute: int) -> datetime:
    return datetime(2025, 6, 2, hour, minute, tzinfo=CEST)


# --- Start time (R2.1-a) -------------------------------------------------------------------------


# --- Announced tardiness (R2.2-a, A59) -----------------------------------------------------------


def test_announced_tardiness_notice_before_start_waits_fifteen_minutes():
    # R2.2-a: notice at 18:30, before the 19:00 start: the group waits until 19:15.
    result = announced_tardiness(start=START, notified_at=at(18, 30))

    assert result == AnnouncedTardiness(
        announced=True,
        wait_until=at(19, 15),
        reason=(
            "notice at 2025-06-02T18:30+02:00 came before the 2025-06-02T19:00+02:00 start: "
            "the group waits until 2025-06-02T19:15+02:00 at the latest (R2.2-a)"
        ),
    )


def test_announced_tardiness_notice_at_start_is_not_announced():
    # R2.2-a: "notified before league start time"; at 19:00 exactly is not before.
    result = announced_tardiness(start=START, notified_at=at(19, 0))

    assert result.announced is False
    assert result.wait_until is None
    assert result.reason == (
        "notice at 2025-06-02T19:00+02:00 did not come before the 2025-06-02T19:00+02:00 start: "
        "the group does not wait, and the player joins late under §2.3 (R2.2-a, R2.3-a)"
    )


def test_announced_tardiness_ruleset_wait_minutes():
    # A59: the wait is the ruleset's `announced_tardiness_wait_minutes`.
    ruleset = Ruleset(announced_tardiness_wait_minutes=10)

    result = announced_tardiness(start=START, notified_at=at(12, 0), ruleset=ruleset)

    assert result.wait_until == at(19, 10)


def test_announced_tardiness_naive_notice_refused():
    with pytest.raises(RuleError, match="notice time must be timezone-aware"):
        announced_tardiness(start=START, notified_at=datetime(2025, 6, 2, 18, 0))


@given(minutes=st.integers(-600, 600))
def test_announced_tardiness_valid_exactly_before_start(minutes):
    # R2.2-a: announced iff the notice precedes the start; the deadline is start + 15 min.
    notice = START + timedelta(minutes=minutes)

    result = announced_tardiness(start=START, notified_at=notice)

    assert result.announced is (minutes < 0)
    assert result.wait_until == (at(19, 15) if minutes < 0 else None)


# --- When the group begins (R2.2-a, A59) ---------------------------------------------------------


# --- Unannounced tardiness (R2.3-a, A60) ---------------------------------------------------------


def test_join_game_in_progress_both_conditions_met():
    # R2.3-a, R5.2-c: the machine permits it and the last player has not started ball 1.
    decision = join_game_in_progress(machine_permits=True, last_player_started_ball_1=False)

    assert decision == JoinDecision(
        may_join=True,
        forfeit=False,
        reason=(
            "joins the game in progress: the machine permits adding a player and the group's "
            "last player has not started ball 1 (R2.3-a); they play last (R5.2-c)"
        ),
    )


def test_join_game_in_progress_machine_does_not_permit():
    # R2.3-a, A60: the machine cannot add a player: this game is a forfeit for him.
    decision = join_game_in_progress(machine_permits=False, last_player_started_ball_1=False)

    assert decision == JoinDecision(
        may_join=False,
        forfeit=True,
        reason=(
            "cannot join the game in progress: the machine does not permit adding a player "
            "(R2.3-a); this game is a forfeit for them (R2.4-a) and they join at the next game "
            "(A60)"
        ),
    )


def test_join_game_in_progress_last_player_started_ball_one():
    # R2.3-a, A60: too late once the group's last player has started ball 1.
    decision = join_game_in_progress(machine_permits=True, last_player_started_ball_1=True)

    assert decision.forfeit is True
    assert decision.reason == (
        "cannot join the game in progress: the group's last player has started ball 1 "
        "(R2.3-a); this game is a forfeit for them (R2.4-a) and they join at the next game (A60)"
    )


def test_join_game_in_progress_both_conditions_fail_names_both():
    # R2.3-a
    decision = join_game_in_progress(machine_permits=False, last_player_started_ball_1=True)

    assert decision.reason.startswith(
        "cannot join the game in progress: the machine does not permit adding a player and "
        "the group's last player has started ball 1 (R2.3-a)"
    )


def test_join_game_in_progress_unattested_condition_refused():
    # R2.3-a: both conditions must be attested as True or False.
    with pytest.raises(RuleError, match="machine_permits must be True or False, got None"):
        join_game_in_progress(machine_permits=None, last_player_started_ball_1=False)


@given(permits=st.booleans(), started=st.booleans())
def test_join_game_in_progress_joins_or_forfeits(permits, started):
    # R2.3-a: exactly one of join or forfeit, joining only when both conditions hold.
    decision = join_game_in_progress(machine_permits=permits, last_player_started_ball_1=started)

    assert decision.may_join is (permits and not started)
    assert decision.forfeit is not decision.may_join


# --- the league day (R2-a) -------------------------------------------------------------------

TUESDAY = 1


def test_next_meet_date_is_the_league_day_after_the_last_meet():
    """R2-a: the next meet is a week after a Tuesday meet."""
    last = date(2026, 1, 6)  # a Tuesday

    assert next_meet_date(league_day=TUESDAY, last_meet=last, today=last) == date(2026, 1, 13)


def test_next_meet_date_of_a_new_or_paused_season_is_the_next_league_day_from_today():
    """R2-a: no meet yet, or the last long ago: the first league day from today on."""
    thursday = date(2026, 1, 8)

    first = next_meet_date(league_day=TUESDAY, last_meet=None, today=thursday)
    resumed = next_meet_date(league_day=TUESDAY, last_meet=date(2025, 11, 4), today=thursday)
    tonight = next_meet_date(league_day=TUESDAY, last_meet=None, today=date(2026, 1, 13))

    assert (first, resumed, tonight) == (date(2026, 1, 13), date(2026, 1, 13), date(2026, 1, 13))


@given(
    league_day=st.integers(0, 6),
    last=st.none() | st.dates(date(2000, 1, 1), date(2100, 1, 1)),
    today=st.dates(date(2000, 1, 1), date(2100, 1, 1)),
)
def test_next_meet_date_is_on_the_league_day_after_the_last_and_within_a_week(
    league_day, last, today
):
    """R2-a: always the league day, never before today nor on or before the last meet, and
    never more than a week past the earliest day it could be."""
    on = next_meet_date(league_day=league_day, last_meet=last, today=today)

    earliest = today if last is None else max(last + timedelta(days=1), today)
    assert on.weekday() == league_day
    assert earliest <= on < earliest + timedelta(days=7)


@pytest.mark.parametrize(
    ("on", "said"),
    [
        (date(2026, 1, 6), "meet 2 is on the same day as meet 1 (2026-01-06)"),
        (date(2026, 1, 7), "meet 2 is 1 day after meet 1 (2026-01-06), less than a week"),
        (date(2026, 1, 5), "meet 2 is 1 day before meet 1 (2026-01-06)"),
        (date(2026, 1, 3), "meet 2 is 3 days before meet 1 (2026-01-06)"),
    ],
)
def test_meet_date_warnings_say_a_meet_too_soon_plainly(on, said):
    """R2-a; issue 33 §3: "0 days after meet 1, a week early" said neither."""
    warnings = meet_date_warnings(
        number=2, on=on, league_day=on.weekday(), previous=date(2026, 1, 6)
    )

    assert warnings == (f"{said}: meets are weekly (R2-a)",)


def test_meet_date_warnings_on_another_day_and_a_week_early():
    """R2-a: warnings, not refusals."""
    assert meet_date_warnings(
        number=5, on=date(2026, 1, 10), league_day=TUESDAY, previous=date(2026, 1, 6)
    ) == (
        "meet 5 is on a Saturday, not on the league day (Tuesdays, R2-a)",
        "meet 5 is 4 days after meet 4 (2026-01-06), less than a week: meets are weekly (R2-a)",
    )
    assert (
        meet_date_warnings(
            number=5, on=date(2026, 1, 13), league_day=TUESDAY, previous=date(2026, 1, 6)
        )
        == ()
    )


def test_meet_date_warnings_refuse_a_weekday_out_of_range():
    with pytest.raises(RuleError, match="league_day must be a weekday from 0"):
        meet_date_warnings(number=1, on=date(2026, 1, 6), league_day=7, previous=None)


# --- meet date checks (issue 26 §4, R2-a) ---------------------------------------------------

# A 10-meet Wednesday season whose meet 1 is Wednesday 7 January 2026: its span ends 26 May.
SEASON = {
    "league_day": 2,
    "number_of_meets": 10,
    "set_up": date(2026, 1, 2),
    "first_meet": date(2026, 1, 7),
}


def test_meet_date_checks_plain_weekly_date_passes():
    """R2-a: meet 3 on the Wednesday a week after meet 2, before meet 4: nothing to explain."""
    assert (
        meet_date_checks(
            number=3, on=date(2026, 1, 21), previous=date(2026, 1, 14), following=None, **SEASON
        )
        == ()
    )


def test_meet_date_checks_1999_is_outside_the_season_and_out_of_order():
    """issue 26 §4: a meet dated 1999 in a season that began in 2026 needs a reason (it was
    accepted): outside the season, before meet 2, and a Friday."""
    problems = meet_date_checks(number=3, on=date(1999, 1, 1), previous=date(2026, 1, 14), **SEASON)

    assert [p.check for p in problems] == ["outside_season", "out_of_order", "not_league_day"]
    assert problems[0].message == (
        "Friday 1 January 1999 is outside the season: 10 weekly meets and as many weeks again "
        "for nights moved run from Wednesday 7 January 2026 to Tuesday 26 May 2026 (meet 1, "
        "Wednesday 7 January 2026; R2-a)"
    )
    assert problems[1].message == (
        "Friday 1 January 1999 is before meet 2 (Wednesday 14 January 2026): meets are played "
        "in order"
    )


def test_meet_date_checks_after_the_next_meet_is_out_of_order():
    """issue 26 §4: meet 3 moved past meet 4's date is out of order."""
    problems = meet_date_checks(
        number=3,
        on=date(2026, 2, 4),
        previous=date(2026, 1, 14),
        following=date(2026, 1, 28),
        **SEASON,
    )

    assert [(p.check, p.message) for p in problems] == [
        (
            "out_of_order",
            "Wednesday 4 February 2026 is after meet 4 (Wednesday 28 January 2026): meets are "
            "played in order",
        )
    ]


def test_meet_date_checks_other_weekday_needs_a_reason():
    """R2-a: the league day is Wednesday; a Thursday is asked about."""
    problems = meet_date_checks(number=2, on=date(2026, 1, 15), previous=date(2026, 1, 7), **SEASON)

    assert [(p.check, p.message) for p in problems] == [
        (
            "not_league_day",
            "Thursday 15 January 2026 is a Thursday, not the league day (Wednesdays, R2-a)",
        )
    ]


def test_meet_date_checks_meet_one_is_checked_around_the_day_the_season_was_set_up():
    """issue 26 §4, R2-a: meet 1 may come 20 weeks before or after the season's set-up day
    (Friday 2 January 2026); 1999 is outside."""
    inside = meet_date_checks(number=1, on=date(2025, 8, 20), **SEASON)
    outside = meet_date_checks(number=1, on=date(1999, 1, 6), **SEASON)

    assert inside == ()
    assert [(p.check, p.message) for p in outside] == [
        (
            "outside_season",
            "Wednesday 6 January 1999 is outside the season: 10 weekly meets and as many weeks "
            "again for nights moved run from Friday 15 August 2025 to Friday 22 May 2026 "
            "(either side of the day the season was set up, Friday 2 January 2026; R2-a)",
        )
    ]


def test_meet_date_checks_last_day_of_the_span_is_inside():
    """R2-a: the span is 20 weeks from meet 1: its last day is in, the next day is out."""
    inside = meet_date_checks(number=10, on=date(2026, 5, 27) - timedelta(days=1), **SEASON)
    outside = meet_date_checks(number=10, on=date(2026, 6, 17), **SEASON)

    assert ([p.check for p in inside], [p.check for p in outside]) == (
        ["not_league_day"],
        ["outside_season"],
    )


def test_r3_1_d_r2_2_a_a_player_announces_before_the_start_and_before_the_meet_starts():
    before = START - timedelta(minutes=1)
    assert announcement_open(meet_started=False, now=before, start=START)
    assert not announcement_open(meet_started=False, now=START, start=START)
    assert not announcement_open(meet_started=True, now=before, start=START)  # started early
