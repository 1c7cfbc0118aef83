"""`backup FILE`: every fact of every league, and the officials' accounts, in one JSON file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.league.exchange.backup import BackupError, write_backup
from flipwell.league.management.commands._common import ProgressStream, require_migrated


class Command(BaseCommand):
    help = (
        "Write every fact of every league, and the accounts of the people who act in them "
        "(username, names, email, password hash), to FILE as JSON, signed with this installation's "
        "key and checksummed; FILE is "
        "replaced atomically and readable by its owner only. API tokens are not backed up."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the backup file to write")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        require_migrated()
        try:
            summary = write_backup(path=path, progress=ProgressStream(self))
        except BackupError as error:
            raise CommandError(str(error)) from error
        leagues = summary.rows.get("league.league", 0)
        self.stdout.write(
            f"Backed up {leagues} league{'s' if leagues != 1 else ''} "
            f"({summary.total} rows) to {path}."
        )
