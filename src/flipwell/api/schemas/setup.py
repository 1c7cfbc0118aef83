"""Setting a league up: opening it, its seasons and their schedule, its machine pool and its
readings of the rules (the `Ruleset` settings).

Each input schema's attribute names are the keyword names of the service it is passed to
(`flipwell.league.services`), so an endpoint hands it over whole.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from ninja import Field, Schema
from pydantic import AfterValidator, Strict

from flipwell.api.schemas.common import NO_NUL, InputSchema, Line, Slug, Zone, bounded, text_field
from flipwell.league import enums, limits
from flipwell.league.models.machines import MAX_BALLS_PER_GAME

SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
WEEKDAY = limits.Bound(0, 6)
"""Monday = 0 .. Sunday = 6 (R2-a: the league night)."""
LOCATION_LENGTH = 120
READING_VALUE_LENGTH = 400
"""A reading's new value as typed (the console's field: `ReadingForm`)."""
MACHINE_REASON_LENGTH = 500
"""The reason for taking a machine out of the pool or back (the console's field)."""


def _naive(value: datetime.time) -> datetime.time:
    if value.tzinfo is not None:
        raise ValueError("must be a time of day without a UTC offset (the league's own time)")
    return value


# JSON carries it as "HH:MM" or "HH:MM:SS": parsed, so not strict (see `InputSchema`).
TimeOfDay = Annotated[datetime.time, Strict(False), AfterValidator(_naive)]


class OpenLeagueIn(InputSchema):
    name: Line = text_field("The league's name.", min_length=1, max_length=120)
    slug: Slug = Field(
        ...,
        min_length=1,
        max_length=60,
        pattern=SLUG_PATTERN,
        description="Its short name in URLs (/leagues/<slug>/): letters, digits, - and _; "
        "stored in lower case, unique in the installation whatever the case, and not the "
        "name of one of flipwell's own routes (manage, login, api, static, ...).",
    )
    venue: Line = text_field("Where it plays (may be empty).", "", max_length=200)
    time_zone: Zone = Field(
        "UTC",
        min_length=1,
        max_length=64,
        pattern=NO_NUL,
        description="Its IANA time zone ('Europe/Berlin'), a canonical name (not localtime, "
        "posix/... or right/...): meet dates and times are its own.",
    )


class SeasonIn(InputSchema):
    name: str = text_field("The season's name, unique in the league.", min_length=1, max_length=120)
    weekday: int = bounded(WEEKDAY, "Day of its meets, Monday = 0 (R2-a).")
    start_time: TimeOfDay = Field(
        ..., description="Start time of its meets, HH:MM or HH:MM:SS in the league's time zone."
    )
    number_of_meets: int = bounded(limits.NUMBER_OF_MEETS, "Regular meets in the season.")
    dues_cents: int = Field(
        0, ge=0, le=limits.AMOUNT_CENTS.maximum, description="Dues per player, in cents (R9-a)."
    )


class SeasonScheduleIn(InputSchema):
    weekday: int | None = bounded(WEEKDAY, "New day of its meets, Monday = 0; null: kept.", None)
    start_time: TimeOfDay | None = Field(
        None, description="New start time of its meets, HH:MM or HH:MM:SS; null: kept."
    )
    number_of_meets: int | None = bounded(
        limits.NUMBER_OF_MEETS, "New number of regular meets; null: kept.", None
    )


class SeasonCutIn(InputSchema):
    number_of_meets: int = bounded(
        limits.NUMBER_OF_MEETS,
        "The season's new number of meets: fewer than it has, at least the meets started (to "
        "end it now, the meets started; A68).",
    )
    reason: str = text_field(
        "Why the season is cut short (required): kept as a ruling.", min_length=1
    )


class MachineIn(InputSchema):
    title: Line = text_field("The machine's title.", min_length=1, max_length=limits.TITLE_LENGTH)
    balls_per_game: int = Field(
        3, ge=1, le=MAX_BALLS_PER_GAME, description="Balls per game (usually 3 or 5)."
    )
    location: str = text_field(
        "Where it stands ('back room, left'): tells two of the same title apart.",
        "",
        max_length=LOCATION_LENGTH,
    )


class MachineChangeIn(InputSchema):
    location: str | None = text_field(
        "Where it stands now; null: kept.", None, max_length=LOCATION_LENGTH
    )
    balls_per_game: int | None = Field(
        None, ge=1, le=MAX_BALLS_PER_GAME, description="Balls per game now; null: kept."
    )


class MachineStatusIn(InputSchema):
    status: enums.MachineStatusValue = Field(
        ...,
        description="playable: in the league's pool; unplayable: out of it (away for repairs, "
        "or retired). Games already played on it keep it.",
    )
    reason: str = text_field(
        "Why (required; a Ruling records it).", min_length=1, max_length=MACHINE_REASON_LENGTH
    )


class MachineDetailOut(Schema):
    """Read from a stored `Machine`."""

    id: int = Field(..., description="The machine's id.")
    title: str = Field(..., description="Its title.")
    balls_per_game: int = Field(..., description="Balls per game.")
    location: str = Field(..., description="Where it stands (may be empty).")
    status: enums.MachineStatusValue = Field(
        ..., description="playable: in the pool; unplayable: out of it (repairs, or retired)."
    )


class MachineStatusOut(Schema):
    ruling_id: int = Field(..., description="The official's Ruling recording the decision.")
    machine: MachineDetailOut = Field(..., description="The machine, with its new status.")


class ReadingTextOut(Schema):
    """Read from the rules' `Reading`."""

    title: str = Field(..., description="The question the setting answers.")
    rules: list[str] = Field(..., description="The rule ids it reads (RULES.md).")
    sections: list[str] = Field(..., description="The rulebook's sections.")
    interpretations: list[str] = Field(
        ..., description="The INTERPRETATIONS.md entries (none for a plain number)."
    )
    text: str = Field(..., description="The passage, the question and flipwell's default.")


class ReadingOut(Schema):
    """Read from the selector's `ReadingLine`."""

    name: str = Field(..., description="The setting's name (what PATCH takes as 'setting').")
    value: str = Field(..., description="The league's value, as text.")
    default: str = Field(..., description="The rulebook's default (FWPL v1.0), as text.")
    changed: bool = Field(..., description="The league's value differs from the default.")
    choices: list[str] = Field(
        ..., description="The values to pick from; empty when the value is typed (see hint)."
    )
    hint: str = Field(..., description="How to type the value; empty when it is picked.")
    reading: ReadingTextOut = Field(..., description="What the setting reads.")


class RulesetOut(Schema):
    """Read from the selector's `LeagueReadings`."""

    settings: list[ReadingOut] = Field(
        ..., validation_alias="lines", description="Every setting, in the Ruleset's order."
    )
    changeable: bool = Field(
        ..., description="Whether a setting may change now: before the newest season begins."
    )
    locked: str = Field(
        ..., description="Why no setting may change now (the rules' words); empty when one may."
    )
    applies_to: str = Field(..., description="Which seasons a change reaches, in words.")

    @staticmethod
    def resolve_changeable(obj: Any) -> bool:
        return not obj.locked


class RulesetChangeIn(InputSchema):
    setting: str = Field(
        ...,
        min_length=1,
        max_length=60,
        pattern=r"^[a-z0-9_]+$",
        description="The setting's name (a 'name' of GET /leagues/{slug}/ruleset).",
    )
    value: str = text_field(
        "Its new value, as text: one of its choices, or typed as its hint says.",
        min_length=1,
        max_length=READING_VALUE_LENGTH,
    )
    reason: str = text_field("Why it changes (required; a Ruling records it).", min_length=1)
