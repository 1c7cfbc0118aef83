"""The playoff night (§6): brackets, qualification, seed playoffs, games, tiebreakers,
no-shows and lateness."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import AfterValidator

from flipwell.api.schemas.common import (
    EXACT,
    Day,
    ExactPoints,
    Id,
    InputSchema,
    Moment,
    PlayerRefOut,
    Points,
    each_player_once,
    id_field,
    id_list,
    score_field,
    text_field,
)
from flipwell.league import enums, limits
from flipwell.league.selectors.playoffs.facts import player_names
from flipwell.rules import MatchStatus

if TYPE_CHECKING:
    from flipwell.league import models as m
    from flipwell.league.selectors.playoffs.bracket import DivisionView, MatchView
    from flipwell.league.services.playoff_matches.missing_players import PlayoffLateness
    from flipwell.league.services.playoff_matches.tiebreakers import RecordedTiebreaker
    from flipwell.rules import PlayoffQualification, PlayoffSeeding, SeedTie


class SeedOut(Schema):
    seed: int = Field(..., description="The seed, 1 = highest.")
    player: PlayerRefOut | None = Field(..., description="Who holds it; null: a bye.")


class PlayedGameOut(Schema):
    number: int = Field(..., description="The game's number in the match.")
    machine: str = Field(..., description="The machine's title.")
    order: list[PlayerRefOut] = Field(..., description="Finishing order, winner first.")


class GameInProgressOut(Schema):
    game_id: int = Field(..., description="The playoff game's id.")
    number: int = Field(..., description="Its number in the match.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")


class TotalOut(Schema):
    player: PlayerRefOut = Field(..., description="A player of the match.")
    points: int = Field(..., description="His match points so far.")


class PlaceOut(Schema):
    place: int = Field(..., description="Final place in the division.")
    player: PlayerRefOut = Field(..., description="The player.")


class PlayoffMatchOut(Schema):
    """Read from the bracket's `MatchView`."""

    match: str = Field(..., description="QF1, QF2, SF1, SF2 or F.")
    round: str = Field(..., description="quarterfinal, semifinal or final.")
    status: MatchStatus = Field(..., description="Where the match stands.")
    needed: str = Field(..., description="What it still needs, in words.")
    players: list[PlayerRefOut] = Field(..., description="Who plays it.")
    no_shows: list[PlayerRefOut] = Field(..., description="Who did not show (R6.6-c).")
    games: list[PlayedGameOut] = Field(..., description="Its recorded games.")
    game_in_progress: GameInProgressOut | None = Field(..., description="A started game.")
    next_game: int | None = Field(..., description="The next game's number; null: none.")
    play_order: list[PlayerRefOut] = Field(..., description="Play order of the next game.")
    machine_chooser: PlayerRefOut | None = Field(
        ..., description="Who picks the next machine (R6.4-c); null: drawn at random."
    )
    totals: list[TotalOut] = Field(..., description="Match points so far.")
    tied: list[list[PlayerRefOut]] = Field(..., description="Ties waiting for a tiebreaker.")
    advancing: list[PlayerRefOut] = Field(..., description="Who advances.")
    eliminated: list[PlayerRefOut] = Field(..., description="Who is out.")
    placing: list[PlayerRefOut] = Field(..., description="The final's order, when complete.")

    @staticmethod
    def resolve_totals(obj: MatchView) -> list[dict[str, Any]]:
        return [{"player": player, "points": points} for player, points in obj.totals]


class DivisionOut(Schema):
    """Read from the bracket's `DivisionView`."""

    name: str = Field(..., description="The division's name.")
    bracket: int = Field(..., description="Bracket size.")
    seeds: list[SeedOut] = Field(..., description="Every seed and who holds it.")
    matches: list[PlayoffMatchOut] = Field(..., description="Its matches.")
    complete: bool = Field(..., description="Its final is complete.")
    places: list[PlaceOut] = Field(..., description="Final places once complete.")

    @staticmethod
    def resolve_seeds(obj: DivisionView) -> list[dict[str, Any]]:
        return [{"seed": seed, "player": player} for seed, player in obj.seeds]

    @staticmethod
    def resolve_places(obj: DivisionView) -> list[dict[str, Any]]:
        return [{"place": place, "player": player} for place, player in obj.places]


