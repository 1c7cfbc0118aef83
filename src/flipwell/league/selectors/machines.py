"""Machines as the venue and the officials see them: the maintenance sheet and special rulings.

Words:
- *maintenance sheet*: per machine, every malfunction recorded on it in league play, every
  unplayable/repaired declaration and every maintenance note, oldest first (R7.3-u: kept for
  site management).
- *special rulings in force*: the latest version of each special ruling on a machine title,
  shown when a malfunction is recorded on it (RA-a, via `flipwell.rules.special_rulings`).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db import models

from flipwell.league import models as m
from flipwell.league.enums import SPECIAL_RULING_KINDS, one_of
from flipwell.rules import SpecialRuling, rulings_for

CAUSE_MARK = "\n\nCause and effect: "
"""How a ruling's reproduction notes and its cause and effect share one stored text (RA-e)."""


@dataclass(frozen=True)
class SheetLine:
    """One line of a machine's maintenance sheet."""

    at: datetime.datetime
    what: str
    """"malfunction", "declaration" or "note"."""
    text: str
    meet: int | None
    by: str


@dataclass(frozen=True)
class MachineSheet:
    """One machine's maintenance sheet (R7.3-u)."""

    machine_id: int
    title: str
    status: str
    malfunctions: int
    lines: tuple[SheetLine, ...]


def maintenance_sheet(league: m.League) -> tuple[MachineSheet, ...]:
    """Every machine of the league with its malfunctions, declarations and notes (R7.3-u).

    Four queries whatever the league's size.
    """
    machines = list(m.Machine.objects.filter(league=league).order_by("title", "id"))
    lines: dict[int, list[SheetLine]] = defaultdict(list)
    counts: dict[int, int] = defaultdict(int)
    malfunctions = m.Malfunction.objects.filter(game__machine__league=league).select_related(
        "game__machine", "game__group__meet", "player", "official"
    )
    for row in malfunctions:
        counts[row.game.machine_id] += 1
        lines[row.game.machine_id].append(
            SheetLine(
                at=row.created_at,
                what="malfunction",
                text=(
                    f"{_label(m.Malfunction.Kind, row.kind)} malfunction "
                    f"({_label(m.Malfunction.ReasonCode, row.reason_code)}): {row.player}, "
                    f"ball {row.ball}, group {row.game.group.number} game {row.game.number}"
                    + (f". {row.note}" if row.note else "")
                ),
                meet=row.game.group.meet.number,
                by=row.official.get_username(),
            )
        )
    declarations = m.MachineDeclaration.objects.filter(machine__league=league).select_related(
        "meet", "official"
    )
    for declaration in declarations:
        lines[declaration.machine_id].append(
            SheetLine(
                at=declaration.created_at,
                what="declaration",
                text=f"declared {declaration.kind}: {declaration.reason}",
                meet=declaration.meet.number,
                by=declaration.official.get_username(),
            )
        )
    notes = m.MaintenanceNote.objects.filter(machine__league=league).select_related(
        "meet", "created_by"
    )
    for note in notes:
        lines[note.machine_id].append(
            SheetLine(
                at=note.created_at,
                what="note",
                text=note.text,
                meet=note.meet.number if note.meet else None,
                by=note.created_by.get_username(),
            )
        )
    return tuple(
        MachineSheet(
            machine_id=machine.pk,
            title=machine.title,
            status=machine.status,
            malfunctions=counts[machine.pk],
            lines=tuple(sorted(lines[machine.pk], key=lambda line: line.at)),
        )
        for machine in machines
    )


def stored_special_rulings() -> list[SpecialRuling]:
    """Every stored version of every special ruling, as the rules' values (RA-a, RA-e)."""
    return [
        to_rules_ruling(row)
        for row in m.SpecialRuling.objects.order_by("machine_title", "number", "version")
    ]


def special_rulings_in_force(machine_title: str) -> tuple[SpecialRuling, ...]:
    """The latest version of each special ruling on this title (RA-a); one query."""
    return rulings_for(machine_title, rulings=stored_special_rulings())


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
