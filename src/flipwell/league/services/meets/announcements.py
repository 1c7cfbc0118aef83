"""What the LO is told before a meet: a player's absence (R2-b, R3.1-d) or lateness
(R2.2-a), and its withdrawal.

None of them changes a number: the fold reads a meet's announced absences only once the meet
has started (they leave a player out of its groups, R3.1-d: that start folds), and a lateness
notice never (the group waits, A59). So these writes name no season and never fold
(`flipwell.league.services._protocol`); the console's attendance and the player's pages show
them, so the league gets a new revision (`league_changed`).

Words:
- an *announcement* is an absence or a lateness notice (`ANNOUNCEMENTS`), told by the player
  to the LO or through their personal link (`flipwell.league.services.player_links`: the same
  checks, fact and audit event, in the link's own write).
- *tardiness*: what the rules make of a lateness notice (`announced_tardiness`): told before
  the *scheduled start* (the meet's date at the season's start time in the league's time
  zone), the group waits until `wait_until` at the latest (A59).
"""

from __future__ import annotations

import copy
import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.audit import record_event
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.meet_times import scheduled_start
from flipwell.league.services._edge import league_changed, rules_edge
from flipwell.league.services._protocol import official_write
from flipwell.rules import AnnouncedTardiness, Ruleset, announced_tardiness

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def announce_absence(*, meet: m.Meet, player: m.Player, actor: User) -> m.AnnouncedAbsence:
    """Record that the LO was told `player` will miss `meet` (R2-b, R3.1-d).

    Only before the meet starts: announced absentees are removed before grouping (R3.1-d);
    once the groups are drawn an absence is unannounced, and the player keeps his slot and
    forfeits (R3.1-e). Side effects: an AnnouncedAbsence and an audit event
    ``meet.absence_announced``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError when the meet has started, the player is not entered for this meet, or
    his absence is already recorded.
    """
    with official_write(
        league=meet.season.league, actor=actor, action="record an absence"
    ) as write:
        meet = m.Meet.objects.select_for_update().get(pk=meet.pk)
        absence, data = _absence(meet=meet, player=player, actor=actor)
        write.event("meet.absence_announced", absence, data)
        league_changed(meet.season.league_id)  # the attendance and the player's pages
    return absence


def _record_absence(
    *,
    meet: m.Meet,
    player: m.Player,
    actor: User | None,
    link: m.PlayerLink | None = None,
    received_at: datetime.datetime | None = None,
) -> m.AnnouncedAbsence:
    """`announce_absence` for a caller that already locked `meet`, checked who may tell it
    and writes its own transaction: the player through their personal link (`link`,
    `flipwell.league.services.player_links`). Same checks, fact and audit event."""
    absence, data = _absence(
        meet=meet, player=player, actor=actor, link=link, received_at=received_at
    )
    record_event(
        action="meet.absence_announced",
        obj=absence,
        league=meet.season.league,
        actor=actor,
        data=data,
    )
    league_changed(meet.season.league_id)
    return absence


def _absence(
    *,
    meet: m.Meet,
    player: m.Player,
    actor: User | None,
    link: m.PlayerLink | None = None,
    received_at: datetime.datetime | None = None,
) -> tuple[m.AnnouncedAbsence, dict[str, Any]]:
    """The announced absence of `player` from locked `meet`, stored, and its audit data;
    refused once the meet has started (R3.1-d, R3.1-e), for a player not entered or a
    repeat."""
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
    data = {"meet": meet.pk, "player": player.pk} | _link_data(link)
    return absence, data


def _link_data(link: m.PlayerLink | None) -> dict[str, Any]:
    """The audit data naming the player's link a notice came through, if it did."""
    return {"player_link": link.pk} if link is not None else {}


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
    with official_write(
        league=meet.season.league, actor=actor, action="record a lateness notice"
    ) as write:
        meet = m.Meet.objects.select_for_update().get(pk=meet.pk)
        if told > now:
            raise Refusal(
                {"at": "A notice is recorded once it came: the time it came is in the future."},
                code="notice_in_future",
            )
        lateness, data = _lateness(meet=meet, player=player, told=told, actor=actor)
        write.event("meet.lateness_announced", lateness.notice, data)
        league_changed(meet.season.league_id)
    return lateness


