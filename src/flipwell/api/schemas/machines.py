"""Machines: the pool and its maintenance sheet, announced problems, declarations and
replacements at a meet (R5.1, R7.3)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import InputSchema, bounded, id_field, text_field
from flipwell.league import enums, limits

if TYPE_CHECKING:
    from flipwell.league.services.meet_machines import ReplacedMachine


class SheetLineOut(Schema):
    """Read from the maintenance sheet's `SheetLine`."""

    at: datetime.datetime = Field(..., description="When it was recorded.")
    what: Literal["malfunction", "declaration", "note"] = Field(..., description="Its kind.")
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
