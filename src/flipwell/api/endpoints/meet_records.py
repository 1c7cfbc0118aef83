"""A meet's records read back, with a token of the meet's league: its forfeits, malfunctions,
compensatory games (scope *scores*: the facts of play a score keeper's client needs beside the
board), its violations with their penalties and the officials' rulings about its games (scope
*read_private*: disciplinary records, the league officials' own).

Each row names who recorded it and why, which the public reads never show (no official's name,
no official's notes), so none of these lists is public; the board (``GET /meets/{id}``) shows
their effects to everyone. A token of another league is refused (403) as on every token
read. Each endpoint checks the token, calls one selector and answers one page of it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.auth import acting_official
from flipwell.api.endpoints.params import Cursor, Limit, MeetId
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.paging import page_of_queryset, page_of_sequence
from flipwell.api.schemas.meet_records import (
    CompensatoryRecordPage,
    ForfeitRecordPage,
    MalfunctionRecordPage,
    RulingRecordPage,
    ViolationRecordPage,
)
from flipwell.league import models as m
from flipwell.league.selectors import meet_records
from flipwell.league.services.tokens import Scope


def _meet(request: HttpRequest, meet_id: int, scope: Scope) -> m.Meet:
    """The meet the path names (404 when none), once the token may read it with `scope`."""
    meet = queries.meet(meet_id)
    acting_official(request, league=meet.season.league, scope=scope)
    return meet


@router.get(
    "/meets/{meet_id}/forfeits", response={200: ForfeitRecordPage, **ERROR_RESPONSES}, **WRITE
)
def list_meet_forfeits(
    request: HttpRequest, meet_id: MeetId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """Every forfeit of the meet's games (§2.4), by group, game and player: those recorded
    (``POST /games/{id}/forfeits``), those of a score sheet's forfeit box, and those that
    follow from an absence for the rest of the match (R2.4-a) (scope: scores)."""
    meet = _meet(request, meet_id, "scores")
    rows = meet_records.forfeit_records(meet)
    items, next_url = page_of_sequence(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get(
    "/meets/{meet_id}/malfunctions",
    response={200: MalfunctionRecordPage, **ERROR_RESPONSES},
    **WRITE,
)
def list_meet_malfunctions(
    request: HttpRequest, meet_id: MeetId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The malfunctions recorded at the meet (§7.3, §7.4), in the order they were recorded
    (scope: scores)."""
    meet = _meet(request, meet_id, "scores")
    rows = meet_records.malfunction_records(meet)
    items, next_url = page_of_queryset(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get(
    "/meets/{meet_id}/compensatory-games",
    response={200: CompensatoryRecordPage, **ERROR_RESPONSES},
    **WRITE,
)
def list_meet_compensatory_games(
    request: HttpRequest, meet_id: MeetId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The compensatory games granted or played at the meet (R7.3-k..o), by group, game and
    player, each with the score that counts as the season fold decides it (scope: scores)."""
    meet = _meet(request, meet_id, "scores")
    rows = meet_records.compensatory_records(meet)
    items, next_url = page_of_sequence(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get(
    "/meets/{meet_id}/violations", response={200: ViolationRecordPage, **ERROR_RESPONSES}, **WRITE
)
def list_meet_violations(
    request: HttpRequest, meet_id: MeetId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The violations recorded at the meet (§8), in the order they were recorded, each with
    its §8.5 penalty as the season fold decides it now (scope: read_private)."""
    meet = _meet(request, meet_id, "read_private")
    rows = meet_records.violation_records(meet)
    items, next_url = page_of_sequence(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get(
    "/meets/{meet_id}/rulings", response={200: RulingRecordPage, **ERROR_RESPONSES}, **WRITE
)
def list_meet_rulings(
    request: HttpRequest, meet_id: MeetId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The officials' rulings about a game of the meet (R1.1-b): rulings about a player's
    turn, a malfunction's ruling, a forfeit made not countable, a violation ruled accidental,
    a compensatory game's subtraction, a late correction, a positive malfunction's replay;
    in the order they were recorded (scope: read_private)."""
    meet = _meet(request, meet_id, "read_private")
    rows = meet_records.ruling_records(meet)
    items, next_url = page_of_queryset(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}
