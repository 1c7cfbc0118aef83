"""Leagues and seasons."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
        "the newest season whose first meet has started (the newest season while none has). A "
        "newer season being prepared becomes current when its first meet starts. Null before "
        "the league's first season.",
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

    @staticmethod
    def resolve_league(obj: m.Season) -> str:
        return obj.league.slug

    @staticmethod
    def resolve_start_time(obj: m.Season) -> str:
        return obj.start_time.strftime("%H:%M:%S")


class SeasonPage(Schema):
    results: list[SeasonOut] = Field(..., description="This page's seasons, by id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")
