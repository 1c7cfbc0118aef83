"""Starting a meet (§3.1, §4, §5): the ladder, the groups and each group's first machine.

Words:
- *draw seed*: the recorded seed of the first-machine draw (R5-a, A61); the same seed and
  machines give the same draw (`SEED_LIMIT`: the seeds a signed 64-bit column holds).
- *grouping override*: groups the LO sets instead of the ladder's cut (R4.1-d), with a reason.
- *started_at*: when the LO started the meet.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.keys import machine_id_of, player_key
from flipwell.league.notices import queue_meet_started
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.machine_history import unplayable_reasons
from flipwell.league.selectors.meet_board.next_games import machine_states
from flipwell.league.services._edge import fold, require_reason, rules_edge
from flipwell.league.services._meet_warnings import start_warnings
from flipwell.league.services._protocol import official_write, savepoint
from flipwell.league.services.meets.dates import check_number, checked_date, refuse_before_its_day
from flipwell.rules import (
    FirstMachineDraw,
    MachineState,
    Ruleset,
    SeasonResult,
    draw_first_machines,
    next_groups,
)
from flipwell.rules.officials import check_grouping_override

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SEED_LIMIT = 2**63
"""Draw seeds are stored in a signed 64-bit column."""


@dataclass(frozen=True)
class StartedMeet:
    """A started meet: its groups (ladder order) with their drawn first machines, and the
    warnings: the draw's (more groups than playable machines, A16, A61), a season below the
    design size (R1-a, meet 1) and a mid-season change of grouping scheme (R4.1-e)."""

    meet: m.Meet
    groups: tuple[m.Group, ...]
    first_games: tuple[m.Game, ...]
    warnings: tuple[str, ...]


def start_meet(
    *,
    season: m.Season,
    number: int,
    date: datetime.date | None = None,
    actor: User,
    seed: int | None = None,
    override_groups: Sequence[Sequence[m.Player]] | None = None,
    override_reason: str | None = None,
    date_reason: str | None = None,
) -> StartedMeet:
    """Start meet `number` of `season`: ladder, groups, first machines (§3.1, §4, §5).

    The ladder and groups come from the season's facts (`fold_season`, `next_groups`):
    announced absentees are left out (R3.1-d), unannounced ones keep their slot (R3.1-e). An
    LO may set other groups instead (R4.1-d) with `override_groups` and `override_reason`
    (checked by `check_grouping_override`: 3 or 4 players each, every present player once);
    a count with no valid grouping (5 players, A16) is refused until he does. Each group's
    first machine is drawn among the playable machines from `seed` (a fresh random one when
    None), which is recorded (R5-a, A61). A meet not scheduled yet needs its `date`; a date
    given here is checked as when scheduling (`date_reason`, R2-a). A meet starts on its day
    or later, never before it (in the league's time zone): one dated ahead is rescheduled
    first.

    Side effects: the Meet becomes open (started_at, draw seed, override reason), its Groups,
    GroupMembers and game 1 of each group are inserted, a Ruling records an override, an
    audit event ``meet.started`` is written, and each player who chose it gets their group's
    notice queued (`flipwell.league.notices`). Raises PermissionDenied unless `actor` is a
    league official; ValidationError (nothing written) for a meet out of sequence, a date
    ahead of today or one that needs a reason without it, an impossible grouping, a bad
    override or no playable machine; ConflictError for a meet already started or closed, or a
    second open meet.
    """
    draw_seed = _draw_seed(seed)
    with official_write(
        league=season.league, actor=actor, action="start a meet", season=season
    ) as write:
        meet, moved = _meet_to_start(season, number, date)
        write.only_meets(meet)
        dated = checked_date(write, meet, meet.date, date_reason) if moved else ([], "")
        refuse_before_its_day(meet, given=date is not None)
        result, ruleset = fold(season)
        groups, reason = _groups_to_play(meet, result, ruleset, override_groups, override_reason)
        _open(meet, draw_seed=draw_seed, override_reason=reason)
        draw, warnings = _first_machines(meet, groups, result, ruleset, reason, seed=draw_seed)
        stored_groups, first_games = _store_groups(meet, groups, draw.machines)
        if reason:
            subject = f"{season}, meet {number}: groups"
            write.ruling(kind="grouping_override", subject=subject, reason=reason, meet=meet)
        write.event("meet.started", meet, _started_data(meet, groups, draw, warnings, dated))
        write.refold()  # the stored groups must fold (R4.1-d needs the reason stored)
        queue_meet_started(meet)
    return StartedMeet(
        meet=meet, groups=tuple(stored_groups), first_games=tuple(first_games), warnings=warnings
    )


def _first_machines(
    meet: m.Meet,
    groups: Sequence[Sequence[str]],
    result: SeasonResult,
    ruleset: Ruleset,
    override_reason: str,
    *,
    seed: int,
) -> tuple[FirstMachineDraw, tuple[str, ...]]:
    """Each group's first machine drawn among the playable ones from `seed` (R5-a, A61), and
    the start's warnings: the draw's, a small season's, a change of grouping scheme."""
    states = machine_states(meet)
    with rules_edge("seed", code="no_machine_left"):
        draw = draw_first_machines(
            len(groups),
            [s.machine for s, _ in states],
            seed=seed,
            unplayable=[s.machine for s, _ in states if s.unplayable],
            ruleset=ruleset,
        )
    warnings = (
        *draw.warnings,
        *_left_out(meet, draw, dict(_states_titles(states))),
        *start_warnings(
            meet=meet,
            override_reason=override_reason,
            players=len(result.players),
            machines=len(states),
        ),
    )
    return draw, warnings


def _states_titles(states: Sequence[tuple[MachineState, str]]) -> list[tuple[str, str]]:
    """(machine key, title) of each machine state."""
    return [(state.machine, title) for state, title in states]


def _left_out(meet: m.Meet, draw: FirstMachineDraw, titles: Mapping[str, str]) -> list[str]:
    """The warning naming the machines the draw left out as unplayable, each with why (R5-a,
    R7.3-q, R7.3-r); none when every machine was in the draw."""
    if not draw.left_out:
        return []
    ids = [machine_id_of(key) for key in draw.left_out]
    reasons = unplayable_reasons(meet, ids)
    named = "; ".join(
        f"{titles[key]} ({reasons.get(machine_id, 'unplayable')})"
        for key, machine_id in zip(draw.left_out, ids, strict=True)
    )
    return [f"Left out of the first-machine draw as unplayable: {named}."]


def _started_data(
    meet: m.Meet,
    groups: Sequence[Sequence[str]],
    draw: FirstMachineDraw,
    warnings: Sequence[str],
    dated: tuple[list[str], str],
) -> dict[str, Any]:
    """The audit data of a started meet: its groups, draw, override and date checks."""
    date_checks, date_reason = dated
    return {
        "number": meet.number,
        "seed": meet.first_machine_draw_seed,
        "groups": [[int(p) for p in g] for g in groups],
        "first_machines": [machine_id_of(k) for k in draw.machines],
        "override_reason": meet.group_override_reason,
        "warnings": list(warnings),
    } | ({"date_checks": date_checks, "date_reason": date_reason} if date_checks else {})


def _draw_seed(seed: int | None) -> int:
    """The first-machine draw's seed: `seed`, or a fresh random one (R5-a, A61)."""
    draw_seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    if not 0 <= draw_seed < SEED_LIMIT:
        raise Refusal(
            {"seed": f"The draw seed must be between 0 and {SEED_LIMIT - 1}."}, code="invalid_seed"
        )
    return draw_seed


def _meet_to_start(
    season: m.Season, number: int, date: datetime.date | None
) -> tuple[m.Meet, bool]:
    """Meet `number` of `season` to start (locked; a new row when not scheduled, then `date`
    is needed) on `date` if given, and whether that date is new (so checked, R2-a). Refused
    when it has started, is out of the season's meets or out of sequence (§2)."""
    meet = m.Meet.objects.select_for_update().filter(season=season, number=number).first()
    if meet is not None and meet.status != m.Meet.Status.PLANNED:
        raise ConflictError(
            {"number": f"Meet {number} has already started ({meet.get_status_display()})."},
            code="meet_already_closed"
            if meet.status == m.Meet.Status.CLOSED
            else "meet_already_started",
        )
    check_number(season, number)
    _check_sequence(season, number)
    moved = date is not None and (meet is None or date != meet.date)
    if meet is None:
        if date is None:
            raise Refusal(
                {"date": f"Meet {number} is not scheduled yet: give its date."},
                code="date_required",
            )
        meet = m.Meet(season=season, number=number, date=date)
    elif date is not None:
        meet.date = date
    return meet, moved


def _groups_to_play(
    meet: m.Meet,
    result: SeasonResult,
    ruleset: Ruleset,
    override_groups: Sequence[Sequence[m.Player]] | None,
    override_reason: str | None,
) -> tuple[list[list[str]], str]:
    """The meet's groups (player keys) and the override's reason ("" for the ladder's cut):
    the ladder's groups without the announced absentees (R3.1-d), or the official's override
    checked by the rules (R4.1-d)."""
    absent = _absent_keys(meet, result.ladder)
    if override_groups is None:
        if override_reason:
            raise Refusal(
                {"override_groups": "An override reason was given without override groups."},
                code="override_groups_required",
            )
        return _ladder_groups(result, absent, ruleset), ""
    reason = require_reason(override_reason, field="override_reason", what="A grouping override")
    present = [p for p in result.ladder if p not in absent]
    with rules_edge("override_groups", code="invalid_grouping"):
        groups = check_grouping_override(
            [[player_key(p.pk) for p in group] for group in override_groups],
            present=present,
            reason=reason,
        )
    return groups, reason


def _open(meet: m.Meet, *, draw_seed: int, override_reason: str) -> None:
    """Store `meet` open now, with its draw seed and override reason; refused while another
    meet of the season is open (the database's constraint)."""
    meet.status = m.Meet.Status.OPEN
    meet.started_at = timezone.now()
    meet.first_machine_draw_seed = draw_seed
    meet.group_override_reason = override_reason
    try:
        with savepoint():
            meet.save()
    except IntegrityError as error:
        raise ConflictError(
            {"number": _open_meet_message(meet.season)}, code="another_meet_open"
        ) from error


def _check_sequence(season: m.Season, number: int) -> None:
    """Meets are played in order: meet n starts after meets 1..n-1 were played (§2)."""
    played = sorted(
        season.meets.filter(status__in=(m.Meet.Status.OPEN, m.Meet.Status.CLOSED)).values_list(
            "number", flat=True
        )
    )
    expected = len(played) + 1
    if number != expected:
        raise Refusal(
            {"number": f"Meet {number} cannot start: the next meet to play is meet {expected}."},
            code="meet_out_of_sequence",
        )


def _open_meet_message(season: m.Season) -> str:
    other = season.meets.filter(status=m.Meet.Status.OPEN).values_list("number", flat=True).first()
    which = f"meet {other}" if other is not None else "another meet"
    return f"{season} already has an open meet ({which}): close it before starting another."


def _absent_keys(meet: m.Meet, ladder: Sequence[str]) -> set[str]:
    if meet.pk is None:
        return set()
    on_ladder = set(ladder)
    ids = m.AnnouncedAbsence.objects.filter(meet=meet).values_list("player_id", flat=True)
    return {player_key(p) for p in ids} & on_ladder


def _ladder_groups(result: SeasonResult, absent: set[str], ruleset: Ruleset) -> list[list[str]]:
    present = len(result.ladder) - len(absent)

    def refused(error: str) -> str:
        return (
            f"The ladder cannot be grouped: {error} ({present} players present). A league "
            "official may set the groups instead: give override_groups (groups of 3 or 4) and "
            "an override_reason (R4.1-d)."
        )

    with rules_edge("override_groups", code="no_grouping", message=refused):
        return next_groups(result, announced_absences=absent, ruleset=ruleset)


def _store_groups(
    meet: m.Meet, groups: Sequence[Sequence[str]], machines: Sequence[str]
) -> tuple[list[m.Group], list[m.Game]]:
    m.Group.objects.bulk_create(m.Group(meet=meet, number=i) for i in range(1, len(groups) + 1))
    stored = list(meet.groups.order_by("number"))  # ids on every database
    m.GroupMember.objects.bulk_create(
        m.GroupMember(group=group, player_id=int(p), position=position)
        for group, players in zip(stored, groups, strict=True)
        for position, p in enumerate(players, start=1)
    )
    m.Game.objects.bulk_create(
        m.Game(group=group, number=1, machine_id=machine_id_of(key))
        for group, key in zip(stored, machines, strict=True)
    )
    games = list(m.Game.objects.filter(group__meet=meet).order_by("group__number"))
    return stored, games
