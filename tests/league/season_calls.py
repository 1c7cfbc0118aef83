"""A season whose players are asked about the next one, for the tests of signing up (the
services, the pages, the permission matrix and the browser test build on it).

Words: *Winter 2026* is a Tuesday season of four players, each with a personal link: Ana
(IFPA 1001), Bo (IFPA 1002), Cy and Di (no number), all Flipper (another league's players:
other numbers, `ifpa_base`). *Spring 2027* is the next
season the official asks them about, first meet on the Tuesday at least a week from today.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f

NAMES = (("Ana", 1), ("Bo", 2), ("Cy", None), ("Di", None))
NEXT = "Spring 2027"


def first_meet(weekday: int = m.Weekday.TUESDAY) -> datetime.date:
    """The first date on `weekday` at least a week after today."""
    start = timezone.localdate() + datetime.timedelta(days=7)
    return start + datetime.timedelta(days=(weekday - start.weekday()) % 7)


@dataclass
class Winter:
    """The last season, its official, players (in `NAMES` order) and their links."""

    official: User
    league: m.League
    season: m.Season
    players: list[m.Player]
    links: list[m.PlayerLink]

    def ask(self, **changes: object) -> m.SeasonCall:
        """The official asks about Spring 2027 (dues 30.00), with `changes`."""
        details: dict[str, object] = {
            "name": NEXT,
            "weekday": m.Weekday.TUESDAY,
            "starts_on": first_meet(),
            "dues_cents": 3000,
            **changes,
        }
        return services.ask_next_season(season=self.season, actor=self.official, **details)


def winter(*, slug: str = "tuesday", username: str | None = None, ifpa_base: int = 1000) -> Winter:
    """Winter 2026 (see the module's words) in a league of its own with address `slug`; its
    official's account is named `username` (default: the factory's)."""
    user = f.UserFactory(**({"username": username} if username else {}))
    lo = f.LeagueOfficialFactory(user=user, league__slug=slug, league__name="Tuesday Flippers")
    season = f.SeasonFactory(league=lo.league, name="Winter 2026", dues_cents=2500)
    players = [
        f.SeasonEntryFactory(
            season=season,
            player__first_name=first,
            player__last_name="Flipper",
            player__ifpa_number=None if number is None else ifpa_base + number,
        ).player
        for first, number in NAMES
    ]
    links = services.issue_player_links(season=season, actor=lo.user)
    by_player = {link.player_id: link for link in links}
    return Winter(
        official=lo.user,
        league=lo.league,
        season=season,
        players=players,
        links=[by_player[p.pk] for p in players],
    )
