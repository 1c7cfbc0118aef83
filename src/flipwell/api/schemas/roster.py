"""A season's roster as an official keeps it: correcting a player, personal links, refreshing
the IFPA ranks from a file, and starting the next season from this one.

Each input schema's attribute names are the keyword names of the service it is passed to
(`flipwell.league.services`), so an endpoint hands it over whole.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.urls import reverse
from ninja import Field, Schema

from flipwell.api.schemas.common import NO_NUL, Id, InputSchema, PlayerRefOut, bounded, text_field
from flipwell.api.schemas.setup import WEEKDAY
from flipwell.league import limits
from flipwell.league.player_link_tokens import token_for

if TYPE_CHECKING:
    from flipwell.league import models as m


class EditPlayerIn(InputSchema):
    first_name: str = Field(
        ..., min_length=1, max_length=limits.NAME_LENGTH, pattern=NO_NUL, description="First name."
    )
    last_name: str = Field(
        ..., min_length=1, max_length=limits.NAME_LENGTH, pattern=NO_NUL, description="Last name."
    )
    ifpa_number: int | None = bounded(limits.IFPA, "IFPA number; null: none.")


class PlayerOut(Schema):
    """Read from a stored `Player`."""

    id: int = Field(..., description="The player's id.")
    first_name: str = Field(..., description="First name.")
    last_name: str = Field(..., description="Last name.")
    ifpa_number: int | None = Field(..., description="IFPA number; null when he has none.")


class PlayerLinkOut(Schema):
    """Read from a stored `PlayerLink`: the token is the link's secret (keep it private)."""

    id: int = Field(..., description="The link's id.")
    season_id: int = Field(..., description="The season it is for.")
    player_id: int = Field(..., description="The player whose link it is.")
    token: str = Field(
        ..., description="The link's token: the player's page is /me/<token>/ on this site."
    )
    page: str = Field(..., description="The player's page, site-relative (/me/<token>/).")
    api: str = Field(..., description="The player's own API read (/api/v1/me/<token>).")
    created_at: datetime.datetime = Field(..., description="When it was issued.")
    revoked_at: datetime.datetime | None = Field(
        ..., description="When it was revoked (it no longer works); null: live."
    )

    @staticmethod
    def resolve_token(obj: m.PlayerLink) -> str:
        return token_for(obj)

    @staticmethod
    def resolve_page(obj: m.PlayerLink) -> str:
        return reverse("web:me", kwargs={"token": token_for(obj)})

    @staticmethod
    def resolve_api(obj: m.PlayerLink) -> str:
        return f"/api/v1/me/{token_for(obj)}"


class PlayerLinkPage(Schema):
    results: list[PlayerLinkOut] = Field(..., description="This page's live links, by id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class IssuedLinksOut(Schema):
    issued: list[PlayerLinkOut] = Field(
        ..., description="The links issued now: one for each player who had none."
    )


class RankRefreshIn(InputSchema):
    csv_text: str = Field(
        ...,
        alias="csv",
        min_length=1,
        max_length=limits.ROSTER_CSV_LENGTH,
        pattern=NO_NUL,
        description="A roster CSV (header first_name,last_name,ifpa_number,ifpa_rank): each "
        "line names a player of the season by IFPA number, else by name; an empty rank is "
        "unranked (R4.3-b).",
    )


class RankChangeOut(Schema):
    player: PlayerRefOut = Field(..., description="The player.")
    old_rank: int | None = Field(..., description="His rank before; null: unranked.")
    new_rank: int | None = Field(..., description="His rank now; null: unranked.")


class RankRefreshOut(Schema):
    """Read from the service's `RankRefresh`."""

    changed: list[RankChangeOut] = Field(..., description="Each player whose rank changed.")
    unchanged: int = Field(..., description="How many of the file's players kept their rank.")
    not_in_file: list[PlayerRefOut] = Field(
        ..., description="The season's players the file does not list (ranks kept)."
    )

    @staticmethod
    def resolve_changed(obj: object) -> list[dict[str, object]]:
        return [
            {"player": _ref(p), "old_rank": old, "new_rank": new}
            for p, old, new in getattr(obj, "changed", ())
        ]

    @staticmethod
    def resolve_not_in_file(obj: object) -> list[dict[str, object]]:
        return [_ref(p) for p in getattr(obj, "not_in_file", ())]


def _ref(player: m.Player) -> dict[str, object]:
    return {"id": player.pk, "name": str(player)}


class NextSeasonIn(InputSchema):
    name: str = text_field(
        "The new season's name, unique in the league.", min_length=1, max_length=120
    )
    weekday: int | None = bounded(
        WEEKDAY, "Day of its meets, Monday = 0 (R2-a); null: this season's.", None
    )
    leave_out: list[Id] = Field(
        default_factory=list,
        max_length=500,
        description="Players of this season not entered again (ids); every other one is, "
        "with his IFPA rank at this season's start until the ranks are refreshed (R3.1-b).",
    )
