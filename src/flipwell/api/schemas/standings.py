"""Standings, a player's history and the ladder (§3, §4, §6.1 race), read from the
selectors' `Standings`, `PlayerHistory` and `NextMeet` (`flipwell.league.selectors.standings`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ninja import Field, Schema

from flipwell.api.schemas.common import (
    EXACT,
    ExactPoints,
    PlayerRefOut,
    Points,
    PointsMixin,
    ProvisionalMixin,
)
from flipwell.league import enums
from flipwell.rules import NightStatus

if TYPE_CHECKING:
    from flipwell.league.selectors.standings import GameLine

RaceStatus = enums.RaceStatus


class StandingLineOut(PointsMixin):
    rank: int = Field(..., description="Place in the standings, 1 = best.")
    player: PlayerRefOut = Field(..., description="The player.")
    games_played: int = Field(..., description="Games played.")
    forfeits: int = Field(..., description="Forfeits (§2.4).")
    countable_forfeits: int = Field(..., description="Forfeits counting toward §2.5.")
    season_forfeited_at: int | None = Field(
        ..., description="The meet his season was forfeited at (R2.5-a); null: it was not."
    )
    credit_used_at: int | None = Field(
        ..., description="The meet his all-night credit was used at (R2.4-d); null: unused."
    )
    offenses: int = Field(..., description="Serious violations (§8.5).")
    eligible: bool = Field(..., description="May still enter the playoffs (A05, A37).")
    race_status: RaceStatus | None = Field(
        ..., description="Playoff race: clinched, alive or eliminated; null: no race (§6.1)."
    )
    points_to_clinch: int | None = Field(
        ..., description="League points he still needs to clinch a playoff place; null: n/a."
    )
    points_after_meet: list[Points] = Field(
        ..., description="Running total after each meet (numbers, as league_points)."
    )
    points_after_meet_exact: list[ExactPoints] = Field(
        ...,
        validation_alias="points_after_meet",
        description="The same running totals exactly, as fractions.",
    )
    provisional_points: Points = Field(
        ...,
        description="The part of league_points from the open meet (0 when none is open): "
        "provisional until that meet closes.",
    )
    provisional_points_exact: ExactPoints = Field(
        ..., validation_alias="provisional_points", pattern=EXACT, description="The same, exactly."
    )


class StandingsOut(Schema):
    season_id: int = Field(..., description="The season's id.")
    meets_played: int = Field(..., description="Closed meets (an open meet is not one yet).")
    meets_left: int = Field(
        ...,
        description="Meets not closed yet, the open one included: meets_played + meets_left "
        "is the season's number of meets.",
    )
    open_meet: int | None = Field(
        ..., description="The number of the meet being played; null: none is."
    )
    provisional: bool = Field(
        ...,
        description="A meet is being played: the lines include its points, which may still "
        "change (each line's provisional_points).",
    )
    playoff_qualifiers: int | None = Field(
        ..., description="How many eligible players qualify (A05, §6.1); null below 6 players."
    )
    lines: list[StandingLineOut] = Field(..., description="Every player, best first.")


class HistoryScoreOut(Schema):
    player: PlayerRefOut = Field(..., description="A player of the group.")
    machine_score: int | None = Field(
        ...,
        description="His score that counts (the season fold's: after a compensatory game, a "
        "reduction, a zero score or a penalty); null: no score.",
    )


class HistoryGameOut(Schema):
    number: int = Field(..., description="The game's number in the match.")
    machine: str = Field(..., description="The machine, as the rules name it.")
    scores: list[HistoryScoreOut] = Field(..., description="Everyone's score in the game.")
    place: int | None = Field(..., description="His place; null when he did not finish.")
    points: int = Field(..., description="His game points (R3.2).")
    forfeited: bool = Field(..., description="He forfeited the game (§2.4).")
    explanation: list[str] = Field(..., description="Why he got these points, rule cited.")

    @staticmethod
    def resolve_scores(obj: GameLine) -> list[dict[str, Any]]:
        return [{"player": player, "machine_score": score} for player, score in obj.scores]


class HistoryMeetOut(PointsMixin):
    meet: int = Field(..., description="The meet's number.")
    status: NightStatus = Field(..., description="His night: played, absent, in progress, ...")
    group: list[PlayerRefOut] = Field(..., description="His group.")
    games: list[HistoryGameOut] = Field(..., description="His games, every point explained.")
    match_bonus: int = Field(..., description="His match bonus points (R3.3).")
    match_bonus_explanation: list[str] = Field(..., description="Why, rule cited.")
    credit: Points = Field(..., description="His §2.4 credit (a number, as league_points).")
    credit_exact: ExactPoints = Field(
        ..., validation_alias="credit", pattern=EXACT, description="The credit exactly."
    )
    penalty_games: list[int] = Field(..., description="Games his §8.5 penalties fell on.")
    violations: list[str] = Field(..., description="Violations recorded at this meet.")
    total_after: Points = Field(..., description="His season total after this meet.")
    total_after_exact: ExactPoints = Field(
        ..., validation_alias="total_after", pattern=EXACT, description="The total exactly."
    )


class PlayerHistoryOut(PointsMixin, ProvisionalMixin):
    player: PlayerRefOut = Field(..., description="The player.")
    meets: list[HistoryMeetOut] = Field(..., description="Every meet of his season.")


class LadderLineOut(PointsMixin):
    position: int = Field(..., description="Ladder position, 1 = top of group 1.")
    player: PlayerRefOut = Field(..., description="The player.")


class LadderOut(Schema):
    meet_number: int = Field(..., description="The next meet's number.")
    ladder: list[LadderLineOut] = Field(..., description="The ladder, top first (R4.3-c).")
    announced_absent: list[PlayerRefOut] = Field(..., description="Announced absentees.")
    groups: list[list[LadderLineOut]] = Field(..., description="The groups (R4.2-a).")
    problem: str = Field(..., description="Why no groups could be formed; empty when shown.")
