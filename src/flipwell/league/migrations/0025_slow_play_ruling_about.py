"""A ruling may name the player and the game it is about (a slow-play warning, R7.5-a).

Both columns are optional: the rulings stored before (and those about a meet, a season or the
ruleset) name neither.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0024_season_readings"),
    ]

    operations = [
        migrations.AddField(
            model_name="ruling",
            name="game",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="rulings",
                to="league.game",
            ),
        ),
        migrations.AddField(
            model_name="ruling",
            name="player",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="rulings",
                to="league.player",
            ),
        ),
    ]
