"""Leagues and seasons."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Literal

from ninja import Field, Schema

from flipwell.league.selectors.seasons import current_season

if TYPE_CHECKING:
    from flipwell.league import models as m


class LeagueOut(Schema):
    """Read from a stored `League`."""

    slug: str = Field(..., description="The league's short name, used in its URLs.")
    name: str = Field(..., description="The league's name.")
    venue: str = Field(..., description="Where it plays (may be empty).")
    time_zone: str = Field(..., description="The league's IANA time zone.")
    current_season: int | None = Field(
        ...,
        description="Id of the season being played, which the public pages and the TV show: "
        "the newest season whose first meet has started or that an official published (the "
        "newest season while none is). A newer season being prepared becomes current when its "
        "first meet starts or it is published. Null before the league's first season.",
    )

    @staticmethod
    def resolve_current_season(obj: m.League) -> int | None:
        if hasattr(obj, "current_season_id"):  # annotated by `queries.leagues`
            annotated: int | None = obj.current_season_id
            return annotated
        season = current_season(obj)
        return season.pk if season is not None else None


class LeaguePage(Schema):
    results: list[LeagueOut] = Field(..., description="This page's leagues, by id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


SeasonState = Literal["being_prepared", "published", "played"]
"""Where a season stands with the public (`flipwell.league.selectors.seasons`)."""


class SeasonOut(Schema):
    """Read from a stored `Season` and its league."""

    id: int = Field(..., description="The season's id.")
    league: str = Field(..., description="The league's slug.")
    name: str = Field(..., description="The season's name, unique in its league.")
    weekday: int = Field(..., ge=0, le=6, description="Day of its meets, Monday = 0 (R2-a).")
    start_time: str = Field(
        ...,
        pattern=r"^[0-2][0-9]:[0-5][0-9]:[0-5][0-9]$",
        description="Start time of its meets, HH:MM:SS in the league's time zone.",
    )
    number_of_meets: int = Field(..., description="Regular meets in the season.")
    dues_cents: int = Field(..., description="Dues per player, in cents (R9-a).")
    state: SeasonState = Field(
        ...,
        description="being_prepared: created after the current season and not shown to the "
        "public yet (no meet started, not published); published: shown to the public, no meet "
        "started yet (the official published it, or it is the league's newest season while "
        "none has begun); played: a meet has started (being played or over).",
    )
    is_current: bool = Field(
        ...,
        description="The league's current season: the one its public pages, the TV and the "
        "league's current_season show (the newest season published or played).",
    )
    published_at: datetime | None = Field(
        ...,
        description="When an official published it before its first meet started; null "
        "when nobody did.",
    )

    @staticmethod
    def resolve_league(obj: m.Season) -> str:
        return obj.league.slug

    @staticmethod
    def resolve_start_time(obj: m.Season) -> str:
        return obj.start_time.strftime("%H:%M:%S")


class SeasonPage(Schema):
    results: list[SeasonOut] = Field(..., description="This page's seasons, by id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")