def _record_lateness(
    *,
    meet: m.Meet,
    player: m.Player,
    told: datetime.datetime,
    actor: User | None,
    link: m.PlayerLink | None = None,
) -> AnnouncedLateness:
    """`announce_lateness` for a caller that already locked `meet`, checked who may tell it
    and writes its own transaction: the player through their personal link (`link`,
    `flipwell.league.services.player_links`). Same checks, fact and audit event."""
    lateness, data = _lateness(meet=meet, player=player, told=told, actor=actor, link=link)
    record_event(
        action="meet.lateness_announced",
        obj=lateness.notice,
        league=meet.season.league,
        actor=actor,
        data=data,
    )
    league_changed(meet.season.league_id)
    return lateness


def _lateness(
    *,
    meet: m.Meet,
    player: m.Player,
    told: datetime.datetime,
    actor: User | None,
    link: m.PlayerLink | None = None,
) -> tuple[AnnouncedLateness, dict[str, Any]]:
    """The lateness notice of `player` for locked `meet`, told at `told`, stored with the
    rules' tardiness, and its audit data; refused once the meet is closed, for a player not
    entered or a repeat."""
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
    wait_until = tardiness.wait_until.isoformat() if tardiness.wait_until else None
    data = {
        "meet": meet.pk,
        "player": player.pk,
        "at": told.isoformat(),
        "announced": tardiness.announced,
        "wait_until": wait_until,
    } | _link_data(link)
    return AnnouncedLateness(notice=notice, tardiness=tardiness), data


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
    with official_write(
        league=meet.season.league, actor=actor, action="withdraw an announcement"
    ) as write:
        meet = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        row, data = _withdrawn(meet=meet, player=player, kind=kind)
        write.event(f"meet.{kind}_withdrawn", copy.copy(row), data)
        row.delete()  # the event's copy keeps the row's id, which delete() clears
        league_changed(meet.season.league_id)
    return row


def _withdraw(
    *,
    meet: m.Meet,
    player: m.Player,
    kind: str,
    actor: User | None,
    link: m.PlayerLink | None = None,
) -> m.AnnouncedAbsence | m.LatenessNotice:
    """`withdraw_announcement` for a caller that locked `meet`, checked who withdraws and
    writes its own transaction: the player through their link (`link`)."""
    row, data = _withdrawn(meet=meet, player=player, kind=kind, link=link)
    record_event(
        action=f"meet.{kind}_withdrawn",
        obj=row,
        league=meet.season.league,
        actor=actor,
        data=data,
    )
    row.delete()
    league_changed(meet.season.league_id)
    return row


def _withdrawn(
    *, meet: m.Meet, player: m.Player, kind: str, link: m.PlayerLink | None = None
) -> tuple[m.AnnouncedAbsence | m.LatenessNotice, dict[str, Any]]:
    """`player`'s announcement of `kind` for locked `meet`, to withdraw, and the audit data of
    its withdrawal; refused for an unknown kind, a started meet or nothing announced."""
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
    data = {
        "meet": meet.pk,
        "player": player.pk,
        "told_at": row.recorded_at.isoformat(),
        "told_through_link": row.player_link_id,
    } | _link_data(link)
    return row, data


def _ruleset(meet: m.Meet) -> Ruleset:
    with rules_edge(code="season_facts_refused"):
        return season_ruleset(meet.season)


def _check_entered(meet: m.Meet, player: m.Player) -> None:
    entry = m.SeasonEntry.objects.filter(season_id=meet.season_id, player=player).first()
    if entry is None:
        raise Refusal({"player": f"{player} is not entered in {meet.season}."}, code="not_entered")
    if entry.joined_at_meet > meet.number:
        raise Refusal(
            {"player": f"{player} joins the season at meet {entry.joined_at_meet}, not before."},
            code="not_joined_yet",
        )
