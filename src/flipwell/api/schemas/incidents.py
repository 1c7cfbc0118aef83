"""A meet's incidents: forfeits (§2.4), late joins (§2.3), malfunctions and compensatory
games (§7), discarded scores and replays (R7.4), rulings about a player's turn (a slow-play
warning, ...)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Annotated

from ninja import Field, Schema
from pydantic import AfterValidator

from flipwell.api.schemas.common import (
    MAX_ID,
    TIE_ORDER_DESCRIPTION,
    Id,
    InputSchema,
    bounded,
    each_player_once,
    id_field,
    id_list,
    score_field,
    text_field,
)
from flipwell.api.schemas.corrections import CorrectedScoreIn
from flipwell.league import enums, limits
from flipwell.league.turn_rulings import KINDS

if TYPE_CHECKING:
    from flipwell.league.services.malfunctions.game_ending import Owed
    from flipwell.league.services.malfunctions.report import ReportedMalfunction


class ForfeitIn(InputSchema):
    player: int = Field(..., ge=1, le=MAX_ID, description="The player who forfeits the game.")
    countable: bool = Field(True, description="Counts toward §2.5 (an LO may say not).")
    reason: enums.RecordedForfeitReason = Field("absent", description="Why.")
    note: str = text_field("Why, in words.", "")


class ForfeitOut(Schema):
    id: int = Field(..., description="The forfeit's id.")
    game_id: int = Field(..., description="The game's id.")
    player_id: int = Field(..., description="The player's id.")
    countable: bool = Field(..., description="Counts toward §2.5.")
    reason: str = Field(..., description="absent, late or other.")


class LateJoinIn(InputSchema):
    player: int = id_field("The late player (§2.3).")
    machine_allows_joining: bool = Field(
        ..., description="The machine lets a player be added to the game in progress."
    )
    last_player_not_past_ball_1: bool = Field(
        ..., description="The last player of the game has not finished ball 1."
    )


class JoinDecisionOut(Schema):
    may_join: bool = Field(..., description="He joins the game in progress and plays last.")
    forfeit: bool = Field(..., description="He forfeits this game and joins at the next.")
    reason: str = Field(..., description="The condition that decided it.")


MalfunctionReason = enums.MalfunctionReasonValue


MalfunctionKind = enums.MalfunctionKindValue


class NextBallIn(InputSchema):
    player: int = id_field("A player of the game.")
    ball: int = Field(
        ...,
        ge=limits.BALL.minimum,
        le=limits.BALL.maximum + 1,
        description="The ball he would have played next; one past his last: he had played all.",
    )


class ExtraBallsIn(InputSchema):
    player: int = id_field("A player of the game.")
    collected: int = Field(
        ...,
        ge=0,
        le=limits.BALL.maximum,
        description="Extra balls they had collected in the game; the allowable ones are balls "
        "they are owed (R7.3-l).",
    )


class OwedOut(Schema):
    """Read from the service's `Owed`."""

    player_id: int = Field(..., description="The player's id.")
    next_ball: int = Field(..., description="The ball he was on or would have played next.")
    majors: list[int] = Field(..., description="Balls recorded as major malfunctions (R7.3-i).")
    catastrophic: list[int] = Field(
        ..., description="Balls recorded as catastrophic malfunctions (R7.3-h, A32)."
    )
    compensatory_balls: int = Field(
        ..., description="The balls of the compensatory game he may ask for; 0: none (R7.3-k)."
    )
    extra_balls: int = Field(
        ..., description="Extra balls they had collected in the game, as reported (R7.3-l)."
    )
    slammer: bool = Field(
        ..., description="They slam tilted the machine on purpose: owed nothing (R8.4-a, A32)."
    )

    @staticmethod
    def resolve_compensatory_balls(obj: Owed) -> int:
        return obj.balls


class MalfunctionIn(InputSchema):
    player: int = id_field("The player whose ball malfunctioned.")
    ball: int = bounded(limits.BALL, "The ball number (1 = first ball).")
    reason_code: MalfunctionReason = Field(
        ..., description="What happened (R7.3-e..i, R7.4, R7.7-a, R7.8-a); 'other': the LO says."
    )
    kind: MalfunctionKind | None = Field(
        None, description="For reason 'other' only: the LO's classification (R7.3-d)."
    )
    note: str = text_field("The LO's note (needed for reason 'other').", "")
    problem: str = text_field(
        "What went wrong, matched against announced problems (R7.3-g).",
        "",
        max_length=limits.PROBLEM_LENGTH,
    )
    one_handed_ball: bool = Field(False, description="It was a one-handed extra ball (R7.1-d).")
    ball_in_play: bool = Field(True, description="The ball was in play.")
    request_compensatory: bool = Field(
        False, description="The player asks for a compensatory game now, at the trigger (RA-b)."
    )
    next_balls: list[NextBallIn] = Field(
        [],
        description="For a reason that ends the game (slam_tilt, machine_failure, power_loss, "
        "fire): another player's next ball when the play order does not give it (after extra "
        "balls, say). By default players before the reporting player in the play order are on "
        "ball + 1, those after him on ball (R7.3-h, R7.3-i, A32).",
    )
    extra_balls: Annotated[list[ExtraBallsIn], AfterValidator(each_player_once)] = Field(
        [],
        description="For a reason that ends the game: the extra balls each player had "
        "collected in it. The allowable ones are balls owed, and `ball` may be one of them "
        "(R7.3-l).",
    )
    slammer: int | None = Field(
        None,
        ge=1,
        le=MAX_ID,
        description="For a slam tilt: the player who slam tilted the machine on purpose. They "
        "are owed nothing (R8.4-a, A32); record their serious violation apart (§8.5).",
    )


