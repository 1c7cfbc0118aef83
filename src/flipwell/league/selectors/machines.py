"""Machines as the venue and the officials see them: the maintenance sheet and special rulings.

Words:
- *maintenance sheet*: per machine, its history (every malfunction recorded on it in league
  play, every declaration, status change, replacement, repair, problem report and maintenance
  note, oldest first), its problems and its reliability (R7.3-u: kept for site management;
  `flipwell.league.selectors.machine_history`).
- *special rulings in force*: the latest version of each special ruling on a machine title,
  shown when a malfunction is recorded on it (RA-a, via `flipwell.rules.special_rulings`).
"""

from __future__ import annotations

from django.db import models

from flipwell.league import models as m
from flipwell.league.enums import SPECIAL_RULING_KINDS, one_of
from flipwell.league.selectors.machine_history import MachineSheet, machine_histories
from flipwell.rules import SpecialRuling, rulings_for

CAUSE_MARK = "\n\nCause and effect: "
"""How a ruling's reproduction notes and its cause and effect share one stored text (RA-e)."""


def maintenance_sheet(league: m.League) -> tuple[MachineSheet, ...]:
    """Every machine of the league with its history, problems and reliability, by title
    (R7.3-u; `machine_histories`)."""
    return machine_histories(league)


def stored_special_rulings(league: m.League) -> list[SpecialRuling]:
    """Every stored version of every special ruling of `league`, as the rules' values (RA-a,
    RA-e); another league's are never among them. One query."""
    return [
        to_rules_ruling(row)
        for row in m.SpecialRuling.objects.filter(league=league).order_by(
            "machine_title", "number", "version"
        )
    ]


def special_rulings_in_force(league: m.League, machine_title: str) -> tuple[SpecialRuling, ...]:
    """The latest version of each special ruling of `league` on this title (RA-a); one query."""
    return rulings_for(machine_title, rulings=stored_special_rulings(league))


def ruling_id(title: str, number: int) -> str:
    """The rules' ID of a stored ruling: its title and number ("Ghostbusters #1")."""
    return f"{title} #{number}"


def to_rules_ruling(row: m.SpecialRuling) -> SpecialRuling:
    """A stored special ruling version as `flipwell.rules.special_rulings.SpecialRuling`."""
    reproduction, _, cause = row.reproduction_notes.partition(CAUSE_MARK)
    return SpecialRuling(
        ruling_id=ruling_id(row.machine_title, row.number),
        machine=row.machine_title,
        kind=one_of(row.kind, SPECIAL_RULING_KINDS, field="kind"),
        text=row.text,
        reproducible=True,
        reproduction=reproduction,
        cause_and_effect=cause or reproduction,
        version=row.version,
    )


def _label(choices: type[models.TextChoices], value: str) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return value
