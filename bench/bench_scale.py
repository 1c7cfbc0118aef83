"""Benchmark: one league's pages on a database of many leagues against a database of one (issue 10).

Two PostgreSQL databases on the server of ``BENCH_SCALE_URL`` (default
``postgres://postgres@127.0.0.1:5432/``), made once and kept between runs (`make bench-scale`):

- ``flipwell_bench_one``: one league, its ``SEASONS`` seasons of ``PLAYERS`` players and
  ``MEETS`` meets each, stored by the real services (`import_season_file`, the season files of
  `bench_rules.build_season_json`: groups from each meet's ladder, distinct scores); the last
  season's last meet is open (a league night in progress).
- ``flipwell_bench_scale``: a copy of it (``CREATE DATABASE ... TEMPLATE``) to which the league
  is replicated ``LEAGUES - 1`` times, all in the database server: for every ``league_`` table
  with rows, one ``INSERT ... SELECT`` over ``generate_series`` writes every copy, ids shifted
  by the copy's number times the table's largest id (foreign keys to a copied table likewise),
  the columns of a unique index that holds no shifted column made distinct (text gets a
  suffix, numbers become null). That is a bulk insert of millions of rows without a
  round trip per row (faster than COPY from a client, which would send each row), with
  foreign-key triggers off during it; then ``VACUUM ANALYZE``.

A table ``bench_scale_marker`` in each database records what it holds; a database without
the marker of today's sizes is made again. Both are migrated on every run (new migrations of
flipwell apply to the kept data).

Then the first league's standings page, meet board (its open meet) and API standings are
requested in-process through Django's test client, ``REQUESTS`` times each after a warm-up, on
each database in turn (twice, alternating, the better median kept), with
`CaptureQueriesContext` counting their queries. Prints both times, their ratio (goal: at most
1.5x) and both query counts (goal: equal). A benchmark, not a test: it never fails on a missed
goal, and says so and stops when PostgreSQL is not reachable.
"""

from __future__ import annotations

import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
SERVER_URL = os.environ.get("BENCH_SCALE_URL", "postgres://postgres@127.0.0.1:5432/")
ONE, SCALE = "flipwell_bench_one", "flipwell_bench_scale"
LEAGUES = int(os.environ.get("BENCH_SCALE_LEAGUES", "200"))
SEASONS = 5
PLAYERS = 48  # the season files of bench_rules (PLAYERS, MEETS there)
MEETS = 20
REQUESTS = 20
ROUNDS = 3
SLUG = "bench"
SECRET_KEY = "bench-scale-only-not-a-secret-0123456789"
GOAL_RATIO = 1.5
MARKER = "bench_scale_marker"


def main() -> None:
    try:
        _admin("SELECT 1")
    except Exception:  # any failure to connect means: no PostgreSQL to measure
        print(f"bench_scale: SKIPPED, PostgreSQL not reachable at {SERVER_URL}")
        return
    sizes = {"leagues": LEAGUES, "seasons": SEASONS, "players": PLAYERS, "meets": MEETS}
    one_sizes = {**sizes, "leagues": 1}
    for name in (ONE, SCALE):
        if _marker(name) is not None:
            _django(name, "migrate")  # the kept data gets flipwell's new migrations
    if _marker(ONE) != one_sizes:
        _generate_one(one_sizes)
    if _marker(SCALE) != sizes:
        _generate_scale(sizes)
    else:
        print(f"bench_scale: reusing {ONE} and {SCALE} (drop them to generate them again)")
    _collect_static()
    _compare()


# --- The databases --------------------------------------------------------------------------


def _url(name: str) -> str:
    return urlsplit(SERVER_URL)._replace(path=f"/{name}").geturl()


def _admin(statement: str) -> None:
    import psycopg

    with psycopg.connect(_url("postgres"), autocommit=True, connect_timeout=5) as conn:
        conn.execute(statement)


def _marker(name: str) -> dict[str, int] | None:
    """What the database's marker says it holds; None when it or the marker is missing."""
    import psycopg

    try:
        with psycopg.connect(_url(name), connect_timeout=5) as conn:
            row = conn.execute(f"SELECT sizes FROM {MARKER}").fetchone()
    except psycopg.Error:
        return None
    return json.loads(row[0]) if row else None


def _connect(name: str) -> Any:
    import psycopg

    return psycopg.connect(_url(name), autocommit=True)


def _set_marker(name: str, sizes: dict[str, int]) -> None:
    with _connect(name) as conn:
        conn.execute(f"CREATE TABLE IF NOT EXISTS {MARKER} (sizes text NOT NULL)")
        conn.execute(f"DELETE FROM {MARKER}")
        conn.execute(f"INSERT INTO {MARKER} VALUES (%s)", [json.dumps(sizes)])


