"""`revoke_api_token --as USER PREFIX`: revoke a league's API token by its shown prefix."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from flipwell.league.selectors import access
from flipwell.league.services.tokens import revoke_api_token


class Command(BaseCommand):
    help = "Revoke an API token, named by the prefix `issue_api_token` printed (fw_xxxxxxx)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--as", dest="username", required=True, help="the league official who revokes it"
        )
        parser.add_argument("prefix", help="the token's first 10 characters")

    def handle(self, *args: Any, **options: Any) -> None:
        user = access.user_named(options["username"])
        if user is None:
            raise CommandError(f"no user named {options['username']!r}")
        tokens = access.live_api_tokens(options["prefix"])
        if len(tokens) != 1:
            found = "no live token" if not tokens else "several live tokens"
            raise CommandError(f"{found} with the prefix {options['prefix']!r}")
        try:
            revoke_api_token(token=tokens[0], actor=user)
        except (PermissionDenied, ValidationError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Revoked {tokens[0].prefix}….")
