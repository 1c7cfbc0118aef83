"""Validators for stored values that Django's fields cannot check by themselves, and the one
place where typed names are normalised (forms, API schemas and services all call these).

Words: *ruleset overrides* are a league's departures from the FWPL v1.0 defaults, a JSON object
whose keys are `flipwell.rules.Ruleset` field names (INTERPRETATIONS.md explains each); *IFPA
figures* are a league's departures from the IFPA's numbers, a JSON object whose keys are
`flipwell.rules.IfpaParameters` field names.

- *invisible character*: a Unicode format character (category Cf): zero-width spaces and
  joiners, the byte order mark, the soft hyphen, and the bidirectional controls (a
  right-to-left override shows a title backwards). Nobody types one on purpose in a name.
- *control character*: category Cc (NUL, bell, escape, DEL, ...); a tab and a line break are
  whitespace, the rest no text flipwell stores holds.
- *a line as stored* (`clean_line`): a name or title in NFKC (a full-width "Ｂｅａ" is
  "Bea", a no-break space a space), its invisible characters removed, every run of whitespace
  one space, trimmed. Two lines are *the same* when their stored forms match ignoring case
  (`line_key`): "Bea​ Adams" with a zero-width space is a second "Bea Adams" no more.
- *reserved slug*: a first path segment of flipwell's URLs ("manage", "login", "api",
  "static", ...: `reserved_slugs`): a league called so would be shadowed by the route, or
  shadow it.
- *canonical zone*: a name of the zone database that is not a file of the machine's own
  setup: not ``localtime``, ``posixrules`` nor a ``posix/`` or ``right/`` copy
  (`canonical_zones`).
"""

from __future__ import annotations

import difflib
import unicodedata
import zoneinfo
from dataclasses import fields
from functools import cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import URLPattern, URLResolver, get_resolver

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


NOT_CANONICAL_ZONES = frozenset({"localtime", "posixrules"})
NOT_CANONICAL_PREFIXES = ("posix/", "right/")


@cache
def canonical_zones() -> frozenset[str]:
    """Every canonical zone name this machine's zone database knows (see the module's words)."""
    return frozenset(
        name
        for name in zoneinfo.available_timezones()
        if name not in NOT_CANONICAL_ZONES and not name.startswith(NOT_CANONICAL_PREFIXES)
    )


def validate_time_zone(value: str) -> None:
    """Refuse a time zone name that is not a canonical zone of this machine's zone database
    (``localtime`` and ``posix/...`` name the machine's files, not a place)."""
    if value not in canonical_zones():
        raise ValidationError(
            "%(value)r is not a known time zone; use an IANA name such as America/Chicago.",
            code="invalid_time_zone",
            params={"value": value},
        )


def control_character(char: str) -> bool:
    """Whether `char` is a control character other than a tab or a line break."""
    return unicodedata.category(char) == "Cc" and char not in "\t\n\r"


def clean_line(value: str) -> str:
    """`value` as a name or title is stored (see *a line as stored*). ValidationError
    ``control_character`` when a control character remains (NUL, escape, ...)."""
    text = unicodedata.normalize("NFKC", value)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = " ".join(text.split())
    bad = next((c for c in text if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise ValidationError(
            "It holds the control character U+%(code)s, which no name may hold: retype it.",
            code="control_character",
            params={"code": f"{ord(bad):04X}"},
        )
    return text


def line_key(value: str) -> str:
    """What two names or titles are compared by: their stored form, case folded."""
    return clean_line(value).casefold()


def validate_clean_line(value: str) -> None:
    """Refuse a stored name or title that is not as `clean_line` leaves it (an invisible or
    control character, a doubled or edge space): the model's check, for a row not written
    through a service (a restored backup)."""
    try:
        clean = clean_line(value)
    except ValidationError:
        clean = None
    if clean != value:
        raise ValidationError(
            "%(value)r holds invisible characters, control characters or extra spaces.",
            code="not_clean",
            params={"value": value},
        )


def clean_slug(value: str) -> str:
    """A league's slug as stored: NFKC, invisible characters removed, trimmed, lower case
    (``LEAGUE-B`` is ``league-b``)."""
    text = unicodedata.normalize("NFKC", value)
    return "".join(c for c in text if unicodedata.category(c) != "Cf").strip().lower()


@cache
def reserved_slugs() -> frozenset[str]:
    """The first path segments of flipwell's URLs, at every level of the URLconf (the site's,
    the console's, the API's...; the admin's own pages aside), and the static and media
    prefixes: no league may be called one of them."""
    found: set[str] = set()
    for prefix in (settings.STATIC_URL, getattr(settings, "MEDIA_URL", "")):
        found.add(str(prefix or "").strip("/").split("/")[0])
    pending: list[list[URLPattern | URLResolver]] = [get_resolver().url_patterns]
    while pending:
        for pattern in pending.pop():
            route = str(pattern.pattern).lstrip("^")
            first = route.split("/", 1)[0]
            if first and "<" not in first and "(" not in first and "\\" not in first:
                found.add(first.rstrip("$").lower())
            if isinstance(pattern, URLResolver) and pattern.namespace != "admin":
                pending.append(pattern.url_patterns)
    return frozenset(found - {""})


def validate_league_slug(value: str) -> None:
    """Refuse a slug that is a reserved route name (`reserved_slugs`), whatever its case."""
    if value.lower() in reserved_slugs():
        raise ValidationError(
            "The address “%(value)s” is one of flipwell's own pages: pick another.",
            code="slug_reserved",
            params={"value": value},
        )


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


def clean_lines(**named: str) -> dict[str, str]:
    """Each of `named` (field name -> value) as `clean_line` stores it; one ValidationError
    keyed by field for every value holding a control character."""
    cleaned: dict[str, str] = {}
    errors: dict[str, ValidationError] = {}
    for field, value in named.items():
        try:
            cleaned[field] = clean_line(value)
        except ValidationError as error:
            errors[field] = error
    if errors:
        raise ValidationError(errors)
    return cleaned