def _generate_one(sizes: dict[str, int]) -> None:
    started = time.monotonic()
    for name in (SCALE, ONE):
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(f'CREATE DATABASE "{ONE}"')
    print(f"bench_scale: making {ONE}: one league by the services ...", flush=True)
    _django(ONE, "seed")
    _set_marker(ONE, sizes)
    print(f"bench_scale: made {ONE} in {time.monotonic() - started:.0f} s")


def _generate_scale(sizes: dict[str, int]) -> None:
    started = time.monotonic()
    _admin(f'DROP DATABASE IF EXISTS "{SCALE}" WITH (FORCE)')
    _admin(f'CREATE DATABASE "{SCALE}" TEMPLATE "{ONE}"')
    with _connect(SCALE) as conn:
        conn.execute(f"DELETE FROM {MARKER}")  # until the copies are all there
    print(f"bench_scale: making {SCALE}: {LEAGUES} leagues by bulk inserts ...", flush=True)
    rows = _replicate(_url(SCALE), LEAGUES)
    _set_marker(SCALE, sizes)
    print(f"bench_scale: made {SCALE} in {time.monotonic() - started:.0f} s ({rows:,} rows)")


def _replicate(url: str, copies: int) -> int:
    """Copy every row of the ``league_`` tables `copies - 1` times (see the module docstring);
    the number of rows of those tables afterwards."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            table
            for (table,) in conn.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname LIKE 'league\\_%' "
                "ORDER BY c.relname"
            )
            if _number(conn, f'SELECT count(*) FROM (SELECT FROM "{table}" LIMIT 1) AS t')
        ]
        spans = {table: _number(conn, f'SELECT max(id) FROM "{table}"') for table in tables}
        with conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")  # no FK triggers
            for table in tables:
                statement = _copy_statement(conn, table, spans, copies)
                started = time.monotonic()
                conn.execute(statement)
                print(f"  {table}: {time.monotonic() - started:6.1f} s", flush=True)
        for table in tables:
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
                f'(SELECT max(id) FROM "{table}"))'
            )
        conn.execute("VACUUM ANALYZE")
        return sum(_number(conn, f'SELECT count(*) FROM "{table}"') for table in tables)


def _number(conn: Any, query: str) -> int:
    """The whole number `query` answers."""
    row = conn.execute(query).fetchone()
    return int(row[0])


def _copy_statement(conn: Any, table: str, spans: dict[str, int], copies: int) -> str:
    """``INSERT INTO table SELECT <each column, shifted for copy k> FROM table, <k = 1..>``."""
    columns = conn.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'public' AND table_name = %s ORDER BY ordinal_position",
        [table],
    ).fetchall()
    references = dict(
        conn.execute(
            "SELECT a.attname, c.confrelid::regclass::text FROM pg_constraint c "
            "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] "
            "WHERE c.contype = 'f' AND c.conrelid = %s::regclass",
            [f'"{table}"'],
        ).fetchall()
    )
    shifted = {"id": table} | {
        column: target.strip('"')
        for column, target in references.items()
        if target.strip('"') in spans
    }
    distinct = _unshifted_unique_columns(conn, table, set(shifted))
    values = []
    for column, data_type in columns:
        quoted = f'"{column}"'
        if column in shifted:
            values.append(f"{quoted} + k * {spans[shifted[column]]}")
        elif column in distinct and data_type in ("character varying", "text"):
            values.append(f"{quoted} || '-' || k")
        elif column in distinct:
            values.append("NULL")
        else:
            values.append(quoted)
    names = ", ".join(f'"{column}"' for column, _ in columns)
    return (
        f'INSERT INTO "{table}" ({names}) SELECT {", ".join(values)} '
        f'FROM "{table}", generate_series(1, {copies - 1}) AS k'
    )


def _unshifted_unique_columns(conn: Any, table: str, shifted: set[str]) -> set[str]:
    """Columns of the unique indexes that hold no shifted column: copies would collide there."""
    indexes = conn.execute(
        "SELECT array_agg(a.attname::text) FROM pg_index i "
        "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
        "WHERE i.indisunique AND i.indrelid = %s::regclass GROUP BY i.indexrelid",
        [f'"{table}"'],
    ).fetchall()
    return {column for (names,) in indexes if not set(names) & shifted for column in names}


# --- Inside Django (a child process per database) -----------------------------------------


def _env(name: str) -> dict[str, str]:
    """The environment of a child process on database `name` (production settings)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="flipwell.settings",
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "bench"), str(ROOT)]),
        DATABASE_URL=_url(name),
        DEBUG="0",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="testserver",
        FLIPWELL_DATA_DIR=str(Path(tempfile.gettempdir()) / "flipwell-bench-scale"),
    )
    return env


