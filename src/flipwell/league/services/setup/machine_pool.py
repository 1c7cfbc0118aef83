"""The league's machine pool: adding machines, changing one, putting it in or out of the pool.

Words:
- *machine pool*: the league's machines with status *playable* (in the pool: a game may be
  played on it). A machine *out of the pool* has status *unplayable*: away for repairs, or
  retired. Taking a machine out never touches the games already played on it (a fact stays
  a fact, R7.3-u); putting it back is the same decision in reverse. Either way it is an LO
  decision with a reason, recorded as a `Ruling` (R1.1-b).
- *twin*: another machine of the league with the same title at the same location (a copy of
  a title needs a location that tells them apart).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError

from flipwell.league import enums
from flipwell.league import models as m
from flipwell.league.limits import TITLE_LENGTH
from flipwell.league.models.machines import MAX_BALLS_PER_GAME
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import league_changed, record_ruling, require_reason
from flipwell.league.services._protocol import Write, official_write
from flipwell.league.validators import clean_lines, line_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User


STATUS_WORDS = {
    m.Machine.Status.PLAYABLE: "in the pool (playable)",
    m.Machine.Status.UNPLAYABLE: "out of the pool (away for repairs, or retired)",
}


def _clean_machine(machine: m.Machine) -> None:
    """Model validation, with the messages an official understands, keyed by field."""
    try:
        machine.full_clean(exclude=["league"])
    except ValidationError as error:
        messages = error.message_dict
        if "balls_per_game" in messages:
            messages["balls_per_game"] = [
                f"Balls per game is from 1 to {MAX_BALLS_PER_GAME} (usually 3 or 5)."
            ]
        raise Refusal(messages, code="invalid_machine") from error


def _same_machine_exists(machine: m.Machine) -> bool:
    others = m.Machine.objects.filter(
        league_id=machine.league_id,
        title__iexact=machine.title,
        location__iexact=machine.location,
    )
    return others.exclude(pk=machine.pk).exists() if machine.pk else others.exists()


def create_machine(
    *, league: m.League, title: str, balls_per_game: int, location: str = "", actor: User
) -> m.Machine:
    """Add a machine to the league's pool (playable).

    Side effects: inserts the Machine and an audit event ``machine.created``. Raises
    PermissionDenied unless `actor` is an LO of `league`; ValidationError (keyed by field,
    nothing written) for a blank title, balls per game outside 1..10, or a machine of the same
    title at the same location already in the league (give it a location to tell them apart).
    """
    with official_write(league=league, actor=actor, action="add machines") as write:
        league_changed(league)
        machine = m.Machine(
            league=league,
            balls_per_game=balls_per_game,
            **clean_lines(title=title, location=location),
        )
        _clean_machine(machine)
        if _same_machine_exists(machine):
            raise Refusal(
                {
                    "title": f"{league} already has {machine.title}"
                    + (f" at {machine.location}" if machine.location else "")
                    + ": give the new one a location that tells them apart."
                },
                code="machine_exists",
            )
        machine.save()
        write.event(
            "machine.created",
            machine,
            {
                "title": machine.title,
                "balls_per_game": machine.balls_per_game,
                "location": machine.location,
            },
        )
    return machine


def create_machines(
    *, league: m.League, titles: Sequence[str], balls_per_game: int, actor: User
) -> list[m.Machine]:
    """Add several machines to the league's pool at once, one per title (a line each on the
    console's machine pool; empty titles are passed over), all with `balls_per_game`.

    Side effects, in one transaction: the Machines and one audit event ``machine.created``
    each, as `create_machine` writes. Raises PermissionDenied unless `actor` is an LO of
    `league`; ValidationError (nothing written) keyed "titles" with one message per refused
    line ("Line 3: …": too long a title, a title the league has wherever it stands, the same
    title twice), or
    keyed "balls_per_game" when that is out of range.
    """
    with official_write(league=league, actor=actor, action="add machines") as write:
        league_changed(league)
        if not 1 <= balls_per_game <= MAX_BALLS_PER_GAME:
            raise Refusal(
                {"balls_per_game": f"Balls per game is from 1 to {MAX_BALLS_PER_GAME}."},
                code="invalid_balls_per_game",
            )
        lines = _new_titles(league, titles)
        made = m.Machine.objects.bulk_create(
            [m.Machine(league=league, title=t, balls_per_game=balls_per_game) for _, t in lines]
        )
        for machine in made:
            data = {"title": machine.title, "balls_per_game": balls_per_game, "location": ""}
            write.event("machine.created", machine, data)
    return made


def _new_titles(league: m.League, titles: Sequence[str]) -> list[tuple[int, str]]:
    """Each written line's number and title, for `create_machines`; ValidationError on
    "titles" with one message per refused line, or when no line has a title."""
    lines = [(n, t) for n, t in _title_lines(titles) if t]
    if not lines:
        raise Refusal({"titles": "Write one machine title a line."}, code="titles_required")
    taken = {  # a title the league has, wherever it stands: a copy needs its location
        line_key(title): where
        for title, where in m.Machine.objects.filter(league=league).values_list("title", "location")
    }
    refused, seen = [], set[str]()
    for number, title in lines:
        why = _refused_title(title, taken=taken, seen=seen)
        if why:
            refused.append(f"Line {number} (“{title[:40]}”): {why}")
        seen.add(line_key(title))
    if refused:
        raise Refusal({"titles": refused}, code="invalid_titles")
    return lines


def _title_lines(titles: Sequence[str]) -> list[tuple[int, str]]:
    """Each line's number and title as stored (`clean_line`); ValidationError on "titles"
    naming the line that holds a control character."""
    lines = []
    for number, title in enumerate(titles, start=1):
        try:
            lines.append((number, clean_lines(title=title)["title"]))
        except ValidationError as error:
            problem = " ".join(error.messages)
            raise Refusal(
                {"titles": f"Line {number}: {problem}"}, code="control_character"
            ) from error
    return lines


def _refused_title(title: str, *, taken: dict[str, str], seen: set[str]) -> str:
    """Why one line of `create_machines` cannot be a new machine, or ""."""
    if len(title) > TITLE_LENGTH:
        return f"a title has at most {TITLE_LENGTH} characters."
    if line_key(title) in taken:
        where = taken[line_key(title)]
        return (
            f"the league has it already{f' ({where})' if where else ''}: add another copy "
            "alone, with its location."
        )
    if line_key(title) in seen:
        return "written twice (add the second copy alone, with its location)."
    return ""


def update_machine(
    *,
    machine: m.Machine,
    location: str | None = None,
    balls_per_game: int | None = None,
    actor: User,
) -> m.Machine:
    """Change a machine's location and/or balls per game (None: unchanged).

    Side effects: updates the Machine and writes an audit event ``machine.updated`` with the
    old and new values (nothing when nothing changes). Raises PermissionDenied unless `actor`
    is an LO of the machine's league; ValidationError (keyed by field) for balls per game
    outside 1..10 or a location that makes it a twin of another machine of the same title.
    """
    with official_write(league=machine.league, actor=actor, action="change machines") as write:
        league_changed(machine.league_id)
        machine = m.Machine.objects.select_for_update().select_related("league").get(pk=machine.pk)
        before = {"location": machine.location, "balls_per_game": machine.balls_per_game}
        if location is not None:
            machine.location = clean_lines(location=location)["location"]
        if balls_per_game is not None:
            machine.balls_per_game = balls_per_game
        after = {"location": machine.location, "balls_per_game": machine.balls_per_game}
        if after == before:
            return machine
        _clean_machine(machine)
        if _same_machine_exists(machine):
            raise Refusal(
                {"location": f"Another {machine.title} is already at this location."},
                code="machine_exists",
            )
        machine.save(update_fields=["location", "balls_per_game"])
        write.event("machine.updated", machine, {"before": before, "after": after})
    return machine


def set_machine_status(*, machine: m.Machine, status: str, reason: str, actor: User) -> m.Ruling:
    """Put a machine in the league's pool (playable) or take it out (unplayable: repairs or
    retired), with the LO's reason. Games already played on it keep it.

    Side effects: updates Machine.status, inserts a Ruling ``machine_status``, a
    MachineStatusChange and an audit event ``machine.status_changed``. Raises
    PermissionDenied unless `actor` is an LO of the machine's league; ValidationError (keyed
    by field, nothing written) for an unknown status, no reason, or the status it already
    has.
    """
    doing = "change a machine's status"
    with official_write(league=machine.league, actor=actor, action=doing) as write:
        league_changed(machine.league_id)
        machine = m.Machine.objects.select_for_update().select_related("league").get(pk=machine.pk)
        if status not in m.Machine.Status.values:
            allowed = ", ".join(m.Machine.Status.values)
            raise Refusal(
                {"status": f"Unknown status “{status}”; allowed: {allowed}."}, code="unknown_status"
            )
        wanted = m.Machine.Status(status)
        if machine.status == wanted:
            raise ConflictError(
                {"status": f"{machine.title} is already {STATUS_WORDS[wanted]}."},
                code="machine_already_in_status",
            )
        why = require_reason(reason, field="reason", what="Changing a machine's status")
        return change_machine_status(write, machine, wanted, reason=why)


def change_machine_status(
    write: Write, machine: m.Machine, wanted: enums.MachineStatus, *, reason: str
) -> m.Ruling:
    """Store `machine` (locked by the caller, its status not `wanted`) with status `wanted`,
    in the official's `write`: the official's Ruling ``machine_status``, the
    MachineStatusChange its history reads (R7.3-q, R7.3-u) and the audit event
    ``machine.status_changed``."""
    actor = write.actor
    before = machine.status
    machine.status = wanted
    machine.save(update_fields=["status"])
    # Recorded now, not through `write.ruling`: the status change row points to it, and a
    # write without a season cannot `refold` to record it early.
    ruling = record_ruling(
        league=machine.league,
        official=actor,
        kind="machine_status",
        subject=f"{machine.title} {STATUS_WORDS[wanted]}",
        reason=reason,
    )
    m.MachineStatusChange.objects.create(
        machine=machine,
        previous=before,
        status=wanted,
        reason=reason,
        official=actor,
        ruling=ruling,
        created_at=ruling.created_at,
    )
    data = {"from": before, "to": wanted.value, "reason": reason, "ruling": ruling.pk}
    write.event("machine.status_changed", machine, data)
    return ruling
