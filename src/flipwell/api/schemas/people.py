"""A person's statistics across seasons, the league's high scores, and merging two player
rows that are one person, read from `flipwell.league.selectors.people` and the
`PlayerMerge` rows of `flipwell.league.services.identity`.

Averages (points per meet, average place) are JSON numbers rounded to 6 places, with the exact
fraction beside them (``*_exact``), as league points are."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from ninja import Field, Schema

from flipwell.api.schemas.common import (
    EXACT,
    MAX_ID,
    ExactPoints,
    InputSchema,
    PlayerRefOut,
    Points,
    PointsMixin,
    ProvisionalMixin,
    text_field,
)

if TYPE_CHECKING:
    from flipwell.league import models as m


class SeasonNameOut(Schema):
    id: int = Field(..., description="The season's id.")
    name: str = Field(..., description="The season's name.")
    league: str = Field(..., description="The league's name.")


class SeasonStatsOut(PointsMixin, ProvisionalMixin):
    season: SeasonNameOut = Field(..., description="The season.")
    meets_held: int = Field(
        ..., description="Closed meets held while they were entered and in the league."
    )
    meets_attended: int = Field(..., description="Meets they played a game of (R2-b).")
    games_played: int = Field(..., description="Games played (a forfeit is not one).")
    points_per_meet: Points | None = Field(
        ..., description="League points earned at the meets attended, per meet attended."
    )
    points_per_meet_exact: ExactPoints | None = Field(
        ..., validation_alias="points_per_meet", pattern=EXACT, description="The same, exactly."
    )


class OpponentRecordOut(Schema):
    opponent: PlayerRefOut = Field(..., description="The opponent (their own player row).")
    games: int = Field(..., description="Games both played.")
    won: int = Field(..., description="Games they placed higher than the opponent.")
    lost: int = Field(..., description="Games the opponent placed higher.")


class MachineStatsOut(Schema):
    machine: str = Field(..., description="The machine's title.")
    games: int = Field(..., description="Games played on it.")
    average_place: Points = Field(..., description="Average place (1 = first).")
    average_place_exact: ExactPoints = Field(
        ..., validation_alias="average_place", pattern=EXACT, description="The same, exactly."
    )
    best_score: int | None = Field(
        ...,
        description="The best machine score that stood as entered (not reduced or zeroed, "
        "no compensatory game added); null: none did.",
    )


class PlayerStatsOut(Schema):
    player: PlayerRefOut = Field(
        ..., description="The person: their own row (a merged row answers as its person)."
    )
    seasons: list[SeasonStatsOut] = Field(..., description="Their seasons, oldest first.")
    head_to_head: list[OpponentRecordOut] = Field(
        ..., description="Each opponent, most games first."
    )
    machines: list[MachineStatsOut] = Field(..., description="Each machine title played.")
    meets_held: int = Field(..., description="Meets held, every season together.")
    meets_attended: int = Field(..., description="Meets attended, every season together.")
    games_played: int = Field(..., description="Games played, every season together.")
    points_per_meet: Points | None = Field(
        ..., description="League points earned at meets attended, per meet attended."
    )
    points_per_meet_exact: ExactPoints | None = Field(
        ..., validation_alias="points_per_meet", pattern=EXACT, description="The same, exactly."
    )


class HighScoreOut(Schema):
    score: int = Field(..., description="The machine score, as displayed and entered.")
    player: PlayerRefOut = Field(..., description="Who (the person's own row).")
    season: SeasonNameOut = Field(..., description="The season.")
    meet: int = Field(..., description="The meet's number.")


class MachineHighScoresOut(Schema):
    machine: str = Field(..., description="The machine's title.")
    machine_id: int | None = Field(
        ...,
        description="The league's machine of this title (the first, should it have two); "
        "null when the league no longer has one.",
    )
    league: str = Field(..., description="The league's slug.")
    scores: list[HighScoreOut] = Field(..., description="Its best scores, best first.")


class MachineHighScoresPage(Schema):
    results: list[MachineHighScoresOut] = Field(..., description="This page's titles, by title.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class MergeIn(InputSchema):
    kept: int = Field(
        ...,
        ge=1,
        le=MAX_ID,
        alias="kept_player_id",
        description="The person's own row, which keeps the record.",
    )
    merged: int = Field(
        ...,
        ge=1,
        le=MAX_ID,
        alias="merged_player_id",
        description="The row that is the same person, merged into it.",
    )
    reason: str = text_field("Why they are one person (required).", min_length=1)


class UndoMergeIn(InputSchema):
    reason: str = text_field("Why the merge is undone (required).", min_length=1)


class PlayerMergeOut(Schema):
    id: int = Field(..., description="The merge's id.")
    kept: PlayerRefOut = Field(..., description="The person's own row.")
    merged: PlayerRefOut = Field(..., description="The row merged into it.")
    reason: str = Field(..., description="Why.")
    merged_at: datetime.datetime = Field(..., description="When it was merged.")
    undone_at: datetime.datetime | None = Field(
        ..., description="When it was undone; null: it stands."
    )
    undo_reason: str = Field(..., description="Why it was undone; empty while it stands.")

    @staticmethod
    def resolve_kept(obj: m.PlayerMerge) -> dict[str, object]:
        return {"id": obj.kept_id, "name": str(obj.kept)}

    @staticmethod
    def resolve_merged(obj: m.PlayerMerge) -> dict[str, object]:
        return {"id": obj.merged_id, "name": str(obj.merged)}
