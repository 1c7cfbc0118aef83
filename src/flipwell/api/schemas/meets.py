"""Meets: the list, the meet board, scheduling, starting and closing, absences and lateness,
the next machine."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from ninja import Field, Schema

from flipwell.api.schemas.common import (
    NO_NUL,
    Day,
    InputSchema,
    Moment,
    NullAsBlank,
    PlayerRefOut,
    bounded,
    id_field,
    text_field,
)
from flipwell.api.schemas.sheets import GameLineOut
from flipwell.league import enums, limits

if TYPE_CHECKING:
    from flipwell.league.selectors.meet_board.values import (
        BoardGame,
        BoardGroup,
        MeetBoard,
        RankingLine,
    )
    from flipwell.league.services.match_absences import RecordedAbsence
    from flipwell.league.services.meet_machines.next_machine import NextGame


class MeetOut(Schema):
    id: int = Field(..., description="The meet's id.")
    season_id: int = Field(..., description="Its season's id.")
    number: int = Field(..., description="Its number in the season, from 1.")
    date: datetime.date = Field(..., description="The meet's date.")
    status: enums.MeetStatusValue = Field(
        ..., description="planned, open (being played) or closed."
    )
    started_at: datetime.datetime | None = Field(..., description="When the LO started it.")


class MeetPage(Schema):
    results: list[MeetOut] = Field(..., description="This page's meets, by id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class BoardGameOut(Schema):
    """Read from the meet board's `BoardGame`."""

    id: int = Field(..., description="The game's id.")
    number: int = Field(..., description="Its number in the match, from 1.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    chosen_by: int | None = Field(..., description="Who chose the machine; null: drawn (R5-a).")
    confirmed: bool = Field(..., description="Its score sheet is confirmed (R3-a).")
    awaiting_confirmation: bool = Field(
        ..., description="A sheet was entered and waits for another player's confirmation."
    )
    scores: list[GameLineOut] | None = Field(
        ...,
        description="Each player's game line as the season fold decides it, ladder order: "
        "the score that counts (machine_score), the score entered (entered_score), the "
        "adjustments between them, place and points; null until confirmed.",
    )
    finishing_order: list[int] = Field(
        ..., description="Player ids, first place first (from the rules); empty until scored."
    )

    @staticmethod
    def resolve_scores(obj: BoardGame) -> tuple[RankingLine, ...] | None:
        return obj.cells if obj.confirmed and obj.cells else None


class BoardGroupOut(Schema):
    """Read from the meet board's `BoardGroup` (its players named from its `names`)."""

    id: int = Field(..., description="The group's id.")
    number: int = Field(..., description="Its number at the meet, 1 = top of the ladder.")
    players: list[PlayerRefOut] = Field(..., description="Its players in ladder order.")
    games: list[BoardGameOut] = Field(..., description="Its games so far.")
    late: list[int] = Field(..., description="Players who arrived after play began (§2.3).")
    next_picker: int | None = Field(
        ..., description="Who picks the next machine (R5-c); null when nobody picks now."
    )
    play_order: list[int] = Field(
        ..., description="Play order of the current or next game; empty once the match is over."
    )
    waiting_for: list[int] = Field(
        ..., description="Players whose compensatory game the group waits for (R7.3-p)."
    )

    @staticmethod
    def resolve_players(obj: BoardGroup) -> list[dict[str, Any]]:
        return [{"id": p, "name": obj.names[p]} for p in obj.players]

    @staticmethod
    def resolve_late(obj: BoardGroup) -> list[int]:
        return sorted(obj.late)


class BoardMachineOut(Schema):
    id: int = Field(..., description="The machine's id.")
    title: str = Field(..., description="The machine's title.")
    in_use_by_group: int | None = Field(
        ..., description="The group number playing on it; null when free."
    )
    unplayable: bool = Field(..., description="Declared unplayable at this meet or out of order.")


class MeetBoardOut(Schema):
    """Read from the selector's `MeetBoard`."""

    id: int = Field(..., description="The meet's id.")
    number: int = Field(..., description="Its number in the season.")
    status: enums.MeetStatusValue = Field(..., description="The meet's status.")
    groups: list[BoardGroupOut] = Field(..., description="Its groups, top of the ladder first.")
    machines: list[BoardMachineOut] = Field(..., description="The league's machines tonight.")

    @staticmethod
    def resolve_id(obj: MeetBoard) -> int:
        return obj.meet_id

    @staticmethod
    def resolve_machines(obj: MeetBoard) -> list[dict[str, Any]]:
        return [
            {
                "id": machine_id,
                "title": title,
                "in_use_by_group": obj.in_use.get(machine_id),
                "unplayable": machine_id in obj.unplayable,
            }
            for machine_id, title in obj.machines.items()
        ]


class StartMeetIn(InputSchema):
    number: int = bounded(limits.MEET_NUMBER, "The meet's number in the season.")
    date: datetime.date | None = Field(
        None, strict=False, description="Its date; needed when the meet was not scheduled."
    )
    seed: int | None = bounded(limits.SEED, "The first-machine draw seed; random when null.", None)
    date_reason: str | None = text_field(
        "Why this date, when it is outside the season, out of order or not on the league day "
        "(R2-a): such a date is refused without one (a 422 on `reason`); a Ruling records it. "
        "The same field as a move's or a cancellation's `reason`.",
        None,
        alias="reason",
    )


class StartedOut(Schema):
    meet: MeetOut = Field(..., description="The started meet.")
    warnings: list[str] = Field(..., description="The draw's warnings (A16, A61).")


class CloseMeetIn(InputSchema):
    override_reason: str | None = Field(
        None,
        max_length=limits.TEXT_LENGTH,
        pattern=NO_NUL,
        description="Close it unfinished anyway (A52), saying why; a Ruling records it.",
    )


class ClosedOut(Schema):
    meet: MeetOut = Field(..., description="The closed meet.")
    season_forfeits: list[int] = Field(..., description="Players whose season ended here.")


class ScheduleMeetIn(InputSchema):
    number: int = bounded(limits.MEET_NUMBER, "The meet's number in the season.")
    date: Day = Field(..., description="The meet's date.")
    date_reason: str | None = text_field(
        "Why this date, when it is outside the season, out of order or not on the league day "
        "(R2-a): such a date is refused without one (a 422 on `reason`); a Ruling records it. "
        "The same field as a move's or a cancellation's `reason`.",
        None,
        alias="reason",
    )


class RescheduleMeetIn(InputSchema):
    date: Day = Field(..., description="The meet's new date.")
    reason: str = text_field("Why it is moved (a Ruling records it).", min_length=1)


class CancelMeetIn(InputSchema):
    reason: str = text_field("Why it is cancelled (a Ruling records it).", min_length=1)


class CancelledMeetOut(Schema):
    number: int = Field(..., description="The cancelled meet's number.")
    date: datetime.date = Field(..., description="Its date.")
    renumbered: list[tuple[int, int]] = Field(
        ...,
        description="The later planned meets moved down one number, as [old, new]: meet "
        "numbers stay the order of play, and the season keeps its number of meets.",
    )


class AbsenceIn(InputSchema):
    player: int = id_field("The player who will miss the meet (R2-b).")


class AbsenceOut(Schema):
    id: int = Field(..., description="The announced absence's id.")
    meet_id: int = Field(..., description="The meet's id.")
    player_id: int = Field(..., description="The player's id.")


class LatenessIn(InputSchema):
    player: int = id_field("The player who will be late (R2.2-a).")
    at: Moment | None = Field(
        None, description="When the LO was told, with its UTC offset; null: now."
    )


class LatenessOut(Schema):
    announced: bool = Field(..., description="The notice came before the start: the group waits.")
    wait_until: datetime.datetime | None = Field(
        ..., description="The latest the group waits for him (A59); null: it does not wait."
    )
    reason: str = Field(..., description="The rules' explanation.")


class ChooseMachineIn(InputSchema):
    machine: int = id_field("The machine the picker chooses (a machine of the league).")
    chosen_by: int = id_field("The player who picks (R5-c).")


class NextGameOut(Schema):
    """Read from the service's `NextGame`."""

    game_id: int = Field(..., description="The new game's id.")
    number: int = Field(..., description="Its number in the match.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    chosen_by: int | None = Field(..., description="Who chose the machine.")
    play_order: list[int] = Field(..., description="Player ids, first to play first (R5.2).")
    fallback: bool = Field(
        ..., description="No free machine was left, so the in-use restriction was lifted (R5-f)."
    )
    repeat: bool = Field(
        ..., description="The group already played this machine tonight (A22, A53)."
    )

    @staticmethod
    def resolve_game_id(obj: NextGame) -> int:
        return obj.game.pk

    @staticmethod
    def resolve_number(obj: NextGame) -> int:
        return obj.game.number

    @staticmethod
    def resolve_machine_id(obj: NextGame) -> int:
        return obj.game.machine_id

    @staticmethod
    def resolve_machine(obj: NextGame) -> str:
        return obj.game.machine.title

    @staticmethod
    def resolve_chosen_by(obj: NextGame) -> int | None:
        return obj.game.chosen_by_id


class OfficialMachineIn(InputSchema):
    machine: int | None = id_field(
        "The machine the official chooses (a machine of the league); null: draw one at random "
        "among those the §5 rules allow (A66).",
        None,
    )
    seed: int | None = bounded(limits.SEED, "Seed of the draw; random when null.", None)


class MatchAbsenceIn(InputSchema):
    players: list[int] = Field(
        ...,
        min_length=1,
        max_length=8,
        description="The group's players absent for the rest of the match (R2.4-a).",
    )
    note: NullAsBlank = text_field("Why, for the record; null or left out: none.", "")
    seed: int | None = bounded(
        limits.SEED,
        "For a whole group: seed of its remaining games' draws; random when null.",
        None,
    )
    from_game: int | None = Field(
        None,
        ge=1,
        le=4,
        description="The first game they are absent for (R2.4-a); null: the group's first "
        "game without confirmed scores (the game in play, or the next one).",
    )


class MatchAbsenceOut(Schema):
    """Read from the service's `RecordedAbsence`."""

    games: list[int] = Field(
        ...,
        description="The ids of the games forfeited that exist now, game 1 first (the later "
        "games' forfeits follow when they are played).",
    )
    forfeits: int = Field(
        ...,
        description="How many forfeits the absence makes: each absent player's, from "
        "`from_game` to game 4 (all countable, R2.4-h).",
    )
    from_game: int = Field(
        ..., description="The first game of the match the players are absent for (R2.4-a)."
    )

    @staticmethod
    def resolve_games(obj: RecordedAbsence) -> list[int]:
        return [g.pk for g in obj.games]
