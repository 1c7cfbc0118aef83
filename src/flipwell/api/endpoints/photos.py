"""Photos of a machine's score display, with a token of the game's league and the scope of
score entry (*scores*): attach one to a game, list a game's, fetch one's JPEG.

A photo is sent as ``multipart/form-data`` (`flipwell.api.schemas.photos`); the
``Idempotency-Key`` header is also the photo's own key, so a photo sent again after a lost
answer is kept once, however large (`flipwell.league.services.attach_photo`).
"""

from __future__ import annotations

from typing import Any

from django.core.files.storage import default_storage
from django.http import Http404, HttpRequest, HttpResponse
from ninja import File, Form
from ninja.files import UploadedFile

from flipwell.api import queries
from flipwell.api.arguments import PLAYER
from flipwell.api.auth import acting_official
from flipwell.api.contract import RATE_LIMITED
from flipwell.api.endpoints.params import Cursor, GameId, Limit, PhotoKey
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import HEADER, key_required
from flipwell.api.paging import page_of_sequence
from flipwell.api.schemas.photos import PhotoIn, PhotoOut, PhotoPage
from flipwell.api.writing import official, write
from flipwell.league import services
from flipwell.league.models import Game
from flipwell.league.selectors.photos import PhotoRef, game_photos, kept_photo

JPEG = {
    "responses": {
        200: {
            "description": "The photo, a JPEG with no metadata.",
            "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}},
        }
    }
}


@router.post(
    "/games/{game_id}/photos",
    response={200: PhotoOut, 201: PhotoOut, **RATE_LIMITED, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def attach_photo(
    request: HttpRequest,
    game_id: GameId,
    photo: File[UploadedFile],
    payload: Form[PhotoIn],
) -> Any:
    """Attach a photo of the machine's display to a game while its meet is open (scope:
    scores). 201 when kept; 200 for the same Idempotency-Key sent again (the photo kept); 429
    ``too_many_photos`` once the game refused ``PHOTO_REFUSALS_PER_GAME`` photos this hour."""
    game = queries.game(game_id)
    return write(
        request,
        _attach,
        payload,
        by=official(game.group.meet.season.league, "scores"),
        lookups={"uploaded_by": PLAYER},
        answer=lambda attached: attached[0],
        location=lambda attached: f"/api/v1/photos/{attached[0].key}" if attached[1] else None,
        game=game,
        photo=photo,
        size=photo.size or 0,
        idempotency_key=request.headers.get(HEADER, ""),
        submitter=f"token:{request.auth.pk}",  # type: ignore[attr-defined]
    )


def _attach(*, game: Game, **arguments: Any) -> tuple[PhotoRef, bool]:
    """`services.attach_photo`, and whether the photo is new (one sent again is kept once,
    answered 200)."""
    existing = {p.key for p in game_photos([game.pk]).get(game.pk, ())}
    row = services.attach_photo(game=game, **arguments)
    ref = next(p for p in game_photos([game.pk])[game.pk] if p.key == row.key)
    return ref, row.key not in existing


@router.get("/games/{game_id}/photos", response={200: PhotoPage, **ERROR_RESPONSES}, **WRITE)
def list_photos(
    request: HttpRequest, game_id: GameId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The photos kept of a game, oldest first, a page at a time (scope: scores)."""
    game = queries.game(game_id)
    acting_official(request, league=game.group.meet.season.league, scope="scores")
    photos = game_photos([game.pk]).get(game.pk, ())
    items, next_url = page_of_sequence(request, photos, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get("/photos/{key}", response=ERROR_RESPONSES, openapi_extra=JPEG, **WRITE)
def fetch_photo(request: HttpRequest, key: PhotoKey) -> HttpResponse:
    """A photo's JPEG (scope: scores, a token of its league; a removed photo is a 404)."""
    photo = kept_photo(key)
    if photo is None:
        raise Http404("No such photo.")
    acting_official(request, league=photo.game.group.meet.season.league, scope="scores")
    try:
        with default_storage.open(photo.storage_name, "rb") as file:
            content = file.read()
    except FileNotFoundError as error:
        raise Http404("This photo's file is missing.") from error
    return HttpResponse(content, content_type="image/jpeg")
