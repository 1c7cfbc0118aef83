"""`export_season --season ID --format csv|json [--output FILE] [--scores FILE]`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.league.exchange.exports import scores_csv, season_export, standings_csv
from flipwell.league.exchange.files import write_atomically
from flipwell.league.management.commands._common import require_migrated, season_by_id
from flipwell.league.selectors.season_folds import fold


class Command(BaseCommand):
    help = (
        "Export a season: JSON is a season file (readable by `flipwell standings`) with the "
        "computed standings; CSV is the standings table, and with --scores FILE every game's "
        "scores in a second CSV. Written to standard output unless --output names a file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--season", type=int, required=True, help="the season's id")
        parser.add_argument("--format", choices=("csv", "json"), required=True)
        parser.add_argument("--output", type=Path, help="the file to write (default: stdout)")
        parser.add_argument(
            "--scores", type=Path, help="CSV only: also write every game's scores to this file"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        output: Path | None = options["output"]
        scores: Path | None = options["scores"]
        if scores is not None and options["format"] != "csv":
            raise CommandError(
                "--scores goes with --format csv; a JSON export already holds every score"
            )
        require_migrated()
        folded = fold(season_by_id(options["season"]))
        if options["format"] == "json":
            text = json.dumps(season_export(folded), indent=1, ensure_ascii=False) + "\n"
        else:
            text = standings_csv(folded)
        self._write(output, text)
        if scores is not None:
            self._write(scores, scores_csv(folded))

    def _write(self, path: Path | None, text: str) -> None:
        if path is None:
            self.stdout.write(text, ending="")
            return

        def write(file: TextIO) -> None:
            file.write(text)

        if not path.parent.is_dir():
            raise CommandError(f"cannot write {path}: the folder {path.parent} does not exist")
        try:
            write_atomically(path, write)
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror or error}") from error
