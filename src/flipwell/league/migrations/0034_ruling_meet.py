"""A ruling names the meet it is about, so a meet's rulings can be read back (the grouping
override, closing it unfinished, its date), not only those about one of its games. Existing
rulings about a game get that game's meet."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def meets_of_games(apps: Any, schema_editor: Any) -> None:
    ruling = apps.get_model("league", "Ruling")
    game = apps.get_model("league", "Game")
    meet_of_game = game.objects.filter(pk=OuterRef("game_id")).values("group__meet_id")[:1]
    ruling.objects.filter(game__isnull=False).update(meet_id=Subquery(meet_of_game))


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0033_clean_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="ruling",
            name="meet",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="rulings",
                to="league.meet",
            ),
        ),
        migrations.RunPython(meets_of_games, migrations.RunPython.noop, elidable=True),
    ]
