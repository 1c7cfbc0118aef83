"""Machines: the pool and its maintenance sheet, announced problems, declarations and
replacements at a meet (R5.1, R7.3)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import InputSchema, bounded, id_field, text_field
from flipwell.league import enums, limits

if TYPE_CHECKING:
    from flipwell.league.services.meet_machines.replacement import ReplacedMachine


class SheetLineOut(Schema):
    """Read from the maintenance sheet's `SheetLine`."""

    at: datetime.datetime = Field(..., description="When it was recorded.")
    what: Literal[
        "malfunction", "declaration", "note", "status", "replacement", "repair", "report"
    ] = Field(..., description="Its kind.")
    text: str = Field(..., description="What happened.")
    meet: int | None = Field(..., description="The meet's number; null: outside a meet.")


class MachineOut(Schema):
    """Read from the selector's `MachineSheet`."""

    id: int = Field(..., validation_alias="machine_id", description="The machine's id.")
    title: str = Field(..., description="The machine's title.")
    status: enums.MachineStatusValue = Field(..., description="Standing status.")
    malfunctions: int = Field(..., description="Malfunctions recorded on it in league play.")
    maintenance: list[SheetLineOut] = Field(
        ..., validation_alias="lines", description="Its maintenance sheet, oldest first (R7.3-u)."
    )


class MachinePage(Schema):
    results: list[MachineOut] = Field(..., description="This page's machines, by title.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class MachineProblemIn(InputSchema):
    machine: int = id_field("The machine (a machine of the league).")
    problem: str = text_field(
        "The problem, as announced before play.", min_length=1, max_length=limits.PROBLEM_LENGTH
    )


class MachineProblemOut(Schema):
    id: int = Field(..., description="The announced problem's id.")
    meet_id: int = Field(..., description="The meet's id.")
    machine_id: int = Field(..., description="The machine's id.")
    problem: str = Field(..., description="The problem.")


class DeclarationIn(InputSchema):
    reason: str = text_field("Why (required).", min_length=1)


class DeclarationOut(Schema):
    id: int = Field(..., description="The declaration's id.")
    meet_id: int = Field(..., description="The meet's id.")
    machine_id: int = Field(..., description="The machine's id.")
    kind: enums.DeclarationKindValue = Field(..., description="What was declared.")
    reason: str = Field(..., description="Why.")


class ReplaceMachineIn(InputSchema):
    reason: str = text_field("Why the machine is unplayable (required).", min_length=1)
    machine: int | None = id_field(
        "The replacement: the original selector's choice (with chosen_by), or the LO's "
        "designation (without); null for a redraw of a drawn game 1.",
        None,
    )
    chosen_by: int | None = id_field(
        "The player who selected the original machine, choosing again.", None
    )
    seed: int | None = bounded(limits.SEED, "Seed of a redraw; random when null.", None)


class ReplacedOut(Schema):
    """Read from the service's `ReplacedMachine`."""

    replacement_id: int = Field(..., description="The replacement's id.")
    game_id: int = Field(..., description="The game's id.")
    machine_id: int = Field(..., description="The game's machine now.")
    machine: str = Field(..., description="Its title.")
    options: list[int] = Field(..., description="The machine ids the §5 rules allowed.")

    @staticmethod
    def resolve_replacement_id(obj: ReplacedMachine) -> int:
        return obj.replacement.pk

    @staticmethod
    def resolve_game_id(obj: ReplacedMachine) -> int:
        return obj.game.pk

    @staticmethod
    def resolve_machine_id(obj: ReplacedMachine) -> int:
        return obj.game.machine_id

    @staticmethod
    def resolve_machine(obj: ReplacedMachine) -> str:
        return obj.game.machine.title


class ProblemOut(Schema):
    """Read from the selector's `ProblemLine`."""

    key: str = Field(..., description="The problem's key (`malfunction:12`, `report:3`...).")
    what: str = Field(
        ..., description="malfunction, report, unplayable (declared at a meet), out of the pool."
    )
    at: datetime.datetime = Field(..., description="When it was reported.")
    by: str = Field(..., description="Who reported it (an official, or the name given).")
    game: str = Field(..., description="The game it happened in, if any (meet, group, game).")
    ruled: str = Field(..., description="What was ruled, or “reported, not yet ruled”.")
    open: bool = Field(..., description="Still open: no repair since, not closed.")
    repaired_at: datetime.datetime | None = Field(..., description="When it was repaired.")
    closed_at: datetime.datetime | None = Field(
        ..., description="When an official closed it without a repair (a report)."
    )
    report_id: int | None = Field(..., description="The problem report's id, for a report.")


class ReliabilityOut(Schema):
    """Read from the rules' `Reliability`."""

    games: int = Field(..., description="Games played on the machine this season.")
    malfunctions: int = Field(..., description="Malfunctions recorded on it this season.")
    per_100_games: float | None = Field(
        ..., description="Malfunctions per 100 games (one decimal); null before its first game."
    )
    days_out: int = Field(..., description="Days out of service this season so far.")
    days: int = Field(..., description="The season's days so far (first meet to today).")


class MachineHistoryOut(Schema):
    """Read from the selector's `MachineSheet`."""

    id: int = Field(..., validation_alias="machine_id", description="The machine's id.")
    title: str = Field(..., description="The machine's title.")
    status: enums.MachineStatusValue = Field(..., description="Standing status.")
    season: str = Field(..., description="The season the reliability covers; empty: none yet.")
    reliability: ReliabilityOut | None = Field(
        ..., description="This season's reliability; null before the season's first meet."
    )
    problems: list[ProblemOut] = Field(..., description="Its problems, open first (R7.3-u).")
    history: list[SheetLineOut] = Field(
        ..., validation_alias="lines", description="Every fact about it, oldest first."
    )


class ProblemReportIn(InputSchema):
    text: str = text_field("What is wrong with the machine.", min_length=1, max_length=1000)
    reported_by: str = text_field("Who reports it (a name; optional).", "", max_length=80)


class ProblemReportOut(Schema):
    id: int = Field(..., description="The report's id.")
    machine_id: int = Field(..., description="The machine's id.")
    text: str = Field(..., description="What is wrong.")
    reported_by: str = Field(..., description="Who reported it (empty: no name given).")
    reported_at: datetime.datetime = Field(..., description="When.")
    closed_at: datetime.datetime | None = Field(..., description="When it was closed.")
    close_reason: str = Field(..., description="Why it was closed (empty while open).")


class CloseReportIn(InputSchema):
    reason: str = text_field("Why the report needs nothing more (required).", min_length=1)


class RepairIn(InputSchema):
    note: str = text_field("What was done to repair the machine (required).", min_length=1)


class RepairOut(Schema):
    id: int = Field(..., description="The repair's id.")
    machine_id: int = Field(..., description="The machine's id.")
    note: str = Field(..., description="What was done.")
    created_at: datetime.datetime = Field(..., description="When it was recorded.")
