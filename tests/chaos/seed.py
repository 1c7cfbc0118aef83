"""Prepares and inspects a database for the live-server tests, in the server's environment.

Run as ``python -m tests.chaos.seed COMMAND`` with the server's environment (``DATABASE_URL``,
``DJANGO_SETTINGS_MODULE=flipwell.settings``): the test process never opens that database
through Django, so it sees only what a real deployment would have stored.

Commands (each prints one JSON object on stdout):
- ``migrate``: apply every migration (an empty database becomes a template for the tests).
- ``night PLAYERS``: a league with PLAYERS players and as many machines, meet 1 started (one
  game waiting for scores in every group of four) and an API token with every scope:
  ``{"token": secret, "league": slug, "official": the official's username, "season": id,
  "meet": id, "games": [{"id": game id, "players": [player ids]}]}``.
- ``nights COUNT PLAYERS``: COUNT such leagues, each with its night started:
  ``{"nights": [night, ...]}``.
- ``stored``: every stored score submission, oldest first, ``{"submissions": [[id, key,
  game id, version, confirmed_by or null]]}``.
- ``fold SEASON``: the season folded now from its stored facts under its own readings (not
  the stored fold the pages read), its standings best first: ``{"standings": [[player id,
  league points as an exact fraction, games played]], "meets": meets folded}``.
"""

from __future__ import annotations

import datetime
import json
import sys
from typing import Any

import django


def main(argv: list[str]) -> dict[str, Any]:
    django.setup()
    command, *args = argv
    if command == "migrate":
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        return {"migrated": True}
    if command == "night":
        return _night(int(args[0]))
    if command == "nights":
        return {"nights": [_night(int(args[1])) for _ in range(int(args[0]))]}
    if command == "stored":
        return _stored()
    if command == "fold":
        return _fold(int(args[0]))
    raise SystemExit(f"unknown command {command!r}")


def _night(players: int) -> dict[str, Any]:
    from flipwell.league import models as m
    from flipwell.league.services.meets.start import start_meet
    from flipwell.league.services.tokens import issue_api_token
    from tests import factories as f

    # Each run is a new process whose factory sequences start again: number past the last run.
    start = 1000 * (m.League.objects.count() + 1)
    for factory_class in (
        f.UserFactory,
        f.LeagueFactory,
        f.PlayerFactory,
        f.SeasonFactory,
        f.MachineFactory,
    ):
        factory_class.reset_sequence(start)
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    season = f.SeasonFactory(league=official.league, number_of_meets=10, created_at=f.SET_UP_2026)
    for rank in range(1, players + 1):
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank)
    for _ in range(players):
        f.MachineFactory(league=official.league)
    started = start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=7
    )
    issued = issue_api_token(
        league=official.league,
        name="chaos",
        scopes=("read_private", "scores", "manage"),
        actor=official.user,
    )
    games = m.Game.objects.filter(group__meet__season=season).order_by("group__number")
    members = m.GroupMember.objects.filter(group__meet__season=season).order_by("position")
    by_group: dict[int, list[int]] = {}
    for group_id, player_id in members.values_list("group_id", "player_id"):
        by_group.setdefault(group_id, []).append(player_id)
    return {
        "token": issued.secret,
        "league": official.league.slug,
        "official": official.user.username,  # password: the factories' (tests.factories)
        "season": season.pk,
        "meet": started.meet.pk,
        "games": [{"id": g.pk, "players": by_group[g.group_id]} for g in games],
    }


def _stored() -> dict[str, Any]:
    from flipwell.league import models as m

    rows = m.ScoreSubmission.objects.order_by("pk").values_list(
        "pk", "idempotency_key", "game_id", "version", "confirmed_by_id"
    )
    ledger = m.LedgerEntry.objects.order_by("pk").values_list("pk", "league__slug", "note")
    return {
        "submissions": [list(row) for row in rows],
        "ledger": [list(row) for row in ledger],
    }


def _fold(season_id: int) -> dict[str, Any]:
    from fractions import Fraction

    from flipwell.league import models as m
    from flipwell.league.derived.results import compute_fold

    result = compute_fold(m.Season.objects.get(pk=season_id)).result
    return {
        "standings": [
            [int(s.player), str(Fraction(s.league_points)), s.games_played]
            for s in result.standings()
        ],
        "meets": len(result.meets),
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
