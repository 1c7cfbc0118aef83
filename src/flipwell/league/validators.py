"""Validators for stored values that Django's fields cannot check by themselves.

Words: *ruleset overrides* are a league's departures from the FWPL v1.0 defaults, a JSON object
whose keys are `flipwell.rules.Ruleset` field names (INTERPRETATIONS.md explains each); *IFPA
figures* are a league's departures from the IFPA's numbers, a JSON object whose keys are
`flipwell.rules.IfpaParameters` field names.
"""

from __future__ import annotations

import difflib
from dataclasses import fields
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError

from flipwell.rules import RuleError, Ruleset, ifpa_parameters, ruleset_from_overrides

RULESET_FIELD_NAMES = frozenset(f.name for f in fields(Ruleset))


def validate_ruleset_overrides(value: object) -> None:
    """Refuse anything but a JSON object of `Ruleset` field names and values they allow.

    A misspelt name would otherwise be ignored and silently leave the default in force; a
    value the field does not allow would make every page that folds the league's seasons
    fail. The values are checked by building the `Ruleset` (its own validation), so the
    message names the setting and the values it allows.
    """
    if not isinstance(value, dict):
        raise ValidationError(
            "Ruleset overrides must be a JSON object of setting names and values, not %(kind)s.",
            code="invalid_overrides",
            params={"kind": type(value).__name__},
        )
    unknown = sorted(key for key in value if key not in RULESET_FIELD_NAMES)
    if unknown:
        raise ValidationError(
            "Unknown ruleset setting(s): %(problems)s.",
            code="unknown_ruleset_setting",
            params={"problems": "; ".join(_describe_unknown(name) for name in unknown)},
        )
    try:
        ruleset_from_overrides(value)
    except RuleError as error:
        raise ValidationError(
            "Ruleset setting %(problem)s.",
            code="invalid_ruleset_value",
            params={"problem": str(error).removeprefix("Ruleset.")},
        ) from error


def _describe_unknown(name: str) -> str:
    close = difflib.get_close_matches(name, sorted(RULESET_FIELD_NAMES), n=1)
    return f"{name!r} (did you mean {close[0]!r}?)" if close else repr(name)


def validate_time_zone(value: str) -> None:
    """Refuse a time zone name this machine's zone database does not know."""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(
            "%(value)r is not a known time zone; use an IANA name such as America/Chicago.",
            code="invalid_time_zone",
            params={"value": value},
        ) from exc


MAX_MACHINE_SCORE = 2**63 - 1
"""The largest machine score flipwell stores: PostgreSQL's and SQLite's signed 64-bit integer.

No real machine displays more (the highest known scores are around 10**13), and the rules
library itself has no limit; a larger score is refused where it is entered, with this message,
rather than failing inside the database.
"""


def validate_machine_score(value: int) -> None:
    """Refuse a machine score below zero or above what a 64-bit column holds."""
    if value < 0:
        raise ValidationError(
            "A machine score cannot be negative (got %(value)s).",
            code="negative_score",
            params={"value": value},
        )
    if value > MAX_MACHINE_SCORE:
        raise ValidationError(
            "Machine score %(value)s is above the largest score flipwell can store "
            "(%(limit)s, 2**63 - 1).",
            code="score_too_large",
            params={"value": f"{value:,}", "limit": f"{MAX_MACHINE_SCORE:,}"},
        )


def validate_ifpa_figures(value: object) -> None:
    """Refuse anything but a JSON object of `IfpaParameters` names and values they allow (a
    wrong one would break every IFPA check of the league)."""
    if not isinstance(value, dict):
        raise ValidationError(
            "IFPA figures must be a JSON object of names and values, not %(kind)s.",
            code="invalid_ifpa_figures",
            params={"kind": type(value).__name__},
        )
    try:
        ifpa_parameters(value)
    except (RuleError, TypeError) as error:
        raise ValidationError(
            "IFPA figures: %(problem)s.", code="invalid_ifpa_figure", params={"problem": str(error)}
        ) from error
