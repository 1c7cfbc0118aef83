"""A machine's history as facts: its status changes (who, when, why), its repairs, and the
problems players and venue staff report from its QR code. Status changes made before are read
back from their audit events (``machine.status_changed``), which hold the same facts."""

from typing import Any

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def status_changes_from_audit(apps: Any, schema_editor: Any) -> None:
    """One MachineStatusChange per recorded ``machine.status_changed`` event, when its machine
    and official still exist."""
    event_model = apps.get_model("league", "AuditEvent")
    machine_model = apps.get_model("league", "Machine")
    change_model = apps.get_model("league", "MachineStatusChange")
    ruling_model = apps.get_model("league", "Ruling")
    events = event_model.objects.filter(
        action="machine.status_changed", object_type="league.Machine", actor__isnull=False
    ).order_by("created_at", "id")
    machines = set(machine_model.objects.values_list("pk", flat=True))
    rulings = set(ruling_model.objects.values_list("pk", flat=True))
    used = set()
    rows = []
    for event in events:
        data = event.data or {}
        machine_id = int(event.object_id) if event.object_id.isdigit() else None
        ruling = data.get("ruling") if data.get("ruling") in rulings else None
        if machine_id not in machines or data.get("from") == data.get("to"):
            continue
        if ruling in used:
            ruling = None
        used.add(ruling)
        rows.append(
            change_model(
                machine_id=machine_id,
                previous=data.get("from", ""),
                status=data.get("to", ""),
                reason=data.get("reason") or "(no reason recorded)",
                official_id=event.actor_id,
                ruling_id=ruling,
                created_at=event.created_at,
            )
        )
    change_model.objects.bulk_create(
        [r for r in rows if {r.previous, r.status} == {"playable", "unplayable"}]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0027_league_ifpa_figures"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="MachineProblemReport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("text", models.TextField()),
                ("reported_by", models.CharField(blank=True, max_length=80)),
                ("reported_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("address_hash", models.CharField(blank=True, max_length=64)),
                ("closed_at", models.DateTimeField(blank=True, null=True)),
                ("close_reason", models.TextField(blank=True)),
                (
                    "closed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="problem_reports",
                        to="league.machine",
                    ),
                ),
            ],
            options={
                "ordering": ["machine", "reported_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("text", ""), _negated=True),
                        name="machine_problem_report_has_text",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("close_reason", ""),
                                ("closed_at__isnull", True),
                                ("closed_by__isnull", True),
                            ),
                            models.Q(
                                ("closed_at__isnull", False),
                                ("closed_by__isnull", False),
                                models.Q(("close_reason", ""), _negated=True),
                            ),
                            _connector="OR",
                        ),
                        name="machine_problem_report_closed_with_who_and_why",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="MachineRepair",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("note", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="repairs",
                        to="league.machine",
                    ),
                ),
                (
                    "meet",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.meet",
                    ),
                ),
                (
                    "official",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["machine", "created_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("note", ""), _negated=True),
                        name="machine_repair_has_note",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="MachineStatusChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "previous",
                    models.CharField(
                        choices=[("playable", "Playable"), ("unplayable", "Unplayable")],
                        max_length=12,
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[("playable", "Playable"), ("unplayable", "Unplayable")],
                        max_length=12,
                    ),
                ),
                ("reason", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="status_changes",
                        to="league.machine",
                    ),
                ),
                (
                    "official",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "ruling",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.ruling",
                    ),
                ),
            ],
            options={
                "ordering": ["machine", "created_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("previous__in", ["playable", "unplayable"]),
                            ("status__in", ["playable", "unplayable"]),
                            models.Q(("status", models.F("previous")), _negated=True),
                        ),
                        name="machine_status_change_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="machine_status_change_has_reason",
                    ),
                ],
            },
        ),
        migrations.RunPython(status_changes_from_audit, migrations.RunPython.noop, elidable=True),
    ]
