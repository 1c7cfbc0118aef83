"""Use cases of a playoff player missing at his match's start (§6.6): a lateness notice
before it (R6.6-a), a no-show at it (R6.6-c).

Words: see `flipwell.league.services.playoff_matches.match_facts`. The *match start* is the
playoff night's start (its date at the season's start time, in the league's time zone,
R6.1-a); a *lateness notice* given before it makes the match wait for the player up to the
*delayed start* (15 minutes, R6.6-a, A59); a *no-show* is a player not present at the start
(or the delayed start): he is disqualified from the match (R6.6-c), which becomes a 3-player
round scored 4-2-1 (R6.6-d).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.models.playoffs import PlayoffNoShow
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.playoffs.facts import DivisionFacts, match_round
from flipwell.league.services._edge import league_changed, rules_edge
from flipwell.league.services._playoff_night import begin_night
from flipwell.league.services._protocol import official_write
from flipwell.league.services.playoff_matches.match_facts import (
    check_record,
    match_row,
    match_with_players,
    player_key_in_match,
)
from flipwell.rules.playoff_machines import delayed_match_start, tardiness_notice_valid
from flipwell.rules.playoff_matches import PlayoffMatchState

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def record_no_show(
    *,
    season: m.Season,
    division: str,
    match: str,
    player: m.Player,
    actor: User,
    note: str = "",
) -> PlayoffNoShow:
    """A player was not present at his match's start: he is disqualified from it (R6.6-c).

    The match becomes a 3-player round scored 4-2-1 with one player eliminated (R6.6-d;
    further cases A42), as the rules compute. Side effects: creates the PlayoffMatch if
    needed, inserts the PlayoffNoShow (who recorded it, when) and an audit event
    ``playoffs.no_show_recorded``. Raises PermissionDenied unless `actor` is a league
    official, and ValidationError (nothing written) before the match's players are known,
    after its first game started, for a player who is not in the match, or before the
    delayed start his lateness notice gave (R6.6-a, `record_playoff_lateness_notice`).
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        night, facts, div, state = match_with_players(season, division, match)
        if match in div.started:
            raise ConflictError(
                {"match": f"{match} has started; a no-show is recorded at its start (R6.6-c)."},
                code="match_already_started",
            )
        key = player_key_in_match(player, match, state, facts)
        if key in state.absent:
            raise ConflictError(
                {"player": f"{player} is already a no-show in {match}."},
                code="no_show_already_recorded",
            )
        check_record(season, div, match, lambda r: replace(r, absent=(*r.absent, key)))
        _check_waited(night, division, match, player)
        row = match_row(night, division, match)
        no_show = PlayoffNoShow.objects.create(
            match=row, player=player, note=note.strip(), recorded_by=actor
        )
        begin_night(night)
        data = {"division": division, "match": match, "player": player.pk, "note": note}
        write.event("playoffs.no_show_recorded", no_show, data)
    return no_show


@dataclass(frozen=True)
class PlayoffLateness:
    """A recorded playoff lateness notice, the match start it preceded, and the delayed start:
    the latest time the match waits for him (R6.6-a, A59)."""

    notice: m.PlayoffLatenessNotice
    start: datetime.datetime
    wait_until: datetime.datetime


def record_playoff_lateness_notice(
    *,
    season: m.Season,
    division: str,
    match: str,
    player: m.Player,
    actor: User,
    at: datetime.datetime | None = None,
) -> PlayoffLateness:
    """Record that the LO was told at `at` (default now) that `player` will be late for his
    playoff match; the match waits for him up to 15 minutes (R6.6-a, §2.2, A59).

    Valid only before the match start (`tardiness_notice_valid`): the playoff night's start
    (its date at the season's start time, in the league's time zone), and only while the match
    has not started. The delayed start (`delayed_match_start`) is returned; a no-show of him
    before it is refused (`record_no_show`).

    Side effects: creates the PlayoffMatch if needed, a PlayoffLatenessNotice, an audit event
    ``playoffs.lateness_announced``. Raises PermissionDenied unless `actor` is a league
    official; ValidationError for a notice at or after the start, a match that has started or
    whose players are not known yet, a player not in the match, or a repeat.
    """
    told = at or timezone.now()
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        night, facts, div, state = match_with_players(season, division, match)
        _check_before_start(match, div, state)
        player_key_in_match(player, match, state, facts)
        start = playoff_start(night)
        _check_notice_in_time(told, start, player)
        row = match_row(night, division, match)
        if m.PlayoffLatenessNotice.objects.filter(match=row, player=player).exists():
            raise ConflictError(
                {"player": f"{player}'s lateness notice for {match} is recorded."},
                code="lateness_already_recorded",
            )
        notice = m.PlayoffLatenessNotice.objects.create(
            match=row, player=player, notice_at=told, recorded_by=actor
        )
        ruleset = season_ruleset(season)
        wait_until = delayed_match_start(start=start, notice_at=told, ruleset=ruleset)
        data = {"division": division, "match": match, "player": player.pk}
        times = {"at": told.isoformat(), "wait_until": wait_until.isoformat()}
        write.event("playoffs.lateness_announced", notice, {**data, **times})
    return PlayoffLateness(notice=notice, start=start, wait_until=wait_until)


def _check_before_start(match: str, div: DivisionFacts, state: PlayoffMatchState) -> None:
    """A lateness notice comes before the match starts (R6.6-a): its first game or a no-show."""
    if match in div.started or state.absent:
        raise ConflictError(
            {"match": f"{match} has started: a lateness notice comes before its start (R6.6-a)."},
            code="match_already_started",
        )


def _check_notice_in_time(
    told: datetime.datetime, start: datetime.datetime, player: m.Player
) -> None:
    """Refuse a lateness notice given at `told`, not before the match's `start` (R6.6-a, §2.2:
    `tardiness_notice_valid`)."""
    with rules_edge("at", code="notice_after_start", message=str):
        valid = tardiness_notice_valid(notice_at=told, start=start)
    if not valid:
        raise Refusal(
            {
                "at": f"Too late for a lateness notice: the match starts at "
                f"{start:%Y-%m-%d %H:%M} and the notice must come before (R6.6-a, §2.2). "
                f"{player} is a no-show if not present at the start (R6.6-c)."
            },
            code="notice_after_start",
        )


def playoff_start(night: m.PlayoffNight) -> datetime.datetime:
    """The playoff night's start: its date at the season's start time, in the league's time
    zone (R6.1-a); the start of its matches for tardiness (R6.6-a, A59)."""
    season = night.season
    zone = ZoneInfo(season.league.time_zone)
    return datetime.datetime.combine(night.date, season.start_time, tzinfo=zone)


def _check_waited(night: m.PlayoffNight, division: str, match: str, player: m.Player) -> None:
    """Refuse a no-show before the delayed start his lateness notice gave (R6.6-a, A59)."""
    round_, number = match_round(match)
    notice = m.PlayoffLatenessNotice.objects.filter(
        match__playoff_night=night,
        match__division=division,
        match__round=round_,
        match__number=number,
        player=player,
    ).first()
    if notice is None:
        return
    wait_until = delayed_match_start(
        start=playoff_start(night),
        notice_at=notice.notice_at,
        ruleset=season_ruleset(night.season),
    )
    if timezone.now() < wait_until:
        local = timezone.localtime(wait_until, ZoneInfo(night.season.league.time_zone))
        raise ConflictError(
            {
                "player": f"{player} announced they would be late (R6.6-a): the match waits for "
                f"them until {local:%H:%M}; they are a no-show only if not present by then."
            },
            code="waiting_for_late_player",
        )
