"""A meet's records read back (`flipwell.league.selectors.meet_records`): forfeits,
malfunctions, compensatory games, violations with their §8.5 penalty, and the officials'
rulings about its games. Each item names the game (id, group and game number), the player,
who recorded it and when; what the rules derive (the score a compensatory game makes count, a
violation's penalty) is the season fold's, never a stored number."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import PlayerRefOut
from flipwell.league import enums

if TYPE_CHECKING:
    from flipwell.league import models as m
    from flipwell.league.selectors.meet_records import (
        CompensatoryRecord,
        ForfeitRecord,
        ViolationRecord,
    )

NEXT = "URL of the next page; null on the last page."
RECORDED_BY = "The account of the official (or the token's issuer) who recorded it."


def _player(player: m.Player) -> dict[str, Any]:
    return {"id": player.pk, "name": str(player)}


def _author(user: Any) -> str | None:
    return None if user is None else str(user.get_username())


class GameRefOut(Schema):
    id: int = Field(..., description="The game's id.")
    group: int = Field(..., description="The group's number at the meet.")
    number: int = Field(..., description="The game's number in the match (1 to 4).")


def _game(game: m.Game) -> dict[str, int]:
    return {"id": game.pk, "group": game.group.number, "number": game.number}


class ForfeitRecordOut(Schema):
    """Read from the selector's `ForfeitRecord`."""

    id: int | None = Field(
        ..., description="The recorded forfeit's id; null for a forfeit of another source."
    )
    source: Literal["recorded", "score_sheet", "match_absence"] = Field(
        ...,
        description="recorded: by an official or a client (POST /games/{id}/forfeits); "
        "score_sheet: the player's forfeit box on the counted sheet; match_absence: his "
        "absence for the rest of the match (R2.4-a).",
    )
    game: GameRefOut = Field(..., description="The game forfeited.")
    player: PlayerRefOut = Field(..., description="The player who forfeits it.")
    countable: bool = Field(..., description="Counts toward the season forfeit (R2.4-g, §2.5).")
    reason: enums.ForfeitReasonValue | None = Field(
        ..., description="Why (a recorded forfeit's reason); null for another source."
    )
    note: str = Field(..., description="Why, in words (a match absence's note for one).")
    recorded_by: str | None = Field(..., description=RECORDED_BY + " Null: not recorded so.")
    recorded_at: datetime.datetime | None = Field(
        ..., description="When it was recorded; null for another source."
    )

    @staticmethod
    def resolve_id(obj: ForfeitRecord) -> int | None:
        return None if obj.row is None else obj.row.pk

    @staticmethod
    def resolve_game(obj: ForfeitRecord) -> dict[str, int]:
        return _game(obj.forfeit.game)

    @staticmethod
    def resolve_player(obj: ForfeitRecord) -> dict[str, Any]:
        return _player(obj.forfeit.player)

    @staticmethod
    def resolve_countable(obj: ForfeitRecord) -> bool:
        return obj.forfeit.countable

    @staticmethod
    def resolve_reason(obj: ForfeitRecord) -> str | None:
        return None if obj.row is None else obj.row.reason

    @staticmethod
    def resolve_note(obj: ForfeitRecord) -> str:
        return obj.forfeit.note

    @staticmethod
    def resolve_recorded_by(obj: ForfeitRecord) -> str | None:
        return None if obj.row is None else _author(obj.row.recorded_by)

    @staticmethod
    def resolve_recorded_at(obj: ForfeitRecord) -> datetime.datetime | None:
        return None if obj.row is None else obj.row.created_at


class ForfeitRecordPage(Schema):
    results: list[ForfeitRecordOut] = Field(
        ..., description="This page's forfeits, by group, game and player."
    )
    next: str | None = Field(..., description=NEXT)


class MalfunctionRecordOut(Schema):
    """Read from a stored `Malfunction`."""

    id: int = Field(..., description="The malfunction's id.")
    game: GameRefOut = Field(..., description="The game it happened in.")
    machine_id: int = Field(..., description="The game's machine.")
    machine: str = Field(..., description="Its title.")
    player: PlayerRefOut = Field(..., description="The player whose ball malfunctioned.")
    ball: int = Field(..., description="The ball (1 = first ball).")
    kind: enums.MalfunctionKindValue = Field(..., description="What the rules ruled it (§7.3).")
    reason_code: enums.MalfunctionReasonValue = Field(..., description="What happened.")
    problem: str = Field(..., description="What went wrong, in the official's words.")
    note: str = Field(..., description="The official's note.")
    recorded_by: str = Field(..., description=RECORDED_BY)
    recorded_at: datetime.datetime = Field(..., description="When it was recorded.")

    @staticmethod
    def resolve_game(obj: m.Malfunction) -> dict[str, int]:
        return _game(obj.game)

    @staticmethod
    def resolve_machine_id(obj: m.Malfunction) -> int:
        return obj.game.machine_id

    @staticmethod
    def resolve_machine(obj: m.Malfunction) -> str:
        return obj.game.machine.title

    @staticmethod
    def resolve_player(obj: m.Malfunction) -> dict[str, Any]:
        return _player(obj.player)

    @staticmethod
    def resolve_recorded_by(obj: m.Malfunction) -> str | None:
        return _author(obj.official)

    @staticmethod
    def resolve_recorded_at(obj: m.Malfunction) -> datetime.datetime:
        return obj.created_at


