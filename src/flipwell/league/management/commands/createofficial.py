"""`createofficial`: a fresh installation's first league official, who may open leagues.

The password is asked twice on the terminal, or read from the environment variable that
``--password-from-env`` names (for scripts: a password never goes on the command line, where
other users of the machine can read it in the process list).
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.gunicorn_conf import default_bind
from flipwell.league.management.commands._common import require_migrated
from flipwell.league.services import create_league_opener


class Command(BaseCommand):
    help = (
        "Create a league official's account that may open leagues: sign in at /manage/ and "
        "press “Open a new league”. The password is asked twice, or read from the "
        "environment variable named by --password-from-env."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="the new account's user name")
        parser.add_argument(
            "--password-from-env",
            metavar="VARIABLE",
            help="read the password from this environment variable instead of asking",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        require_migrated()
        username: str = options["username"]
        password = self._password(options["password_from_env"])
        try:
            user = create_league_opener(username=username, password=password)
        except ValidationError as error:
            raise CommandError(_one_line(error)) from error
        self.stdout.write(
            "\n".join(
                [
                    f"Created the league official “{user.get_username()}”: this account may "
                    "open leagues.",
                    f"Next: sign in at {sign_in_address()} and press “Open a new league”.",
                ]
            )
        )

    def _password(self, variable: str | None) -> str:
        if variable is not None:
            password = os.environ.get(variable)
            if not password:
                raise CommandError(
                    f"--password-from-env {variable}: the environment variable {variable} is "
                    "not set or empty"
                )
            return password
        try:
            first = getpass.getpass("Password: ")
            second = getpass.getpass("Password (again): ")
        except EOFError as error:
            raise CommandError(
                "no password given: type it when asked, or pass --password-from-env VARIABLE"
            ) from error
        if first != second:
            raise CommandError("the two passwords differ; nothing was created")
        return first


def sign_in_address() -> str:
    """Where the new official signs in: the site's address (``FLIPWELL_SITE_URL``, which
    ``make run`` sets to the venue address), else where `flipwell serve` listens by default
    (``PORT``, else port 8000), on this machine."""
    if settings.SITE_URL:
        return f"{settings.SITE_URL}/manage/"
    port = default_bind().rsplit(":", 1)[1]
    return f"http://127.0.0.1:{port}/manage/"


def _one_line(error: ValidationError) -> str:
    """`error`'s messages on one line, each after its field: `username: ...; password: ...`."""
    if hasattr(error, "error_dict"):
        return "; ".join(
            f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items()
        )
    return " ".join(error.messages)
