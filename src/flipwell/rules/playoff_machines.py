"""Playoff machine selection (§6.4), play order ("5.3") and tardiness at the playoffs (§6.6).

Words:
- *machine*: a machine's identifier, a non-empty string chosen by the caller.
- *played*: the machines the match has already played; none may repeat within one match (A44).
- *busy*: machines in use by another match whose players are not yet on their final ball; a
  machine whose match is on its final ball is not busy (R5-d, A22).
- *unplayable*: machines the LO declared unplayable or that failed (R7.3-q, R7.3-r); never drawn
  or chosen.
- *draw*: a random choice made with `random.Random(seed)`; the seed is an input, so the same
  seed and machines give the same machine (R6.4-b, R6.5-b).
- *chooser*: the player who picks the next game's machine: last place in the previous game (R6.4-c).

Which machines a match may play is decided by the league night's model
(`flipwell.rules.machine_choices.selectable_machines`, §5) with the match as a group: one model for
both, as §6.4 says the §5 constraints apply.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta

from flipwell.rules.checks import check_unique
from flipwell.rules.errors import RuleError, listed
from flipwell.rules.machine_choices import MachineState, selectable_machines
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

_THIS_MATCH, _OTHER_MATCH = 1, 2
"""The match choosing and another match, as the §5 selection model's group numbers."""


def selectable_playoff_machines(
    machines: Sequence[str],
    *,
    played: Collection[str] = (),
    busy: Collection[str] = (),
    unplayable: Collection[str] = (),
    ruleset: Ruleset = FWPL_V1,
) -> list[str]:
    """The machines a playoff match may play next, in the given order (§6.4, R6.4-a).

    The §5 constraints apply: unplayable machines never (R7.3-r); not one the match has played
    (A44); not one busy with another match (R5-d). If nothing is left, the busy restriction
    is lifted (R5-f), and a machine the match already played is allowed only when no unplayed
    playable machine exists, or always under `fallback_allows_repeat = "always"` (A22).
    """
    pool = _check_machines(machines)
    for what, names in (("played", played), ("busy", busy), ("unplayable", unplayable)):
        unknown = sorted(set(names) - set(pool))
        if unknown:
            raise RuleError(f"{what} machine {unknown[0]} is not one of this location's machines")
    if all(m in unplayable for m in pool):
        raise RuleError("every machine is unplayable: the LO must designate one (R7.3-s)")
    # One model with the league night's selection (§5): this match is "group 1"; a busy
    # machine is in use by another match ("group 2") that is not on its final ball.
    states = [
        MachineState(m, unplayable=True)
        if m in unplayable
        else MachineState(m, in_use_by=_OTHER_MATCH, current_ball=1)
        if m in busy
        else MachineState(m)
        for m in pool
    ]
    selection = selectable_machines(states, group=_THIS_MATCH, played=played, ruleset=ruleset)
    return list(selection.machines)


def check_playoff_machine(
    machine: str,
    *,
    machines: Sequence[str],
    played: Collection[str] = (),
    busy: Collection[str] = (),
    unplayable: Collection[str] = (),
    ruleset: Ruleset = FWPL_V1,
) -> str:
    """Refuse a chooser's pick that the §5 constraints forbid (R6.4-a, R5-d, R5-e, A44)."""
    allowed = selectable_playoff_machines(
        machines, played=played, busy=busy, unplayable=unplayable, ruleset=ruleset
    )
    if machine in allowed:
        return machine
    if machine not in machines:
        raise RuleError(f"{machine!r} is not one of this location's machines")
    if machine in unplayable:
        reason = "is unplayable (R7.3-r)"
    elif machine in played:
        reason = "was already played in this match (A44)"
    else:
        reason = "is in use by another match that is not on its final ball (R5-d)"
    raise RuleError(f"machine {machine} {reason}; allowed: {', '.join(allowed)}")


