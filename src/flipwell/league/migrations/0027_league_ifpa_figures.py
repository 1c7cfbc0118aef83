"""A league's own IFPA figures (the IFPA's numbers it uses instead of the published ones):
empty for every existing league, which keeps the IFPA's."""

from django.db import migrations, models

import flipwell.league.validators


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0026_installation_api_tokens"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="ifpa_figures",
            field=models.JSONField(
                blank=True,
                default=dict,
                validators=[flipwell.league.validators.validate_ifpa_figures],
            ),
        ),
    ]
