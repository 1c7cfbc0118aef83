"""`issue_api_token --league SLUG --as USER --scope scores ... NAME`: print a new API token.

Without ``--league``: an installation token, with the ``leagues`` scope (open leagues through
the API) and any other scope its issuer then uses in the leagues where they hold the role."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.league.selectors import access, lookups
from flipwell.league.services.tokens import INSTALLATION_SCOPES, SCOPES, issue_api_token


class Command(BaseCommand):
    help = (
        "Issue an API token for one league and print it (only once: flipwell keeps its hash). "
        "Scopes: " + ", ".join(SCOPES) + ". Without --league: an installation token, which "
        "needs the leagues scope (open leagues) and an account that may open leagues."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--league", help="the league's slug (none: an installation token)")
        parser.add_argument(
            "--as", dest="username", required=True, help="the league official who issues it"
        )
        parser.add_argument(
            "--scope",
            dest="scopes",
            action="append",
            choices=INSTALLATION_SCOPES,
            required=True,
            help="a scope to grant (repeat for several)",
        )
        parser.add_argument("name", help="who or what will use the token")

    def handle(self, *args: Any, **options: Any) -> None:
        league = None
        if options["league"] is not None:
            league = lookups.league_by_slug(options["league"])
            if league is None:
                raise CommandError(f"no league with the slug {options['league']!r}")
        user = access.user_named(options["username"])
        if user is None:
            raise CommandError(f"no user named {options['username']!r}")
        try:
            issued = issue_api_token(
                league=league, name=options["name"], scopes=options["scopes"], actor=user
            )
        except (PermissionDenied, ValidationError) as error:
            raise CommandError("; ".join(_messages(error))) from error
        self.stdout.write(issued.secret)


def _messages(error: Exception) -> list[str]:
    if isinstance(error, ValidationError):
        return list(error.messages)
    return [str(error)]
