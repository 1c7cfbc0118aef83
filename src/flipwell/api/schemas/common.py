"""What every schema shares: errors, player references, points, and the strict input schema.

Words: every id is a 64-bit database key (1..2**63-1); every text refuses the NUL character and
has a maximum length; numbers and texts are bounded as `flipwell.league.limits` says, as on the
web (machine scores 0..10**15-1); a *moment* is a date-time with its UTC offset, years
1900..2999; a *day* is a date in those years.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, Protocol, TypeVar

from django.core.exceptions import ValidationError as DjangoValidationError
from ninja import Field, Schema
from pydantic import AfterValidator, AwareDatetime, BeforeValidator, ConfigDict, Strict

from flipwell.league import limits
from flipwell.league.exchange.exports import decimal_points
from flipwell.league.validators import clean_line, clean_slug, validate_time_zone

MAX_ID = 2**63 - 1
"""Ids are 64-bit database keys: a larger number names nothing (and is refused, not 500)."""

NO_NUL = r"^[^\x00]*$"
"""Text fields refuse the NUL character, which no database text column stores."""

EXACT = r"^-?[0-9]+(/[0-9]+)?$"


def _as_line(value: str) -> str:
    try:
        return clean_line(value)
    except DjangoValidationError as error:
        raise ValueError(" ".join(error.messages)) from None


def _as_zone(value: str) -> str:
    try:
        validate_time_zone(value)
    except DjangoValidationError as error:
        raise ValueError(" ".join(error.messages)) from None
    return value


Line = Annotated[str, AfterValidator(_as_line)]
"""A name or title, stored as `flipwell.league.validators.clean_line` leaves it (NFKC, no
invisible or control characters, single spaces): the same normalisation as the console's."""
Slug = Annotated[str, AfterValidator(clean_slug)]
"""A league's slug, in lower case (`flipwell.league.validators.clean_slug`)."""
Zone = Annotated[str, AfterValidator(_as_zone)]
"""A canonical time zone name (`flipwell.league.validators.validate_time_zone`)."""


class ErrorBody(Schema):
    code: str = Field(
        ...,
        description="What went wrong, for programs: a stable snake_case name of the check "
        "that refused (meet_not_today, stale_version, invalid_input, not_found, ...). Each "
        "operation lists the codes it can answer under each error status.",
    )
    message: str = Field(..., description="What went wrong, for people.")
    fields: dict[str, list[str]] = Field(
        ...,
        description="Field (dotted path into the request, or 'line N, column' for a CSV) -> "
        "its messages; 'request' holds the messages about the request as a whole.",
    )


class ErrorOut(Schema):
    error: ErrorBody = Field(..., description="The error: code, message and field messages.")


class PlayerRefOut(Schema):
    id: int = Field(..., description="The player's id.")
    name: str = Field(..., description="First and last name.")


def as_number(points: Fraction | int) -> float:
    """League points as a JSON number: exact when a decimal is, else rounded to 6 places."""
    return float(Decimal(decimal_points(points)))


def as_exact(points: Fraction | int) -> str:
    """League points exactly, as a fraction string ("359/2", "214")."""
    return str(Fraction(points))


Points = Annotated[float, BeforeValidator(as_number)]
"""League points read from a selector's `Fraction`, written as a number (`as_number`)."""

ExactPoints = Annotated[str, BeforeValidator(as_exact)]
"""The same points exactly (`as_exact`): a ``*_exact`` field reads the number's attribute
through ``validation_alias``, so one value of the selector gives both fields."""


class PointsMixin(Schema):
    """League points read from the selector's ``league_points`` (a `Fraction`)."""

    league_points: Points = Field(
        ...,
        description="League points as a number: exact when a decimal can write them, else "
        "rounded to 6 places (see league_points_exact).",
    )
    league_points_exact: ExactPoints = Field(
        ...,
        validation_alias="league_points",
        pattern=EXACT,
        description="League points exactly, as a fraction ('359/2').",
    )


