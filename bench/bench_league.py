"""Benchmark: a 48-player league with 20 played meets in the database (issue "League data").

Prints the standings selector's time and query count, the time to close a meet, and the speed
of a 10,000-row roster import (rows per second; issue 8 wants it under 5 s). Runs on a
throw-away SQLite database by default; set DATABASE_URL to measure PostgreSQL. A benchmark,
not a test: it reports the best of several runs and never fails.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import tempfile
import time
from pathlib import Path

RUNS = 7
ROSTER_ROWS = 10_000


def main() -> None:
    data_dir = tempfile.mkdtemp(prefix="flipwell-bench-")
    os.environ.setdefault("FLIPWELL_DATA_DIR", data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "flipwell.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from flipwell.league import models as m
    from flipwell.league.selectors.standings import standings
    from flipwell.league.services.meets.close import close_meet
    from flipwell.league.services.players.roster_import import import_players_csv
    from flipwell.league.services.season_files import import_season_file

    sys.path.insert(0, str(Path(__file__).parent))
    from bench_rules import MEETS, PLAYERS, build_season_json

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench")
    league = m.League.objects.create(name="Bench League", slug="bench")
    m.LeagueOfficial.objects.create(user=user, league=league, role="league_official")
    started = time.perf_counter()
    season = import_season_file(
        league=league,
        name="Bench season",
        data=json.loads(build_season_json()),
        first_meet=datetime.date(2026, 1, 6),
        open_last_meet=True,
        actor=user,
    )
    seeded = time.perf_counter() - started

    best, queries = float("inf"), 0
    for _ in range(RUNS):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            standings(season)
            best = min(best, time.perf_counter() - started)
        queries = len(captured)

    meet = season.meets.get(status="open")
    close_best = float("inf")
    for _ in range(RUNS):
        try:
            with transaction.atomic():
                started = time.perf_counter()
                close_meet(meet=meet, actor=user)
                close_best = min(close_best, time.perf_counter() - started)
                raise _UndoCloseError  # keep the meet open for the next run
        except _UndoCloseError:
            meet.refresh_from_db()

    roster = m.Season.objects.create(
        league=league,
        name="Roster bench",
        weekday=1,
        start_time=datetime.time(19),
        number_of_meets=10,
    )
    started = time.perf_counter()
    imported = import_players_csv(season=roster, csv_text=_roster(ROSTER_ROWS), actor=user)
    import_seconds = time.perf_counter() - started
    assert len(imported.entries) == ROSTER_ROWS

    print(f"league: {PLAYERS} players, {MEETS} meets ({connection.vendor})")
    print(f"seed the league (import):  {seeded * 1e3:9.1f} ms")
    print(f"standings selector:        {best * 1e3:9.1f} ms, {queries} queries")
    print(f"close a meet:              {close_best * 1e3:9.1f} ms")
    print(
        f"import {ROSTER_ROWS:,} roster rows: {import_seconds:9.2f} s, "
        f"{ROSTER_ROWS / import_seconds:,.0f} rows/s"
    )


def _roster(rows: int) -> str:
    """A roster CSV: every other player has an IFPA number and rank."""
    lines = ["first_name,last_name,ifpa_number,ifpa_rank"]
    for i in range(1, rows + 1):
        number = f"{500_000 + i},{i}" if i % 2 else ","
        lines.append(f"Bench{i},Roster{i},{number}")
    return "\n".join(lines) + "\n"


class _UndoCloseError(Exception):
    """Undo a timed close so the next run closes the same meet."""


if __name__ == "__main__":
    main()
