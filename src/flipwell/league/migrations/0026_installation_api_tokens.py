"""Installation tokens: an API token of no league, with the new ``leagues`` scope (open
leagues through the API). A league token keeps its league and never has that scope; existing
tokens are all league tokens, so they stay as they are."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0025_slow_play_ruling_about"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="apitoken",
            name="api_token_has_a_scope",
        ),
        migrations.AddField(
            model_name="apitoken",
            name="leagues",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="apitoken",
            name="league",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="api_tokens",
                to="league.league",
            ),
        ),
        migrations.AddConstraint(
            model_name="apitoken",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("read_private", True),
                    ("scores", True),
                    ("manage", True),
                    ("leagues", True),
                    _connector="OR",
                ),
                name="api_token_has_a_scope",
            ),
        ),
        migrations.AddConstraint(
            model_name="apitoken",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("league__isnull", True), ("leagues", True)),
                    models.Q(("league__isnull", False), ("leagues", False)),
                    _connector="OR",
                ),
                name="api_token_leagues_scope_without_league",
            ),
        ),
    ]
