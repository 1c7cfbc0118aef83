"""`import_players --season ID FILE.csv`: enter a roster CSV's players in a season."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.league.exchange.progress import Progress
from flipwell.league.management.commands._common import (
    ProgressStream,
    acting_official,
    require_migrated,
    season_by_id,
)
from flipwell.league.players_csv import COLUMNS, PlayersCsvError, parse_players_csv
from flipwell.league.services import import_players_csv


class Command(BaseCommand):
    help = (
        "Enter every player of a roster CSV (header: "
        + ",".join(COLUMNS)
        + ") in a season. All or nothing: a bad row is reported with its line and column, "
        "and nothing is written."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--season", type=int, required=True, help="the season's id")
        parser.add_argument(
            "--as",
            dest="username",
            help="the league official who imports (default: the league's only one)",
        )
        parser.add_argument("file", type=Path, help="the roster CSV (UTF-8)")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        require_migrated()
        season = season_by_id(options["season"])
        actor = acting_official(season.league, options["username"])
        try:
            text = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            raise CommandError(f"{path}: no such file") from None
        except UnicodeDecodeError as error:
            raise CommandError(f"{path}: not UTF-8 text ({error.reason})") from error
        except OSError as error:
            raise CommandError(f"{path}: cannot read it ({error.strerror})") from error
        try:
            rows = parse_players_csv(text)  # reports a malformed file before any database work
        except PlayersCsvError as error:
            raise CommandError(f"{path}: {error}; nothing was imported") from error
        with Progress("Importing players", total=len(rows), stream=ProgressStream(self)) as bar:
            try:
                result = import_players_csv(
                    season=season, csv_text=text, actor=actor, progress=bar.advance
                )
            except PlayersCsvError as error:
                raise CommandError(f"{path}: {error}; nothing was imported") from error
            except PermissionDenied as error:
                raise CommandError(str(error)) from error
        new = len(result.created_players)
        self.stdout.write(
            f"Entered {len(result.entries)} player{'s' if len(result.entries) != 1 else ''} "
            f"in {season.league.name}: {season.name} ({new} new to flipwell)."
        )
