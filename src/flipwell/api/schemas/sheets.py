"""Score sheets: a game's versions, entering and confirming scores (§3)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Annotated, Any

from ninja import Field, Schema
from pydantic import AfterValidator

from flipwell.api.schemas.common import (
    MAX_ID,
    NO_NUL,
    InputSchema,
    PlayerRefOut,
    each_player_once,
    score_field,
)
from flipwell.league import limits

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from flipwell.league import models as m
    from flipwell.league.services.scores import SubmittedScores


class ScoreOut(Schema):
    player_id: int = Field(..., description="The player's id.")
    machine_score: int | None = Field(
        ..., description="His machine score (an integer of any size); null: no score (forfeit)."
    )


class SubmissionOut(Schema):
    """Read from a stored `ScoreSubmission` and its lines."""

    id: int = Field(..., description="The submission's id (confirm it by this id).")
    game_id: int = Field(..., description="The game's id.")
    version: int = Field(..., description="Version of the game's sheet, from 1.")
    entered_by: int = Field(..., description="The player who entered it.")
    confirmed_by: int | None = Field(..., description="The player who confirmed it; null: not.")
    confirmed_at: datetime.datetime | None = Field(..., description="When it was confirmed.")
    is_correction: bool = Field(..., description="A correction's sheet (§3), not an entry.")
    scores: list[ScoreOut] = Field(..., description="Every group member's machine score.")

    @staticmethod
    def resolve_entered_by(obj: m.ScoreSubmission) -> int:
        return obj.entered_by_id

    @staticmethod
    def resolve_confirmed_by(obj: m.ScoreSubmission) -> int | None:
        return obj.confirmed_by_id

    @staticmethod
    def resolve_scores(obj: m.ScoreSubmission) -> QuerySet[m.ScoreLine]:
        return obj.lines.all()


class GameOut(Schema):
    """Read from a stored `Game`, its group's members and its sheets."""

    id: int = Field(..., description="The game's id.")
    meet_id: int = Field(..., description="The meet's id.")
    group_number: int = Field(..., description="The group's number at the meet.")
    number: int = Field(..., description="The game's number in the match.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    players: list[PlayerRefOut] = Field(..., description="The group's players, ladder order.")
    submissions: list[SubmissionOut] = Field(..., description="Every version of its sheet.")

    @staticmethod
    def resolve_meet_id(obj: m.Game) -> int:
        return obj.group.meet_id

    @staticmethod
    def resolve_group_number(obj: m.Game) -> int:
        return obj.group.number

    @staticmethod
    def resolve_machine(obj: m.Game) -> str:
        return obj.machine.title

    @staticmethod
    def resolve_players(obj: m.Game) -> list[dict[str, Any]]:
        return [
            {
                "id": member.player_id,
                "name": f"{member.player.first_name} {member.player.last_name}",
            }
            for member in obj.group.members.all()
        ]

    @staticmethod
    def resolve_submissions(obj: m.Game) -> QuerySet[m.ScoreSubmission]:
        return obj.submissions.all()


class ScoreIn(InputSchema):
    player: int = Field(..., ge=1, le=MAX_ID, description="A group member's player id.")
    machine_score: int | None = score_field(
        "His machine score; null if he did not play the game (a forfeit)."
    )


class SubmitScoresIn(InputSchema):
    entered_by: int = Field(..., ge=1, le=MAX_ID, description="The player who enters the sheet.")
    scores: Annotated[list[ScoreIn], AfterValidator(each_player_once)] = Field(
        ..., max_length=8, description="Every group member's score, each player once."
    )
    tie_order: list[list[int]] = Field(
        default_factory=list,
        max_length=limits.MAX_GROUP_SIZE,
        description="For tied scores, the one-ball playoff's order, winner first (R3.2-i).",
    )
    idempotency_key: str = Field(
        ...,
        min_length=1,
        max_length=limits.KEY_LENGTH,
        pattern=NO_NUL,
        description="Chosen by the client for this sheet; a retry with the same key and sheet "
        "returns the stored entry, the same key with another sheet is a 409.",
    )
    note: str = Field("", max_length=1000, pattern=NO_NUL, description="A note on the sheet.")
    seen_version: int | None = Field(
        None,
        ge=0,
        le=MAX_ID,
        description="The latest version of the game's sheet the client saw (0: none yet); when "
        "another version was stored meanwhile the entry is a 409 and nothing is written. Null: "
        "not checked.",
    )


class SubmittedOut(Schema):
    """Read from the service's `SubmittedScores`."""

    submission: SubmissionOut = Field(..., description="The stored sheet.")
    points: dict[str, int] = Field(..., description="Player id -> game points (R3.2).")
    replayed: bool = Field(..., description="A retry: nothing new was written.")

    @staticmethod
    def resolve_points(obj: SubmittedScores) -> dict[str, int]:
        return {str(p): v for p, v in obj.points.items()}


class ConfirmIn(InputSchema):
    confirmed_by: int = Field(
        ..., ge=1, le=MAX_ID, description="Another player of the group who confirms (R3-a)."
    )
