"""The league app's migrations 0001 to 0035 in one: a new database is made through this one
(its tables as the models are now, with their constraints inside them, in a few seconds
instead of the originals' fourteen), a database made before it keeps its history and goes on.

Generated from the models (``makemigrations`` into an empty package) and then edited: every
constraint and index inside its model's ``CreateModel``, and the append-only triggers of 0002
and 0010 (whose functions this imports) created at the end, on the finished tables. It replaces the
API app's two migrations as well (0009, 0010): the API token table they made and then gave to
the league app is the league's here from the start. The originals stay, for databases at any step between them (Django uses them while some are
applied and others not) and for the tests of their data migrations
(tests/league/models/test_migrations.py). Their data migrations move rows that a new
database does not have, so none of them is here.
"""

import importlib

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import flipwell.league.models.results
import flipwell.league.validators

_UPDATE_TRIGGERS = importlib.import_module("flipwell.league.migrations.0002_append_only_triggers")
_DELETE_TRIGGERS = importlib.import_module("flipwell.league.migrations.0010_append_only_delete")


class Migration(migrations.Migration):
    replaces = [
        ("league", "0001_initial"),
        ("league", "0002_append_only_triggers"),
        ("league", "0003_violation_timing_and_group_override"),
        ("league", "0004_playoffs_ledger_results_noshows"),
        ("league", "0005_league_night"),
        ("league", "0006_remove_final_place"),
        ("league", "0007_official_player"),
        ("league", "0008_gap_facts"),
        ("league", "0009_idempotency_scope"),
        ("league", "0010_append_only_delete"),
        ("league", "0012_api_token_in_league"),
        ("league", "0013_revisions_and_results"),
        ("league", "0014_special_ruling_kind_rules_values"),
        ("league", "0015_player_links"),
        ("league", "0016_notices"),
        ("league", "0017_player_identity"),
        ("league", "0018_sealed_notice_league"),
        ("league", "0019_sealed_notices_to_leagues"),
        ("league", "0020_sealed_notices_league_required"),
        ("league", "0021_idempotency_key"),
        ("league", "0022_season_published"),
        ("league", "0023_playoff_sheets"),
        ("league", "0024_season_readings"),
        ("league", "0025_slow_play_ruling_about"),
        ("league", "0026_installation_api_tokens"),
        ("league", "0027_league_ifpa_figures"),
        ("league", "0028_machine_history"),
        ("league", "0029_score_photos"),
        ("league", "0030_match_absence"),
        ("league", "0031_special_ruling_league"),
        ("league", "0032_invitations"),
        ("league", "0033_clean_names"),
        ("league", "0034_ruling_meet"),
        ("league", "0035_season_signups"),
        # The API token table: made by api 0009, given to the league app by league 0012 and api
        # 0010; here it is the league's from the start.
        ("api", "0009_api_token"),
        ("api", "0010_api_token_to_league"),
    ]

    initial = True

    dependencies = [
        ("auth", "__first__"),
    ]

    operations = [
        migrations.CreateModel(
            name="DerivedResult",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scope", models.CharField(max_length=100, unique=True)),
                ("revision", models.BigIntegerField()),
                ("payload", models.BinaryField()),
                ("computed_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.CreateModel(
            name="Game",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
            ],
            options={
                "ordering": ["group", "number"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1)), name="game_number_positive"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Group",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
            ],
            options={
                "ordering": ["meet", "number"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1)), name="group_number_positive"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="League",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.CharField(
                        max_length=120, validators=[flipwell.league.validators.validate_clean_line]
                    ),
                ),
                (
                    "slug",
                    models.SlugField(
                        max_length=60,
                        unique=True,
                        validators=[flipwell.league.validators.validate_league_slug],
                    ),
                ),
                ("venue", models.CharField(blank=True, max_length=200)),
                (
                    "time_zone",
                    models.CharField(
                        default="UTC",
                        max_length=64,
                        validators=[flipwell.league.validators.validate_time_zone],
                    ),
                ),
                (
                    "ruleset_overrides",
                    models.JSONField(
                        blank=True,
                        default=dict,
                        validators=[flipwell.league.validators.validate_ruleset_overrides],
                    ),
                ),
                (
                    "ifpa_figures",
                    models.JSONField(
                        blank=True,
                        default=dict,
                        validators=[flipwell.league.validators.validate_ifpa_figures],
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "revision",
                    models.BigIntegerField(
                        default=flipwell.league.models.results.new_revision, editable=False
                    ),
                ),
            ],
            options={
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="Meet",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                ("date", models.DateField()),
                (
                    "status",
                    models.CharField(
                        choices=[("planned", "Planned"), ("open", "Open"), ("closed", "Closed")],
                        default="planned",
                        max_length=8,
                    ),
                ),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("first_machine_draw_seed", models.BigIntegerField(blank=True, null=True)),
                ("group_override_reason", models.TextField(blank=True)),
            ],
            options={
                "ordering": ["season", "number"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1)), name="meet_number_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("status__in", ["planned", "open", "closed"])),
                        name="meet_status_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayoffMatch",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("division", models.CharField(max_length=4)),
                (
                    "round",
                    models.CharField(
                        choices=[
                            ("quarterfinal", "Quarterfinal"),
                            ("semifinal", "Semifinal"),
                            ("final", "Final"),
                        ],
                        max_length=12,
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
            ],
            options={
                "verbose_name_plural": "playoff matches",
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1)), name="playoff_match_number_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("round__in", ["quarterfinal", "semifinal", "final"])),
                        name="playoff_match_round_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayoffNight",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("date", models.DateField()),
                (
                    "status",
                    models.CharField(
                        choices=[("planned", "Planned"), ("open", "Open"), ("closed", "Closed")],
                        default="planned",
                        max_length=8,
                    ),
                ),
                ("machine_draw_seed", models.BigIntegerField(blank=True, null=True)),
                ("cut", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("cut_override", models.PositiveSmallIntegerField(blank=True, null=True)),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("status__in", ["planned", "open", "closed"])),
                        name="playoff_night_status_valid",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="CorrectionRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("reason", models.TextField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for the players' answers"),
                            ("applied", "Applied: every player agreed"),
                            ("refused", "Refused: the score sheet stands"),
                        ],
                        default="pending",
                        max_length=8,
                    ),
                ),
                ("override_reason", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                (
                    "override_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="correction_requests",
                        to="league.game",
                    ),
                ),
            ],
            options={
                "ordering": ["game", "created_at"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("status", "pending")),
                        fields=("game",),
                        name="correction_request_one_pending_per_game",
                        violation_error_message="This game already has a correction waiting for answers.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("status__in", ["pending", "applied", "refused"])),
                        name="correction_request_status_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="correction_request_has_reason",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("override_by__isnull", True), ("override_reason", "")),
                            models.Q(
                                ("override_by__isnull", False),
                                models.Q(("override_reason", ""), _negated=True),
                            ),
                            _connector="OR",
                        ),
                        name="correction_request_override_complete",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("decided_at__isnull", True), ("status", "pending")),
                            models.Q(
                                models.Q(("status", "pending"), _negated=True),
                                ("decided_at__isnull", False),
                            ),
                            _connector="OR",
                        ),
                        name="correction_request_decided_when_not_pending",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="game",
            name="group",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="games", to="league.group"
            ),
        ),
        migrations.CreateModel(
            name="IdempotencyKey",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scope", models.CharField(max_length=100)),
                ("sender", models.CharField(max_length=100)),
                ("key", models.CharField(max_length=255)),
                ("fingerprint", models.CharField(max_length=64)),
                ("status", models.PositiveSmallIntegerField()),
                ("headers", models.JSONField(blank=True, default=dict)),
                ("body", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                "ordering": ["created_at", "id"],
                "indexes": [models.Index(fields=["created_at"], name="idempotency_key_age_idx")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("scope", "sender", "key"), name="idempotency_key_once_per_sender"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("key", ""), _negated=True),
                        name="idempotency_key_not_empty",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Machine",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "title",
                    models.CharField(
                        max_length=120, validators=[flipwell.league.validators.validate_clean_line]
                    ),
                ),
                (
                    "balls_per_game",
                    models.PositiveSmallIntegerField(
                        default=3,
                        validators=[
                            django.core.validators.MinValueValidator(1),
                            django.core.validators.MaxValueValidator(10),
                        ],
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[("playable", "Playable"), ("unplayable", "Unplayable")],
                        default="playable",
                        max_length=12,
                    ),
                ),
                ("location", models.CharField(blank=True, max_length=120)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="machines",
                        to="league.league",
                    ),
                ),
            ],
            options={
                "ordering": ["league", "title"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("balls_per_game__gte", 1), ("balls_per_game__lte", 10)),
                        name="machine_balls_per_game_1_to_10",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("status__in", ["playable", "unplayable"])),
                        name="machine_status_valid",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="game",
            name="machine",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="games",
                to="league.machine",
            ),
        ),
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
            name="MaintenanceNote",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("text", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="maintenance_notes",
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
            ],
            options={
                "ordering": ["machine", "created_at"],
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
                    "official",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
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
            name="MachineDeclaration",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("unplayable", "Unplayable"), ("repaired", "Repaired")],
                        max_length=12,
                    ),
                ),
                ("reason", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="declarations",
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
                    "meet",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="declarations",
                        to="league.meet",
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("kind__in", ["unplayable", "repaired"])),
                        name="machine_declaration_kind_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="machine_declaration_has_reason",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="group",
            name="meet",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="groups", to="league.meet"
            ),
        ),
        migrations.CreateModel(
            name="AnnouncedProblem",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("problem", models.CharField(max_length=200)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "official",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="announced_problems",
                        to="league.machine",
                    ),
                ),
                (
                    "meet",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="announced_problems",
                        to="league.meet",
                    ),
                ),
            ],
            options={
                "ordering": ["meet", "machine", "created_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("problem", ""), _negated=True),
                        name="announced_problem_not_blank",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Player",
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
                (
                    "ifpa_number",
                    models.PositiveIntegerField(
                        blank=True,
                        null=True,
                        unique=True,
                        validators=[django.core.validators.MinValueValidator(1)],
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "merged_into",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="merged_rows",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["last_name", "first_name"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("ifpa_number__isnull", True), ("ifpa_number__gte", 1), _connector="OR"
                        ),
                        name="player_ifpa_number_positive",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("first_name", ""), _negated=True),
                            models.Q(("last_name", ""), _negated=True),
                        ),
                        name="player_name_not_blank",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("merged_into", models.F("pk")), _negated=True),
                        name="player_not_merged_into_self",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="NoticeSubscription",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("email", models.EmailField(max_length=254)),
                ("groups", models.BooleanField(default=False)),
                ("results", models.BooleanField(default=False)),
                ("reminder", models.BooleanField(default=False)),
                ("ruling", models.BooleanField(default=False)),
                ("unsubscribed_at", models.DateTimeField(blank=True, null=True)),
                ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notice_subscriptions",
                        to="league.league",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notice_subscriptions",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("email", ""), _negated=True),
                        name="notice_email_not_blank",
                    ),
                    models.UniqueConstraint(
                        fields=("league", "player"), name="notice_subscription_one_per_league"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Notice",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("groups", "Groups when a meet starts"),
                            ("results", "The night's results when a meet closes"),
                            ("reminder", "A reminder before each meet"),
                            ("ruling", "An official's ruling that affects them"),
                        ],
                        max_length=10,
                    ),
                ),
                ("dedupe_key", models.CharField(max_length=120, unique=True)),
                ("subject", models.CharField(max_length=200)),
                ("body", models.TextField()),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting"),
                            ("sent", "Sent"),
                            ("failed", "Failed"),
                            ("skipped", "Skipped"),
                        ],
                        default="pending",
                        max_length=8,
                    ),
                ),
                ("attempts", models.PositiveSmallIntegerField(default=0)),
                ("next_attempt_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("last_error", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notices",
                        to="league.league",
                    ),
                ),
                (
                    "meet",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notices",
                        to="league.meet",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notices",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "id"],
                "indexes": [
                    models.Index(fields=["state", "next_attempt_at"], name="notice_due_idx")
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("kind__in", ["groups", "results", "reminder", "ruling"])
                        ),
                        name="notice_kind_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("state__in", ["pending", "sent", "failed", "skipped"])),
                        name="notice_state_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="MatchAbsence",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("from_game", models.PositiveSmallIntegerField()),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="absences",
                        to="league.group",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
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
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("group", "player"), name="match_absence_once"),
                    models.CheckConstraint(
                        condition=models.Q(("from_game__gte", 1), ("from_game__lte", 4)),
                        name="match_absence_game_in_match",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Malfunction",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("ball", models.PositiveSmallIntegerField()),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("major", "Major"),
                            ("catastrophic", "Catastrophic"),
                            ("positive", "Positive"),
                            ("not_serious", "Not serious"),
                        ],
                        max_length=12,
                    ),
                ),
                (
                    "reason_code",
                    models.CharField(
                        choices=[
                            ("forced_tilt_stuck_ball", "Forced tilt to free a stuck ball"),
                            ("turn_ended_with_balls_in_play", "Turn ended with balls in play"),
                            ("launched_without_player", "Ball launched without the player"),
                            ("slam_tilt", "Slam tilt"),
                            ("machine_failure", "Total failure or reset"),
                            ("power_loss", "Power loss"),
                            ("fire", "Fire"),
                            ("unnecessary_tilt_stuck_ball", "Stuck ball tilted away needlessly"),
                            ("multiball_ended_early", "Multiball ended early"),
                            ("airball_drain", "Airball drain"),
                            ("kickback_failed", "Kickback failed"),
                            ("ball_saver_failed", "Ball saver failed"),
                            ("tilted_by_another_player", "Tilted by another player"),
                            ("one_ball_multiball", "One-ball multiball"),
                            ("stuck_ball_during_multiball", "Stuck ball during multiball"),
                            ("distraction", "Distraction"),
                            ("non_league_player", "Non-league player"),
                            ("unfair_advantage_unavoidable", "Unavoidable unfair advantage"),
                            ("unfair_advantage_avoidable", "Avoidable unfair advantage"),
                            ("other", "Other"),
                        ],
                        max_length=30,
                    ),
                ),
                ("problem", models.CharField(blank=True, max_length=200)),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="malfunctions",
                        to="league.game",
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
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["game", "created_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("ball__gte", 1)), name="malfunction_ball_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("kind__in", ["major", "catastrophic", "positive", "not_serious"])
                        ),
                        name="malfunction_kind_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            (
                                "reason_code__in",
                                (
                                    "forced_tilt_stuck_ball",
                                    "turn_ended_with_balls_in_play",
                                    "launched_without_player",
                                    "slam_tilt",
                                    "machine_failure",
                                    "power_loss",
                                    "fire",
                                    "unnecessary_tilt_stuck_ball",
                                    "multiball_ended_early",
                                    "airball_drain",
                                    "kickback_failed",
                                    "ball_saver_failed",
                                    "tilted_by_another_player",
                                    "one_ball_multiball",
                                    "stuck_ball_during_multiball",
                                    "distraction",
                                    "non_league_player",
                                    "unfair_advantage_unavoidable",
                                    "unfair_advantage_avoidable",
                                    "other",
                                ),
                            )
                        ),
                        name="malfunction_reason_code_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="MachineReplacement",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "by",
                    models.CharField(
                        choices=[
                            ("selector", "The player who selected the machine"),
                            ("random", "Drawn at random again"),
                            ("lo", "Designated by the league official"),
                        ],
                        max_length=8,
                    ),
                ),
                ("seed", models.BigIntegerField(blank=True, null=True)),
                ("reason", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="machine_replacements",
                        to="league.game",
                    ),
                ),
                (
                    "new_machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
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
                    "old_machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.machine",
                    ),
                ),
                (
                    "chosen_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["game", "created_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("by__in", ["selector", "random", "lo"])),
                        name="machine_replacement_by_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("by", "random"), ("seed__isnull", False)),
                            models.Q(
                                models.Q(("by", "random"), _negated=True), ("seed__isnull", True)
                            ),
                            _connector="OR",
                        ),
                        name="machine_replacement_seed_iff_random",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("old_machine", models.F("new_machine")), _negated=True),
                        name="machine_replacement_changes_machine",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="machine_replacement_has_reason",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="LedgerEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "account",
                    models.CharField(
                        choices=[("dues", "Dues"), ("kitty", "Kitty"), ("treasury", "Treasury")],
                        max_length=10,
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("payment", "Payment by a player"),
                            ("charge", "Charge to a player (§8.3, §8.6)"),
                            ("expense", "Expense"),
                            ("transfer", "Transfer between accounts"),
                            ("reversal", "Reversal of an entry"),
                        ],
                        max_length=10,
                    ),
                ),
                ("amount_cents", models.BigIntegerField()),
                (
                    "reason",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("coin_mech_failure", "Coin mech failed to credit (R9-d)"),
                            ("bonus_credits", "Pricing gives bonus credits (R9-d)"),
                            ("playoff_games", "Playoff games (R9-f)"),
                            ("trophies", "Trophies (R9-f)"),
                            ("parties", "Parties (R9-f)"),
                            ("prizes", "Prizes (R9-f)"),
                            ("other", "Other league expense (R9-f)"),
                            ("replayed_game", "Victim's replayed game (R8.3-d)"),
                            ("buy_in_ball", "Victim's buy-in ball (R8.3-d)"),
                        ],
                        max_length=20,
                    ),
                ),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger_entries",
                        to="league.league",
                    ),
                ),
                (
                    "reverses",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="reversed_by",
                        to="league.ledgerentry",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger_entries",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "ledger entries",
                "ordering": ["created_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("amount_cents", 0), _negated=True),
                        name="ledger_entry_amount_not_zero",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("account__in", ["dues", "kitty", "treasury"])),
                        name="ledger_entry_account_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("kind__in", ["payment", "charge", "expense", "transfer", "reversal"])
                        ),
                        name="ledger_entry_kind_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("reason", ""),
                            (
                                "reason__in",
                                [
                                    "coin_mech_failure",
                                    "bonus_credits",
                                    "playoff_games",
                                    "trophies",
                                    "parties",
                                    "prizes",
                                    "other",
                                    "replayed_game",
                                    "buy_in_ball",
                                ],
                            ),
                            _connector="OR",
                        ),
                        name="ledger_entry_reason_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("amount_cents__gt", 0), ("kind__in", ["payment", "charge"])),
                            models.Q(
                                ("amount_cents__lt", 0), ("kind__in", ["expense", "transfer"])
                            ),
                            ("kind", "reversal"),
                            _connector="OR",
                        ),
                        name="ledger_entry_sign_follows_kind",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("kind", "reversal"), ("reverses__isnull", False)),
                            models.Q(
                                models.Q(("kind", "reversal"), _negated=True),
                                ("reverses__isnull", True),
                            ),
                            _connector="OR",
                        ),
                        name="ledger_entry_reversal_names_entry",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="LeagueOfficial",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[
                            ("league_official", "League official"),
                            ("scorekeeper", "Scorekeeper"),
                        ],
                        max_length=20,
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="officials",
                        to="league.league",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="league_roles",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "league"), name="league_official_one_role"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("role__in", ["league_official", "scorekeeper"])),
                        name="league_official_role_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="LateJoin",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("machine_allows_joining", models.BooleanField()),
                ("last_player_not_past_ball_1", models.BooleanField()),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="late_joins",
                        to="league.game",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
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
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "player"), name="late_join_once_per_game"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("last_player_not_past_ball_1", True), ("machine_allows_joining", True)
                        ),
                        name="late_join_conditions_attested",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="GroupMember",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveSmallIntegerField()),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="members",
                        to="league.group",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="group_memberships",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["group", "position"],
                "constraints": [
                    models.UniqueConstraint(fields=("group", "player"), name="group_member_once"),
                    models.UniqueConstraint(
                        fields=("group", "position"), name="group_position_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("position__gte", 1), ("position__lte", 4)),
                        name="group_position_1_to_4",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="group",
            name="players",
            field=models.ManyToManyField(
                related_name="+", through="league.GroupMember", to="league.player"
            ),
        ),
        migrations.CreateModel(
            name="GameRestart",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("games_started", models.PositiveSmallIntegerField()),
                ("players", models.PositiveSmallIntegerField()),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="restarts",
                        to="league.game",
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
                    "charge",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.ledgerentry",
                    ),
                ),
                (
                    "responsible",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["game", "created_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("games_started__gte", 1),
                            ("players__gte", 1),
                            models.Q(("games_started", models.F("players")), _negated=True),
                        ),
                        name="game_restart_wrong_count",
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="game",
            name="chosen_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.player",
            ),
        ),
        migrations.CreateModel(
            name="Forfeit",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("countable", models.BooleanField(default=True)),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("absent", "Absent"),
                            ("late", "Late, could not join"),
                            ("penalty", "Penalty for a serious violation"),
                            ("other", "Other"),
                        ],
                        max_length=10,
                    ),
                ),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="forfeits",
                        to="league.game",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="forfeits",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "player"), name="forfeit_once_per_game"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason__in", ["absent", "late", "penalty", "other"])),
                        name="forfeit_reason_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="DiscardedScore",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("version", models.PositiveSmallIntegerField()),
                ("reason", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "official",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="discarded_scores",
                        to="league.game",
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
            ],
            options={
                "ordering": ["game", "version", "id"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "player", "version"),
                        name="discarded_score_once_per_version",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("version__gte", 1)),
                        name="discarded_score_version_positive",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="discarded_score_has_reason",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="CorrectionResponse",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("agrees", models.BooleanField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "request",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="responses",
                        to="league.correctionrequest",
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
            ],
            options={
                "ordering": ["request", "created_at"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("request", "player"), name="correction_response_once_per_player"
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="correctionrequest",
            name="requested_by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="league.player"
            ),
        ),
        migrations.CreateModel(
            name="CompensatoryRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("balls", models.PositiveSmallIntegerField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "official",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="compensatory_requests",
                        to="league.game",
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
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "player"), name="compensatory_request_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("balls__gte", 1)),
                        name="compensatory_request_balls_positive",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="CompensatoryGame",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "new_score",
                    models.BigIntegerField(
                        validators=[flipwell.league.validators.validate_machine_score]
                    ),
                ),
                (
                    "leading_subtracted",
                    models.BigIntegerField(
                        default=0, validators=[flipwell.league.validators.validate_machine_score]
                    ),
                ),
                (
                    "state_subtracted",
                    models.BigIntegerField(
                        default=0, validators=[flipwell.league.validators.validate_machine_score]
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "official",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="compensatory_games",
                        to="league.game",
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
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "player"), name="compensatory_game_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("leading_subtracted__gte", 0),
                            ("new_score__gte", 0),
                            ("state_subtracted__gte", 0),
                        ),
                        name="compensatory_game_amounts_not_negative",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayerLink",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                ("key", models.CharField(max_length=64, unique=True)),
                ("email", models.EmailField(blank=True, max_length=254)),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
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
                    "revoked_by",
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
                "ordering": ["season", "created_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("revoked_at__isnull", True), ("revoked_by__isnull", True)),
                            models.Q(("revoked_at__isnull", False), ("revoked_by__isnull", False)),
                            _connector="OR",
                        ),
                        name="player_link_revocation_complete",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("key", ""), _negated=True), name="player_link_has_key"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="LatenessNotice",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "meet",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="lateness_notices",
                        to="league.meet",
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
                    "player_link",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.playerlink",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("meet", "player"), name="lateness_notice_once"),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("player_link__isnull", True), ("recorded_by__isnull", False)),
                            models.Q(("player_link__isnull", False), ("recorded_by__isnull", True)),
                            _connector="OR",
                        ),
                        name="lateness_notice_recorded_by_one",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="AnnouncedAbsence",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "meet",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="announced_absences",
                        to="league.meet",
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
                    "player_link",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.playerlink",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("meet", "player"), name="announced_absence_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("player_link__isnull", True), ("recorded_by__isnull", False)),
                            models.Q(("player_link__isnull", False), ("recorded_by__isnull", True)),
                            _connector="OR",
                        ),
                        name="announced_absence_recorded_by_one",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayerMerge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("reason", models.TextField()),
                ("merged_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("undo_reason", models.TextField(blank=True)),
                ("undone_at", models.DateTimeField(blank=True, null=True)),
                (
                    "kept",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "merged",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="merges",
                        to="league.player",
                    ),
                ),
                (
                    "merged_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "undone_by",
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
                "ordering": ["-merged_at", "-id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("kept", models.F("merged")), _negated=True),
                        name="player_merge_two_rows",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="player_merge_has_reason",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("undone_at__isnull", True)),
                        fields=("merged",),
                        name="player_merge_one_standing_per_row",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("undo_reason", ""),
                                ("undone_at__isnull", True),
                                ("undone_by__isnull", True),
                            ),
                            models.Q(
                                ("undone_at__isnull", False),
                                ("undone_by__isnull", False),
                                models.Q(("undo_reason", ""), _negated=True),
                            ),
                            _connector="OR",
                        ),
                        name="player_merge_undo_complete",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayoffLatenessNotice",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("notice_at", models.DateTimeField()),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="lateness_notices",
                        to="league.playoffmatch",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("match", "player"), name="playoff_lateness_once"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayoffGame",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                (
                    "chosen_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "machine",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.machine",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="games",
                        to="league.playoffmatch",
                    ),
                ),
            ],
            options={
                "ordering": ["match", "number"],
                "constraints": [
                    models.UniqueConstraint(fields=("match", "number"), name="playoff_game_once"),
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1), ("number__lte", 3)),
                        name="playoff_game_number_1_to_3",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="playoffmatch",
            name="playoff_night",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="matches",
                to="league.playoffnight",
            ),
        ),
        migrations.CreateModel(
            name="PlayoffNoShow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("note", models.TextField(blank=True)),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="no_shows",
                        to="league.playoffmatch",
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
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("match", "player"), name="playoff_no_show_once")
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayoffResult",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "machine_score",
                    models.BigIntegerField(
                        blank=True,
                        null=True,
                        validators=[flipwell.league.validators.validate_machine_score],
                    ),
                ),
                ("place", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("tie_place", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="results",
                        to="league.playoffgame",
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
                    "recorded_by",
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
                "constraints": [
                    models.UniqueConstraint(fields=("game", "player"), name="playoff_result_once"),
                    models.UniqueConstraint(
                        fields=("game", "place"), name="playoff_result_place_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("machine_score__isnull", True),
                            ("machine_score__gte", 0),
                            _connector="OR",
                        ),
                        name="playoff_result_score_not_negative",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("machine_score__isnull", False), ("place__isnull", True)),
                            models.Q(
                                ("machine_score__isnull", True),
                                ("place__isnull", False),
                                ("tie_place__isnull", True),
                            ),
                            _connector="OR",
                        ),
                        name="playoff_result_score_or_place",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("place__isnull", True),
                            models.Q(("place__gte", 1), ("place__lte", 4)),
                            _connector="OR",
                        ),
                        name="playoff_result_place_1_to_4",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayoffSheet",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                ("version", models.PositiveSmallIntegerField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("entered", "Entered"),
                            ("confirmed", "Confirmed"),
                            ("pending", "Correction waiting for answers"),
                            ("applied", "Correction applied"),
                            ("refused", "Correction refused"),
                        ],
                        default="entered",
                        max_length=9,
                    ),
                ),
                ("reason", models.TextField(blank=True)),
                ("idempotency_key", models.CharField(max_length=100)),
                ("idempotency_scope", models.CharField(max_length=100)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "confirmed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "entered_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "machine",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.machine",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sheets",
                        to="league.playoffmatch",
                    ),
                ),
            ],
            options={
                "ordering": ["match", "number", "version"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("match", "number", "version"), name="playoff_sheet_version_once"
                    ),
                    models.UniqueConstraint(
                        fields=("idempotency_scope", "idempotency_key"),
                        name="playoff_sheet_key_once_per_scope",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("status", "confirmed")),
                        fields=("match", "number"),
                        name="playoff_sheet_one_confirmed_entry",
                        violation_error_message="This game's scores are already confirmed.",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("status", "pending")),
                        fields=("match", "number"),
                        name="playoff_sheet_one_pending_correction",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("confirmed_by__isnull", True),
                            models.Q(("confirmed_by", models.F("entered_by")), _negated=True),
                            _connector="OR",
                        ),
                        name="playoff_sheet_confirmed_by_another",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1), ("number__lte", 4)),
                        name="playoff_sheet_number_1_to_4",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayoffSheetAnswer",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("agrees", models.BooleanField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "sheet",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="answers",
                        to="league.playoffsheet",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("sheet", "player"), name="playoff_sheet_answer_once"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="PlayoffSheetLine",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "machine_score",
                    models.BigIntegerField(
                        validators=[flipwell.league.validators.validate_machine_score]
                    ),
                ),
                ("tie_place", models.PositiveSmallIntegerField(blank=True, null=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "sheet",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="lines",
                        to="league.playoffsheet",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("sheet", "player"), name="playoff_sheet_line_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("machine_score__gte", 0)),
                        name="playoff_sheet_score_not_negative",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Qualifier",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("division", models.CharField(max_length=4)),
                ("seed", models.PositiveSmallIntegerField()),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "playoff_night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="qualifiers",
                        to="league.playoffnight",
                    ),
                ),
            ],
            options={
                "ordering": ["playoff_night", "division", "seed"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("playoff_night", "player"), name="qualifier_once"
                    ),
                    models.UniqueConstraint(
                        fields=("playoff_night", "division", "seed"), name="qualifier_seed_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("seed__gte", 1)), name="qualifier_seed_positive"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Ruling",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", models.CharField(max_length=60)),
                ("subject", models.CharField(max_length=200)),
                ("reason", models.TextField()),
                ("official_involved", models.BooleanField(default=False)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rulings",
                        to="league.game",
                    ),
                ),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rulings",
                        to="league.league",
                    ),
                ),
                (
                    "meet",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="rulings",
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
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rulings",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("reason", ""), _negated=True),
                            models.Q(("kind", ""), _negated=True),
                        ),
                        name="ruling_has_kind_and_reason",
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
        migrations.CreateModel(
            name="ScorePhoto",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("width", models.PositiveIntegerField()),
                ("height", models.PositiveIntegerField()),
                ("bytes", models.PositiveIntegerField()),
                ("idempotency_key", models.CharField(blank=True, default="", max_length=100)),
                ("idempotency_scope", models.CharField(blank=True, default="", max_length=100)),
                ("removed_at", models.DateTimeField(blank=True, null=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="photos",
                        to="league.game",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "removed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "uploaded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["game", "created_at", "pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("key", ""), _negated=True), name="score_photo_has_key"
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("idempotency_key", ""), _negated=True),
                        fields=("idempotency_scope", "idempotency_key"),
                        name="score_photo_idempotency_key_once_per_scope",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("removed_at__isnull", True), ("removed_by__isnull", True)),
                            models.Q(("removed_at__isnull", False), ("removed_by__isnull", False)),
                            _connector="OR",
                        ),
                        name="score_photo_removed_by_whom",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="ScoreSubmission",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("version", models.PositiveSmallIntegerField()),
                ("confirmed_at", models.DateTimeField(blank=True, null=True)),
                ("idempotency_key", models.CharField(max_length=100)),
                ("idempotency_scope", models.CharField(blank=True, default="", max_length=100)),
                ("is_correction", models.BooleanField(default=False)),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "confirmed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "entered_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="submissions",
                        to="league.game",
                    ),
                ),
                (
                    "recorded_by",
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
                "ordering": ["game", "version"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(
                            ("confirmed_by__isnull", False), ("is_correction", False)
                        ),
                        fields=("game",),
                        name="score_submission_one_confirmed_entry",
                        violation_error_message="This game's scores are already confirmed.",
                    ),
                    models.UniqueConstraint(
                        fields=("game", "version"), name="score_submission_version_once"
                    ),
                    models.UniqueConstraint(
                        fields=("idempotency_scope", "idempotency_key"),
                        name="score_submission_key_once_per_scope",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("version__gte", 1)),
                        name="score_submission_version_positive",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("confirmed_by__isnull", True),
                            models.Q(("confirmed_by", models.F("entered_by")), _negated=True),
                            _connector="OR",
                        ),
                        name="score_submission_confirmed_by_another",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("confirmed_at__isnull", True), ("confirmed_by__isnull", True)
                            ),
                            models.Q(
                                ("confirmed_at__isnull", False), ("confirmed_by__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="score_submission_confirmation_complete",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("idempotency_key", ""), _negated=True),
                        name="score_submission_has_key",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="ScoreLine",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "machine_score",
                    models.BigIntegerField(
                        blank=True,
                        null=True,
                        validators=[flipwell.league.validators.validate_machine_score],
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
                    "submission",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="lines",
                        to="league.scoresubmission",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("submission", "player"), name="score_line_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("machine_score__isnull", True),
                            ("machine_score__gte", 0),
                            _connector="OR",
                        ),
                        name="score_line_machine_score_not_negative",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="correctionrequest",
            name="base",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="league.scoresubmission",
            ),
        ),
        migrations.AddField(
            model_name="correctionrequest",
            name="proposed",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="correction_request",
                to="league.scoresubmission",
            ),
        ),
        migrations.CreateModel(
            name="Season",
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
                ("start_time", models.TimeField()),
                (
                    "number_of_meets",
                    models.PositiveSmallIntegerField(
                        validators=[django.core.validators.MinValueValidator(1)]
                    ),
                ),
                ("dues_cents", models.PositiveIntegerField(default=0)),
                (
                    "ruleset_overrides",
                    models.JSONField(
                        blank=True,
                        default=dict,
                        validators=[flipwell.league.validators.validate_ruleset_overrides],
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("published_at", models.DateTimeField(blank=True, null=True)),
                (
                    "revision",
                    models.BigIntegerField(
                        default=flipwell.league.models.results.new_revision, editable=False
                    ),
                ),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seasons",
                        to="league.league",
                    ),
                ),
                (
                    "published_by",
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
                "ordering": ["league", "-created_at"],
                "constraints": [
                    models.UniqueConstraint(fields=("league", "name"), name="season_name_unique"),
                    models.CheckConstraint(
                        condition=models.Q(("weekday__gte", 0), ("weekday__lte", 6)),
                        name="season_weekday_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("number_of_meets__gte", 1)), name="season_has_meets"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("dues_cents__gte", 0)), name="season_dues_not_negative"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("published_at__isnull", True), ("published_by__isnull", True)
                            ),
                            models.Q(
                                ("published_at__isnull", False), ("published_by__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="season_published_by_whom",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="playoffnight",
            name="season",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="playoff_night",
                to="league.season",
            ),
        ),
        migrations.AddField(
            model_name="playerlink",
            name="season",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="player_links",
                to="league.season",
            ),
        ),
        migrations.AddField(
            model_name="meet",
            name="season",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="meets",
                to="league.season",
            ),
        ),
        migrations.AddField(
            model_name="ledgerentry",
            name="season",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="ledger_entries",
                to="league.season",
            ),
        ),
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
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("weekday__gte", 0), ("weekday__lte", 6)),
                        name="season_call_weekday",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("built", models.F("season")), _negated=True),
                        name="season_call_builds_another",
                    ),
                ],
            },
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
                "indexes": [models.Index(fields=["call", "player"], name="season_answer_player")],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("answer__in", ["yes", "no", "maybe"])),
                        name="season_answer_valid",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="SeasonEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "ifpa_rank_at_start",
                    models.PositiveIntegerField(
                        blank=True,
                        null=True,
                        validators=[django.core.validators.MinValueValidator(1)],
                    ),
                ),
                (
                    "joined_at_meet",
                    models.PositiveSmallIntegerField(
                        default=1, validators=[django.core.validators.MinValueValidator(1)]
                    ),
                ),
                ("late_join_forfeits_countable", models.BooleanField(blank=True, null=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="season_entries",
                        to="league.player",
                    ),
                ),
                (
                    "season",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="league.season",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "season entries",
                "constraints": [
                    models.UniqueConstraint(fields=("season", "player"), name="season_entry_once"),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("ifpa_rank_at_start__isnull", True),
                            ("ifpa_rank_at_start__gte", 1),
                            _connector="OR",
                        ),
                        name="season_entry_rank_positive",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("joined_at_meet__gte", 1)),
                        name="season_entry_joined_at_meet",
                    ),
                ],
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
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("first_name", ""), _negated=True),
                            models.Q(("last_name", ""), _negated=True),
                            models.Q(("email", ""), _negated=True),
                        ),
                        name="signup_has_name_and_email",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("decided_at__isnull", True),
                                ("decided_by__isnull", True),
                                ("decision", ""),
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
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("decision", "refused"), _negated=True),
                            models.Q(("reason", ""), _negated=True),
                            _connector="OR",
                        ),
                        name="signup_refusal_has_reason",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="SpecialRuling",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("machine_title", models.CharField(max_length=120)),
                ("number", models.PositiveSmallIntegerField()),
                ("version", models.PositiveSmallIntegerField(default=1)),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("not_a_malfunction", "Not a malfunction"),
                            ("major_malfunction", "Major malfunction"),
                            ("positive_malfunction", "Positive malfunction"),
                            ("not_an_extra_ball", "Not an extra ball"),
                        ],
                        max_length=20,
                    ),
                ),
                ("text", models.TextField()),
                ("reproduction_notes", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="special_rulings",
                        to="league.league",
                    ),
                ),
            ],
            options={
                "ordering": ["machine_title", "number", "version"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("league", "machine_title", "number", "version"),
                        name="special_ruling_version_once_per_league",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1), ("version__gte", 1)),
                        name="special_ruling_numbering_positive",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            (
                                "kind__in",
                                [
                                    "not_a_malfunction",
                                    "major_malfunction",
                                    "positive_malfunction",
                                    "not_an_extra_ball",
                                ],
                            )
                        ),
                        name="special_ruling_kind_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Tiebreaker",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "purpose",
                    models.CharField(
                        choices=[
                            ("entry", "Playoff entry or division (R6.1-e)"),
                            ("seeding", "Seeding among qualifiers"),
                            ("match", "Playoff match result (R6.5-a)"),
                        ],
                        max_length=8,
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "machine",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.machine",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tiebreakers",
                        to="league.playoffmatch",
                    ),
                ),
                (
                    "playoff_night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tiebreakers",
                        to="league.playoffnight",
                    ),
                ),
                (
                    "recorded_by",
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
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("match__isnull", False), ("purpose", "match")),
                            models.Q(
                                models.Q(("purpose", "match"), _negated=True),
                                ("match__isnull", True),
                            ),
                            _connector="OR",
                        ),
                        name="tiebreaker_match_iff_match_purpose",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="TiebreakerPlace",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("place", models.PositiveSmallIntegerField()),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "tiebreaker",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="places",
                        to="league.tiebreaker",
                    ),
                ),
            ],
            options={
                "ordering": ["tiebreaker", "place"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tiebreaker", "player"), name="tiebreaker_player_once"
                    ),
                    models.UniqueConstraint(
                        fields=("tiebreaker", "place"), name="tiebreaker_place_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("place__gte", 1)), name="tiebreaker_place_positive"
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="tiebreaker",
            name="players",
            field=models.ManyToManyField(
                related_name="+", through="league.TiebreakerPlace", to="league.player"
            ),
        ),
        migrations.CreateModel(
            name="TieOrder",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tie_orders",
                        to="league.game",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "submission",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tie_orders",
                        to="league.scoresubmission",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="TieOrderPlace",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveSmallIntegerField()),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "tie_order",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="places",
                        to="league.tieorder",
                    ),
                ),
            ],
            options={
                "ordering": ["tie_order", "position"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tie_order", "player"), name="tie_order_player_once"
                    ),
                    models.UniqueConstraint(
                        fields=("tie_order", "position"), name="tie_order_position_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("position__gte", 1)), name="tie_order_position_positive"
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="tieorder",
            name="players",
            field=models.ManyToManyField(
                related_name="+", through="league.TieOrderPlace", to="league.player"
            ),
        ),
        migrations.CreateModel(
            name="Violation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            (
                                "own_unallowable_extra_ball",
                                "Two hands on their own one-handed extra ball (§8.1)",
                            ),
                            ("opponents_ball", "Played an opponent's ball (§8.2)"),
                            ("interference", "Interference (§8.3)"),
                            ("intentional_slam_tilt", "Intentional slam tilt (§8.4)"),
                            ("deathsave_or_bangback", "Deathsave or bangback (§8.7)"),
                            ("cheating", "Cheating (§8.8)"),
                            ("violence", "Violence (§8.5)"),
                            ("vandalism", "Vandalism (§8.5)"),
                            ("detrimental_conduct", "Exceptionally detrimental conduct (§8.5)"),
                        ],
                        max_length=30,
                    ),
                ),
                ("serious", models.BooleanField()),
                ("games_completed", models.PositiveSmallIntegerField(default=0)),
                ("target_game", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("last_allowable_ball", models.BooleanField(default=False)),
                ("slam_tilted", models.BooleanField(default=False)),
                ("reason", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="violations",
                        to="league.game",
                    ),
                ),
                (
                    "meet",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="violations",
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
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="violations",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["meet", "created_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="violation_has_reason",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            (
                                "kind__in",
                                (
                                    "own_unallowable_extra_ball",
                                    "opponents_ball",
                                    "interference",
                                    "intentional_slam_tilt",
                                    "deathsave_or_bangback",
                                    "cheating",
                                    "violence",
                                    "vandalism",
                                    "detrimental_conduct",
                                ),
                            )
                        ),
                        name="violation_kind_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("games_completed__lte", 4)),
                        name="violation_games_completed_max",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("target_game__isnull", True),
                            models.Q(("target_game__gte", 1), ("target_game__lte", 4)),
                            _connector="OR",
                        ),
                        name="violation_target_game_range",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="VictimRemedy",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "announced",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("continue_no_extra", "Continue, no other compensation"),
                            ("continue_plus_one_ball", "Continue with one additional ball"),
                            ("drain_and_extra_ball", "Drain and play one additional ball"),
                            ("replay_game", "Replay the whole game"),
                        ],
                        max_length=24,
                    ),
                ),
                ("unallowable_ball", models.BooleanField(default=False)),
                ("allowable_balls_left", models.BooleanField(default=True)),
                ("caused_loss", models.BooleanField(default=True)),
                ("earned_extra_ball_used", models.BooleanField(default=False)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "charge",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.ledgerentry",
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
                    "victim",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "violation",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="remedies",
                        to="league.violation",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "victim remedies",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("violation", "victim"), name="victim_remedy_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("announced", ""),
                            (
                                "announced__in",
                                [
                                    "continue_no_extra",
                                    "continue_plus_one_ball",
                                    "drain_and_extra_ball",
                                    "replay_game",
                                ],
                            ),
                            _connector="OR",
                        ),
                        name="victim_remedy_announced_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Withdrawal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="league.player",
                    ),
                ),
                (
                    "playoff_night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="withdrawals",
                        to="league.playoffnight",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("playoff_night", "player"), name="withdrawal_once"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Invitation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("invited_as", models.CharField(max_length=254)),
                (
                    "role",
                    models.CharField(
                        choices=[
                            ("league_official", "League official"),
                            ("scorekeeper", "Scorekeeper"),
                        ],
                        max_length=20,
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("expires_at", models.DateTimeField()),
                (
                    "decision",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("", "Pending"),
                            ("accepted", "Accepted"),
                            ("declined", "Declined"),
                            ("withdrawn", "Withdrawn"),
                        ],
                        default="",
                        max_length=10,
                    ),
                ),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
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
                (
                    "invited_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="league_invitations",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitations",
                        to="league.league",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "indexes": [
                    models.Index(fields=["user", "decision"], name="invitation_user_decision")
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("role__in", ["league_official", "scorekeeper"])),
                        name="invitation_role_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("decided_at__isnull", True), ("decision", "")),
                            models.Q(
                                ("decision__in", ["accepted", "declined", "withdrawn"]),
                                ("decided_at__isnull", False),
                            ),
                            _connector="OR",
                        ),
                        name="invitation_decision_valid",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="AuditEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("action", models.CharField(max_length=80)),
                ("object_type", models.CharField(max_length=80)),
                ("object_id", models.CharField(max_length=64)),
                ("data", models.JSONField(blank=True, default=dict)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "league",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="audit_events",
                        to="league.league",
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "id"],
                "indexes": [
                    models.Index(fields=["object_type", "object_id"], name="audit_object_idx")
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("action", ""), _negated=True),
                        name="audit_event_has_action",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                ("name", models.CharField(max_length=100)),
                ("prefix", models.CharField(max_length=12)),
                ("token_hash", models.CharField(max_length=64, unique=True)),
                ("read_private", models.BooleanField(default=False)),
                ("scores", models.BooleanField(default=False)),
                ("manage", models.BooleanField(default=False)),
                ("leagues", models.BooleanField(default=False)),
                (
                    "issued_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "revoked_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "league",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to="league.league",
                    ),
                ),
            ],
            options={
                "ordering": ["league", "created_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("read_private", True),
                            ("scores", True),
                            ("manage", True),
                            ("leagues", True),
                            _connector="OR",
                        ),
                        name="api_token_has_a_scope",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("league__isnull", True), ("leagues", True)),
                            models.Q(("league__isnull", False), ("leagues", False)),
                            _connector="OR",
                        ),
                        name="api_token_leagues_scope_without_league",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("revoked_at__isnull", True), ("revoked_by__isnull", True)),
                            models.Q(("revoked_at__isnull", False), ("revoked_by__isnull", False)),
                            _connector="OR",
                        ),
                        name="api_token_revocation_complete",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("name", ""), _negated=True), name="api_token_has_name"
                    ),
                ],
            },
        ),
        migrations.AddConstraint(
            model_name="group",
            constraint=models.UniqueConstraint(
                fields=("meet", "number"), name="group_number_once_per_meet"
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                fields=("group", "number"), name="game_number_once_per_group"
            ),
        ),
        migrations.AddConstraint(
            model_name="playoffmatch",
            constraint=models.UniqueConstraint(
                fields=("playoff_night", "division", "round", "number"), name="playoff_match_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="playerlink",
            constraint=models.UniqueConstraint(
                condition=models.Q(("revoked_at__isnull", True)),
                fields=("season", "player"),
                name="player_link_one_live",
            ),
        ),
        migrations.AddConstraint(
            model_name="meet",
            constraint=models.UniqueConstraint(
                fields=("season", "number"), name="meet_number_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="meet",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "open")),
                fields=("season",),
                name="meet_one_open_per_season",
                violation_error_message="This season already has an open meet; close it first.",
            ),
        ),
        migrations.RunPython(_UPDATE_TRIGGERS.create_triggers, _UPDATE_TRIGGERS.drop_triggers),
        migrations.RunPython(_DELETE_TRIGGERS.create_triggers, _DELETE_TRIGGERS.drop_triggers),
    ]
