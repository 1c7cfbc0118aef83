"""Ratings (public reads): a league's players by rating, and a person's rating with its
history and rivals. Each endpoint calls one selector of `flipwell.league.selectors.ratings`.

A rating is computed from every league's games and never stored; a league's reads show its
own seasons' history and rivals only. Not an FWPL standing: the standings alone decide the
playoffs."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.decorators import decorate_view

from flipwell.api import queries
from flipwell.api.endpoints.params import Cursor, Limit, PlayerId, Slug
from flipwell.api.endpoints.public import router
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.paging import page_of_sequence
from flipwell.api.schemas.ratings import PlayerRatingOut, RatingPage
from flipwell.league.selectors import ratings
from flipwell.serving.http_cache import conditional_on_revision


@router.get("/leagues/{slug}/ratings", response={200: RatingPage, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("slug"))
def list_ratings(request: HttpRequest, slug: Slug, cursor: Cursor = None, limit: Limit = 50) -> Any:
    """The league's players by rating, best first: those with at least 12 pairwise results
    in a public season of the league."""
    lines = ratings.league_ratings(queries.league(slug))
    items, next_url = page_of_sequence(request, lines, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get(
    "/leagues/{slug}/players/{player_id}/rating",
    response={200: PlayerRatingOut, **ERROR_RESPONSES},
)
@decorate_view(conditional_on_revision("slug"))
def get_player_rating(request: HttpRequest, slug: Slug, player_id: PlayerId) -> Any:
    """A person's rating (from every league's games), with his history and rivals in this
    league's seasons; 404 for a person who never played in the league."""
    league = queries.league(slug)
    return ratings.player_rating(queries.league_person(league, player_id), league=league)


@router.get("/players/{player_id}/rating", response={200: PlayerRatingOut, **ERROR_RESPONSES})
def get_person_rating(request: HttpRequest, player_id: PlayerId) -> Any:
    """A person's rating, history and rivals over every league on this installation."""
    return ratings.player_rating(queries.person(player_id))
