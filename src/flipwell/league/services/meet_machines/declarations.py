"""A machine's state at a meet, as the LO declares it (R7.3-q, R7.3-r), and a machine
problem announced before play (R7.3-g).

Words:
- a *declaration* says a machine is unplayable, or repaired (playable again), for the rest of
  the meet until the next one; the meet board reads the latest declaration of each machine.
- an *announced problem* is one the LO told the players of before play: a malfunction matching
  it is never a major one (R7.3-g).

Neither is a fact of the season's fold (`flipwell.league.adapters.season_queries`): these
writes change no number, name no season and fold nothing; the league gets a new revision for
the pages that show them (the meet board, the console).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.audit import record_event
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import league_changed, require_reason
from flipwell.league.services._protocol import official_write

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def declare_machine_unplayable(
    *, meet: m.Meet, machine: m.Machine, reason: str, actor: User
) -> m.MachineDeclaration:
    """The LO declares a machine unplayable for the meet, until repaired (R7.3-q, R7.3-r).

    Side effects: a MachineDeclaration, an audit event ``machine.declared_unplayable``.
    Raises PermissionDenied unless `actor` is a league official; ValidationError without a
    reason, for a closed meet, or a machine already unplayable.
    """
    return _declaration(meet, machine, m.MachineDeclaration.Kind.UNPLAYABLE, reason, actor)


def declare_machine_repaired(
    *, meet: m.Meet, machine: m.Machine, reason: str, actor: User
) -> m.MachineDeclaration:
    """The LO declares an unplayable machine repaired: it is playable again (R7.3-r).

    Side effects and errors as `declare_machine_unplayable` (refused for a playable machine).
    """
    return _declaration(meet, machine, m.MachineDeclaration.Kind.REPAIRED, reason, actor)


def announce_machine_problem(
    *, meet: m.Meet, machine: m.Machine, problem: str, actor: User
) -> m.AnnouncedProblem:
    """The LO announces a machine problem before play; it is never a major malfunction (R7.3-g).

    Side effects: an AnnouncedProblem, an audit event ``machine.problem_announced``. Raises
    PermissionDenied unless `actor` is a league official; ValidationError for a closed meet or
    an empty problem.
    """
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="announce a machine problem",
    ) as write:
        _check_machine_at(meet, machine)
        text = problem.strip()
        if not text:
            raise Refusal({"problem": "Say what the problem is."}, code="problem_required")
        row = m.AnnouncedProblem.objects.create(
            meet=meet, machine=machine, problem=text, official=actor
        )
        data = {"meet": meet.pk, "machine": machine.pk, "problem": text}
        write.event("machine.problem_announced", row, data)
        league_changed(meet.season.league_id)
    return row


def _check_machine_at(meet: m.Meet, machine: m.Machine) -> None:
    if machine.league_id != meet.season.league_id:
        raise Refusal(
            {"machine": f"{machine} is not a machine of this league."}, code="machine_not_in_league"
        )
    if meet.status == m.Meet.Status.CLOSED:
        raise ConflictError({"meet": f"Meet {meet.number} is closed."}, code="meet_already_closed")


def _unplayable_now(meet: m.Meet, machine: m.Machine) -> bool:
    latest = (
        m.MachineDeclaration.objects.filter(meet=meet, machine=machine)
        .order_by("-created_at", "-id")
        .values_list("kind", flat=True)
        .first()
    )
    return latest == m.MachineDeclaration.Kind.UNPLAYABLE


def declare_machine_state(
    meet: m.Meet, machine: m.Machine, kind: str, actor: User, reason: str
) -> bool:
    """Insert a declaration unless the machine is already in that state; True if inserted."""
    if _unplayable_now(meet, machine) == (kind == m.MachineDeclaration.Kind.UNPLAYABLE):
        return False
    row = m.MachineDeclaration.objects.create(
        meet=meet, machine=machine, kind=kind, official=actor, reason=reason
    )
    record_event(
        action=f"machine.declared_{kind}",
        obj=row,
        league=meet.season.league,
        actor=actor,
        data={"meet": meet.pk, "machine": machine.pk, "reason": reason},
    )
    return True


def _declaration(
    meet: m.Meet, machine: m.Machine, kind: str, reason: str, actor: User
) -> m.MachineDeclaration:
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="declare a machine's state",
    ):
        meet = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        _check_machine_at(meet, machine)
        why = require_reason(reason, field="reason", what="A machine declaration (R7.3-q)")
        if not declare_machine_state(meet, machine, kind, actor, why):
            state = "unplayable" if kind == m.MachineDeclaration.Kind.UNPLAYABLE else "playable"
            raise ConflictError(
                {"machine": f"{machine} is already {state} at this meet."},
                code="machine_already_declared",
            )
        league_changed(meet.season.league_id)
    return m.MachineDeclaration.objects.filter(meet=meet, machine=machine).latest(
        "created_at", "id"
    )
