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
from flipwell.rules import ScoreChangeKind

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from flipwell.api.queries import GameRead
    from flipwell.league import models as m
    from flipwell.league.selectors.meet_board.values import RankingLine
    from flipwell.league.services.scores.entry import SubmittedScores


class ScoreOut(Schema):
    player_id: int = Field(..., description="The player's id.")
    machine_score: int | None = Field(
        ..., description="His machine score (an integer of any size); null: no score (forfeit)."
    )


class AdjustmentOut(Schema):
    """Read from a game line's `Adjustment` (`flipwell.league.selectors.meet_board`)."""

    kind: ScoreChangeKind = Field(
        ...,
        description="What changed the entered score: compensatory (his compensatory game's "
        "score was added, R7.3-m), subtracted (points the official took off that game, "
        "R7.3-n/o), reduced (by 25%, R8.1-b), zeroed (the score counts as zero, R8.2-a, "
        "R8.7-a), penalty (a serious violation's penalty fell on this game, R8.5-c), forfeited "
        "(no score counts: a forfeit, R2.4-b, or his season ended, R2.5-b).",
    )
    amount: int | None = Field(
        ...,
        description="The signed change to the score (e.g. +14600000 for a compensatory game, "
        "-20000000 for a zeroed 20,000,000); null where it has none (a forfeit).",
    )
    text: str = Field(..., description="The change in plain words, players named; no rule id.")


class GameLineOut(Schema):
    """One player's game line, from the season fold (the meet board's `RankingLine`)."""

    player_id: int = Field(..., description="The player's id.")
    machine_score: int | None = Field(
        ...,
        description="The score that COUNTS: the one the game ranks him by, after every "
        "adjustment (an integer of any size); null: no score counts (a forfeit).",
    )
    entered_score: int | None = Field(
        ...,
        description="The score as entered on the counted (confirmed) sheet, before any "
        "adjustment; null: none was entered (a forfeit).",
    )
    adjustments: list[AdjustmentOut] = Field(
        ..., description="Each change from entered_score to machine_score, in order; empty: none."
    )
    rule_ids: list[str] = Field(..., description="The rules behind the adjustments (the why).")
    place: int | None = Field(
        ..., description="His finishing place in the game, 1 = first; null: not ranked (forfeit)."
    )
    points: int | None = Field(
        ..., description="His game points, bonus point included (R3.2), as the fold gives them."
    )

    @staticmethod
    def resolve_player_id(obj: RankingLine) -> int:
        return obj.player

    @staticmethod
    def resolve_machine_score(obj: RankingLine) -> int | None:
        return obj.score

    @staticmethod
    def resolve_entered_score(obj: RankingLine) -> int | None:
        return obj.entered

    @staticmethod
    def resolve_adjustments(obj: RankingLine) -> list[dict[str, Any]]:
        return [{"kind": c.kind, "amount": c.amount, "text": c.text} for c in obj.changes]

    @staticmethod
    def resolve_rule_ids(obj: RankingLine) -> list[str]:
        return list(obj.rule_ids)


class CompensatoryOut(Schema):
    player_id: int = Field(..., description="The player who played it (R7.3-m).")
    score: int = Field(..., description="The compensatory game's displayed score.")
    subtracted: int = Field(
        ...,
        description="What the official subtracted from it: plunged leading balls and "
        "state-setting points (R7.3-n, R7.3-o).",
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
    """Read from a stored `Game`, its group's members and its sheets, and the game's lines on
    the meet board (`GameRead`)."""

    id: int = Field(..., description="The game's id.")
    meet_id: int = Field(..., description="The meet's id.")
    group_number: int = Field(..., description="The group's number at the meet.")
    number: int = Field(..., description="The game's number in the match.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    players: list[PlayerRefOut] = Field(..., description="The group's players, ladder order.")
    submissions: list[SubmissionOut] = Field(
        ..., description="Every version of its sheet, as entered (facts; not the result)."
    )
    result: list[GameLineOut] | None = Field(
        ...,
        description="The result as the season fold decides it: each player's game line, "
        "ladder order (the score that counts, the score entered, the adjustments, place and "
        "points); null until a sheet is confirmed.",
    )
    compensatory_games: list[CompensatoryOut] = Field(
        ..., description="The compensatory games recorded for this game (R7.3-m); empty: none."
    )

    @staticmethod
    def resolve_id(obj: GameRead) -> int:
        return obj.game.pk

    @staticmethod
    def resolve_number(obj: GameRead) -> int:
        return obj.game.number

    @staticmethod
    def resolve_machine_id(obj: GameRead) -> int:
        return obj.game.machine_id

    @staticmethod
    def resolve_meet_id(obj: GameRead) -> int:
        return obj.game.group.meet_id

    @staticmethod
    def resolve_group_number(obj: GameRead) -> int:
        return obj.game.group.number

    @staticmethod
    def resolve_machine(obj: GameRead) -> str:
        return obj.game.machine.title

    @staticmethod
    def resolve_players(obj: GameRead) -> list[dict[str, Any]]:
        return [
            {
                "id": member.player_id,
                "name": f"{member.player.first_name} {member.player.last_name}",
            }
            for member in obj.game.group.members.all()
        ]

    @staticmethod
    def resolve_submissions(obj: GameRead) -> QuerySet[m.ScoreSubmission]:
        return obj.game.submissions.all()

    @staticmethod
    def resolve_result(obj: GameRead) -> tuple[RankingLine, ...] | None:
        if obj.board is None or not obj.board.confirmed or not obj.board.cells:
            return None
        return obj.board.cells

    @staticmethod
    def resolve_compensatory_games(obj: GameRead) -> list[dict[str, int]]:
        if obj.board is None:
            return []
        return [
            {"player_id": p, "score": parts.new_score, "subtracted": parts.subtracted}
            for p, parts in obj.board.compensatory.items()
        ]


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
        "gets the first answer again (`Idempotent-Replayed: true`), the same key with another "
        "sheet is a 409 `idempotency_key_reused`. Without an Idempotency-Key header, it is "
        "this request's key.",
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
    points: dict[str, int] = Field(
        ...,
        description="Player id -> the game points the sheet will give once confirmed (R3.2, "
        "R3-a): the season folded with it, so a compensatory game, a zero score or a "
        "penalty already recorded counts (what a confirmer checks). The stored result is "
        "the game read's `result` (GET /api/v1/games/{id}) after confirmation.",
    )
    replayed: bool = Field(
        ...,
        description="Deprecated: tell a retry by the `Idempotent-Replayed: true` header. A retry "
        "gets the first answer again, so this is false in it; true only when the first answer "
        "is no longer kept (older than the key's lifetime) and the sheet was found by its key.",
    )

    @staticmethod
    def resolve_points(obj: SubmittedScores) -> dict[str, int]:
        return {str(p): v for p, v in obj.points.items()}


class ConfirmIn(InputSchema):
    confirmed_by: int = Field(
        ..., ge=1, le=MAX_ID, description="Another player of the group who confirms (R3-a)."
    )
