"""Violations (§8): the violation and its penalty, the victim's remedy, a restart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ninja import Field, Schema

from flipwell.api.schemas.common import MAX_CENTS, InputSchema, bounded, id_field, text_field
from flipwell.league import enums, limits

if TYPE_CHECKING:
    from flipwell.league.services.violations.penalties import RecordedViolation
    from flipwell.league.services.violations.remedies import RecordedRemedy
    from flipwell.league.services.violations.restarts import RecordedRestart

ViolationKind = enums.ViolationKindValue


class ViolationIn(InputSchema):
    player: int = id_field("The violator.")
    kind: ViolationKind = Field(..., description="The violation (§8).")
    reason: str = text_field("What happened (required).", min_length=1)
    game: int | None = id_field(
        "The game it happened during (its scores confirmed); null: between games.", None
    )
    games_completed: int = bounded(
        limits.GAMES_COMPLETED, "Between games: how many games were completed.", 0
    )
    serious: bool | None = Field(
        None, description="The LO's call where the rules allow one (A28); null: the rules'."
    )
    target_game: int | None = bounded(
        limits.TARGET_GAME, "The game to penalise where the LO chooses (A27.4).", None
    )
    last_allowable_ball: bool = Field(
        False, description="§8.1: it came on or after his last allowable ball."
    )
    slam_tilted: bool = Field(False, description="§8.7: the deathsave or bangback slam-tilted.")


class PenaltyOut(Schema):
    """Read from the service's `RecordedViolation`: the stored violation and the rules' decision."""

    violation_id: int = Field(..., description="The recorded violation's id.")
    violator: int = Field(..., description="The violator's player id.")
    offense: int | None = Field(
        ..., description="Its number among his serious violations; null: not serious."
    )
    effect: enums.PenaltyEffect = Field(..., description="The §8.5 penalty.")
    target: enums.PenaltyTarget = Field(..., description="How the penalised game was chosen.")
    game: int | None = Field(..., description="The game of the match penalised, when known.")
    game_penalty: enums.GamePenalty | None = Field(
        ..., description="How that game is penalised (A26)."
    )
    countable_forfeit: bool = Field(..., description="The forfeit counts toward §2.5.")
    scores_wiped: bool = Field(..., description="His scores are wiped.")
    suspended: bool = Field(..., description="He is suspended.")
    rescore_others: bool = Field(..., description="Others' games are re-scored (A36).")
    rules: list[str] = Field(..., description="The rules applied.")
    reason: str = Field(..., description="Why, in words.")

    @staticmethod
    def resolve_violation_id(obj: RecordedViolation) -> int:
        return obj.violation.pk

    @staticmethod
    def resolve_violator(obj: RecordedViolation) -> int:
        return int(obj.decision.violator)

    @staticmethod
    def resolve_offense(obj: RecordedViolation) -> int | None:
        return obj.decision.offense

    @staticmethod
    def resolve_effect(obj: RecordedViolation) -> str:
        return obj.decision.effect

    @staticmethod
    def resolve_target(obj: RecordedViolation) -> str:
        return obj.decision.target

    @staticmethod
    def resolve_game(obj: RecordedViolation) -> int | None:
        return obj.decision.game

    @staticmethod
    def resolve_game_penalty(obj: RecordedViolation) -> str | None:
        return obj.decision.game_penalty

    @staticmethod
    def resolve_countable_forfeit(obj: RecordedViolation) -> bool:
        return obj.decision.countable_forfeit

    @staticmethod
    def resolve_scores_wiped(obj: RecordedViolation) -> bool:
        return obj.decision.scores_wiped

    @staticmethod
    def resolve_suspended(obj: RecordedViolation) -> bool:
        return obj.decision.suspended

    @staticmethod
    def resolve_rescore_others(obj: RecordedViolation) -> bool:
        return obj.decision.rescore_others

    @staticmethod
    def resolve_rules(obj: RecordedViolation) -> list[str]:
        return list(obj.decision.rules)

    @staticmethod
    def resolve_reason(obj: RecordedViolation) -> str:
        return obj.decision.reason


RemedyChoice = enums.RemedyChoiceValue


class RemedyIn(InputSchema):
    victim: int = id_field("The victim of the violation.")
    announced: RemedyChoice | None = Field(
        None, description="His choice announced before play resumed; null: none (A29)."
    )
    unallowable_ball: bool = Field(False, description="§8.2: the played ball was unallowable.")
    allowable_balls_left: bool = Field(True, description="§8.2: he had allowable balls left.")
    caused_loss: bool = Field(True, description="§8.3: it caused a drain or loss of turn.")
    earned_extra_ball_used: bool = Field(
        False, description="A30: the additional ball was an earned extra ball."
    )
    game_price_cents: int | None = Field(
        None, ge=0, le=MAX_CENTS, description="A game's price, when the remedy is a replay."
    )
    ball_price_cents: int | None = Field(
        None, ge=0, le=MAX_CENTS, description="A ball's price, when it is a buy-in ball."
    )


class ChargeOut(Schema):
    id: int = Field(..., description="The ledger entry's id.")
    amount_cents: int = Field(..., description="Signed cents on its account.")


class RemedyOut(Schema):
    """Read from the service's `RecordedRemedy`: the stored row, the rules' remedy, the charge."""

    id: int = Field(..., description="The recorded remedy's id.")
    choice: RemedyChoice | None = Field(..., description="The remedy.")
    additional_balls: int = Field(..., description="Balls he plays to replace the lost one.")
    replay: bool = Field(..., description="He replays the whole game alone (R8.2-e).")
    presumed: bool = Field(..., description="He announced nothing: the default applies (A29).")
    rules: list[str] = Field(..., description="The rules applied.")
    reason: str = Field(..., description="Why, in words.")
    charge: ChargeOut | None = Field(..., description="The violator's charge (R8.3-d); null.")

    @staticmethod
    def resolve_id(obj: RecordedRemedy) -> int:
        return obj.row.pk

    @staticmethod
    def resolve_choice(obj: RecordedRemedy) -> str | None:
        return obj.remedy.choice

    @staticmethod
    def resolve_additional_balls(obj: RecordedRemedy) -> int:
        return obj.remedy.additional_balls

    @staticmethod
    def resolve_replay(obj: RecordedRemedy) -> bool:
        return obj.remedy.replay

    @staticmethod
    def resolve_presumed(obj: RecordedRemedy) -> bool:
        return obj.remedy.presumed

    @staticmethod
    def resolve_rules(obj: RecordedRemedy) -> list[str]:
        return list(obj.remedy.rules)

    @staticmethod
    def resolve_reason(obj: RecordedRemedy) -> str:
        return obj.remedy.reason


class RestartIn(InputSchema):
    responsible: int = id_field("The player responsible for the wrong count (R8.6-d).")
    games_started: int = Field(..., ge=0, le=100, description="Games started on the machine.")
    game_price_cents: int = Field(..., ge=0, le=MAX_CENTS, description="A game's price, cents.")
    more_games_possible: bool = Field(False, description="More games can still be started.")
    note: str = text_field("A note.", "")


class RestartOut(Schema):
    """Read from the service's `RecordedRestart`."""

    id: int = Field(..., description="The restart's id.")
    game_id: int = Field(..., description="The game's id.")
    games_started: int = Field(..., description="Games that were started.")
    players: int = Field(..., description="Players present for the game.")
    charge: ChargeOut | None = Field(..., description="The restart charge; null when free.")

    @staticmethod
    def resolve_id(obj: RecordedRestart) -> int:
        return obj.restart.pk

    @staticmethod
    def resolve_game_id(obj: RecordedRestart) -> int:
        return obj.restart.game_id

    @staticmethod
    def resolve_games_started(obj: RecordedRestart) -> int:
        return obj.restart.games_started

    @staticmethod
    def resolve_players(obj: RecordedRestart) -> int:
        return obj.restart.players
