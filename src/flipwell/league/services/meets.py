"""League-night use cases for a meet as a whole: scheduling (and moving or cancelling a meet
not yet started), attendance notices, the start (ladder, groups, first machines) and the
close; each next machine is chosen in `flipwell.league.services.meet_machines`.

Words (see also `flipwell.league.models.meets`):
- *scheduled start*: the meet's date at the season's start time in the league's time zone,
  the reference for a lateness notice (R2.2-a). *started_at* is when the LO started it.
- *draw seed*: the recorded seed of the first-machine draw (R5-a, A61); the same seed and
  machines give the same draw.
- *grouping override*: groups the LO sets instead of the ladder's cut (R4.1-d), with a reason.
- *date reason*: why the LO chose a date that fails a date check (outside the season, out of
  order, off the league day: `flipwell.rules.meet_date_checks`); recorded as a Ruling.

The ladder, the groups and the draw all come from flipwell.rules;
these services only load facts, call the rules, store the new facts and write the audit log.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.keys import machine_id_of, player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.audit import record_event
from flipwell.league.notices import queue_meet_closed, queue_meet_started
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.machine_history import unplayable_reasons
from flipwell.league.selectors.meet_board.next_games import machine_states, open_compensatory
from flipwell.league.selectors.meet_board.values import GAMES_PER_MATCH
from flipwell.league.selectors.meet_times import scheduled_start
from flipwell.league.services._edge import (
    fold,
    record_ruling,
    require_official,
    require_reason,
    rules_edge,
    season_changed,
)
from flipwell.league.services._meet_warnings import start_warnings
from flipwell.league.services._protocol import official_write
from flipwell.rules import (
    AnnouncedTardiness,
    FirstMachineDraw,
    MachineState,
    MeetDateProblem,
    MeetResult,
    Night,
    Ruleset,
    SeasonResult,
    announced_tardiness,
    draw_first_machines,
    meet_date_checks,
    next_groups,
)
from flipwell.rules import written_day as _day
from flipwell.rules.officials import check_grouping_override

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SEED_LIMIT = 2**63
"""Draw seeds are stored in a signed 64-bit column."""


def schedule_meet(
    *,
    season: m.Season,
    number: int,
    date: datetime.date,
    actor: User,
    date_reason: str | None = None,
) -> m.Meet:
    """Schedule meet `number` of `season` on `date` (planned), so notices can be recorded.

    A date outside the season, out of order or off the league day (`meet_date_checks`, R2-a)
    needs the official's `date_reason`, recorded as a Ruling. Side effects: inserts a planned
    Meet, a Ruling for a date reason, and an audit event ``meet.scheduled``. Raises
    PermissionDenied unless `actor` is a league official; ValidationError for a number outside
    the season's meets or a date that needs a reason without one; ConflictError
    (``meet_already_scheduled``, naming the meet and its date) for one already scheduled.
    """
    with transaction.atomic():
        require_official(actor=actor, league=season.league, action="schedule a meet")
        _check_number(season, number)
        _check_not_scheduled(season, number)
        meet = m.Meet(season=season, number=number, date=date)
        meet.full_clean()
        checks, reason = _checked_date(meet, date, date_reason, actor=actor)
        meet.save()
        record_event(
            action="meet.scheduled",
            obj=meet,
            league=season.league,
            actor=actor,
            data={"number": number, "date": date.isoformat()}
            | ({"date_checks": checks, "date_reason": reason} if checks else {}),
        )
        season_changed(season)
    return meet


def reschedule_meet(
    *, meet: m.Meet, date: datetime.date, reason: str | None, actor: User
) -> m.Meet:
    """Move a meet not yet started to another `date`, saying why (R2-a: the LO designates the
    league's nights).

    The reason is always needed (a moved night is an official's decision) and covers the date
    checks the new date fails (`meet_date_checks`). Side effects: the Meet's date, a Ruling
    ``meet_rescheduled``, an audit event ``meet.rescheduled`` (old and new date, checks, reason).
    Raises PermissionDenied unless `actor` is a league official; ValidationError for a meet that
    has started, the same date again, or no reason.
    """
    with transaction.atomic():
        meet = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        league = meet.season.league
        require_official(actor=actor, league=league, action="reschedule a meet")
        _check_planned(meet, doing="rescheduled")
        why = require_reason(reason, field="reason", what=f"Moving meet {meet.number}")
        if date == meet.date:
            same = f"Meet {meet.number} is already on {_day(date)}: give another date."
            raise Refusal({"date": same}, code="same_date")
        checks = [p.check for p in _date_problems(meet, date)]
        old = meet.date
        meet.date = date
        meet.save(update_fields=["date"])
        record_ruling(
            league=league,
            official=actor,
            kind="meet_rescheduled",
            subject=f"{meet.season}, meet {meet.number}: {old.isoformat()} to {date.isoformat()}"[
                :200
            ],
            reason=why,
            meet=meet,
        )
        record_event(
            action="meet.rescheduled",
            obj=meet,
            league=league,
            actor=actor,
            data={
                "number": meet.number,
                "from": old.isoformat(),
                "to": date.isoformat(),
                "date_checks": checks,
                "reason": why,
            },
        )
        season_changed(meet.season)
    return meet


@dataclass(frozen=True)
class CancelledMeet:
    """A cancelled meet: its number and date, and the later planned meets renumbered down by one
    (old number, new number), so the season's meets stay numbered in the order played."""

    number: int
    date: datetime.date
    renumbered: tuple[tuple[int, int], ...]


def cancel_meet(*, meet: m.Meet, reason: str | None, actor: User) -> CancelledMeet:
    """Cancel a meet not yet started, saying why: that night is not played (R2-a).

    The planned meet is removed with its announced absences and lateness notices (notices for a
    night that will not be held); the later planned meets move down one number, so meet numbers
    stay the order of play, and the season keeps its number of meets: the next meet scheduled
    takes the free number. Nothing played is lost: only a planned meet can be cancelled.

    Side effects: deletes the Meet (and its notices), renumbers the later planned meets, a
    Ruling ``meet_cancelled`` and an audit event ``meet.cancelled`` (number, date, reason,
    notices removed, renumbering). Raises PermissionDenied unless `actor` is a league
    official; ValidationError for a meet that has started or no reason.
    """
    with transaction.atomic():
        meet = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        season, league = meet.season, meet.season.league
        require_official(actor=actor, league=league, action="cancel a meet")
        _check_planned(meet, doing="cancelled")
        why = require_reason(reason, field="reason", what=f"Cancelling meet {meet.number}")
        absences = list(meet.announced_absences.values_list("player_id", flat=True))
        lateness = list(meet.lateness_notices.values_list("player_id", flat=True))
        later = list(
            season.meets.select_for_update().filter(number__gt=meet.number).order_by("number")
        )
        renumbered = tuple((x.number, x.number - 1) for x in later)
        record_ruling(
            league=league,
            official=actor,
            kind="meet_cancelled",
            subject=f"{season}, meet {meet.number} ({meet.date.isoformat()})"[:200],
            reason=why,
        )
        record_event(
            action="meet.cancelled",
            obj=meet,
            league=league,
            actor=actor,
            data={
                "number": meet.number,
                "date": meet.date.isoformat(),
                "reason": why,
                "absences_removed": absences,
                "lateness_notices_removed": lateness,
                "renumbered": [list(pair) for pair in renumbered],
            },
        )
        number, date = meet.number, meet.date
        meet.delete()
        for moved in later:  # in order, so each number is free when taken
            moved.number -= 1
            moved.save(update_fields=["number"])
        season_changed(season)
    return CancelledMeet(number=number, date=date, renumbered=renumbered)


def announce_absence(*, meet: m.Meet, player: m.Player, actor: User) -> m.AnnouncedAbsence:
    """Record that the LO was told `player` will miss `meet` (R2-b, R3.1-d).

    Only before the meet starts: announced absentees are removed before grouping (R3.1-d);
    once the groups are drawn an absence is unannounced, and the player keeps his slot and
    forfeits (R3.1-e). Side effects: an AnnouncedAbsence and an audit event
    ``meet.absence_announced``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError when the meet has started, the player is not entered for this meet, or
    his absence is already recorded.
    """
    with transaction.atomic():
        meet = m.Meet.objects.select_for_update().get(pk=meet.pk)
        require_official(actor=actor, league=meet.season.league, action="record an absence")
        return _record_absence(meet=meet, player=player, actor=actor)


def _record_absence(
    *,
    meet: m.Meet,
    player: m.Player,
    actor: User | None,
    link: m.PlayerLink | None = None,
    received_at: datetime.datetime | None = None,
) -> m.AnnouncedAbsence:
    """The shared part of `announce_absence`, for a caller that already locked `meet` and
    checked who may tell it: the LO (`actor`) or the player through their personal link
    (`link`, `flipwell.league.services.player_links`). Same checks, fact and audit event."""
    league = meet.season.league
    if meet.status != m.Meet.Status.PLANNED:
        raise ConflictError(
            {
                "meet": f"Meet {meet.number} has started: an absence is announced only "
                f"before grouping (R3.1-d). {player} keeps their group slot and forfeits its "
                "games (R3.1-e)."
            },
            code="meet_already_started",
        )
    _check_entered(meet, player)
    if m.AnnouncedAbsence.objects.filter(meet=meet, player=player).exists():
        raise ConflictError(
            {"player": f"{player}'s absence from meet {meet.number} is already recorded."},
            code="absence_already_recorded",
        )
    absence = m.AnnouncedAbsence.objects.create(
        meet=meet,
        player=player,
        recorded_at=received_at or timezone.now(),
        recorded_by=actor,
        player_link=link,
    )
    record_event(
        action="meet.absence_announced",
        obj=absence,
        league=league,
        actor=actor,
        data={"meet": meet.pk, "player": player.pk}
        | ({"player_link": link.pk} if link is not None else {}),
    )
    season_changed(meet.season)
    return absence


@dataclass(frozen=True)
class AnnouncedLateness:
    """A recorded lateness notice (R2.2-a): the stored notice and the rules' tardiness (how
    long the group waits, A59)."""

    notice: m.LatenessNotice
    tardiness: AnnouncedTardiness


def announce_lateness(
    *,
    meet: m.Meet,
    player: m.Player,
    at: datetime.datetime | None = None,
    actor: User,
) -> AnnouncedLateness:
    """Record that the LO was told at `at` (default now) that `player` will be late (R2.2-a).

    The notice is recorded whenever it came, until the meet closes: the LO often types it in
    after the start, and a notice that came late is a fact too. The rules decide what it
    means (`flipwell.rules.attendance.announced_tardiness`): told before the scheduled start,
    the group waits until the tardiness' `wait_until` at the latest (A59); told later, it is
    no announcement, the group does not wait and the player joins under §2.3 (R2.3-a).
    Returns the stored notice and the rules' tardiness (`AnnouncedLateness`). Side effects: a
    LatenessNotice (`recorded_at` is when the LO was told) and an audit event
    ``meet.lateness_announced``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError for a closed meet, a notice told in the future, a player not entered, or a
    repeat notice.
    """
    now = timezone.now()
    told = at or now
    with transaction.atomic():
        meet = m.Meet.objects.select_for_update().get(pk=meet.pk)
        require_official(actor=actor, league=meet.season.league, action="record a lateness notice")
        if told > now:
            raise Refusal(
                {"at": "A notice is recorded once it came: the time it came is in the future."},
                code="notice_in_future",
            )
        return _record_lateness(meet=meet, player=player, told=told, actor=actor)


def _record_lateness(
    *,
    meet: m.Meet,
    player: m.Player,
    told: datetime.datetime,
    actor: User | None,
    link: m.PlayerLink | None = None,
) -> AnnouncedLateness:
    """The shared part of `announce_lateness`, for a caller that already locked `meet` and
    checked who may tell it: the LO (`actor`) or the player through their personal link
    (`link`, `flipwell.league.services.player_links`). Same checks, fact and audit event."""
    league = meet.season.league
    if meet.status == m.Meet.Status.CLOSED:
        raise ConflictError(
            {"meet": f"Meet {meet.number} is closed: a lateness notice cannot be added."},
            code="meet_already_closed",
        )
    start = scheduled_start(meet)
    with rules_edge("at", code="notice_refused"):
        tardiness = announced_tardiness(  # both moments in the league's time, as shown
            start=start, notified_at=told.astimezone(start.tzinfo), ruleset=_ruleset(meet)
        )
    _check_entered(meet, player)
    if m.LatenessNotice.objects.filter(meet=meet, player=player).exists():
        raise ConflictError(
            {"player": f"{player}'s lateness notice for meet {meet.number} is already recorded."},
            code="lateness_already_recorded",
        )
    notice = m.LatenessNotice.objects.create(
        meet=meet, player=player, recorded_at=told, recorded_by=actor, player_link=link
    )
    record_event(
        action="meet.lateness_announced",
        obj=notice,
        league=league,
        actor=actor,
        data={
            "meet": meet.pk,
            "player": player.pk,
            "at": told.isoformat(),
            "announced": tardiness.announced,
            "wait_until": tardiness.wait_until.isoformat() if tardiness.wait_until else None,
        }
        | ({"player_link": link.pk} if link is not None else {}),
    )
    season_changed(meet.season)
    return AnnouncedLateness(notice=notice, tardiness=tardiness)


ANNOUNCEMENTS = ("absence", "lateness")
"""What a player may have announced before a meet: an absence (R3.1-d), a lateness (R2.2-a)."""


def withdraw_announcement(
    *, meet: m.Meet, player: m.Player, kind: str, actor: User
) -> m.AnnouncedAbsence | m.LatenessNotice:
    """The LO withdraws `player`'s announced absence or lateness (`kind`) before the meet
    starts: the player is expected on time after all (R3.1-d, R2.2-a).

    Only before the meet starts: once the groups are drawn the announcement has had its
    effect (an absentee was left out of the groups, a late player's group waits). Returns the
    withdrawn row (deleted). Side effects: deletes the AnnouncedAbsence or LatenessNotice, an
    audit event ``meet.absence_withdrawn`` or ``meet.lateness_withdrawn`` (with when it was
    told and through which link). Raises PermissionDenied unless `actor` is a league official;
    ValidationError for an unknown kind, a started meet or nothing announced.
    """
    with transaction.atomic():
        meet = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        require_official(actor=actor, league=meet.season.league, action="withdraw an announcement")
        return _withdraw(meet=meet, player=player, kind=kind, actor=actor)


def _withdraw(
    *,
    meet: m.Meet,
    player: m.Player,
    kind: str,
    actor: User | None,
    link: m.PlayerLink | None = None,
) -> m.AnnouncedAbsence | m.LatenessNotice:
    """The shared part of `withdraw_announcement`, for a caller that locked `meet` and checked
    who withdraws: the LO (`actor`) or the player through their link (`link`)."""
    if kind not in ANNOUNCEMENTS:
        raise Refusal(
            {"kind": "Withdraw an absence or a lateness notice."}, code="unknown_notice_kind"
        )
    what = "absence" if kind == "absence" else "lateness notice"
    if meet.status != m.Meet.Status.PLANNED:
        raise ConflictError(
            {
                "meet": f"Meet {meet.number} has started: {player}'s {what} can no longer be "
                "withdrawn (the groups were drawn with it)."
            },
            code="meet_already_started",
        )
    model: type[m.AnnouncedAbsence] | type[m.LatenessNotice] = (
        m.AnnouncedAbsence if kind == "absence" else m.LatenessNotice
    )
    row = model.objects.filter(meet=meet, player=player).first()
    if row is None:
        raise Refusal(
            {"player": f"{player} has no {what} for meet {meet.number} to withdraw."},
            code="nothing_announced",
        )
    record_event(
        action=f"meet.{kind}_withdrawn",
        obj=row,
        league=meet.season.league,
        actor=actor,
        data={
            "meet": meet.pk,
            "player": player.pk,
            "told_at": row.recorded_at.isoformat(),
            "told_through_link": row.player_link_id,
        }
        | ({"player_link": link.pk} if link is not None else {}),
    )
    row.delete()
    season_changed(meet.season)
    return row


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
        dated = _checked_date(meet, meet.date, date_reason, actor=actor) if moved else ([], "")
        _refuse_before_its_day(meet, given=date is not None)
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
    _check_number(season, number)
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
        with transaction.atomic():
            meet.save()
    except IntegrityError as error:
        raise ConflictError(
            {"number": _open_meet_message(meet.season)}, code="another_meet_open"
        ) from error


@dataclass(frozen=True)
class ClosedMeet:
    """A closed meet's results, from the season fold.

    result: the meet folded (ladder, groups, each match's points, penalties; no explanation).
    nights: player id -> his night (game points, match bonus, §2.4 credit, league points).
    season_forfeits: players whose season ended at this meet (12 countable forfeits, R2.5-a,
    or a third offense, R8.5-e).
    """

    meet: m.Meet
    result: MeetResult
    nights: Mapping[int, Night]
    season_forfeits: tuple[int, ...]


def close_meet(*, meet: m.Meet, actor: User, override_reason: str | None = None) -> ClosedMeet:
    """Close an open meet and return its results (§3.3, §2.4, §2.5, §8.5).

    Refused while a game has no confirmed scores, a group has played fewer than four games,
    a compensatory game is open (R7.3-p) or a correction waits for answers (R3-c), unless a
    league official closes it anyway with `override_reason` (A52: a short match's bonus counts
    the games completed); the override is a Ruling.

    Side effects: the Meet's status becomes closed, a Ruling for an override, an audit event
    ``meet.closed``, and each player who chose it gets their night's notice queued. Raises
    PermissionDenied unless `actor` is a league official; ValidationError (nothing written)
    for a meet that is not open or unfinished business without an override.
    """
    with official_write(league=meet.season.league, actor=actor, action="close a meet") as write:
        meet = write.open_meet(meet, doing="close it")
        write.season = meet.season
        problems = _unfinished(meet)
        reason = _close_override(meet, problems, override_reason)
        if reason:
            subject = f"{meet.season}, meet {meet.number}"[:200]
            write.ruling(kind="meet_closed_unfinished", subject=subject, reason=reason, meet=meet)
        meet.status = m.Meet.Status.CLOSED
        meet.save(update_fields=["status"])
        result = write.refold()
        write.event(
            "meet.closed",
            meet,
            {"number": meet.number, "override_reason": reason, "unfinished": problems},
        )
        queue_meet_closed(meet, result)
    return _closed(meet, result)


def _close_override(meet: m.Meet, problems: Sequence[str], override_reason: str | None) -> str:
    """The official's reason to close `meet` with `problems` left ("" when none is left);
    refused without one (A52)."""
    if not problems:
        return ""
    if not (override_reason or "").strip():
        raise ConflictError(
            f"Meet {meet.number} cannot close yet: {'; '.join(problems)}. A league "
            "official may close it anyway with an override reason (A52: the match "
            "bonus then counts the games completed).",
            code="meet_unfinished",
        )
    return override_reason.strip() if override_reason else ""


def _closed(meet: m.Meet, result: SeasonResult) -> ClosedMeet:
    """The closed meet's results from the season's new fold."""
    folded = result.meets[meet.number - 1]
    nights = {
        int(p): night
        for p, standing in result.players.items()
        for night in standing.nights
        if night.meet == meet.number
    }
    ended = tuple(
        sorted(
            int(p)
            for p, s in result.players.items()
            if meet.number in (s.season_forfeited_at, s.suspended_at)
        )
    )
    return ClosedMeet(meet=meet, result=folded, nights=nights, season_forfeits=ended)


# --- helpers ---------------------------------------------------------------------------------


def _ruleset(meet: m.Meet) -> Ruleset:
    with rules_edge(code="season_facts_refused"):
        return season_ruleset(meet.season)


def _check_number(season: m.Season, number: int) -> None:
    if not 1 <= number <= season.number_of_meets:
        raise Refusal(
            {"number": f"{season} has meets 1 to {season.number_of_meets}, not {number}."},
            code="no_such_meet",
        )


def _check_planned(meet: m.Meet, *, doing: str) -> None:
    if meet.status != m.Meet.Status.PLANNED:
        refused = (
            f"Meet {meet.number} has started ({meet.get_status_display()}): only a meet not yet "
            f"started can be {doing}."
        )
        raise ConflictError({"meet": refused}, code="meet_already_started")


def _date_problems(meet: m.Meet, on: datetime.date) -> tuple[MeetDateProblem, ...]:
    """The date checks meet `meet` fails on `on` (`meet_date_checks`, R2-a; 1 query)."""
    season = meet.season
    near = dict(
        season.meets.filter(number__in=(1, meet.number - 1, meet.number + 1))
        .exclude(pk=meet.pk)
        .values_list("number", "date")
    )
    zone = ZoneInfo(season.league.time_zone)
    with rules_edge("date", code="date_refused"):
        return meet_date_checks(
            number=meet.number,
            on=on,
            league_day=season.weekday,
            number_of_meets=season.number_of_meets,
            set_up=timezone.localdate(season.created_at, timezone=zone),
            first_meet=near.get(1),
            previous=near.get(meet.number - 1),
            following=near.get(meet.number + 1),
        )


def _checked_date(
    meet: m.Meet, on: datetime.date, reason: str | None, *, actor: User
) -> tuple[list[str], str]:
    """The checks `on` fails for `meet` and the official's reason for them: a date that fails
    one needs `reason` (field ``date_reason``), recorded as a Ruling ``meet_date``. Returns
    ([], "") for a plain date (a reason given then is not needed, and is not recorded)."""
    problems = _date_problems(meet, on)
    if not problems:
        return [], ""
    why = (reason or "").strip()
    if not why:
        listed = "; ".join(p.message for p in problems)
        asked = (
            f"Meet {meet.number}'s date needs a reason: {listed}. Give the reason for this "
            "date, or choose another."
        )
        raise Refusal({"date_reason": asked}, code="date_needs_reason")
    record_ruling(
        league=meet.season.league,
        official=actor,
        kind="meet_date",
        subject=f"{meet.season}, meet {meet.number}: {on.isoformat()}"[:200],
        reason=why,
        meet=meet if meet.pk else None,
    )
    return [p.check for p in problems], why


def _refuse_before_its_day(meet: m.Meet, *, given: bool) -> None:
    """A meet is played on its date: it cannot start before that day, in the league's time.

    A date `given` with the start that is ahead is the request's mistake (on ``date``); a
    scheduled meet whose day has not come is the league's state (``meet_not_today``), about
    the request as a whole, which sent no date."""
    today = timezone.localdate(timezone=ZoneInfo(meet.season.league.time_zone))
    if meet.date <= today:
        return
    if given:
        raise Refusal(
            {
                "date": f"Meet {meet.number} would be dated {_day(meet.date)}: it can start on "
                f"that day, not before (today is {_day(today)}). Give today's date to start it "
                "tonight."
            },
            code="date_after_today",
        )
    raise ConflictError(
        f"Meet {meet.number} is dated {_day(meet.date)}: it can start on that day, not "
        f"before (today is {_day(today)}). If it is played tonight, reschedule it to today "
        "first.",
        code="meet_not_today",
    )


def _check_not_scheduled(season: m.Season, number: int) -> None:
    """ConflictError naming the meet when meet `number` of `season` exists already."""
    existing = season.meets.filter(number=number).first()
    if existing is not None:
        raise ConflictError(
            {
                "number": f"Meet {number} on {existing.date.isoformat()} already exists "
                f"({existing.get_status_display().lower()})."
            },
            code="meet_already_scheduled",
        )


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


def _check_entered(meet: m.Meet, player: m.Player) -> None:
    entry = m.SeasonEntry.objects.filter(season_id=meet.season_id, player=player).first()
    if entry is None:
        raise Refusal({"player": f"{player} is not entered in {meet.season}."}, code="not_entered")
    if entry.joined_at_meet > meet.number:
        raise Refusal(
            {"player": f"{player} joins the season at meet {entry.joined_at_meet}, not before."},
            code="not_joined_yet",
        )


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


def _unfinished(meet: m.Meet) -> list[str]:
    """What keeps the meet from closing: unconfirmed games, short matches, open business."""
    problems = []
    confirmed = set(
        m.ScoreSubmission.objects.filter(
            game__group__meet=meet, confirmed_by__isnull=False
        ).values_list("game_id", flat=True)
    )
    games: dict[int, list[tuple[int, int]]] = {}
    for group_number, game_id, number in m.Game.objects.filter(group__meet=meet).values_list(
        "group__number", "id", "number"
    ):
        games.setdefault(group_number, []).append((game_id, number))
    for group_number in meet.groups.order_by("number").values_list("number", flat=True):
        mine = sorted(games.get(group_number, []), key=lambda g: g[1])
        unconfirmed = [n for game_id, n in mine if game_id not in confirmed]
        if unconfirmed:
            listed = ", ".join(str(n) for n in unconfirmed)
            problems.append(f"group {group_number} game {listed} has no confirmed scores")
        if len(mine) < GAMES_PER_MATCH:
            problems.append(
                f"group {group_number} has played {len(mine)} of {GAMES_PER_MATCH} games"
            )
    waiting = sum(len(players) for players in open_compensatory(meet).values())
    if waiting:
        problems.append(
            f"{waiting} compensatory game{'' if waiting == 1 else 's'} not recorded (R7.3-p)"
        )
    discarded = (
        m.DiscardedScore.objects.filter(game__group__meet=meet)
        .values_list("game_id", "version")
        .distinct()
    )
    counted = dict(
        m.ScoreSubmission.objects.filter(game__group__meet=meet, confirmed_by__isnull=False)
        .order_by("game_id", "version")
        .values_list("game_id", "version")
    )
    replays = sum(1 for game_id, version in discarded if counted.get(game_id) == version)
    if replays:
        problems.append(
            f"{replays} game{'' if replays == 1 else 's'} waiting for a replay of discarded "
            "scores (R7.4-c)"
        )
    pending = m.CorrectionRequest.objects.filter(
        game__group__meet=meet, status=m.CorrectionRequest.Status.PENDING
    ).count()
    if pending:
        problems.append(
            f"{pending} correction{'' if pending == 1 else 's'} waiting for the players' "
            "answers (R3-c)"
        )
    return problems
