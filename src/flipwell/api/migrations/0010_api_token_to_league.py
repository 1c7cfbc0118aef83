"""The API token model now belongs to the league app (``league.0012_api_token_in_league``).

This only removes it from the API app's state: the table and its rows stay, in the league app.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0009_api_token"),
        ("league", "0012_api_token_in_league"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="ApiToken")],
        ),
    ]
