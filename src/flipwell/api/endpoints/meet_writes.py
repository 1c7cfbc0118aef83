"""Writes of a league night, with a token of the meet's league: scheduling meets and the
notices before them, the next machine, a player's absence for the rest of his match, and
score corrections. The night's incidents are in `flipwell.api.endpoints.night_incidents`.

Scope *scores* for the score sheet's own steps (choosing the next machine, corrections and
their answers); *manage* for the official's records. Each endpoint looks up what the request
names and hands it to `flipwell.api.writing.write`: the token checked, one service called,
its answer rendered.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.arguments import PLAYER, PLAYERS, by_player, machine_of
from flipwell.api.endpoints.params import (
    CorrectionId,
    GameId,
    GroupId,
    MeetId,
    SeasonId,
)
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.schemas.corrections import (
    CorrectionAnswerIn,
    CorrectionIn,
    CorrectionOut,
    CorrectionOutcomeOut,
)
from flipwell.api.schemas.meets import (
    AbsenceIn,
    AbsenceOut,
    CancelledMeetOut,
    CancelMeetIn,
    ChooseMachineIn,
    LatenessIn,
    LatenessOut,
    MatchAbsenceIn,
    MatchAbsenceOut,
    MeetOut,
    NextGameOut,
    OfficialMachineIn,
    RescheduleMeetIn,
    ScheduleMeetIn,
)
from flipwell.api.writing import game_league, meet_league, official, write
from flipwell.league import services

OVERRIDE = "override a closed meet (override_reason is a league official's decision, A45.2)"


# --- meets ----------------------------------------------------------------------------------


@router.post("/seasons/{season_id}/meets", response={201: MeetOut, **ERROR_RESPONSES}, **WRITE)
def schedule_meet(request: HttpRequest, season_id: SeasonId, payload: ScheduleMeetIn) -> Any:
    """Schedule a meet of the season on a date (planned), so notices can be recorded before
    it (scope: manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.schedule_meet,
        payload,
        by=official(season.league, "manage"),
        location=lambda meet: f"/api/v1/meets/{meet.pk}",
        season=season,
    )


@router.post("/meets/{meet_id}/reschedule", response={200: MeetOut, **ERROR_RESPONSES}, **WRITE)
def reschedule_meet(request: HttpRequest, meet_id: MeetId, payload: RescheduleMeetIn) -> Any:
    """Move a meet not yet started to another date, saying why (R2-a; scope: manage)."""
    meet = queries.meet(meet_id)
    by = official(meet_league(meet), "manage")
    return write(request, services.reschedule_meet, payload, by=by, meet=meet)


@router.post(
    "/meets/{meet_id}/cancel", response={200: CancelledMeetOut, **ERROR_RESPONSES}, **WRITE
)
def cancel_meet(request: HttpRequest, meet_id: MeetId, payload: CancelMeetIn) -> Any:
    """Cancel a meet not yet started, saying why: it is not played, the later planned meets
    move down one number (scope: manage)."""
    meet = queries.meet(meet_id)
    by = official(meet_league(meet), "manage")
    return write(request, services.cancel_meet, payload, by=by, meet=meet)


