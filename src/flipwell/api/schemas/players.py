"""A season's players: entries, registering one, importing a roster, late-join forfeits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ninja import Field, Schema

from flipwell.api.schemas.common import NO_NUL, InputSchema, Line, bounded, text_field
from flipwell.league import limits

if TYPE_CHECKING:
    from flipwell.league import models as m


class EntryOut(Schema):
    """Read from a stored `SeasonEntry` and its player."""

    player_id: int = Field(..., description="The player's id.")
    first_name: str = Field(..., description="First name.")
    last_name: str = Field(..., description="Last name.")
    ifpa_number: int | None = Field(..., description="IFPA number; null when he has none.")
    ifpa_rank_at_start: int | None = Field(
        ..., description="IFPA rank when the season started (week-1 seeding); null: unranked."
    )
    joined_at_meet: int = Field(..., description="The meet he joined at (1: from the start).")

    @staticmethod
    def resolve_first_name(obj: m.SeasonEntry) -> str:
        return obj.player.first_name

    @staticmethod
    def resolve_last_name(obj: m.SeasonEntry) -> str:
        return obj.player.last_name

    @staticmethod
    def resolve_ifpa_number(obj: m.SeasonEntry) -> int | None:
        return obj.player.ifpa_number


class EntryPage(Schema):
    results: list[EntryOut] = Field(..., description="This page's entries, by entry id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class RegisterIn(InputSchema):
    first_name: Line = Field(
        ..., min_length=1, max_length=limits.NAME_LENGTH, pattern=NO_NUL, description="First name."
    )
    last_name: Line = Field(
        ..., min_length=1, max_length=limits.NAME_LENGTH, pattern=NO_NUL, description="Last name."
    )
    ifpa_number: int | None = bounded(limits.IFPA, "IFPA number.", None)
    ifpa_rank: int | None = bounded(limits.IFPA, "IFPA rank at the season's start (R3.1-b).", None)
    joined_at_meet: int | None = Field(
        None,
        ge=limits.MEET_NUMBER.minimum,
        le=limits.MEET_NUMBER.maximum,
        description="The meet they join at; omitted or null: the next meet not yet started "
        "(the meets before are their late-join forfeits, R2.4-f).",
    )


class ImportedOut(Schema):
    entries: list[EntryOut] = Field(..., description="The players entered, in file order.")
    created_players: list[int] = Field(..., description="Ids of players new to flipwell.")


class ImportIn(InputSchema):
    csv_text: str = Field(
        ...,
        alias="csv",
        max_length=limits.ROSTER_CSV_LENGTH,
        pattern=NO_NUL,
        description="The roster CSV text: header first_name,last_name,ifpa_number,ifpa_rank.",
    )


class LateJoinForfeitsIn(InputSchema):
    countable: bool = Field(..., description="His forfeits before he joined count (R2.4-g).")
    reason: str = text_field("Why (required).", min_length=1)


class LateJoinForfeitsOut(Schema):
    season_id: int = Field(..., description="The season's id.")
    player_id: int = Field(..., description="The player's id.")
    late_join_forfeits_countable: bool | None = Field(
        ..., description="The LO's designation; null: the league's default."
    )
