"""Correcting a confirmed game of a playoff match's sheet (R3-b..R3-d, §6.3): a player of the
match claims other machine scores, every other present player agrees or disagrees.

Each input schema's attribute names are the keyword names of the service it is passed to
(`flipwell.league.services.playoff_sheets.corrections`), so an endpoint hands it over whole.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Annotated, Literal

from ninja import Field, Schema
from pydantic import AfterValidator

from flipwell.api.schemas.common import Id, InputSchema, each_player_once, id_field, text_field
from flipwell.api.schemas.playoffs import PlayoffScoreIn
from flipwell.league.selectors.playoffs.facts import match_id

if TYPE_CHECKING:
    from flipwell.league import models as m


class PlayoffCorrectionIn(InputSchema):
    number: int = Field(..., ge=1, le=3, description="The confirmed game corrected (1..3).")
    scores: Annotated[list[PlayoffScoreIn], AfterValidator(each_player_once)] = Field(
        ...,
        min_length=1,
        max_length=4,
        description="The claimed machine scores (players left out keep theirs).",
    )
    requested_by: int = id_field("The present player of the match who claims them (R3-b).")
    reason: str = text_field("What went wrong, for the other players (required).", min_length=1)
    tie_order: list[list[Id]] = Field(
        default_factory=list,
        max_length=4,
        description="For equal claimed scores, the one-ball playoff's order of each tie (player "
        "ids, winner first, A54); left out: the confirmed game's order is kept.",
    )


class PlayoffCorrectionAnswerIn(InputSchema):
    player: int = id_field("A present player of the match who answers (R3-c).")
    agrees: bool = Field(..., description="He agrees with the claimed scores.")


class PlayoffLineOut(Schema):
    player: int = Field(..., description="The player's id.")
    machine_score: int = Field(..., description="His claimed machine score.")


class PlayoffAnswerOut(Schema):
    player: int = Field(..., description="The player's id.")
    agrees: bool = Field(..., description="He agreed.")


class PlayoffCorrectionOut(Schema):
    """Read from a stored correction (`PlayoffSheet` with a correction's status)."""

    id: int = Field(..., description="The correction's id (answer it at its answers).")
    division: str = Field(..., description="The playoff division ('A').")
    match: str = Field(..., description="The match: QF1, QF2, ..., SF1, SF2 or F.")
    number: int = Field(..., description="The game corrected.")
    status: Literal["pending", "applied", "refused"] = Field(
        ...,
        description="pending: waiting for answers; applied: everyone agreed, the game's "
        "results hold the claimed scores; refused: someone disagreed, the sheet stands.",
    )
    requested_by: int = Field(..., validation_alias="entered_by_id", description="Who asked.")
    reason: str = Field(..., description="What went wrong, as he said.")
    created_at: datetime.datetime = Field(..., description="When it was asked.")
    scores: list[PlayoffLineOut] = Field(..., description="The claimed machine scores.")
    answers: list[PlayoffAnswerOut] = Field(..., description="The answers so far (R3-c).")

    @staticmethod
    def resolve_division(obj: m.PlayoffSheet) -> str:
        return obj.match.division

    @staticmethod
    def resolve_match(obj: m.PlayoffSheet) -> str:
        return match_id(obj.match.round, obj.match.number)

    @staticmethod
    def resolve_scores(obj: m.PlayoffSheet) -> list[dict[str, int]]:
        lines = obj.lines.order_by("player_id").values_list("player_id", "machine_score")
        return [{"player": p, "machine_score": s} for p, s in lines]

    @staticmethod
    def resolve_answers(obj: m.PlayoffSheet) -> list[dict[str, object]]:
        answers = obj.answers.order_by("pk").values_list("player_id", "agrees")
        return [{"player": p, "agrees": a} for p, a in answers]
