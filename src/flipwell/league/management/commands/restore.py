"""`restore FILE`: a backup, into an empty database, all or nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.league.exchange.backup import BackupError, restore_backup
from flipwell.league.management.commands._common import ProgressStream, require_migrated


class Command(BaseCommand):
    help = (
        "Restore a backup made by `backup` into this database, which must be migrated and "
        "empty; every row keeps its id, and nothing is written unless all of it is."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a backup file")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        require_migrated()
        try:
            summary = restore_backup(path=path, progress=ProgressStream(self))
        except BackupError as error:
            raise CommandError(str(error)) from error
        leagues = summary.rows.get("league.league", 0)
        self.stdout.write(
            f"Restored {leagues} league{'s' if leagues != 1 else ''} "
            f"({summary.total} rows) from {path}."
        )
