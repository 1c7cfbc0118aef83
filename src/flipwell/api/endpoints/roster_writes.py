"""The roster as an official keeps it, with a token of the season's league and scope
*manage*: correcting a player's name or IFPA number, the players' personal links (list,
issue, reissue, revoke), refreshing the IFPA ranks from a roster CSV before week 1, and
starting the next season from this one. Each endpoint looks up what the request names, checks
the token, calls the console's service and renders its answer.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.arguments import PLAYERS
from flipwell.api.auth import acting_official
from flipwell.api.endpoints.params import Cursor, Limit, PlayerId, SeasonId
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.paging import page_of_queryset
from flipwell.api.schemas.leagues import SeasonOut
from flipwell.api.schemas.roster import (
    EditPlayerIn,
    IssuedLinksOut,
    NextSeasonIn,
    PlayerLinkOut,
    PlayerLinkPage,
    PlayerOut,
    RankRefreshIn,
    RankRefreshOut,
)
from flipwell.api.writing import after_check, official, write
from flipwell.league import services

LINKS = "/seasons/{season_id}/player-links"
LINK = "/seasons/{season_id}/players/{player_id}/link"


@router.put(
    "/seasons/{season_id}/players/{player_id}",
    response={200: PlayerOut, **ERROR_RESPONSES},
    **WRITE,
)
def edit_player(
    request: HttpRequest, season_id: SeasonId, player_id: PlayerId, payload: EditPlayerIn
) -> Any:
    """Correct the name or IFPA number of a player of the season's roster (scope: manage).
    Every league he plays in shows the change, so the token's official must be an official
    of each (403 otherwise); 422 on ``ifpa_number`` for another player's number."""
    season = queries.season(season_id)
    return write(
        request,
        services.edit_player,
        payload,
        by=official(season.league, "manage"),
        season=season,
        player=after_check(queries.season_player, season, player_id),
    )


@router.get(LINKS, response={200: PlayerLinkPage, **ERROR_RESPONSES}, **WRITE)
def list_player_links(
    request: HttpRequest, season_id: SeasonId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The season's live personal links, one per player who has one (scope: manage: a link
    lets its holder act as the player, so only the officials who issue them read them)."""
    season = queries.season(season_id)
    acting_official(request, league=season.league, scope="manage")
    rows = queries.player_links(season)
    items, next_url = page_of_queryset(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.post(LINKS, response={201: IssuedLinksOut, **ERROR_RESPONSES}, **WRITE)
def issue_player_links(request: HttpRequest, season_id: SeasonId) -> Any:
    """Issue a personal link to every player of the roster who has none (scope: manage); a
    link already live keeps working. Answers the links issued (none on a repeat)."""
    season = queries.season(season_id)
    return write(
        request,
        services.issue_player_links,
        by=official(season.league, "manage"),
        answer=lambda issued: {"issued": issued},
        location=f"/api/v1/seasons/{season_id}/player-links",
        season=season,
    )


@router.post(LINK, response={201: PlayerLinkOut, **ERROR_RESPONSES}, **WRITE)
@key_required  # a reissue sent twice would revoke the link the first one gave
def issue_player_link(request: HttpRequest, season_id: SeasonId, player_id: PlayerId) -> Any:
    """Issue a player's personal link for the season, revoking the one he had (a reissue
    keeps the email address he gave; scope: manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.issue_player_link,
        by=official(season.league, "manage"),
        location=f"/api/v1/seasons/{season_id}/player-links",
        season=season,
        player=after_check(queries.season_player, season, player_id),
    )


@router.delete(LINK, response={200: PlayerLinkOut, **ERROR_RESPONSES}, **WRITE)
def revoke_player_link(request: HttpRequest, season_id: SeasonId, player_id: PlayerId) -> Any:
    """Revoke a player's live personal link: it no longer works (scope: manage). 404 when he
    has none."""
    season = queries.season(season_id)
    return write(
        request,
        services.revoke_player_link,
        by=official(season.league, "manage"),
        link=after_check(queries.live_player_link, season, player_id),
    )


@router.post(
    "/seasons/{season_id}/ifpa-ranks", response={200: RankRefreshOut, **ERROR_RESPONSES}, **WRITE
)
def refresh_ifpa_ranks(request: HttpRequest, season_id: SeasonId, payload: RankRefreshIn) -> Any:
    """Set the IFPA rank at the season's start of every player a roster CSV lists, before
    week 1 is seeded by them (R3.1-b, R4.3-a; scope: manage). All or nothing: a bad line, or
    one naming nobody of the season, is a 422 (fields 'line N, column'); 409
    ``season_started`` once a meet has started."""
    season = queries.season(season_id)
    by = official(season.league, "manage")
    return write(request, services.refresh_ifpa_ranks, payload, by=by, season=season)


@router.post(
    "/seasons/{season_id}/next-season", response={201: SeasonOut, **ERROR_RESPONSES}, **WRITE
)
def start_next_season(request: HttpRequest, season_id: SeasonId, payload: NextSeasonIn) -> Any:
    """Create the next season from this one (scope: manage): its schedule and dues, and every
    player entered again (but those left out) with his IFPA rank at this season's start, all
    joining at meet 1 (R3.1-b). 422 on ``name`` for a name the league has used."""
    season = queries.season(season_id)
    return write(
        request,
        services.start_next_season,
        payload,
        by=official(season.league, "manage"),
        lookups={"leave_out": PLAYERS},
        answer=lambda new: queries.season_with_state(new.pk),
        location=lambda new: f"/api/v1/seasons/{new.pk}",
        season=season,
    )
