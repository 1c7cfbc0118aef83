"""`demo`: create the demo league (once) and show its official's password."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from flipwell.league.exchange.demo import (
    DEMO_LEAGUE_NAME,
    DemoLeagueExistsError,
    DemoUserTakenError,
    create_demo_league,
)
from flipwell.league.management.commands._common import ProgressStream, require_migrated


class Command(BaseCommand):
    help = (
        f"Create the {DEMO_LEAGUE_NAME}: a league official 'demo' (password generated and "
        "shown once), machines, a finished season and a season in progress with an open meet, "
        "half played. "
        "Does nothing when the demo league exists."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        require_migrated()
        try:
            demo = create_demo_league(progress=ProgressStream(self))
        except DemoLeagueExistsError as exists:
            self.stdout.write(str(exists))
            return
        except DemoUserTakenError as taken:
            raise CommandError(str(taken)) from taken
        finished, current = demo.finished_season, demo.current_season
        self.stdout.write(
            "\n".join(
                [
                    f"Created the {demo.league.name}:",
                    f"  season {finished.pk}: {finished.name}, finished, playoffs played",
                    f"  season {current.pk}: {current.name}, in progress, tonight's meet half "
                    "played",
                    "",
                    "Sign in as its league official:",
                    f"  username: {demo.official.get_username()}",
                    f"  password: {demo.password}",
                    "The password is shown only now; change it after signing in.",
                ]
            )
        )
