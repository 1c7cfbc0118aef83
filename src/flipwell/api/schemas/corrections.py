"""Score corrections (§3, A45): the request, the asked players' answers, the outcome."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from ninja import Field, Schema
from pydantic import AfterValidator

from flipwell.api.schemas.common import (
    TIE_ORDER_DESCRIPTION,
    Id,
    InputSchema,
    each_player_once,
    id_field,
    score_field,
    text_field,
)
from flipwell.api.schemas.sheets import SubmissionOut
from flipwell.league import enums, limits

if TYPE_CHECKING:
    from flipwell.league import models as m
    from flipwell.rules import CorrectionOutcome


class CorrectedScoreIn(InputSchema):
    player: int = id_field("A group member's player id.")
    machine_score: int = score_field("His machine score.")


class CorrectionIn(InputSchema):
    requested_by: int = id_field("The player who reports the error (R3-b).")
    scores: Annotated[list[CorrectedScoreIn], AfterValidator(each_player_once)] = Field(
        ...,
        min_length=1,
        max_length=8,
        description="The claimed machine scores of the players whose score is wrong.",
    )
    reason: str = text_field("What went wrong.", min_length=1)
    tie_order: list[list[Id]] = Field(
        default_factory=list, max_length=limits.MAX_GROUP_SIZE, description=TIE_ORDER_DESCRIPTION
    )
    override_reason: str | None = text_field(
        "After the meet is closed: why the LO accepts the request anyway (A45.2).", None
    )


class CorrectionOut(Schema):
    """Read from a stored `CorrectionRequest`."""

    id: int = Field(..., description="The correction request's id (answer it by this id).")
    game_id: int = Field(..., description="The game's id.")
    status: enums.CorrectionStatusValue = Field(..., description="Its status.")
    requested_by: int = Field(..., description="The player who reported the error.")
    reason: str = Field(..., description="What went wrong.")
    base_submission_id: int = Field(..., description="The confirmed sheet it corrects.")
    proposed: SubmissionOut = Field(..., description="The proposed sheet, unconfirmed.")

    @staticmethod
    def resolve_requested_by(obj: m.CorrectionRequest) -> int:
        return obj.requested_by_id

    @staticmethod
    def resolve_base_submission_id(obj: m.CorrectionRequest) -> int:
        return obj.base_id


class CorrectionAnswerIn(InputSchema):
    player: int = id_field("A player the request asks (the quorum, A45.1).")
    agrees: bool = Field(..., description="He agrees with the correction.")


class CorrectionOutcomeOut(Schema):
    """Read from the rules' `CorrectionOutcome` (player keys become ids)."""

    status: enums.CorrectionStatusValue = Field(
        ..., description="applied (all agreed), refused (one disagreed) or pending."
    )
    score: int = Field(..., description="The machine score that stands.")
    quorum: list[int] = Field(..., description="The players asked (A45.1).")
    awaiting: list[int] = Field(..., description="Players whose answer is still awaited.")
    disagreeing: list[int] = Field(..., description="Players who disagreed.")
    rule: str = Field(..., description="The rule that decided it.")
    reason: str = Field(..., description="Why, in words.")

    @staticmethod
    def resolve_quorum(obj: CorrectionOutcome) -> list[int]:
        return [int(p) for p in obj.quorum]

    @staticmethod
    def resolve_awaiting(obj: CorrectionOutcome) -> list[int]:
        return [int(p) for p in obj.awaiting]

    @staticmethod
    def resolve_disagreeing(obj: CorrectionOutcome) -> list[int]:
        return [int(p) for p in obj.disagreeing]
