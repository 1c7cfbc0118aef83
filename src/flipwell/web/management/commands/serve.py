"""``flipwell serve``: serve flipwell in production with gunicorn.

In order: refuse to start while the database lacks a migration (``flipwell migrate`` first,
so no worker ever serves code newer than its tables), warn when no site address is set
(``FLIPWELL_SITE_URL``: e-mails then send no link, see `flipwell.league.notices`), collect
the static files (hashed and compressed, see `flipwell.settings`), then *become* gunicorn
(exec: the same process id, so systemd's or docker's SIGTERM reaches gunicorn's master, which
shuts down gracefully). Its settings are in `flipwell.gunicorn_conf`.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from flipwell.gunicorn_conf import default_bind
from flipwell.league.notices import missing_site_address
from flipwell.serving.health import unapplied_migrations


def gunicorn_argv(bind: str | None) -> list[str]:
    """The command line flipwell serve runs: gunicorn with flipwell's config module."""
    argv = [sys.executable, "-m", "gunicorn", "--config", "python:flipwell.gunicorn_conf"]
    if bind:
        argv += ["--bind", bind]
    return argv


class Command(BaseCommand):
    help = "Serve flipwell with gunicorn: check migrations, collect static files, start."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--bind",
            metavar="ADDRESS",
            help=f"host:port or unix:PATH to listen on (default: {default_bind()}; "
            "0.0.0.0:$PORT when PORT is set)",
        )
        parser.add_argument(
            "--no-collectstatic",
            action="store_true",
            help="skip collectstatic (the files were collected already, e.g. in the image)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        missing = unapplied_migrations()
        if missing:
            shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise CommandError(
                f"the database lacks {len(missing)} migration{'s' if len(missing) > 1 else ''} "
                f"({shown}); run `flipwell migrate` first, then start the server again"
            )
        no_site = missing_site_address()
        if no_site:
            self.stderr.write(f"flipwell serve: warning: {no_site}")
        if not options["no_collectstatic"]:
            call_command("collectstatic", interactive=False, verbosity=0)
        connections.close_all()
        argv = gunicorn_argv(options["bind"])
        self.stdout.write(f"flipwell serve: {' '.join(argv[1:])}")
        self.stdout.flush()
        sys.stderr.flush()
        os.execv(argv[0], argv)
