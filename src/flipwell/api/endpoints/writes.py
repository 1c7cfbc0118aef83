"""Writes, with an API token (``Authorization: Bearer fw_...``) of the league concerned.

Each endpoint looks up what the request names, checks the token's league and scope, calls one
service and renders its result. A token of another league gets 403; the services refuse what
the rules refuse (422) and what lost a race (409).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.arguments import PLAYER, SEASON, by_player
from flipwell.api.auth import TokenAuth, acting_official
from flipwell.api.endpoints.params import GameId, MeetId, SeasonId, Slug, SubmissionId
from flipwell.api.endpoints.public import router
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_in_body, key_required, mark_replayed
from flipwell.api.schemas.incidents import ForfeitIn, ForfeitOut
from flipwell.api.schemas.ledger import LedgerEntryOut, LedgerIn, TreasuryOut
from flipwell.api.schemas.meets import ClosedOut, CloseMeetIn, StartedOut, StartMeetIn
from flipwell.api.schemas.players import EntryOut, ImportedOut, ImportIn, RegisterIn
from flipwell.api.schemas.sheets import ConfirmIn, SubmissionOut, SubmitScoresIn, SubmittedOut
from flipwell.api.writing import official, write
from flipwell.league import services
from flipwell.league.exchange.for_other_programs import import_roster
from flipwell.league.selectors.treasury import treasury

# One router with the public reads: ninja serves two methods of one path only from one router.
TOKEN = TokenAuth()
WRITE: dict[str, Any] = {"auth": TOKEN, "tags": ["with a token"]}


@router.post(
    "/games/{game_id}/scores",
    response={201: SubmittedOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_in_body("idempotency_key")
def submit_scores(request: HttpRequest, game_id: GameId, payload: SubmitScoresIn) -> Any:
    """Enter a game's score sheet (scope: scores). 201 when stored; a retry with the same
    sheet and key (the body's `idempotency_key`, or the Idempotency-Key header) gets the
    first answer again, with `Idempotent-Replayed: true`, and writes nothing."""
    game = queries.game(game_id)
    return write(
        request,
        services.submit_scores,
        payload,
        by=official(game.group.meet.season.league, "scores"),
        lookups={"entered_by": PLAYER, "scores": by_player("machine_score")},
        answer=partial(_marked, request),
        location=f"/api/v1/games/{game.pk}",
        game=game,
        submitter=f"token:{request.auth.pk}",  # type: ignore[attr-defined]
    )


def _marked(request: HttpRequest, result: Any) -> Any:
    """A sheet's answer, marked replayed when the service recognised a retry whose first
    answer is no longer kept: it answers as it did."""
    if result.replayed:
        mark_replayed(request)
    return result


@router.post(
    "/submissions/{submission_id}/confirm",
    response={200: SubmissionOut, **ERROR_RESPONSES},
    **WRITE,
)
def confirm_scores(request: HttpRequest, submission_id: SubmissionId, payload: ConfirmIn) -> Any:
    """Another player of the group confirms an entered sheet (R3-a; scope: scores). A second
    confirmation of the game is a 409."""
    submission = queries.submission(submission_id)
    return write(
        request,
        services.confirm_scores,
        payload,
        by=official(submission.game.group.meet.season.league, "scores"),
        lookups={"confirmed_by": PLAYER},
        submission=submission,
    )


@router.post("/games/{game_id}/forfeits", response={201: ForfeitOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def record_forfeit(request: HttpRequest, game_id: GameId, payload: ForfeitIn) -> Any:
    """Record a player's forfeit of a game (§2.4; scope: scores)."""
    game = queries.game(game_id)
    return write(
        request,
        services.record_forfeit,
        payload,
        by=official(game.group.meet.season.league, "scores"),
        lookups={"player": PLAYER},
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


@router.post(
    "/seasons/{season_id}/meets/start", response={201: StartedOut, **ERROR_RESPONSES}, **WRITE
)
def start_meet(request: HttpRequest, season_id: SeasonId, payload: StartMeetIn) -> Any:
    """Start a meet: ladder, groups, first machines drawn (§4, §5; scope: manage). 201, its
    ``Location`` the meet, as every write that makes something (here the night's groups)."""
    season = queries.season(season_id)
    return write(
        request,
        services.start_meet,
        payload,
        by=official(season.league, "manage"),
        location=lambda started: f"/api/v1/meets/{started.meet.pk}",
        season=season,
    )


@router.post("/meets/{meet_id}/close", response={200: ClosedOut, **ERROR_RESPONSES}, **WRITE)
def close_meet(request: HttpRequest, meet_id: MeetId, payload: CloseMeetIn) -> Any:
    """Close an open meet (§3.3; scope: manage); unfinished business needs an override."""
    meet = queries.meet(meet_id)
    by = official(meet.season.league, "manage")
    return write(request, services.close_meet, payload, by=by, meet=meet)


@router.post("/seasons/{season_id}/players", response={201: EntryOut, **ERROR_RESPONSES}, **WRITE)
def register_player(request: HttpRequest, season_id: SeasonId, payload: RegisterIn) -> Any:
    """Enter a player in a season (scope: manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.register_player,
        payload,
        by=official(season.league, "manage"),
        location=lambda entry: f"/api/v1/seasons/{season_id}/players/{entry.player_id}/history",
        season=season,
    )


@router.post(
    "/seasons/{season_id}/players/import", response={201: ImportedOut, **ERROR_RESPONSES}, **WRITE
)
def import_players(request: HttpRequest, season_id: SeasonId, payload: ImportIn) -> Any:
    """Enter every player of a roster CSV (header first_name,last_name,ifpa_number,ifpa_rank;
    scope: manage). All or nothing: every bad line is reported (422, fields 'line N, column')
    and nothing is written."""
    season = queries.season(season_id)
    return write(
        request,
        import_roster,
        payload,
        by=official(season.league, "manage"),
        answer=lambda result: {
            "entries": result.entries,
            "created_players": [p.pk for p in result.created_players],
        },
        location=f"/api/v1/seasons/{season_id}/players",
        season=season,
    )


@router.post("/leagues/{slug}/ledger", response={201: LedgerEntryOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def record_ledger_entry(request: HttpRequest, slug: Slug, payload: LedgerIn) -> Any:
    """Append a money movement to the league's ledger (§9; scope: manage)."""
    league = queries.league(slug)
    return write(
        request,
        services.record_ledger_entry,
        payload,
        by=official(league, "manage"),
        lookups={"season": SEASON, "player": PLAYER},
        location=f"/api/v1/leagues/{slug}/treasury",
        league=league,
    )


@router.get("/leagues/{slug}/treasury", response={200: TreasuryOut, **ERROR_RESPONSES}, **WRITE)
def get_treasury(request: HttpRequest, slug: Slug) -> Any:
    """The league's balances and every ledger entry (§9; scope: read_private)."""
    league = queries.league(slug)
    acting_official(request, league=league, scope="read_private")
    return treasury(league)
