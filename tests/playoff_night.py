"""Builders for the playoff night on the golden season (tests/golden.py): its players found by
first name, the qualification with both seeding ties settled, and matches played through the
services, and the demo league's final reopened mid-play. The fixtures that use them
(``seeded``, ``qualified``) live in tests/conftest.py.

Words:
- *order*: a game's finishing order, as first names, the winner first.
"""

from __future__ import annotations

import datetime

from flipwell.league import models as m
from flipwell.league.exchange.demo import DemoLeague
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from flipwell.league.services.playoff_matches.games import record_playoff_game, start_playoff_game
from flipwell.league.services.playoffs import (
    RecordedSeedPlayoff,
    qualify_for_playoffs,
    record_seed_playoff,
)

NIGHT = datetime.date(2026, 3, 25)


def player(first_name: str) -> m.Player:
    return m.Player.objects.get(first_name=first_name)


def players(*first_names: str) -> list[m.Player]:
    return [player(name) for name in first_names]


def qualify_and_settle_seeds(season: m.Season, official: m.LeagueOfficial) -> RecordedSeedPlayoff:
    """Qualify the golden season and settle its two seeding ties (R6.1-e, A39); the second
    seed playoff's result."""
    qualify_for_playoffs(season=season, date=NIGHT, actor=official.user)
    record_seed_playoff(season=season, order=players("Dee", "Bea"), actor=official.user)
    return record_seed_playoff(season=season, order=players("Pia", "Hal"), actor=official.user)


def play(
    season: m.Season,
    official: m.LeagueOfficial,
    match: str,
    *orders: tuple[str, ...],
    division: str = "A",
) -> None:
    """Play a match's games with these finishing orders.

    Game 1's machine is drawn; later games take the first machine (by title) the chooser may
    pick, so the test does not depend on the draw.
    """
    for order in orders:
        bracket = playoff_bracket(season)
        view = next(x for x in bracket.divisions[0].matches if x.match == match)
        machine = None
        if view.machine_chooser is not None:
            used = {g.machine for g in view.games}
            machine = (
                m.Machine.objects.filter(league=season.league)
                .exclude(title__in=used)
                .order_by("title")
                .first()
            )
        start_playoff_game(
            season=season, division=division, match=match, machine=machine, actor=official.user
        )
        record_playoff_game(
            season=season, division=division, match=match, order=players(*order),
            actor=official.user,
        )  # fmt: skip


def tie_qf1(season: m.Season, official: m.LeagueOfficial) -> None:
    """QF1's three games played so that Hal and Pia tie (with the ``qualified`` fixture's
    bracket: Ivy, Pia, Hal, Kim)."""
    play(
        season,
        official,
        "QF1",
        ("Ivy", "Pia", "Hal", "Kim"),
        ("Hal", "Pia", "Ivy", "Kim"),
        ("Ivy", "Kim", "Pia", "Hal"),
    )


def reopen_final(demo: DemoLeague) -> m.PlayoffMatch:
    """The demo's playoff night back in the middle of the final: game 1 recorded, game 2
    started on its machine and not recorded, game 3 not started."""
    night = demo.finished_season.playoff_night
    final = night.matches.get(round="final")
    m.PlayoffGame.objects.filter(match=final, number=3).delete()
    m.PlayoffResult.objects.filter(game__match=final, game__number=2).delete()
    m.PlayoffNight.objects.filter(pk=night.pk).update(status=m.PlayoffNight.Status.OPEN)
    return final
