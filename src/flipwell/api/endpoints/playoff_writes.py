"""Writes of the playoff night (§6), with a token of the season's league and scope *manage*:
qualification and its seed playoffs, withdrawals, each match's games, tiebreakers, no-shows
and lateness notices, and closing the night; and, with scope *scores* as on the match's own
sheet, correcting a confirmed game (R3-b..R3-d). A match is named by its division and its
name (QF1, SF2, F) as the playoffs read shows them. Each endpoint checks the token, calls one
service and renders its answer."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.arguments import (
    PLAYER,
    PLAYERS,
    by_player,
    each,
    machine_of,
    scores_of_players,
)
from flipwell.api.endpoints.params import CorrectionId, Division, MatchName, SeasonId
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.schemas.playoff_corrections import (
    PlayoffCorrectionAnswerIn,
    PlayoffCorrectionIn,
    PlayoffCorrectionOut,
)
from flipwell.api.schemas.playoffs import (
    NoShowIn,
    NoShowOut,
    PlayoffGameOut,
    PlayoffLatenessIn,
    PlayoffLatenessOut,
    PlayoffNightOut,
    PlayoffResultIn,
    QualificationOut,
    QualifyIn,
    SeedPlayoffIn,
    StartPlayoffGameIn,
    TiebreakerIn,
    TiebreakerOut,
    WithdrawalIn,
)
from flipwell.api.writing import official, write
from flipwell.league import services

MATCH = "/seasons/{season_id}/playoffs/{division}/{match}"


@router.post(
    "/seasons/{season_id}/playoffs/qualification",
    response={200: QualificationOut, **ERROR_RESPONSES},
    **WRITE,
)
def qualify_for_playoffs(request: HttpRequest, season_id: SeasonId, payload: QualifyIn) -> Any:
    """Plan the playoff night and draw its bracket from the final standings (§6.1, §6.2;
    scope: manage). Ties in the answer are settled with seed playoffs."""
    season = queries.season(season_id)
    return write(
        request,
        services.qualify_for_playoffs,
        payload,
        by=official(season.league, "manage"),
        answer=lambda qualified: qualified.qualification,
        season=season,
    )


@router.post(
    "/seasons/{season_id}/playoffs/seed-playoffs",
    response={200: QualificationOut, **ERROR_RESPONSES},
    **WRITE,
)
def record_seed_playoff(request: HttpRequest, season_id: SeasonId, payload: SeedPlayoffIn) -> Any:
    """Record the order a single-ball playoff gave players tied on season points (R6.1-e,
    A39; scope: manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.record_seed_playoff,
        payload,
        by=official(season.league, "manage"),
        lookups={"order": PLAYERS, "machine": machine_of(season.league)},
        answer=_qualification,
        season=season,
    )


@router.post(
    "/seasons/{season_id}/playoffs/withdrawals",
    response={200: QualificationOut, **ERROR_RESPONSES},
    **WRITE,
)
def record_withdrawal(request: HttpRequest, season_id: SeasonId, payload: WithdrawalIn) -> Any:
    """A qualifier announces before the playoffs that he cannot attend; those below move up
    (R6.6-b, A41; scope: manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.record_withdrawal,
        payload,
        by=official(season.league, "manage"),
        lookups={"player": PLAYER},
        answer=_qualification,
        season=season,
    )


def _qualification(recorded: Any) -> Any:
    return recorded.qualified.qualification


@router.post(f"{MATCH}/games", response={201: PlayoffGameOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def start_playoff_game(
    request: HttpRequest,
    season_id: SeasonId,
    division: Division,
    match: MatchName,
    payload: StartPlayoffGameIn,
) -> Any:
    """Start a match's next game (§6.4; scope: manage): game 1's machine is drawn, games 2
    and 3 take the chooser's machine."""
    season = queries.season(season_id)
    return write(
        request,
        services.start_playoff_game,
        payload,
        by=official(season.league, "manage"),
        lookups={"machine": machine_of(season.league)},
        location=f"/api/v1/seasons/{season_id}/playoffs",
        season=season,
        division=division,
        match=match,
    )