class ProvisionalMixin(Schema):
    """The open meet's part of a line's league points (`flipwell.rules.progress`): provisional
    until that meet closes. Read from the selector's ``open_meet`` and ``provisional_points``."""

    open_meet: int | None = Field(
        ..., description="The meet being played, whose points are provisional; null: none is."
    )
    provisional: bool = Field(..., description="league_points include an open meet's.")
    provisional_points: Points = Field(
        ...,
        description="The part of league_points from the open meet (0 when none is open): "
        "league_points - provisional_points is what the closed meets earned.",
    )
    provisional_points_exact: ExactPoints = Field(
        ..., validation_alias="provisional_points", pattern=EXACT, description="The same, exactly."
    )

    @staticmethod
    def resolve_provisional(obj: Any) -> bool:
        return getattr(obj, "open_meet", None) is not None


class InputSchema(Schema):
    """A request body: unknown fields refused, no type coerced (see the module docstring).

    A date or moment field says ``strict=False`` (JSON carries it as a string).
    """

    model_config = ConfigDict(extra="forbid", strict=True)


class _HasPlayer(Protocol):
    @property
    def player(self) -> int: ...


HasPlayer = TypeVar("HasPlayer", bound=_HasPlayer)


def each_player_once(scores: Sequence[HasPlayer]) -> Sequence[HasPlayer]:
    """Refuse a list of scores that names a player twice (else the last would silently win)."""
    seen: set[int] = set()
    for score in scores:
        if score.player in seen:
            raise ValueError(
                f"player {score.player} is listed more than once; give each player's score once"
            )
        seen.add(score.player)
    return scores


MIN_YEAR, MAX_YEAR = 1900, 2999

MAX_CENTS = limits.PRICE_CENTS.maximum
"""A price in cents (`flipwell.league.limits`)."""


def _year_in_range(value: Any) -> Any:
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValueError(f"must be in the years {MIN_YEAR}..{MAX_YEAR}")
    return value


# JSON carries these as ISO 8601 strings: parsed, so not strict (see `InputSchema`).
Moment = Annotated[AwareDatetime, Strict(False), AfterValidator(_year_in_range)]

Day = Annotated[datetime.date, Strict(False), AfterValidator(_year_in_range)]


Id = Annotated[int, Field(ge=1, le=MAX_ID)]


def _blank_for_null(value: str | None) -> str:
    return "" if value is None else value


NullAsBlank = Annotated[str | None, AfterValidator(_blank_for_null)]
"""A text that may be sent as null, read as '' (the service's "none")."""


def id_field(description: str, default: Any = ...) -> Any:
    """A database id field (1..2**63-1)."""
    return Field(default, ge=1, le=MAX_ID, description=description)


def text_field(
    description: str,
    default: Any = ...,
    *,
    min_length: int = 0,
    max_length: int = limits.TEXT_LENGTH,
    alias: str | None = None,
) -> Any:
    """A text field without NUL, at most `max_length` characters; `alias`: its name as sent
    when the attribute is the service's (`flipwell.api.arguments`)."""
    return Field(
        default,
        min_length=min_length,
        max_length=max_length,
        pattern=NO_NUL,
        alias=alias,
        description=description,
    )


def score_field(description: str, default: Any = ...) -> Any:
    """A machine score (`flipwell.league.limits.MACHINE_SCORE`, a JSON integer)."""
    return bounded(limits.MACHINE_SCORE, description, default)


def bounded(bound: limits.Bound, description: str, default: Any = ...) -> Any:
    """A whole number within `bound` (one of `flipwell.league.limits`)."""
    return Field(default, ge=bound.minimum, le=bound.maximum, description=description)


def id_list(
    description: str, *, max_length: int = 8, min_length: int = 0, alias: str | None = None
) -> Any:
    """A list of database ids; `alias`: its name as sent when the attribute is the service's
    (`flipwell.api.arguments`)."""
    return Field(
        ..., min_length=min_length, max_length=max_length, alias=alias, description=description
    )


TIE_ORDER_DESCRIPTION = (
    "For tied scores, the one-ball playoff's order of each tie (player ids), winner first (R3.2-i)."
)