class MalfunctionRecordPage(Schema):
    results: list[MalfunctionRecordOut] = Field(
        ..., description="This page's malfunctions, by id (the order they were recorded)."
    )
    next: str | None = Field(..., description=NEXT)


class CompensatoryRecordOut(Schema):
    """Read from the selector's `CompensatoryRecord`."""

    game: GameRefOut = Field(..., description="The game it makes up for.")
    player: PlayerRefOut = Field(..., description="The player who plays it.")
    request_id: int | None = Field(
        ..., description="The granted request's id (R7.3-k, RA-b); null: none recorded."
    )
    balls: int | None = Field(
        ..., description="The balls the compensatory game holds (R7.3-l); null: no request."
    )
    id: int | None = Field(
        ..., description="The played compensatory game's id; null while it is not played."
    )
    new_score: int | None = Field(
        ..., description="Its displayed score (R7.3-m); null while it is not played."
    )
    leading_subtracted: int | None = Field(
        ..., description="What the official subtracted for a leading state (R7.3-n)."
    )
    state_subtracted: int | None = Field(
        ..., description="What the official subtracted for the machine's state (R7.3-o)."
    )
    entered: int | None = Field(
        ...,
        description="The player's score entered on the game's counted sheet; null until the "
        "game's scores are confirmed (or a forfeit).",
    )
    score: int | None = Field(
        ...,
        description="The score that counts in the game, as the season fold decides it (the "
        "meet board's); null until the game's scores are confirmed (or a forfeit).",
    )
    recorded_by: str = Field(..., description=RECORDED_BY + " (the latest step)")
    recorded_at: datetime.datetime = Field(..., description="When (the latest step).")

    @staticmethod
    def resolve_game(obj: CompensatoryRecord) -> dict[str, int]:
        return _game(obj.game)

    @staticmethod
    def resolve_player(obj: CompensatoryRecord) -> dict[str, Any]:
        return _player(obj.player)

    @staticmethod
    def resolve_request_id(obj: CompensatoryRecord) -> int | None:
        return None if obj.request is None else obj.request.pk

    @staticmethod
    def resolve_balls(obj: CompensatoryRecord) -> int | None:
        return None if obj.request is None else obj.request.balls

    @staticmethod
    def resolve_id(obj: CompensatoryRecord) -> int | None:
        return None if obj.played is None else obj.played.pk

    @staticmethod
    def resolve_new_score(obj: CompensatoryRecord) -> int | None:
        return None if obj.played is None else obj.played.new_score

    @staticmethod
    def resolve_leading_subtracted(obj: CompensatoryRecord) -> int | None:
        return None if obj.played is None else obj.played.leading_subtracted

    @staticmethod
    def resolve_state_subtracted(obj: CompensatoryRecord) -> int | None:
        return None if obj.played is None else obj.played.state_subtracted

    @staticmethod
    def resolve_score(obj: CompensatoryRecord) -> int | None:
        return obj.counts

    @staticmethod
    def resolve_recorded_by(obj: CompensatoryRecord) -> str | None:
        return _author(_latest(obj).official)

    @staticmethod
    def resolve_recorded_at(obj: CompensatoryRecord) -> datetime.datetime:
        return _latest(obj).created_at


def _latest(obj: CompensatoryRecord) -> m.CompensatoryGame | m.CompensatoryRequest:
    latest = obj.played or obj.request
    assert latest is not None  # a record is a request, a played game, or both
    return latest


class CompensatoryRecordPage(Schema):
    results: list[CompensatoryRecordOut] = Field(
        ..., description="This page's compensatory games, by group, game and player."
    )
    next: str | None = Field(..., description=NEXT)


class PenaltyReadOut(Schema):
    """Read from the fold's `PenaltyDecision`."""

    offense: int | None = Field(
        ..., description="Its number among his serious violations; null: not serious."
    )
    effect: enums.PenaltyEffect = Field(..., description="The §8.5 penalty.")
    target: enums.PenaltyTarget = Field(..., description="How the penalised game was chosen.")
    game: int | None = Field(
        ..., description="The game of his match penalised (1 to 4), once known."
    )
    game_penalty: enums.GamePenalty | None = Field(
        ..., description="How that game is penalised (A26)."
    )
    countable_forfeit: bool = Field(..., description="The forfeit counts toward §2.5.")
    scores_wiped: bool = Field(..., description="His scores are wiped.")
    suspended: bool = Field(..., description="He is suspended.")
    rescore_others: bool = Field(..., description="Others' games are re-scored (A36).")
    rules: list[str] = Field(..., description="The rules applied.")
    reason: str = Field(..., description="Why, in words.")


