"""Photos of a machine's score display, attached to a game (`flipwell.league.models.photos`).

A photo is sent as ``multipart/form-data``: the image in the part ``photo`` (JPEG, PNG or
HEIC; checked by decoding it), and the optional field ``uploaded_by_id``. Form values are
text, so this one input schema reads a number from text.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from ninja import Field, Schema
from pydantic import ConfigDict

from flipwell.api.schemas.common import MAX_ID

if TYPE_CHECKING:
    from flipwell.league.selectors.photos import PhotoRef


class PhotoIn(Schema):
    """The form fields sent with a photo."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    uploaded_by: int | None = Field(
        None,
        alias="uploaded_by_id",
        ge=1,
        le=MAX_ID,
        description="The player of the group who took the photo (left out: the token's official).",
    )


class PhotoOut(Schema):
    """A kept photo of a game; read from the selector's `PhotoRef`."""

    key: str = Field(..., description="The photo's random name: fetch it at ``url``.")
    game_id: int = Field(..., description="The game the photo is of.")
    taken_by: str = Field(..., description="Who took it, in words.")
    taken_at: datetime.datetime = Field(..., description="When it was kept.")
    width: int = Field(..., description="Width in pixels (long side at most PHOTO_LONG_SIDE).")
    height: int = Field(..., description="Height in pixels.")
    url: str = Field(..., description="Its JPEG, with a token of the league (scope: scores).")

    @staticmethod
    def resolve_url(obj: PhotoRef) -> str:
        return f"/api/v1/photos/{obj.key}"


class PhotoPage(Schema):
    results: list[PhotoOut] = Field(..., description="This page's photos, oldest first.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")
