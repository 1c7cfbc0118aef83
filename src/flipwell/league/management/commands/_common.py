"""What the league app's commands share: database checks, lookups and the progress stream.

Django skips modules whose name starts with an underscore when it looks for commands, so this
one is not a command itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, OutputWrapper
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

from flipwell.league import models as m

if TYPE_CHECKING:
    from django.contrib.auth.models import User

NOT_SET_UP = "the database is not set up (or not up to date): run `flipwell migrate` first"
LISTED_SEASONS = 20


def require_migrated() -> None:
    """Refuse (CommandError) unless the database is reachable and fully migrated."""
    try:
        executor = MigrationExecutor(connection)
        unapplied = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as error:
        raise CommandError(f"cannot use the database: {error}".strip()) from error
    if unapplied:
        raise CommandError(NOT_SET_UP)


def season_by_id(season_id: int) -> m.Season:
    """The season with this id, or a CommandError that lists the seasons there are."""
    season = m.Season.objects.select_related("league").filter(pk=season_id).first()
    if season is not None:
        return season
    seasons = list(m.Season.objects.select_related("league").order_by("pk")[: LISTED_SEASONS + 1])
    if not seasons:
        raise CommandError(f"there is no season {season_id}: this database has no seasons yet")
    shown = "; ".join(f"{s.pk} ({s.league.name}: {s.name})" for s in seasons[:LISTED_SEASONS])
    more = ", ..." if len(seasons) > LISTED_SEASONS else ""
    raise CommandError(f"there is no season {season_id}; the seasons are {shown}{more}")


def acting_official(league: m.League, username: str | None) -> User:
    """The account a command acts as: `username`, else the league's only league official."""
    user_model = get_user_model()
    if username is not None:
        user = user_model._default_manager.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no account named {username!r}")
        return user
    officials = list(
        user_model._default_manager.filter(
            league_roles__league=league,
            league_roles__role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL,
        ).order_by("username")
    )
    if len(officials) == 1:
        return officials[0]
    if not officials:
        raise CommandError(
            f"{league.name} has no league official to act as; name an account with --as USERNAME"
        )
    names = ", ".join(user.get_username() for user in officials)
    raise CommandError(
        f"{league.name} has several league officials ({names}); say which one acts with "
        "--as USERNAME"
    )


class ProgressStream:
    """A command's standard error as the progress bar's stream (no newline added per write)."""

    def __init__(self, command: BaseCommand) -> None:
        self._out: OutputWrapper = command.stderr

    def write(self, text: str, /) -> object:
        self._out.write(text, style_func=_plain, ending="")  # not in the error colour
        return None

    def flush(self) -> object:
        self._out.flush()
        return None

    def isatty(self) -> bool:
        return self._out.isatty()


def _plain(text: str) -> str:
    return text
