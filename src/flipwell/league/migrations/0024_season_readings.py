"""Each season keeps its own readings of the rules (its ruleset overrides).

Until now every season was folded under its league's current readings, so a change made while
the next season was prepared rewrote the standings of every finished season. Forward, each
existing season takes its league's current overrides: the readings its standings were shown
under until now. Backward, the column goes; the league's own overrides are untouched (they
were never moved), so nothing is lost but the seasons' copies.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

import flipwell.league.validators


def copy_league_readings(apps: Any, schema_editor: Any) -> None:
    Season = apps.get_model("league", "Season")
    League = apps.get_model("league", "League")
    for league in League.objects.only("pk", "ruleset_overrides"):
        if league.ruleset_overrides:
            Season.objects.filter(league_id=league.pk).update(
                ruleset_overrides=league.ruleset_overrides
            )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0023_playoff_sheets"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="ruleset_overrides",
            field=models.JSONField(
                blank=True,
                default=dict,
                validators=[flipwell.league.validators.validate_ruleset_overrides],
            ),
        ),
        migrations.RunPython(copy_league_readings, migrations.RunPython.noop, elidable=True),
    ]