class ViolationRecordOut(Schema):
    """Read from the selector's `ViolationRecord`."""

    id: int = Field(..., description="The violation's id.")
    player: PlayerRefOut = Field(..., description="The violator.")
    kind: enums.ViolationKindValue = Field(..., description="The violation (§8).")
    serious: bool = Field(..., description="Recorded as serious (the rules' or the LO's call).")
    game: GameRefOut | None = Field(
        ..., description="The game it happened during; null: between games."
    )
    games_completed: int = Field(..., description="Games his group had completed before it.")
    target_game: int | None = Field(..., description="The LO's choice of game (A27.4).")
    last_allowable_ball: bool = Field(..., description="§8.1: on his last allowable ball.")
    slam_tilted: bool = Field(..., description="§8.7: the deathsave or bangback slam-tilted.")
    reason: str = Field(..., description="What happened, in the official's words.")
    penalty: PenaltyReadOut | None = Field(
        ...,
        description="Its §8.5 penalty as the season fold decides it now (a later correction "
        "or violation can change it); null while the fold has not folded the meet.",
    )
    recorded_by: str = Field(..., description=RECORDED_BY)
    recorded_at: datetime.datetime = Field(..., description="When it was recorded.")

    @staticmethod
    def resolve_id(obj: ViolationRecord) -> int:
        return obj.violation.pk

    @staticmethod
    def resolve_player(obj: ViolationRecord) -> dict[str, Any]:
        return _player(obj.violation.player)

    @staticmethod
    def resolve_kind(obj: ViolationRecord) -> str:
        return obj.violation.kind

    @staticmethod
    def resolve_serious(obj: ViolationRecord) -> bool:
        return obj.violation.serious

    @staticmethod
    def resolve_game(obj: ViolationRecord) -> dict[str, int] | None:
        game = obj.violation.game
        return None if game is None else _game(game)

    @staticmethod
    def resolve_games_completed(obj: ViolationRecord) -> int:
        return obj.violation.games_completed

    @staticmethod
    def resolve_target_game(obj: ViolationRecord) -> int | None:
        return obj.violation.target_game

    @staticmethod
    def resolve_last_allowable_ball(obj: ViolationRecord) -> bool:
        return obj.violation.last_allowable_ball

    @staticmethod
    def resolve_slam_tilted(obj: ViolationRecord) -> bool:
        return obj.violation.slam_tilted

    @staticmethod
    def resolve_reason(obj: ViolationRecord) -> str:
        return obj.violation.reason

    @staticmethod
    def resolve_recorded_by(obj: ViolationRecord) -> str | None:
        return _author(obj.violation.official)

    @staticmethod
    def resolve_recorded_at(obj: ViolationRecord) -> datetime.datetime:
        return obj.violation.created_at


class ViolationRecordPage(Schema):
    results: list[ViolationRecordOut] = Field(
        ..., description="This page's violations, in the order they were recorded."
    )
    next: str | None = Field(..., description=NEXT)


class RulingRecordOut(Schema):
    """Read from a stored `Ruling` about the meet or one of its games."""

    id: int = Field(..., description="The ruling's id.")
    kind: enums.RulingKindValue = Field(
        ...,
        description="What was ruled: a turn ruling's kind (slow_play_warning, ...), or the "
        "kind of another decision about the game (malfunction, forfeit_not_countable, "
        "violation_not_serious, ...) or about the meet (grouping_override, "
        "meet_closed_unfinished, meet_rescheduled, meet_date).",
    )
    subject: str = Field(..., description="What it is about, in words.")
    game: GameRefOut | None = Field(
        ..., description="The game it is about; null: about the meet as a whole."
    )
    player: PlayerRefOut | None = Field(
        ..., description="The player it is about; null: about the game or several players."
    )
    reason: str = Field(..., description="Why, in the official's words (R1.1-b).")
    official_involved: bool = Field(
        ..., description="The official plays in the game's group (allowed and flagged, A55)."
    )
    recorded_by: str = Field(..., description="The official who ruled.")
    recorded_at: datetime.datetime = Field(..., description="When.")

    @staticmethod
    def resolve_game(obj: m.Ruling) -> dict[str, int] | None:
        return None if obj.game is None else _game(obj.game)

    @staticmethod
    def resolve_player(obj: m.Ruling) -> dict[str, Any] | None:
        return None if obj.player is None else _player(obj.player)

    @staticmethod
    def resolve_recorded_by(obj: m.Ruling) -> str | None:
        return _author(obj.official)

    @staticmethod
    def resolve_recorded_at(obj: m.Ruling) -> datetime.datetime:
        return obj.created_at


class RulingRecordPage(Schema):
    results: list[RulingRecordOut] = Field(
        ..., description="This page's rulings, by id (the order they were recorded)."
    )
    next: str | None = Field(..., description=NEXT)
