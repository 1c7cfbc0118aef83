"""A machine's problems, repairs and reliability, for the maintenance sheet (R7.3-u).

Words:
- *problem*: something wrong with a machine that somebody told the league about: a malfunction
  an official recorded in a game (§7.3), a declaration or a status change making it unplayable
  (R7.3-q, R7.3-r), or a report from a player or the venue's staff. Each has the moment it
  was reported.
- *repair*: the moment the machine was recorded fixed: a repair, a declaration "repaired" at
  a meet (R7.3-r), or its return to the pool.
- *open problem*: a problem with no repair at or after it, and not closed by an official
  (a report he found was no fault). The maintenance sheet lists open problems first.
- *out of service*: the spans from the machine leaving the pool (or being declared unplayable)
  to its return; a *day out of service* is a calendar day any such span touches.
- *reliability*: malfunctions per 100 games played on the machine, and days out of service,
  over a season's days (its first meet to its last, or to today while it runs).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from flipwell.rules.errors import RuleError

# --- Open problems (R7.3-u, R7.3-r) -----------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One problem reported on a machine: `key` names it for the caller (any string, unique),
    `at` is when it was reported, `closed_at` when an official closed it without a repair."""

    key: str
    at: datetime.datetime
    closed_at: datetime.datetime | None = None


@dataclass(frozen=True)
class ProblemState:
    """A problem's state now: open, or ended by the first repair after it (`repaired_at`) or
    by an official's closing (`closed_at`)."""

    key: str
    open: bool
    repaired_at: datetime.datetime | None
    closed_at: datetime.datetime | None


def problem_states(
    problems: Sequence[Problem], repairs: Sequence[datetime.datetime]
) -> tuple[ProblemState, ...]:
    """Each problem's state, in the order given (R7.3-u: the sheet keeps every malfunction;
    R7.3-r: an unplayable machine stays so until repaired).

    A problem is repaired by the first repair at or after the moment it was reported; a
    problem reported after the last repair is open unless an official closed it.
    """
    keys = [p.key for p in problems]
    if len(set(keys)) != len(keys):
        raise RuleError("every problem needs its own key")
    ordered = sorted(repairs)
    states = []
    for problem in problems:
        repaired = next((r for r in ordered if r >= problem.at), None)
        states.append(
            ProblemState(
                key=problem.key,
                open=repaired is None and problem.closed_at is None,
                repaired_at=repaired,
                closed_at=problem.closed_at,
            )
        )
    return tuple(states)


def has_open_problem(problems: Sequence[Problem], repairs: Sequence[datetime.datetime]) -> bool:
    """Whether any of a machine's problems is still open (R7.3-u, R7.3-r)."""
    return any(state.open for state in problem_states(problems, repairs))


# --- Which machine a game was on (R7.3-s) -----------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A game moved from machine `old` to machine `new` at `at` (R7.3-s, R5.1-a)."""

    at: datetime.datetime
    old: str
    new: str


def machine_at(current: str, moves: Sequence[Move], at: datetime.datetime) -> str:
    """The machine a game was on at `at`, given the one it is on now and its moves (R7.3-s):
    the old machine of the first move after `at`, else the current one. A malfunction
    belongs on the sheet of the machine that failed, not of its replacement (R7.3-u)."""
    later = sorted((move for move in moves if move.at > at), key=lambda move: move.at)
    return later[0].old if later else current


def machines_played(current: str, moves: Sequence[Move]) -> tuple[str, ...]:
    """Every machine a game was played on, first one first (R7.3-s): each move's old machine,
    then the current one; a machine counts once."""
    seen: list[str] = []
    for machine in [*(m.old for m in sorted(moves, key=lambda m: m.at)), current]:
        if machine not in seen:
            seen.append(machine)
    return tuple(seen)


# --- Out of service and reliability (R7.3-u) --------------------------------------------------


@dataclass(frozen=True)
class StatusChange:
    """The machine left service (`out` True) or came back (`out` False) on day `on`."""

    on: datetime.date
    out: bool


@dataclass(frozen=True)
class Span:
    """Days out of service from `first` to `last` (both counted); `last` None: still out."""

    first: datetime.date
    last: datetime.date | None


def out_of_service_spans(
    changes: Sequence[StatusChange], *, out_at_start: bool = False
) -> tuple[Span, ...]:
    """The spans out of service from a machine's status changes, oldest first (R7.3-q).

    `out_at_start`: the machine was out before its first change (the span then starts at
    `datetime.date.min`). A change to the state the machine is already in changes nothing.
    """
    spans: list[Span] = []
    since: datetime.date | None = datetime.date.min if out_at_start else None
    for change in sorted(changes, key=lambda c: c.on):
        if change.out and since is None:
            since = change.on
        elif not change.out and since is not None:
            spans.append(Span(first=since, last=change.on))
            since = None
    if since is not None:
        spans.append(Span(first=since, last=None))
    return tuple(spans)


def days_out_of_service(
    spans: Sequence[Span], *, first_day: datetime.date, last_day: datetime.date
) -> int:
    """How many calendar days from `first_day` to `last_day` (both counted) any span touches
    (R7.3-u: site management sees how long a machine was away)."""
    if last_day < first_day:
        raise RuleError(f"a season's last day {last_day} is before its first day {first_day}")
    days: set[datetime.date] = set()
    for span in spans:
        start = max(span.first, first_day)
        end = min(span.last or last_day, last_day)
        while start <= end:
            days.add(start)
            start += datetime.timedelta(days=1)
    return len(days)


@dataclass(frozen=True)
class Reliability:
    """A machine over one season's days: games played on it, malfunctions recorded on it,
    malfunctions per 100 games (None before its first game, one decimal) and days out of
    service out of the season's days so far."""

    games: int
    malfunctions: int
    per_100_games: float | None
    days_out: int
    days: int


def reliability(
    *,
    games: int,
    malfunctions: int,
    spans: Sequence[Span],
    first_day: datetime.date,
    last_day: datetime.date,
) -> Reliability:
    """A machine's reliability over a season (R7.3-u): malfunctions per 100 games and days
    out of service between `first_day` and `last_day`."""
    if games < 0 or malfunctions < 0:
        raise RuleError("games and malfunctions cannot be negative")
    return Reliability(
        games=games,
        malfunctions=malfunctions,
        per_100_games=round(100 * malfunctions / games, 1) if games else None,
        days_out=days_out_of_service(spans, first_day=first_day, last_day=last_day),
        days=(last_day - first_day).days + 1,
    )
