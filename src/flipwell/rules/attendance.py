"""Attendance and tardiness at a regular meet (§2.1, §2.2, §2.3), and the league day (§2).

Words:
- *league day*: the weekday the LO designated for the season's meets (R2-a), Python's
  numbering (Monday 0); meets are held weekly on it. A meet on another day, or less than a
  week after the one before, is warned about, never refused: the LO may move a night.
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

from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DAYS_PER_WEEK = 7


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
    league day, or less than a week after the previous meet (a week early), R2-a."""
    day = _check_weekday(league_day)
    found = []
    if on.weekday() != day:
        found.append(
            f"meet {number} is on a {WEEKDAYS[on.weekday()]}, not on the league day "
            f"({WEEKDAYS[day]}s, R2-a)"
        )
    if previous is not None and (on - previous).days < DAYS_PER_WEEK:
        gap = (on - previous).days
        found.append(
            f"meet {number} is {gap} day{'s' if gap != 1 else ''} after meet {number - 1} "
            f"({previous.isoformat()}), a week early: meets are weekly (R2-a)"
        )
    return tuple(found)


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