@router.post("/meets/{meet_id}/absences", response={201: AbsenceOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def announce_absence(request: HttpRequest, meet_id: MeetId, payload: AbsenceIn) -> Any:
    """Record that the LO was told a player will miss the meet (R2-b, R3.1-d); only before it
    starts (scope: manage)."""
    meet = queries.meet(meet_id)
    return write(
        request,
        services.announce_absence,
        payload,
        by=official(meet_league(meet), "manage"),
        lookups={"player": PLAYER},
        location=f"/api/v1/meets/{meet.pk}",
        meet=meet,
    )


@router.post(
    "/meets/{meet_id}/lateness-notices", response={201: LatenessOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def announce_lateness(request: HttpRequest, meet_id: MeetId, payload: LatenessIn) -> Any:
    """Record that the LO was told a player will be late (R2.2-a); the group waits until
    wait_until (A59). A notice told after the start time is recorded but not announced: the
    group does not wait (R2.3-a). Until the meet closes (scope: manage)."""
    meet = queries.meet(meet_id)
    return write(
        request,
        services.announce_lateness,
        payload,
        by=official(meet_league(meet), "manage"),
        lookups={"player": PLAYER},
        answer=lambda announced: announced.tardiness,
        location=f"/api/v1/meets/{meet.pk}",
        meet=meet,
    )


@router.post(
    "/groups/{group_id}/next-game", response={201: NextGameOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def choose_next_machine(request: HttpRequest, group_id: GroupId, payload: ChooseMachineIn) -> Any:
    """The picker chooses the machine of his group's next game (§5; scope: scores). Exactly
    the machines GET /groups/{id}/allowed-machines lists as allowed are accepted; another is a
    422 on `machine` with its listed refusal and the allowed ones."""
    group = queries.group(group_id)
    league = group.meet.season.league
    return write(
        request,
        services.choose_next_machine,
        payload,
        by=official(league, "scores"),
        lookups={"machine": machine_of(league), "chosen_by": PLAYER},
        location=_chosen_game,
        group=group,
    )


def _chosen_game(chosen: Any) -> str:
    return f"/api/v1/games/{chosen.game.pk}"


@router.post(
    "/groups/{group_id}/next-game/by-official",
    response={201: NextGameOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def official_chooses_next_machine(
    request: HttpRequest, group_id: GroupId, payload: OfficialMachineIn
) -> Any:
    """The official chooses or draws the machine of a group's next game when nobody played
    the previous one, so no player may pick (R5-c, A66; scope: manage). While a player may
    pick it is a 409 (``player_picks``)."""
    group = queries.group(group_id)
    league = group.meet.season.league
    return write(
        request,
        services.official_chooses_next_machine,
        payload,
        by=official(league, "manage"),
        lookups={"machine": machine_of(league)},
        location=_chosen_game,
        group=group,
    )


@router.post(
    "/groups/{group_id}/absence", response={201: MatchAbsenceOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_match_absence(request: HttpRequest, group_id: GroupId, payload: MatchAbsenceIn) -> Any:
    """Record players absent for the rest of their match (R2.4-a; scope: manage): from
    `from_game` (default: the first game without confirmed scores) every game of the match
    is their forfeit, countable toward the season forfeit (§2.5), and a score for them on
    those games is refused (422). For the whole group, its remaining machines are drawn (A66)
    and the match is complete."""
    group = queries.group(group_id)
    return write(
        request,
        services.record_match_absence,
        payload,
        by=official(group.meet.season.league, "manage"),
        lookups={"players": PLAYERS},
        location=f"/api/v1/meets/{group.meet_id}",
        group=group,
    )


# --- corrections ----------------------------------------------------------------------------


@router.post(
    "/games/{game_id}/corrections", response={201: CorrectionOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def request_correction(request: HttpRequest, game_id: GameId, payload: CorrectionIn) -> Any:
    """Report a scoring error in a confirmed game (R3-b; scope: scores): the players of the
    quorum then answer it. After the meet is closed it needs override_reason (A45.2), an
    official's override: scope manage, from a token of a league official."""
    game = queries.game(game_id)
    if (payload.override_reason or "").strip():
        by = official(game_league(game), "manage", doing=OVERRIDE)
    else:
        by = official(game_league(game), "scores")
    return write(
        request,
        services.request_correction,
        payload,
        by=by,
        lookups={"requested_by": PLAYER, "scores": by_player("machine_score")},
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


@router.post(
    "/corrections/{correction_id}/answers",
    response={200: CorrectionOutcomeOut, **ERROR_RESPONSES},
    **WRITE,
)
def respond_to_correction(
    request: HttpRequest, correction_id: CorrectionId, payload: CorrectionAnswerIn
) -> Any:
    """One player's answer to a correction request (R3-c, R3-d; scope: scores): when all
    agree it is applied, one disagreement refuses it."""
    correction = queries.correction(correction_id)
    return write(
        request,
        services.respond_to_correction,
        payload,
        by=official(game_league(correction.game), "scores"),
        lookups={"player": PLAYER},
        answer=lambda answered: answered.outcome,
        request=correction,
    )
