"""The broken-machine loop: a problem reported from a machine's QR code, an official closing
a report, and a machine recorded repaired (R7.3-q, R7.3-r, R7.3-u).

Words:
- *problem report*: what a player or the venue's staff saw wrong with a machine, sent from its
  QR code (or through the API): reported, not yet ruled. It is a fact of its own, never a
  ruling; the official rules on the machine with the tools he has (a declaration, a status
  change, a malfunction) and may *close* the report, saying why (no fault found, a duplicate).
- *repair*: the machine recorded fixed, with what was done. Every problem reported on it
  before is repaired (`flipwell.rules.machine_care`); a machine out of the pool comes back
  into it, and one declared unplayable at the open meet is declared repaired there.
- *address hash*: a keyed hash of the sender's client address (the web and API layers make
  it), kept to tell a report sent twice. One address's reports about one machine of one league
  are counted in the shared cache (`flipwell.league.rate_limits`): at most
  ``settings.PROBLEM_REPORTS_PER_MACHINE`` an hour, so a venue's shared Wi-Fi (one address
  for every phone there) never silences the reports on another machine or in another league.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.rate_limits import count, seconds_left
from flipwell.league.refusals import ConflictError, RateLimitedError, Refusal
from flipwell.league.services._edge import (
    league_changed,
    require_reason,
)
from flipwell.league.services._protocol import Actor, league_write, official_write
from flipwell.league.services.meet_machines.declarations import declare_machine_state
from flipwell.league.services.setup.machine_pool import change_machine_status

if TYPE_CHECKING:
    from django.contrib.auth.models import User

REPORTS_WINDOW = 3600
"""Seconds over which one address's reports about one machine are counted (a QR code is
public)."""
REPORT_LENGTH = 1000
NAME_LENGTH = 80


def report_machine_problem(
    *, machine: m.Machine, text: str, reported_by: str = "", address_hash: str = ""
) -> m.MachineProblemReport:
    """A player or the venue's staff reports a problem on `machine`: it lands in the
    official's console as reported, not yet ruled (never a ruling).

    Side effects: a MachineProblemReport, an audit event ``machine.problem_reported`` (no
    actor), a new league revision (its pages show it). Raises ValidationError for an empty
    or too long text or name; RateLimitedError ``too_many_reports`` when the address sent
    ``PROBLEM_REPORTS_PER_MACHINE`` reports about this machine in the current hour. The same
    report sent again from the same address while it is open (a double tap, a browser's
    retry) returns the one kept.
    """
    words = (text or "").strip()
    name = (reported_by or "").strip()
    if not words:
        raise Refusal({"text": "Say what is wrong with the machine."}, code="text_required")
    if len(words) > REPORT_LENGTH:
        raise Refusal({"text": f"Keep it under {REPORT_LENGTH} characters."}, code="text_too_long")
    if len(name) > NAME_LENGTH:
        raise Refusal(
            {"reported_by": f"A name has at most {NAME_LENGTH} characters."}, code="name_too_long"
        )
    # A player or the venue's staff, without an account: nothing to check but the limit.
    with league_write(
        league=machine.league, actor=Actor.player(), action="report a machine problem"
    ) as write:
        machine = m.Machine.objects.select_for_update().select_related("league").get(pk=machine.pk)
        sent = _sent_again(machine, words, name, address_hash)
        if sent is not None:
            return sent
        _check_rate(machine, address_hash)
        row = m.MachineProblemReport.objects.create(
            machine=machine, text=words, reported_by=name, address_hash=address_hash
        )
        write.event(
            "machine.problem_reported",
            row,
            {"machine": machine.pk, "text": words, "reported_by": name},
        )
        league_changed(machine.league_id)
    return row


def _sent_again(
    machine: m.Machine, words: str, name: str, address_hash: str
) -> m.MachineProblemReport | None:
    """The open report of `machine` with these words, from this address, if one was sent."""
    if not address_hash:
        return None
    return m.MachineProblemReport.objects.filter(
        machine=machine, text=words, reported_by=name, address_hash=address_hash,
        closed_at__isnull=True,
    ).first()  # fmt: skip


def _check_rate(machine: m.Machine, address_hash: str) -> None:
    """Refuse a report from an address that sent ``PROBLEM_REPORTS_PER_MACHINE`` about this
    machine of this league in the current hour."""
    if not address_hash:
        return
    sent = count(
        "problem-report", machine.league_id, machine.pk, address_hash, window=REPORTS_WINDOW
    )
    if sent > settings.PROBLEM_REPORTS_PER_MACHINE:
        raise RateLimitedError(
            {
                "text": "Too many reports from here about this machine in the last hour: tell "
                "the league official."
            },
            code="too_many_reports",
            retry_after=seconds_left(REPORTS_WINDOW),
        )


def close_machine_problem_report(
    *, report: m.MachineProblemReport, reason: str, actor: User
) -> m.MachineProblemReport:
    """The official closes a problem report without a repair, saying why (a duplicate, no
    fault found): who, when and why are stored on the report.

    Side effects: the report's closed_at/closed_by/close_reason, a Ruling
    ``machine_report_closed`` and an audit event ``machine.problem_report_closed``. Raises
    PermissionDenied unless `actor` is an LO of the machine's league; ValidationError
    without a reason; ConflictError ``report_already_closed``.
    """
    league = report.machine.league
    with official_write(league=league, actor=actor, action="close a problem report") as write:
        row = (
            m.MachineProblemReport.objects.select_for_update()
            .select_related("machine")
            .get(pk=report.pk)
        )
        if row.closed_at is not None:
            raise ConflictError(
                {"report": f"This report on {row.machine.title} is already closed."},
                code="report_already_closed",
            )
        why = require_reason(reason, field="reason", what="Closing a problem report")
        row.closed_at = timezone.now()
        row.closed_by = actor
        row.close_reason = why
        row.save(update_fields=["closed_at", "closed_by", "close_reason"])
        write.ruling(
            kind="machine_report_closed",
            subject=f"{row.machine.title}: report “{row.text[:80]}” closed",
            reason=why,
        )
        write.event("machine.problem_report_closed", row, {"report": row.pk, "reason": why})
        league_changed(league.pk)
    return row


def record_machine_repair(*, machine: m.Machine, note: str, actor: User) -> m.MachineRepair:
    """The official records `machine` repaired, saying what was done (R7.3-r, R7.3-u).

    Every problem reported on it before is repaired. A machine out of the pool comes back
    into it (a status change, its Ruling ``machine_status``); one declared unplayable at the
    open meet is declared repaired there (R7.3-r).

    Side effects: a MachineRepair, those changes, an audit event ``machine.repaired``, a new
    league revision (no season is refolded: a repair is no fact of its fold). Raises
    PermissionDenied unless `actor` is an LO of the machine's league; ValidationError without
    a note.
    """
    league = machine.league
    meet = m.Meet.objects.filter(season__league=league, status=m.Meet.Status.OPEN).first()
    with official_write(
        league=league,
        actor=actor,
        action="record a repair",
    ) as write:
        machine = m.Machine.objects.select_for_update().select_related("league").get(pk=machine.pk)
        what = require_reason(note, field="note", what="A repair")
        row = m.MachineRepair.objects.create(machine=machine, meet=meet, note=what, official=actor)
        back = machine.status == m.Machine.Status.UNPLAYABLE
        if back:
            change_machine_status(
                write, machine, m.Machine.Status.PLAYABLE, reason=f"Repaired: {what}"
            )
        declared = meet is not None and declare_machine_state(
            meet, machine, m.MachineDeclaration.Kind.REPAIRED, actor, f"Repaired: {what}"
        )
        write.event(
            "machine.repaired",
            row,
            {"machine": machine.pk, "note": what, "back_in_pool": back, "declared": declared},
        )
        league_changed(league.pk)
    return row
