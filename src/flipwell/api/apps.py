"""Django app configuration for the JSON API (it stores the API tokens)."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The JSON API under /api/v1/ and the tokens that may write through it."""

    name = "flipwell.api"
    label = "api"
    verbose_name = "JSON API"
    default_auto_field = "django.db.models.BigAutoField"
