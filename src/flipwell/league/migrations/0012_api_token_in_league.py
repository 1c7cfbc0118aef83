"""The API token model moves from the API app into the league app; its rows stay.

The table ``api_apitoken`` was created by ``api.0009_api_token``. This migration first takes
the model into the league app's state only (no SQL), still on that table, then renames the
table to ``league_apitoken`` (the one statement run). ``api.0010_api_token_to_league`` then
drops the model from the API app's state, again without SQL. Indexes, constraints and the
id sequence keep their old names, which nothing depends on.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0010_append_only_delete"),
        ("api", "0009_api_token"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ApiToken",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=100)),
                        ("prefix", models.CharField(max_length=12)),
                        ("token_hash", models.CharField(max_length=64, unique=True)),
                        ("read_private", models.BooleanField(default=False)),
                        ("scores", models.BooleanField(default=False)),
                        ("manage", models.BooleanField(default=False)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("revoked_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "issued_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "league",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="api_tokens",
                                to="league.league",
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
                        "db_table": "api_apitoken",
                        "ordering": ["league", "created_at", "id"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("read_private", True),
                                    ("scores", True),
                                    ("manage", True),
                                    _connector="OR",
                                ),
                                name="api_token_has_a_scope",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(
                                        ("revoked_at__isnull", True), ("revoked_by__isnull", True)
                                    ),
                                    models.Q(
                                        ("revoked_at__isnull", False), ("revoked_by__isnull", False)
                                    ),
                                    _connector="OR",
                                ),
                                name="api_token_revocation_complete",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("name", ""), _negated=True),
                                name="api_token_has_name",
                            ),
                        ],
                    },
                ),
            ],
        ),
        migrations.AlterModelTable(name="apitoken", table=None),
    ]