class RulingOut(Schema):
    kind: MalfunctionKind = Field(..., description="What the malfunction is.")
    rule: str = Field(..., description="The rule that says so.")
    reason: str = Field(..., description="Why, in words.")


class CompensatoryRequestOut(Schema):
    id: int = Field(..., description="The request's id.")
    game_id: int = Field(..., description="The game's id.")
    player_id: int = Field(..., description="The player's id.")
    balls: int = Field(..., description="The balls the compensatory game holds (R7.3-l).")


class MalfunctionOut(Schema):
    """Read from the service's `ReportedMalfunction`."""

    id: int = Field(..., description="The malfunction's id.")
    ruling: RulingOut = Field(..., description="The rules' ruling on it.")
    entitled: bool = Field(..., description="He may now have a compensatory game (R7.3-k).")
    compensatory: CompensatoryRequestOut | None = Field(
        ..., description="The compensatory game request recorded with it; null: none."
    )
    machine_unplayable: bool = Field(
        ..., description="The machine became unplayable for the rest of the meet (R7.3-r)."
    )
    owed: list[OwedOut] = Field(
        ...,
        description="For a reason that ends the game: every player of the game, in play "
        "order, with his malfunctions and compensatory game; empty for any other reason.",
    )

    @staticmethod
    def resolve_id(obj: ReportedMalfunction) -> int:
        return obj.malfunction.pk

    @staticmethod
    def resolve_owed(obj: ReportedMalfunction) -> tuple[Owed, ...]:
        return obj.ending.owed if obj.ending is not None else ()


class CompensatoryRequestIn(InputSchema):
    player: int = id_field("The player entitled to a compensatory game.")
    play_continued: bool = Field(
        False, description="Play continued before he asked (then it is too late, RA-b)."
    )


class CompensatoryGameIn(InputSchema):
    player: int = id_field("The player who played the compensatory game.")
    new_score: int = score_field("The compensatory game's displayed score.")
    leading_subtracted: int = score_field("Score subtracted for a leading state (R7.3-n).", 0)
    state_subtracted: int = score_field("Score subtracted for the machine's state (R7.3-o).", 0)
    reason: str = text_field("Why anything is subtracted (needed then).", "")


class CompensatoryGameOut(Schema):
    id: int = Field(..., description="The compensatory game's id.")
    game_id: int = Field(..., description="The game's id.")
    player_id: int = Field(..., description="The player's id.")
    new_score: int = Field(..., description="Its displayed score.")
    leading_subtracted: int = Field(..., description="Subtracted for a leading state.")
    state_subtracted: int = Field(..., description="Subtracted for the machine's state.")


class DiscardIn(InputSchema):
    discard_scores_of: list[Id] = id_list(
        "The players whose completed scores are discarded (R7.4-c).",
        min_length=1,
        alias="players",
    )
    reason: str = text_field("Why (required).", min_length=1)


class DiscardedOut(Schema):
    game_id: int = Field(..., description="The game's id.")
    players: list[int] = Field(..., description="Players whose scores were discarded.")


class ReplayScoresIn(InputSchema):
    scores: Annotated[list[CorrectedScoreIn], AfterValidator(each_player_once)] = Field(
        ..., min_length=1, max_length=8, description="The replay's score of each discarded one."
    )
    entered_by: int = id_field("The group member who enters the sheet.")
    confirmed_by: int = id_field("Another group member who confirms it (R3-a).")
    tie_order: list[list[Id]] = Field(
        default_factory=list, max_length=limits.MAX_GROUP_SIZE, description=TIE_ORDER_DESCRIPTION
    )


class TurnRulingIn(InputSchema):
    """`record_turn_ruling`'s arguments (the game is the path's, the kind the path's too)."""

    player: int = id_field(
        "The player whose turn the ruling is about: one of the game's group who has not "
        "forfeited it."
    )
    reason: str = text_field("What the official saw (required).", min_length=1)


class TurnRulingOut(Schema):
    """Read from the recorded `Ruling`."""

    id: int = Field(..., description="The ruling's id.")
    kind: str = Field(
        ...,
        description="The ruling's kind, as the path names it.",
        json_schema_extra={"enum": list(KINDS)},  # the registry's kinds, one endpoint each
    )
    game_id: int = Field(..., description="The game's id.")
    player_id: int = Field(..., description="The player's id.")
    reason: str = Field(..., description="The official's reason.")
    official_involved: bool = Field(
        ..., description="The official plays in the game's group (allowed and flagged, A55)."
    )
    created_at: datetime.datetime = Field(..., description="When it was recorded.")
