"""The league app's configuration."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def create_limits_table(using: str = "default", **kwargs: Any) -> None:
    """Make the shared cache's table of rate-limit counts (`flipwell.league.rate_limits`) when
    it lives in the database: every ``migrate`` (``flipwell migrate``, ``make run``, the
    tests' database) leaves it in place; an existing one is kept."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)


class LeagueConfig(AppConfig):
    """Stores leagues, seasons, meets, games and every fact the FWPL rules need."""

    name = "flipwell.league"
    label = "league"
    verbose_name = "League data"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        post_migrate.connect(create_limits_table, sender=self)
