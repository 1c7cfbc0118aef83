"""The league's machines as the public sees them: the machines page, the maintenance sheet and
one machine's page (R7.3-u, RA-a).

Words:
- *special ruling*: an Appendix A ruling in force on a machine title (RA-a).
- *maintenance sheet*: machines with open problems first, with their history (R7.3-u).
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.selectors.machine_history import (
    MachineSheet,
    machine_histories,
    sheets_open_first,
)
from flipwell.league.selectors.machines import maintenance_sheet
from flipwell.league.selectors.machines import stored_special_rulings as _stored_rulings
from flipwell.league.selectors.public_pages.seasons import NotFoundError
from flipwell.rules import SpecialRuling, rulings_for


@dataclass(frozen=True)
class MachineView:
    """A machine of the league with the special rulings in force on its title (RA-a)."""

    id: int
    title: str
    location: str
    balls_per_game: int
    status: str
    rulings: tuple[SpecialRuling, ...]


@dataclass(frozen=True)
class MachinesPage:
    """Every machine of the league and its special rulings."""

    league: m.League
    machines: tuple[MachineView, ...]


@dataclass(frozen=True)
class MaintenancePage:
    """The league's maintenance sheet (R7.3-u): machines with open problems first."""

    league: m.League
    machines: tuple[MachineSheet, ...]


@dataclass(frozen=True)
class MachinePage:
    """One machine's page: where it stands, its history, problems and reliability (R7.3-u)."""

    league: m.League
    machine: m.Machine
    sheet: MachineSheet


def machines_page(league: m.League) -> MachinesPage:
    """The league's machines with the league's special rulings in force on their titles (2
    queries)."""
    rulings = _stored_rulings(league)
    machines = m.Machine.objects.filter(league=league).order_by("title", "id")
    return MachinesPage(
        league=league,
        machines=tuple(
            MachineView(
                id=machine.pk,
                title=machine.title,
                location=machine.location,
                balls_per_game=machine.balls_per_game,
                status=machine.status,
                rulings=rulings_for(machine.title, rulings=rulings),
            )
            for machine in machines
        ),
    )


def maintenance_page(league: m.League) -> MaintenancePage:
    """The league's maintenance sheet (R7.3-u)."""
    return MaintenancePage(league=league, machines=sheets_open_first(maintenance_sheet(league)))


def machine_page(league: m.League, machine_id: int) -> MachinePage:
    """One machine of `league` with its history (NotFoundError for another league's)."""
    machine = league_machine(league, machine_id)
    (sheet,) = machine_histories(league, machine_id=machine.pk)
    return MachinePage(league=league, machine=machine, sheet=sheet)


def league_machine(league: m.League, machine_id: int) -> m.Machine:
    """The machine `machine_id` of `league` (NotFoundError for none or another league's)."""
    machine = m.Machine.objects.filter(league=league, pk=machine_id).first()
    if machine is None:
        raise NotFoundError(f"No machine {machine_id} in {league}.")
    return machine
