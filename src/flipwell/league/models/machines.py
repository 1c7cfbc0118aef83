"""Machines, their declarations, special rulings and maintenance notes.

Words:
- *machine*: one pinball machine at the league's venue; *balls per game* decides the extra-ball
  allowance (R7.1-a). Its *status* is its standing state at the venue (in the pool or out of
  it for repairs); whether it is playable at one meet also follows from the meet's declarations
  (R7.3-q, R7.3-r), which the rules compute.
- *declaration*: an official's statement that a machine is unplayable, or repaired, at a meet.
- *special ruling*: a versioned entry of Appendix A's per-title list (RA-a): one ruling (title
  and number) keeps every version; the highest version is in force.
- *maintenance note*: a line of the per-machine maintenance sheet (R7.3-u).
- *announced problem*: a machine problem the LO announced to the players before a meet's play;
  it is never a major malfunction (R7.3-g).
- *status change*, *repair*, *problem report*: the facts a machine's history is read from,
  with the malfunctions and declarations (see `flipwell.rules.machine_care`).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from flipwell.league import enums
from flipwell.league.models.leagues import League
from flipwell.league.validators import validate_clean_line

MAX_BALLS_PER_GAME = 10


class Machine(models.Model):
    """A machine in a league's pool: title, balls per game (1..10), status, location."""

    Status = enums.MachineStatus

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="machines")
    title = models.CharField(max_length=120, validators=[validate_clean_line])
    balls_per_game = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(MAX_BALLS_PER_GAME)]
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLAYABLE)
    location = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league", "title"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balls_per_game__gte=1, balls_per_game__lte=MAX_BALLS_PER_GAME),
                name="machine_balls_per_game_1_to_10",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=enums.MachineStatus.values),
                name="machine_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.location})" if self.location else self.title


class MachineDeclaration(models.Model):
    """An official declares a machine unplayable, or repaired, at one meet (R7.3-q, R7.3-r)."""

    Kind = enums.DeclarationKind

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="declarations")
    meet = models.ForeignKey("league.Meet", on_delete=models.PROTECT, related_name="declarations")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=enums.DeclarationKind.values),
                name="machine_declaration_kind_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="machine_declaration_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.machine.title} {self.kind} at {self.meet}"


class SpecialRuling(models.Model):
    """One version of a special ruling of one league for a machine title (Appendix A, RA-a,
    RA-e). A league's rulings are its own: another league's are never shown,
    numbered with or amended through it."""

    Kind = enums.SpecialRulingKind

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="special_rulings")
    machine_title = models.CharField(max_length=120)
    number = models.PositiveSmallIntegerField()
    version = models.PositiveSmallIntegerField(default=1)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    text = models.TextField()
    reproduction_notes = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["machine_title", "number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "machine_title", "number", "version"],
                name="special_ruling_version_once_per_league",
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1, version__gte=1),
                name="special_ruling_numbering_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=enums.SpecialRulingKind.values),
                name="special_ruling_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.machine_title} ruling {self.number} v{self.version}"


class MaintenanceNote(models.Model):
    """A note on the maintenance sheet of one machine (R7.3-u), optionally tied to a meet."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="maintenance_notes")
    meet = models.ForeignKey(
        "league.Meet", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    text = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["machine", "created_at"]

    def __str__(self) -> str:
        return f"{self.machine.title}: {self.text[:40]}"


class AnnouncedProblem(models.Model):
    """A machine problem the LO announced before play at a meet (R7.3-g)."""

    machine = models.ForeignKey(
        Machine, on_delete=models.PROTECT, related_name="announced_problems"
    )
    meet = models.ForeignKey(
        "league.Meet", on_delete=models.PROTECT, related_name="announced_problems"
    )
    problem = models.CharField(max_length=200)
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["meet", "machine", "created_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(problem=""), name="announced_problem_not_blank"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.machine.title}: {self.problem}"


class MachineStatusChange(models.Model):
    """An official put a machine in the pool or took it out (R7.3-q): from which status to
    which, why, who and when; the ruling that recorded his decision."""

    Status = enums.MachineStatus

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="status_changes")
    previous = models.CharField(max_length=12, choices=Status.choices)
    status = models.CharField(max_length=12, choices=Status.choices)
    reason = models.TextField()
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    ruling = models.OneToOneField(
        "league.Ruling", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["machine", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    status__in=enums.MachineStatus.values, previous__in=enums.MachineStatus.values
                )
                & ~models.Q(status=models.F("previous")),
                name="machine_status_change_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="machine_status_change_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.machine.title}: {self.previous} -> {self.status}"


class MachineRepair(models.Model):
    """A machine recorded fixed (R7.3-u): what was done, who recorded it, when; at the meet
    open then, if any. Every problem reported on it before is repaired."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="repairs")
    meet = models.ForeignKey(
        "league.Meet", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.TextField()
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["machine", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(note=""), name="machine_repair_has_note"),
        ]

    def __str__(self) -> str:
        return f"{self.machine.title} repaired: {self.note[:40]}"


class MachineProblemReport(models.Model):
    """A problem a player or the venue's staff reported from the machine's QR code: reported,
    not yet ruled. It is never a ruling; an official may close it (who, when, why), and a
    repair of the machine after it repairs it.

    `reported_by`: the name given, if any. `address_hash`: a keyed hash of the client
    address, to count reports from one address; never the address itself.
    """

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="problem_reports")
    text = models.TextField()
    reported_by = models.CharField(max_length=80, blank=True)
    reported_at = models.DateTimeField(default=timezone.now)
    address_hash = models.CharField(max_length=64, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    close_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["machine", "reported_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(text=""), name="machine_problem_report_has_text"
            ),
            models.CheckConstraint(
                condition=models.Q(closed_at__isnull=True, closed_by__isnull=True, close_reason="")
                | (
                    models.Q(closed_at__isnull=False, closed_by__isnull=False)
                    & ~models.Q(close_reason="")
                ),
                name="machine_problem_report_closed_with_who_and_why",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.machine.title}: {self.text[:40]}"