class PlayoffsOut(Schema):
    """Read from the selector's `PlayoffBracket`."""

    season_id: int = Field(..., description="The season's id.")
    date: datetime.date | None = Field(..., description="The playoff night; null: not planned.")
    status: Literal["not planned", "planned", "open", "closed"] = Field(
        ..., description="The playoff night's status ('not planned' before qualification)."
    )
    ties: list[str] = Field(..., description="Qualification ties waiting for a playoff.")
    divisions: list[DivisionOut] = Field(..., description="Each division's bracket.")


class QualifyIn(InputSchema):
    date: Day = Field(..., description="The playoff night's date.")
    cut: int | None = Field(
        None,
        ge=limits.QUALIFIERS.minimum,
        le=limits.QUALIFIERS.maximum,
        description="The LO's number of qualifiers (A06); null: §6.1.",
    )
    cut_reason: str = text_field("Why the cut is overridden (needed then).", "")


class QualifyingDivisionOut(Schema):
    name: str = Field(..., description="The division's name.")
    first_rank: int = Field(..., description="Its first season rank.")
    last_rank: int = Field(..., description="Its last season rank.")
    bracket: int = Field(..., description="Bracket size (8 or 12).")


class SeedingOut(Schema):
    """Read from the rules' `PlayoffSeeding` (player keys become ids)."""

    division: str = Field(..., description="The division's name.")
    seeds: list[int | None] = Field(..., description="Player ids, seed 1 first; null: vacant.")

    @staticmethod
    def resolve_division(obj: PlayoffSeeding) -> str:
        return obj.division.name

    @staticmethod
    def resolve_seeds(obj: PlayoffSeeding) -> list[int | None]:
        return [None if p is None else int(p) for p in obj.seeds]


class SeedTieOut(Schema):
    """Read from the rules' `SeedTie` (player keys become ids)."""

    players: list[int] = Field(..., description="The tied players.")
    points: Points = Field(..., description="Their league points (a number).")
    points_exact: ExactPoints = Field(
        ..., validation_alias="points", pattern=EXACT, description="The points exactly."
    )
    line: enums.TieLine = Field(..., description="What the tie decides.")
    message: str = Field(..., description="The tie and what to do about it.")

    @staticmethod
    def resolve_players(obj: SeedTie) -> list[int]:
        return [int(p) for p in obj.players]

    @staticmethod
    def resolve_message(obj: SeedTie) -> str:
        # Players by name, not by id (one query per tie; a qualification has a few ties).
        return obj.render(player_names(obj.players))


class QualificationOut(Schema):
    """Read from the rules' `PlayoffQualification` (player keys become ids)."""

    league_size: int = Field(..., description="Eligible players.")
    cut: int = Field(..., description="How many qualify.")
    divisions: list[QualifyingDivisionOut] = Field(..., description="The divisions.")
    seedings: list[SeedingOut] = Field(..., description="Each division's seeds (when complete).")
    reserves: list[int] = Field(..., description="Reserves, first in line first.")
    ties: list[SeedTieOut] = Field(..., description="Ties to settle by a seed playoff.")
    complete: bool = Field(..., description="No tie is left: the bracket is drawn.")

    @staticmethod
    def resolve_reserves(obj: PlayoffQualification) -> list[int]:
        return [int(p) for p in obj.reserves]


class SeedPlayoffIn(InputSchema):
    order: list[Id] = id_list("The tied players, winner first.", max_length=64, min_length=1)
    machine: int | None = id_field("The machine it was played on; null: drawn.", None)


class WithdrawalIn(InputSchema):
    player: int = id_field("The player who cannot attend (R6.6-b).")
    note: str = text_field("A note.", "")


class StartPlayoffGameIn(InputSchema):
    machine: int | None = id_field(
        "Games 2 and 3: the chooser's machine (R6.4-c); null for game 1 (drawn, R6.4-b).", None
    )


