"""A league's readings as its official sees them: every `Ruleset` setting with its value, the
rulebook's default, the passage it reads and its interpretation (INTERPRETATIONS.md).

Words: a *reading* is one `Ruleset` setting (see `flipwell.rules.readings`); it is *changed*
when the league's value differs from the rulebook's default (FWPL v1.0). The league's readings
are those a season takes when it is created; a season keeps its own from then on
(`Season.ruleset_overrides`), so a change reaches the newest season only before it begins.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import ruleset_for
from flipwell.league.selectors.seasons import seasons_newest_first
from flipwell.rules import (
    FWPL_V1,
    NUMBER_BOUNDS,
    READINGS,
    Reading,
    RuleError,
    Ruleset,
    check_ruleset_change,
    setting_choices,
    setting_text,
)


@dataclass(frozen=True)
class ReadingLine:
    """One setting: its name, the league's value and the default, as text, and its reading."""

    name: str
    value: str
    default: str
    reading: Reading
    choices: tuple[str, ...]
    """The values to pick from; () when the value is typed (`hint` says how)."""
    hint: str

    @property
    def changed(self) -> bool:
        return self.value != self.default


@dataclass(frozen=True)
class LeagueReadings:
    """Every setting of the league's ruleset, why none may change now ("" when they may), and
    which seasons a change applies to (a sentence)."""

    lines: tuple[ReadingLine, ...]
    locked: str
    applies_to: str = ""

    def line(self, name: str) -> ReadingLine | None:
        return next((line for line in self.lines if line.name == name), None)


def league_readings(league: m.League) -> LeagueReadings:
    """The league's readings (1 query: its newest season, and whether it has begun)."""
    ruleset = ruleset_for(league)
    newest = seasons_newest_first(league).first()
    try:
        check_ruleset_change(
            season=newest.name if newest else None, begun=bool(getattr(newest, "begun", False))
        )
        locked = ""
    except RuleError as error:
        locked = str(error)
    return LeagueReadings(
        lines=tuple(_line(ruleset, f.name) for f in fields(Ruleset)),
        locked=locked,
        applies_to=_applies_to(newest.name if newest else None, begun=bool(locked)),
    )


def _applies_to(newest: str | None, *, begun: bool) -> str:
    """Which seasons a change reaches: the newest while it has not begun, and those created
    later; a season played keeps the readings it was played under."""
    kept = "Seasons already played keep the readings they were played under."
    if newest is None:
        return "A change applies to every season created after it."
    if begun:
        return (
            f"{newest} keeps the readings it began with. A change made while the next season is "
            f"prepared applies to that season and every season after it. {kept}"
        )
    return (
        f"A change applies to {newest}, which has not begun, and to every season created "
        f"after it. {kept}"
    )


def _line(ruleset: Ruleset, name: str) -> ReadingLine:
    choices = setting_choices(name)
    bounds = NUMBER_BOUNDS.get(name)
    if choices:
        hint = ""
    elif bounds:
        hint = f"A whole number from {bounds.low} to {bounds.high}."
    elif isinstance(getattr(FWPL_V1, name), int):
        hint = "A whole number from 0."
    else:
        default = setting_text(getattr(FWPL_V1, name))
        hint = f"Separated by commas, as the rulebook's default: {default}."
    return ReadingLine(
        name=name,
        value=setting_text(getattr(ruleset, name)),
        default=setting_text(getattr(FWPL_V1, name)),
        reading=READINGS[name],
        choices=choices,
        hint=hint,
    )
