"""The IFPA submission preview: who the IFPA file lists, who it leaves out, why."""

from __future__ import annotations

from typing import Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import PlayerRefOut


class IfpaLineOut(Schema):
    position: int | None = Field(
        ..., description="His position in the IFPA file; null: he is left out of it."
    )
    player: PlayerRefOut = Field(..., description="The player.")
    ifpa_number: int | None = Field(..., description="His IFPA number; null: he has none.")
    meets_attended: int = Field(..., description="Meets at which he played a game (R2-b).")
    reason: Literal["attended", "finalist", "below_attendance"] = Field(
        ...,
        description="attended: at least the threshold; finalist: below it but reached the "
        "finals; below_attendance: left out.",
    )
    why: str = Field(..., description="The reason in words.")


class IfpaPreviewOut(Schema):
    results: Literal["regular_season", "post_finals"] = Field(
        ..., description="The positions the file reports (never both kinds)."
    )
    playoffs_complete: bool = Field(
        ..., description="Whether every playoff final is complete (post-finals possible)."
    )
    meets_played: int = Field(..., description="The meets played so far.")
    threshold: int = Field(..., description="Meets a player must attend to be listed.")
    included: list[IfpaLineOut] = Field(..., description="The file's players, best first.")
    left_out: list[IfpaLineOut] = Field(..., description="The players left out, with why.")
