"""`backup FILE`: every fact of every league, and the officials' accounts, in one JSON file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.league.exchange.backup.format import BackupError
from flipwell.league.exchange.backup.writing import write_backup
from flipwell.league.management.commands._common import ProgressStream, require_migrated
from flipwell.league.models import ScorePhoto


class Command(BaseCommand):
    help = (
        "Write every fact of every league, and the accounts of the people who act in them "
        "(username, names, email, password hash), to FILE as JSON, signed with this installation's "
        "key and checksummed; FILE is "
        "replaced atomically and readable by its owner only. API tokens are not backed up, "
        "nor the score photos' image files (their records are): back up the media folder."
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
        self.stdout.write(photos_note())


def photos_note() -> str:
    """What the backup says of the score photos' files: they are not in it (their rows are)."""
    kept = ScorePhoto.objects.filter(removed_at__isnull=True).count()
    if not kept:
        return "No score photo is kept: nothing more to back up."
    where = (
        f"the folder {settings.MEDIA_ROOT}"
        if settings.STORAGES["default"]["BACKEND"].endswith("FileSystemStorage")
        else "the photo storage's bucket"
    )
    return (
        f"{kept} score photo{'s are' if kept != 1 else ' is'} kept in {where}: the backup "
        "holds their records, not the image files. Back that up with it (docs/configuration.md)."
    )
