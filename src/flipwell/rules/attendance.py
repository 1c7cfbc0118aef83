"""Attendance and tardiness at a regular meet (§2.1, §2.2, §2.3), and the league day (§2).

Words:
- *league day*: the weekday the LO designated for the season's meets (R2-a), Python's
  numbering (Monday 0); meets are held weekly on it. A meet on another day, or less than a
  week after the one before, is warned about, never refused: the LO may move a night.
- *season span*: a season of n weekly meets runs n weeks from its first meet (R2-a: the LO
  designates the league day and the season length); flipwell allows as many weeks again for
  nights moved or skipped: 2n weeks from meet 1's date. Before meet 1 is scheduled (and for
  meet 1 itself) the season is known only by the day it was set up, and meet 1 may come that
  long before or after it (a season entered after its first night, or set up early). A date
  outside it, before the meet before or after the meet after (*out of order*), or on another
  day than the league day is a *date check* a meet's date fails: the LO may still set it,
  with a reason (`meet_date_checks`).
- *start time*: the meet's designated league start (§2); the reference for every rule here.
  All times are timezone-aware `datetime`s; a naive one is refused, since a meet held across a
  daylight-saving change could otherwise compare wrongly.
- *notice*: the LO being told that a player will be late; it is *announced tardiness* only if
  given before the start time (R2.2-a).
- *wait deadline*: start time + `announced_tardiness_wait_minutes`; the group waits for an
  announced late player until he arrives or until then, whichever comes first (A59).
- *group start*: when the group begins play; a player arriving after it is *late* (§2.3).
- *joining a game in progress*: a late player added to the game his group is playing; both
  conditions of R2.3-a must be attested, otherwise that game is a forfeit for him (A60).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DAYS_PER_WEEK = 7
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def next_meet_date(*, league_day: int, last_meet: date | None, today: date) -> date:
    """The next meet's date: the first league day after the last meet, and not before
    `today` (a season that paused resumes on its next league day), R2-a."""
    day = _check_weekday(league_day)
    earliest = today if last_meet is None else max(last_meet + timedelta(days=1), today)
    return earliest + timedelta(days=(day - earliest.weekday()) % DAYS_PER_WEEK)


def meet_date_warnings(
    *, number: int, on: date, league_day: int, previous: date | None
) -> tuple[str, ...]:
    """Warnings (never refusals) for meet `number` held `on` a date: a day other than the
    league day, or less than a week after the previous meet, R2-a."""
    day = _check_weekday(league_day)
    found = []
    if on.weekday() != day:
        found.append(
            f"meet {number} is on a {WEEKDAYS[on.weekday()]}, not on the league day "
            f"({WEEKDAYS[day]}s, R2-a)"
        )
    if previous is not None and (on - previous).days < DAYS_PER_WEEK:
        found.append(_too_soon(number, on, previous))
    return tuple(found)


def _too_soon(number: int, on: date, previous: date) -> str:
    """Meet `number` held `on`, less than a week after the previous meet's `previous` (or on
    the same day, or before it), in words (R2-a)."""
    gap = (on - previous).days
    before = f"meet {number - 1} ({previous.isoformat()})"
    if gap == 0:
        where = f"on the same day as {before}"
    elif gap < 0:
        where = f"{-gap} day{'s' if gap != -1 else ''} before {before}"
    else:
        where = f"{gap} day{'s' if gap != 1 else ''} after {before}, less than a week"
    return f"meet {number} is {where}: meets are weekly (R2-a)"


MeetDateCheck = Literal["outside_season", "out_of_order", "not_league_day"]
"""A check a meet's date fails (module words); each needs the LO's reason."""

SEASON_SPAN_WEEKS_PER_MEET = 2
"""Weeks of season span per meet: a week for each meet, and as many again for nights moved."""


@dataclass(frozen=True)
class MeetDateProblem:
    """One date check that a meet's date fails, and why, in words (R2-a)."""

    check: MeetDateCheck
    message: str


def meet_date_checks(
    *,
    number: int,
    on: date,
    league_day: int,
    number_of_meets: int,
    set_up: date,
    first_meet: date | None = None,
    previous: date | None = None,
    following: date | None = None,
) -> tuple[MeetDateProblem, ...]:
    """The date checks meet `number` fails `on` a date (module words; R2-a), in the order
    outside_season, out_of_order, not_league_day; none when the date is a plain one.

    set_up: the day the season was set up; first_meet: meet 1's date when meet 1 is scheduled
    and is not the meet checked. previous, following: the dates of the meets numbered just
    before and after it, when they are scheduled. The LO may still set such a date, with a
    reason: this says which reason is needed, it refuses nothing.
    """
    day = _check_weekday(league_day)
    meets = check_count(number_of_meets, what="the season's number of meets", minimum=1)
    check_count(number, what="the meet's number", minimum=1)
    found = _outside_season(number, on, meets, set_up=set_up, first_meet=first_meet)
    if previous is not None and on < previous:
        found.append(
            MeetDateProblem(
                "out_of_order",
                f"{_day(on)} is before meet {number - 1} ({_day(previous)}): meets are played "
                "in order",
            )
        )
    if following is not None and on > following:
        found.append(
            MeetDateProblem(
                "out_of_order",
                f"{_day(on)} is after meet {number + 1} ({_day(following)}): meets are played "
                "in order",
            )
        )
    if on.weekday() != day:
        found.append(
            MeetDateProblem(
                "not_league_day",
                f"{_day(on)} is a {WEEKDAYS[on.weekday()]}, not the league day "
                f"({WEEKDAYS[day]}s, R2-a)",
            )
        )
    return tuple(found)


