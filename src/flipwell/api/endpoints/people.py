"""A person across seasons: statistics and the league's high scores (public), and
merging two player rows that are one person, or undoing it (a token of the league with scope
*manage*). Each endpoint calls one selector or service and renders its answer."""

from __future__ import annotations

from typing import Annotated, Any

from django.http import Http404, HttpRequest
from ninja import Path
from ninja.decorators import decorate_view

from flipwell.api import queries
from flipwell.api.arguments import PLAYER
from flipwell.api.endpoints.params import Cursor, Limit, PlayerId, Slug
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.paging import page_of_sequence
from flipwell.api.schemas.common import MAX_ID
from flipwell.api.schemas.people import (
    MachineHighScoresPage,
    MergeIn,
    PlayerMergeOut,
    PlayerStatsOut,
    UndoMergeIn,
)
from flipwell.api.writing import after_check, official, write
from flipwell.league import services
from flipwell.league.selectors import people
from flipwell.serving.http_cache import conditional_on_revision

MergeId = Annotated[int, Path(ge=1, le=MAX_ID, description="The merge's id.")]


@router.get(
    "/leagues/{slug}/players/{player_id}/stats",
    response={200: PlayerStatsOut, **ERROR_RESPONSES},
)
@decorate_view(conditional_on_revision("slug"))
def get_player_stats(request: HttpRequest, slug: Slug, player_id: PlayerId) -> Any:
    """A person's statistics over their seasons of the league (their merged rows' included):
    head-to-head records, machine records, attendance and points per meet. A merged row
    answers with its person's statistics (`player` names the person's own row); 404 for a
    person who never played in the league."""
    league = queries.league(slug)
    stats = people.player_stats(queries.person(player_id), league=league)
    if not stats.seasons:
        raise Http404(f"{stats.player.name} plays in no season of {league}.")
    return stats


@router.get("/players/{player_id}/stats", response={200: PlayerStatsOut, **ERROR_RESPONSES})
def get_person_stats(request: HttpRequest, player_id: PlayerId) -> Any:
    """A person's statistics over every season of every league on this installation (their
    merged rows' included); machines are counted by title across leagues."""
    return people.player_stats(queries.person(player_id))


@router.get(
    "/leagues/{slug}/high-scores",
    response={200: MachineHighScoresPage, **ERROR_RESPONSES},
)
@decorate_view(conditional_on_revision("slug"))
def list_high_scores(
    request: HttpRequest, slug: Slug, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """Each machine title's three best scores that stood as entered, every season, by title,
    a page at a time."""
    titles = people.league_high_scores(queries.league(slug))
    items, next_url = page_of_sequence(request, titles, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.post(
    "/leagues/{slug}/player-merges",
    response={201: PlayerMergeOut, **ERROR_RESPONSES},
    **WRITE,
)
def merge_players(request: HttpRequest, slug: Slug, payload: MergeIn) -> Any:
    """Record that two player rows are one person (scope: manage). Refused for two rows in
    the same season, with different IFPA numbers, or already merged; only an official of a
    league both rows played in may merge them, and only when they are an official of every
    other league either row plays in too (403 naming those leagues)."""
    league = queries.league(slug)
    return write(
        request,
        services.merge_players,
        payload,
        by=official(league, "manage"),
        lookups={"kept": PLAYER, "merged": PLAYER},
        location=lambda merge: f"/api/v1/leagues/{slug}/players/{merge.kept_id}/stats",
        league=league,
    )


@router.post(
    "/leagues/{slug}/player-merges/{merge_id}/undo",
    response={200: PlayerMergeOut, **ERROR_RESPONSES},
    **WRITE,
)
def undo_player_merge(
    request: HttpRequest, slug: Slug, merge_id: MergeId, payload: UndoMergeIn
) -> Any:
    """Undo a merge: the merged row is a person of its own again (scope: manage); as for a
    merge, only an official of every league either row plays in (403 otherwise)."""
    league = queries.league(slug)
    return write(
        request,
        services.undo_player_merge,
        payload,
        by=official(league, "manage"),
        league=league,
        merge=after_check(queries.player_merge, merge_id),
    )
