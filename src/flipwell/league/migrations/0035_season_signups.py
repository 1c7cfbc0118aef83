"""Signing up for the next season: the official's question to the last season's players,
their answers (each kept), and newcomers' sign-ups with the official's decision."""

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import flipwell.league.validators


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0034_ruling_meet"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SeasonCall",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                (
                    "weekday",
                    models.PositiveSmallIntegerField(
                        choices=[
                            (0, "Monday"),
                            (1, "Tuesday"),
                            (2, "Wednesday"),
                            (3, "Thursday"),
                            (4, "Friday"),
                            (5, "Saturday"),
                            (6, "Sunday"),
                        ]
                    ),
                ),
                ("starts_on", models.DateField()),
                ("dues_cents", models.PositiveIntegerField(default=0)),
                ("signups_open", models.BooleanField(default=False)),
                ("asked_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "asked_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "built",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="built_from_call",
                        to="league.season",
                    ),
                ),
                (
                    "season",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="call",
                        to="league.season",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="SeasonAnswer",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "answer",
                    models.CharField(
                        choices=[("yes", "Yes"), ("no", "No"), ("maybe", "Not sure")], max_length=5
                    ),
                ),
                ("answered_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "link",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.playerlink",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "call",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="answers",
                        to="league.seasoncall",
                    ),
                ),
            ],
            options={
                "ordering": ["call", "player", "answered_at", "id"],
            },
        ),
        migrations.CreateModel(
            name="SignUp",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "first_name",
                    models.CharField(
                        max_length=80, validators=[flipwell.league.validators.validate_clean_line]
                    ),
                ),
                (
                    "last_name",
                    models.CharField(
                        max_length=80, validators=[flipwell.league.validators.validate_clean_line]
                    ),
                ),
                ("email", models.EmailField(max_length=254)),
                (
                    "ifpa_number",
                    models.PositiveIntegerField(
                        blank=True,
                        null=True,
                        validators=[django.core.validators.MinValueValidator(1)],
                    ),
                ),
                ("received_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("address_hash", models.CharField(blank=True, max_length=64)),
                (
                    "decision",
                    models.CharField(
                        blank=True,
                        choices=[("", "Waiting"), ("accepted", "Accepted"), ("refused", "Refused")],
                        default="",
                        max_length=8,
                    ),
                ),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                ("reason", models.TextField(blank=True)),
                (
                    "call",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="signups",
                        to="league.seasoncall",
                    ),
                ),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["call", "received_at", "id"],
            },
        ),
        migrations.AddConstraint(
            model_name="seasoncall",
            constraint=models.CheckConstraint(
                condition=models.Q(("weekday__gte", 0), ("weekday__lte", 6)),
                name="season_call_weekday",
            ),
        ),
        migrations.AddConstraint(
            model_name="seasoncall",
            constraint=models.CheckConstraint(
                condition=models.Q(("built", models.F("season")), _negated=True),
                name="season_call_builds_another",
            ),
        ),
        migrations.AddIndex(
            model_name="seasonanswer",
            index=models.Index(fields=["call", "player"], name="season_answer_player"),
        ),
        migrations.AddConstraint(
            model_name="seasonanswer",
            constraint=models.CheckConstraint(
                condition=models.Q(("answer__in", ["yes", "no", "maybe"])),
                name="season_answer_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="signup",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("first_name", ""), _negated=True),
                    models.Q(("last_name", ""), _negated=True),
                    models.Q(("email", ""), _negated=True),
                ),
                name="signup_has_name_and_email",
            ),
        ),
        migrations.AddConstraint(
            model_name="signup",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("decided_at__isnull", True), ("decided_by__isnull", True), ("decision", "")
                    ),
                    models.Q(
                        ("decision__in", ["accepted", "refused"]),
                        ("decided_at__isnull", False),
                        ("decided_by__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="signup_decision_complete",
            ),
        ),
        migrations.AddConstraint(
            model_name="signup",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("decision", "refused"), _negated=True),
                    models.Q(("reason", ""), _negated=True),
                    _connector="OR",
                ),
                name="signup_refusal_has_reason",
            ),
        ),
    ]
