"""`restore [--trust-unsigned | --no-verify] FILE`: a backup, into an empty database, all or
nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.league.exchange.backup.format import BackupError
from flipwell.league.exchange.backup.restoring import restore_backup
from flipwell.league.management.commands._common import ProgressStream, require_migrated


class Command(BaseCommand):
    help = (
        "Restore a backup made by `backup` into this database, which must be migrated and "
        "empty; every row keeps its id, and nothing is written unless all of it is. The "
        "file's checksum must match and it must be signed by this installation (its "
        "SECRET_KEY) unless --trust-unsigned or --no-verify; every row is checked either way."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a backup file")
        parser.add_argument(
            "--no-verify",
            action="store_true",
            help="restore a file without a checksum (made before flipwell wrote them) or whose "
            "checksum does not match (edited on purpose); its rows are still checked",
        )

        parser.add_argument(
            "--trust-unsigned",
            action="store_true",
            help="restore a file this installation did not sign (made by another installation, "
            "or before flipwell signed backups) after printing what it holds; its checksum "
            "must still match and its rows are still checked",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        require_migrated()
        try:
            summary = restore_backup(
                path=path,
                progress=ProgressStream(self),
                verify=not options["no_verify"],
                trust_unsigned=options["trust_unsigned"],
                warn=self.stderr.write,
            )
        except BackupError as error:
            raise CommandError(str(error)) from error
        leagues = summary.rows.get("league.league", 0)
        self.stdout.write(
            f"Restored {leagues} league{'s' if leagues != 1 else ''} "
            f"({summary.total} rows) from {path}."
        )
