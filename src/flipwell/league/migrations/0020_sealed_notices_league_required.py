"""A notice subscription's league is required, and a league has one per player (the rows
were given their leagues by 0019, in its own transaction: PostgreSQL alters no table with rows
inserted earlier in the same transaction)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("league", "0019_sealed_notices_to_leagues")]

    operations = [
        migrations.AlterField(
            model_name="noticesubscription",
            name="league",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="notice_subscriptions",
                to="league.league",
            ),
        ),
        migrations.AddConstraint(
            model_name="noticesubscription",
            constraint=models.UniqueConstraint(
                fields=("league", "player"), name="notice_subscription_one_per_league"
            ),
        ),
    ]
