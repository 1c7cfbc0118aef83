"""Django app configuration for the JSON API (its tokens are `flipwell.league.models.ApiToken`)."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The JSON API under /api/v1/; its migrations created the API token table (now league's)."""

    name = "flipwell.api"
    label = "api"
    verbose_name = "JSON API"
    default_auto_field = "django.db.models.BigAutoField"
