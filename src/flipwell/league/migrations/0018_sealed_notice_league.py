"""A notice subscription names its league: the column, empty until 0019 fills
it; a player may have one subscription per league (the one-per-player index goes)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("league", "0017_player_identity")]

    operations = [
        migrations.AddField(
            model_name="noticesubscription",
            name="league",
            field=models.ForeignKey(
                null=True,
                on_delete=models.deletion.CASCADE,
                related_name="notice_subscriptions",
                to="league.league",
            ),
        ),
        migrations.AlterField(
            model_name="noticesubscription",
            name="player",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="notice_subscriptions",
                to="league.player",
            ),
        ),
    ]
