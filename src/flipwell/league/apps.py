"""The league app's configuration."""

from django.apps import AppConfig


class LeagueConfig(AppConfig):
    """Stores leagues, seasons, meets, games and every fact the FWPL rules need."""

    name = "flipwell.league"
    label = "league"
    verbose_name = "League data"
    default_auto_field = "django.db.models.BigAutoField"