def _collect_static() -> None:
    """The pages link hashed static names (production settings): collect them once."""
    subprocess.run(
        [sys.executable, "-m", "django", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=_env(ONE),
        check=True,
    )


def _django(name: str, command: str) -> Any:
    """Run this script's `command` in a child process on database `name`; its JSON answer."""
    env = _env(name)
    done = subprocess.run(
        [sys.executable, __file__, command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,  # its progress and errors go to stderr, shown as they come
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"bench_scale {command} on {name} failed (see above)")
    return json.loads(done.stdout.strip().splitlines()[-1])


def child(command: str) -> Any:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if command == "seed":
        return _seed()
    if command == "measure":
        return _measure()
    return {"migrated": True}


def _seed() -> dict[str, int]:
    """The league of `flipwell_bench_one`, stored by the real services."""
    from django.contrib.auth import get_user_model

    from bench_rules import build_season_json
    from flipwell.league.services.leagues import create_league
    from flipwell.league.services.season_files import import_season_file

    user = get_user_model().objects.create_user("bench")
    league = create_league(name="Bench League", slug=SLUG, created_by=user)
    first = datetime.date(2021, 1, 5)
    for number in range(1, SEASONS + 1):
        started = time.monotonic()
        import_season_file(
            league=league,
            name=f"Season {number}",
            data=json.loads(build_season_json(seed=number)),
            first_meet=first + datetime.timedelta(weeks=26 * (number - 1)),
            open_last_meet=number == SEASONS,
            actor=user,
        )
        print(f"  season {number}: {time.monotonic() - started:.1f} s", file=sys.stderr)
    return {"league": league.pk}


def _measure() -> dict[str, dict[str, float]]:
    """Median milliseconds and query count of each page of the first league."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from flipwell.league import models as m

    season = m.Season.objects.filter(league__slug=SLUG).order_by("-pk").first()
    assert season is not None, f"no league {SLUG!r}"
    meet = season.meets.get(status="open")
    pages = {
        "standings page": f"/leagues/{SLUG}/",
        "meet board": f"/leagues/{SLUG}/meets/{meet.pk}/",
        "API standings": f"/api/v1/seasons/{season.pk}/standings",
    }
    client = Client()
    measured = {}
    for page, path in pages.items():
        for _ in range(2):  # warm-up: caches, the first query plans
            assert client.get(path).status_code == 200, path
        times = []
        for _ in range(REQUESTS):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                client.get(path)
                times.append((time.perf_counter() - started) * 1e3)
        measured[page] = {"ms": statistics.median(times), "queries": len(queries)}
    return measured


# --- The comparison --------------------------------------------------------------------------


def _compare() -> None:
    best: dict[str, dict[str, dict[str, float]]] = {}
    for _ in range(ROUNDS):
        for name in (ONE, SCALE):
            for page, numbers in _django(name, "measure").items():
                kept = best.setdefault(name, {}).get(page)
                if kept is None or numbers["ms"] < kept["ms"]:
                    best[name][page] = numbers
    print(
        f"one league ({SEASONS} seasons x {PLAYERS} players x {MEETS} meets) in {ONE} "
        f"and among {LEAGUES} in {SCALE}; median of {REQUESTS} requests, best of {ROUNDS}"
    )
    print(f"{'page':<16} {'one ms':>8} {'scale ms':>9} {'ratio':>6} {'queries':>9}")
    ratios, equal = {}, True
    for page, one in best[ONE].items():
        scale = best[SCALE][page]
        ratios[page] = scale["ms"] / one["ms"]
        equal = equal and one["queries"] == scale["queries"]
        print(
            f"{page:<16} {one['ms']:8.1f} {scale['ms']:9.1f} {ratios[page]:5.2f}x "
            f"{one['queries']:4.0f}/{scale['queries']:<4.0f}"
        )
    worst = max(ratios, key=lambda page: ratios[page])
    print(
        f"goal: within {GOAL_RATIO}x of one league's time: "
        f"{_met(ratios[worst] <= GOAL_RATIO)} (highest: {worst}, {ratios[worst]:.2f}x)"
    )
    print(f"goal: equal query counts: {_met(equal)}")


def _met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(child(sys.argv[1])))
    else:
        main()