def draw_playoff_machine(
    machines: Sequence[str],
    *,
    seed: int,
    played: Collection[str] = (),
    busy: Collection[str] = (),
    unplayable: Collection[str] = (),
    ruleset: Ruleset = FWPL_V1,
) -> str:
    """Draw a machine at random: a match's first game (R6.4-b) or a replacement for a drawn one.

    The candidates are `selectable_playoff_machines`, sorted so that the draw depends only on
    the seed and the set of candidates, never on the order they were listed in.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RuleError(f"the draw's seed must be an integer, got {seed!r}")
    candidates = selectable_playoff_machines(
        machines, played=played, busy=busy, unplayable=unplayable, ruleset=ruleset
    )
    return random.Random(seed).choice(sorted(candidates))


def draw_tiebreaker_machine(
    machines: Sequence[str],
    *,
    seed: int,
    busy: Collection[str] = (),
    unplayable: Collection[str] = (),
    ruleset: Ruleset = FWPL_V1,
) -> str:
    """Draw a tiebreaker game's machine at random from every playable machine (R6.5-b, A44).

    Also used for the single-ball playoffs that settle qualification ties (R6.1-e). A machine
    the match already played is allowed; busy machines are avoided while others are free.
    """
    return draw_playoff_machine(
        machines, seed=seed, busy=busy, unplayable=unplayable, ruleset=ruleset
    )


def playoff_play_order(
    seed_order: Sequence[PlayerId], previous_game: Sequence[PlayerId] | None = None
) -> list[PlayerId]:
    """Who plays first in a playoff game ("5.3": R5.3-a, R5.3-b, A43).

    seed_order: the match's present players by original playoff seed, best first.
    previous_game: the finishing order of the previous game of the match, or None for game 1.
    Game 1 follows the original seeds; later games follow the previous game's results.
    """
    players = check_unique(seed_order, what="the seed order")
    if previous_game is None:
        return players
    previous = check_unique(previous_game, what="the previous game's finishing order")
    if sorted(previous) != sorted(players):
        before, before_fields = listed("previous", previous)
        now, now_fields = listed("player", players)
        raise RuleError.about(
            "the previous game's players " + before + " are not this match's players " + now,
            players={**before_fields, **now_fields},
        )
    return previous


def playoff_machine_chooser(previous_game: Sequence[PlayerId]) -> PlayerId:
    """The player who picks the next game's machine: the loser (last place) of the previous game.

    §6.4, R6.4-c ("looser" means loser, A20): 4th of 4, 3rd in a 3-player round (A21).
    """
    order = check_unique(previous_game, what="the previous game's finishing order")
    if len(order) < 2:
        raise RuleError("a playoff game has at least 2 players")
    return order[-1]


def tardiness_notice_valid(*, notice_at: datetime, start: datetime) -> bool:
    """Whether a tardiness notice counts: it must reach the LO before the start (§2.2, R6.6-a)."""
    return _before(notice_at, start)


def delayed_match_start(
    *, start: datetime, notice_at: datetime | None, ruleset: Ruleset = FWPL_V1
) -> datetime:
    """The latest time a playoff match waits for a tardy player (§6.6, R6.6-a, §2.2, A59).

    A notice given before the match's start delays it by up to
    `ruleset.announced_tardiness_wait_minutes` (15); no notice, or a late one, means no delay.
    The wait is not cumulative: several tardy players share the one delay.
    """
    if notice_at is None or not _before(notice_at, start):
        return start
    return start + timedelta(minutes=ruleset.announced_tardiness_wait_minutes)


def _before(earlier: datetime, later: datetime) -> bool:
    _check_times(earlier, later)
    try:
        return earlier < later
    except TypeError:
        raise RuleError("times must be all timezone-aware or all naive") from None


def _check_times(*times: object) -> None:
    for time in times:
        if not isinstance(time, datetime):
            raise RuleError(f"a time must be a datetime, got {time!r}")


def _check_machines(machines: Sequence[str]) -> list[str]:
    pool = []
    for machine in machines:
        if not isinstance(machine, str) or not machine.strip():
            raise RuleError(f"a machine must be a non-empty string, got {machine!r}")
        if machine in pool:
            raise RuleError(f"machine {machine} is listed twice")
        pool.append(machine)
    if not pool:
        raise RuleError("the location has no machines")
    return pool