def _outside_season(
    number: int, on: date, meets: int, *, set_up: date, first_meet: date | None
) -> list[MeetDateProblem]:
    """The outside_season problem of meet `number` `on` a date, if it has it (R2-a): the
    season's weekly meets and as many weeks again, from meet 1 (or either side of the day the
    season was set up)."""
    span = timedelta(weeks=SEASON_SPAN_WEEKS_PER_MEET * meets)
    if first_meet is not None and number != 1:
        earliest, last = first_meet, first_meet + span - timedelta(days=1)
        since = f"meet 1, {_day(first_meet)}"
    else:
        earliest, last = set_up - span, set_up + span
        since = f"either side of the day the season was set up, {_day(set_up)}"
    if earliest <= on <= last:
        return []
    return [
        MeetDateProblem(
            "outside_season",
            f"{_day(on)} is outside the season: {meets} weekly meet"
            f"{'s' if meets != 1 else ''} and as many weeks again for nights moved run from "
            f"{_day(earliest)} to {_day(last)} ({since}; R2-a)",
        )
    ]


def written_day(on: date) -> str:
    """A date as a person reads it, in the rules' messages: "Tuesday 12 May 2026"."""
    return _day(on)


def _day(on: date) -> str:
    """A date as a person reads it: "Tuesday 12 May 2026"."""
    return f"{WEEKDAYS[on.weekday()]} {on.day} {MONTHS[on.month - 1]} {on.year}"


def _check_weekday(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < DAYS_PER_WEEK:
        raise RuleError(f"league_day must be a weekday from 0 (Monday) to 6, got {value!r}")
    return value


def _check_moment(value: object, *, what: str) -> datetime:
    """A timezone-aware datetime."""
    if not isinstance(value, datetime):
        raise RuleError(f"{what} must be a datetime, got {value!r}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise RuleError(f"{what} must be timezone-aware, got the naive time {value.isoformat()}")
    return value


def _check_flag(value: object, *, what: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(f"{what} must be True or False, got {value!r}")
    return value


def _clock(moment: datetime) -> str:
    return moment.isoformat(timespec="minutes")


@dataclass(frozen=True)
class AnnouncedTardiness:
    """The effect of a notice that a player will be late (§2.2).

    announced: the notice came before the start time, so the group waits. wait_until: the
    wait deadline (None when not announced). reason: a sentence for the LO and the player.
    """

    announced: bool
    wait_until: datetime | None
    reason: str


def announcement_open(*, meet_started: bool, now: datetime, start: datetime) -> bool:
    """Whether a player may still announce an absence (R3.1-d) or a lateness (R2.2-a) for a
    meet themselves: before its scheduled `start` and before the official starts it. After
    that the meet is under way, and a player tells a league official instead."""
    _check_flag(meet_started, what="meet_started")
    return not meet_started and _check_moment(now, what="now") < _check_moment(start, what="start")


def announced_tardiness(
    *, start: datetime, notified_at: datetime, ruleset: Ruleset = FWPL_V1
) -> AnnouncedTardiness:
    """Whether a lateness notice counts as announced tardiness, and the wait deadline.

    §2.2, R2.2-a, A59: a notice counts only if the LO received it before the start time
    (R2.1-a); the group then waits up to `ruleset.announced_tardiness_wait_minutes` (15) after
    the start. A later notice is no announcement: §2.3 applies when the player arrives.
    """
    begin = _check_moment(start, what="start time")
    told = _check_moment(notified_at, what="notice time")
    if told < begin:
        deadline = begin + timedelta(minutes=ruleset.announced_tardiness_wait_minutes)
        return AnnouncedTardiness(
            announced=True,
            wait_until=deadline,
            reason=(
                f"notice at {_clock(told)} came before the {_clock(begin)} start: the group "
                f"waits until {_clock(deadline)} at the latest (R2.2-a)"
            ),
        )
    return AnnouncedTardiness(
        announced=False,
        wait_until=None,
        reason=(
            f"notice at {_clock(told)} did not come before the {_clock(begin)} start: the group "
            "does not wait, and the player joins late under §2.3 (R2.2-a, R2.3-a)"
        ),
    )


@dataclass(frozen=True)
class JoinDecision:
    """Whether a late player joins the game in progress (§2.3).

    may_join: he is added to the game and plays last in it (R5.2-c). forfeit: he cannot join,
    so this game is a forfeit for him and he joins at the group's next game (R2.4-a, A60).
    reason: a sentence naming the condition that decided it.
    """

    may_join: bool
    forfeit: bool
    reason: str


def join_game_in_progress(
    *, machine_permits: bool, last_player_started_ball_1: bool
) -> JoinDecision:
    """Whether a late player may join his group's game in progress (§2.3, R2.3-a, A60).

    Both must be attested: the machine permits adding a player, and the group's last player
    has not started ball 1. Otherwise the game is a forfeit for him; the group does not wait.
    """
    permits = _check_flag(machine_permits, what="machine_permits")
    started = _check_flag(last_player_started_ball_1, what="last_player_started_ball_1")
    if permits and not started:
        return JoinDecision(
            may_join=True,
            forfeit=False,
            reason=(
                "joins the game in progress: the machine permits adding a player and the "
                "group's last player has not started ball 1 (R2.3-a); they play last (R5.2-c)"
            ),
        )
    why = []
    if not permits:
        why.append("the machine does not permit adding a player")
    if started:
        why.append("the group's last player has started ball 1")
    return JoinDecision(
        may_join=False,
        forfeit=True,
        reason=(
            f"cannot join the game in progress: {' and '.join(why)} (R2.3-a); this game is a "
            "forfeit for them (R2.4-a) and they join at the next game (A60)"
        ),
    )