class PlayoffGameOut(Schema):
    """Read from a stored `PlayoffGame`."""

    id: int = Field(..., description="The playoff game's id.")
    division: str = Field(..., description="The division.")
    round: enums.PlayoffRoundValue = Field(..., description="The round.")
    match_number: int = Field(..., description="The match's number in its round.")
    number: int = Field(..., description="The game's number in the match (1..3).")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    chosen_by: int | None = Field(..., description="Who chose it; null: drawn.")

    @staticmethod
    def resolve_division(obj: m.PlayoffGame) -> str:
        return obj.match.division

    @staticmethod
    def resolve_round(obj: m.PlayoffGame) -> str:
        return obj.match.round

    @staticmethod
    def resolve_match_number(obj: m.PlayoffGame) -> int:
        return obj.match.number

    @staticmethod
    def resolve_machine(obj: m.PlayoffGame) -> str:
        return obj.machine.title

    @staticmethod
    def resolve_chosen_by(obj: m.PlayoffGame) -> int | None:
        return obj.chosen_by_id


class PlayoffScoreIn(InputSchema):
    player: int = id_field("A present player of the match.")
    machine_score: int = score_field("His machine score.")


class PlayoffResultIn(InputSchema):
    order: list[Id] | None = Field(
        None, max_length=4, description="The finishing order, winner first; or give scores."
    )
    scores: Annotated[list[PlayoffScoreIn], AfterValidator(each_player_once)] | None = Field(
        None, max_length=4, description="Every present player's machine score; or give order."
    )
    tie_orders: list[list[Id]] = Field(
        default_factory=list,
        max_length=4,
        description="With scores: for equal scores, the one-ball playoff's order.",
    )


class TiebreakerIn(InputSchema):
    order: list[Id] = id_list("The tied players, winner first.", max_length=4, min_length=1)
    machine: int | None = id_field("Where it was played; null: drawn (R6.5-b).", None)


class TiebreakerOut(Schema):
    """Read from the service's `RecordedTiebreaker`."""

    id: int = Field(..., description="The tiebreaker's id.")
    machine_id: int | None = Field(..., description="The machine it was played on.")
    order: list[int] = Field(..., description="The players, winner first.")

    @staticmethod
    def resolve_id(obj: RecordedTiebreaker) -> int:
        return obj.tiebreaker.pk

    @staticmethod
    def resolve_machine_id(obj: RecordedTiebreaker) -> int | None:
        return obj.tiebreaker.machine_id

    @staticmethod
    def resolve_order(obj: RecordedTiebreaker) -> list[int]:
        return [place.player_id for place in obj.places]


class NoShowIn(InputSchema):
    player: int = id_field("The player not present at the match's start (R6.6-c).")
    note: str = text_field("A note.", "")


class NoShowOut(Schema):
    id: int = Field(..., description="The no-show's id.")
    player_id: int = Field(..., description="The player's id.")
    recorded_at: datetime.datetime = Field(..., description="When it was recorded.")


class PlayoffLatenessIn(InputSchema):
    player: int = id_field("The player who will be late (R6.6-a).")
    at: Moment | None = Field(None, description="When the LO was told; null: now.")


class PlayoffLatenessOut(Schema):
    """Read from the service's `PlayoffLateness`."""

    id: int = Field(..., description="The notice's id.")
    player_id: int = Field(..., description="The player's id.")
    start: datetime.datetime = Field(..., description="The match start it preceded.")
    wait_until: datetime.datetime = Field(..., description="The latest the match waits.")

    @staticmethod
    def resolve_id(obj: PlayoffLateness) -> int:
        return obj.notice.pk

    @staticmethod
    def resolve_player_id(obj: PlayoffLateness) -> int:
        return obj.notice.player_id


class PlayoffNightOut(Schema):
    season_id: int = Field(..., description="The season's id.")
    date: datetime.date = Field(..., description="The playoff night's date.")
    status: enums.MeetStatusValue = Field(..., description="Its status.")