@router.post(
    f"{MATCH}/games/current/result", response={200: PlayoffGameOut, **ERROR_RESPONSES}, **WRITE
)
def record_playoff_game(
    request: HttpRequest,
    season_id: SeasonId,
    division: Division,
    match: MatchName,
    payload: PlayoffResultIn,
) -> Any:
    """Record the result of the match's game in progress: a finishing order, or scores with
    tie orders (R6.3-a..c, A54, R3.2-i; scope: manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.record_playoff_game,
        payload,
        by=official(season.league, "manage"),
        lookups={"order": PLAYERS, "scores": scores_of_players, "tie_orders": each(PLAYERS)},
        season=season,
        division=division,
        match=match,
    )


@router.post(f"{MATCH}/tiebreakers", response={201: TiebreakerOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def record_playoff_tiebreaker(
    request: HttpRequest,
    season_id: SeasonId,
    division: Division,
    match: MatchName,
    payload: TiebreakerIn,
) -> Any:
    """Record a tiebreaker game's order for a match's tied players (R6.5-a, A40; scope:
    manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.record_playoff_tiebreaker,
        payload,
        by=official(season.league, "manage"),
        lookups={"order": PLAYERS, "machine": machine_of(season.league)},
        location=f"/api/v1/seasons/{season_id}/playoffs",
        season=season,
        division=division,
        match=match,
    )


@router.post(f"{MATCH}/no-shows", response={201: NoShowOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def record_no_show(
    request: HttpRequest,
    season_id: SeasonId,
    division: Division,
    match: MatchName,
    payload: NoShowIn,
) -> Any:
    """A player was not present at his match's start: disqualified from it (R6.6-c, R6.6-d;
    scope: manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.record_no_show,
        payload,
        by=official(season.league, "manage"),
        lookups={"player": PLAYER},
        location=f"/api/v1/seasons/{season_id}/playoffs",
        season=season,
        division=division,
        match=match,
    )


@router.post(
    f"{MATCH}/lateness-notices", response={201: PlayoffLatenessOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_playoff_lateness_notice(
    request: HttpRequest,
    season_id: SeasonId,
    division: Division,
    match: MatchName,
    payload: PlayoffLatenessIn,
) -> Any:
    """Record that the LO was told a player will be late for his match: it waits up to 15
    minutes (R6.6-a, A59; scope: manage). Only before the match start."""
    season = queries.season(season_id)
    return write(
        request,
        services.record_playoff_lateness_notice,
        payload,
        by=official(season.league, "manage"),
        lookups={"player": PLAYER},
        location=f"/api/v1/seasons/{season_id}/playoffs",
        season=season,
        division=division,
        match=match,
    )


@router.post(
    "/seasons/{season_id}/playoffs/close",
    response={200: PlayoffNightOut, **ERROR_RESPONSES},
    **WRITE,
)
def close_playoff_night(request: HttpRequest, season_id: SeasonId) -> Any:
    """Close the playoff night once every division's final is complete (R6.1-a; scope:
    manage)."""
    season = queries.season(season_id)
    by = official(season.league, "manage")
    return write(request, services.close_playoff_night, by=by, season=season)


@router.post(
    f"{MATCH}/corrections", response={201: PlayoffCorrectionOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def request_playoff_correction(
    request: HttpRequest,
    season_id: SeasonId,
    division: Division,
    match: MatchName,
    payload: PlayoffCorrectionIn,
) -> Any:
    """A present player of the match claims other machine scores for a confirmed game (R3-b;
    scope: scores, as on the match's sheet): every other present player then answers it
    (R3-c); applied at once when nobody else is asked. 409 ``correction_pending`` while a
    correction of the game waits; 422 for nothing changed or scores the rules refuse."""
    season = queries.season(season_id)
    return write(
        request,
        services.request_playoff_correction,
        payload,
        by=official(season.league, "scores"),
        lookups={"requested_by": PLAYER, "scores": by_player("machine_score")},
        location=f"/api/v1/seasons/{season_id}/playoffs",
        season=season,
        division=division,
        match=match,
    )


@router.post(
    "/playoff-corrections/{correction_id}/answers",
    response={200: PlayoffCorrectionOut, **ERROR_RESPONSES},
    **WRITE,
)
def answer_playoff_correction(
    request: HttpRequest, correction_id: CorrectionId, payload: PlayoffCorrectionAnswerIn
) -> Any:
    """A present player of the match agrees or disagrees with a correction (R3-c; scope:
    scores): applied when all agreed, refused at the first disagreement (R3-d). 409
    ``already_answered`` for a second answer; 409 once it is decided."""
    sheet = queries.playoff_correction(correction_id)
    return write(
        request,
        services.answer_playoff_correction,
        payload,
        by=official(sheet.match.playoff_night.season.league, "scores"),
        lookups={"player": PLAYER},
        sheet=sheet,
    )
