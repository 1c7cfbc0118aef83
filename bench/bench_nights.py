"""Benchmark: many league nights at once on this machine, and how many it can hold (issue 36).

A hosted installation does not run one night: leagues play on the same weekday evenings. This
resets the database ``flipwell_bench_nights`` (``BENCH_NIGHTS_URL`` names another) and, for
``BENCH_NIGHTS_LEAGUES`` leagues (20 by default), makes each a league of 48 players and 48
machines with meet 1 started (12 groups of 4; `tests.chaos.seed nights`), then serves them
with the production server (`flipwell serve`: gunicorn, production settings, its default
workers and threads unless ``BENCH_NIGHTS_WORKERS``/``BENCH_NIGHTS_THREADS`` say otherwise)
on PostgreSQL, with Redis at ``BENCH_NIGHTS_REDIS`` as the shared cache when it answers.
Every league's night is played at once (`nights_client`: the phones' writes through the API,
one malfunction with a compensatory game and one correction per league, and 100 viewers per
league, ``BENCH_NIGHTS_VIEWERS``, each on the live stream fetching the board and the
standings on each event, with ETags) by ``BENCH_NIGHTS_CLIENTS`` client processes (2 by
default), each one asyncio loop. A night is four games per group over
``BENCH_NIGHTS_SECONDS`` (360 by default: a game every 90 s, a real night compressed ten
times; fewer seconds play the same night faster).

Prints, per kind of request, its count, errors and p50/p99 latency; the score-to-screen
delay (`nights_client`: a confirmation's send to each stream of its league hearing a new
revision); the server's CPU time per write (its processes' CPU over the night from /proc,
the reads the writes cause included) and PostgreSQL's (the backends of this database); the
peak PostgreSQL connections (pg_stat_activity, polled); each process's peak memory (VmHWM)
and Redis's. Each beside its goal: no errors; write p99 < 150 ms; score-to-screen p99 < 1 s;
page p99 < 100 ms.

Then the capacity search: another night with more leagues (``BENCH_NIGHTS_STEP`` more, 10 by
default) while every goal is met, and between the most that met them and the fewest that did
not once one breaks (halving the gap), at most ``BENCH_NIGHTS_MAX`` leagues (60) and
``BENCH_NIGHTS_ROUNDS`` nights in all (5; 1: no search). Each night's leagues are new ones
(the database keeps the earlier nights' leagues, as an installation would) and the server is
started afresh. It prints the capacity: the most leagues whose night met every goal here.

Client and server share this machine's cores, as in bench_night and bench_sse. A benchmark,
not a test: it never fails on a missed goal, and says so and stops when PostgreSQL is not
reachable.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests.chaos.live import Database, exit_on_sigterm  # noqa: E402

import nights_client  # noqa: E402
from nightplay import (  # noqa: E402
    GOAL_WRITE_P99_MS,
    ProductionServer,
    Timings,
    cpu_seconds,
    groups_of,
    json_object,
    met,
    peak_rss_mb,
    percentile,
    postgres_up,
    redis_up,
    reset_postgres,
    safe,
)

DATABASE_URL = os.environ.get(
    "BENCH_NIGHTS_URL", "postgres://postgres@127.0.0.1:5432/flipwell_bench_nights"
)
REDIS_URL = os.environ.get("BENCH_NIGHTS_REDIS", "redis://127.0.0.1:6379/13")
LEAGUES = int(os.environ.get("BENCH_NIGHTS_LEAGUES", "20"))
NIGHT_SECONDS = float(os.environ.get("BENCH_NIGHTS_SECONDS", "360"))
VIEWERS = int(os.environ.get("BENCH_NIGHTS_VIEWERS", "100"))
CLIENTS = int(os.environ.get("BENCH_NIGHTS_CLIENTS", "2"))
WORKERS = int(os.environ.get("BENCH_NIGHTS_WORKERS", "0"))  # 0: flipwell serve's default
THREADS = int(os.environ.get("BENCH_NIGHTS_THREADS", "0"))
STEP = int(os.environ.get("BENCH_NIGHTS_STEP", "10"))
MAX_LEAGUES = int(os.environ.get("BENCH_NIGHTS_MAX", "60"))
ROUNDS = int(os.environ.get("BENCH_NIGHTS_ROUNDS", "5"))
PLAYERS = 48
SEED_AT_ONCE = 10
POLL_SECONDS = 0.5
GOAL_DELIVERY_P99_S = 1.0
GOAL_PAGE_P99_MS = 100.0


@dataclass
class Usage:
    """What the monitor saw over a night: peak connections, CPU and memory."""

    peak_connections: int = 0
    server_cpu: float = 0.0
    postgres_cpu: float | None = None
    server_rss_mb: list[float] = field(default_factory=list)  # master first
    redis: dict[str, Any] = field(default_factory=dict)


@dataclass
class Round:
    """One night of `leagues` leagues: what the clients measured and the monitor saw."""

    leagues: int
    seconds: float
    timings: dict[str, Timings]
    delays: list[float | None]
    streams: int
    reconnections: int
    parts: tuple[int, int]
    """Entries of pages' parts the viewers took, and those they did not (then fetched)."""
    clients_rss_mb: list[float]
    clients_cpu: float
    usage: Usage
    broken: list[str] = field(default_factory=list)


def main() -> None:
    if not postgres_up(DATABASE_URL):
        print(f"bench_nights: SKIPPED, PostgreSQL not reachable at {safe(DATABASE_URL)}")
        return
    data_dir = Path(tempfile.mkdtemp(prefix="flipwell-bench-nights-"))
    database = Database(url=DATABASE_URL, data_dir=data_dir)
    reset_postgres(DATABASE_URL)
    database.run("migrate")
    database.collect_static()  # the viewers fetch pages
    shared = redis_up(REDIS_URL)
    server_env = {"REDIS_URL": REDIS_URL} if shared else {}
    print(
        f"flipwell serve ({_workers()}), PostgreSQL, "
        f"{'Redis shared cache' if shared else 'no shared cache'}; each league {PLAYERS} "
        f"players in {PLAYERS // 4} groups, 4 games each over {NIGHT_SECONDS:.0f} s, "
        f"{VIEWERS} viewers on the live stream; {CLIENTS} client processes"
    )
    tried: dict[int, bool] = {}
    count: int | None = LEAGUES
    while count is not None:
        night = _night(database, count, server_env)
        _report(night)
        tried[count] = not night.broken
        count = next_count(tried)
    _capacity(tried)


def next_count(tried: dict[int, bool]) -> int | None:
    """The next league count to try, from the counts tried (whether each met every goal):
    `STEP` more than the most that met them while none broke one, then halfway between the
    most that met them and the fewest that did not; None when the search is over."""
    if len(tried) >= ROUNDS:
        return None
    good = max((n for n, ok in tried.items() if ok), default=0)
    bad = min((n for n, ok in tried.items() if not ok), default=None)
    if bad is None:
        return min(good + STEP, MAX_LEAGUES) if good < MAX_LEAGUES else None
    return (good + bad) // 2 if bad - good > 1 else None


def _workers() -> str:
    workers = f"{WORKERS} workers" if WORKERS else "its default workers"
    return f"{workers} x {THREADS or 'its default'} threads"


def _night(database: Database, count: int, server_env: dict[str, str]) -> Round:
    nights: list[dict[str, Any]] = []
    while len(nights) < count:  # a few at a time: each seeding process has five minutes
        more = min(SEED_AT_ONCE, count - len(nights))
        nights += database.run("nights", str(more), str(PLAYERS))["nights"]
    log = database.data_dir / f"serve-{count}.log"
    server = ProductionServer(
        database=database, log=log, workers=WORKERS, threads=THREADS, extra_env=server_env
    )
    server.start()
    try:
        leagues = [_league(server.url, night) for night in nights]
        print(f"\n{count} leagues at once ({count * PLAYERS} players, {count * VIEWERS} viewers):")
        return _play(server, leagues, server_env.get("REDIS_URL", ""))
    finally:
        server.kill()


def _league(base: str, night: dict[str, Any]) -> nights_client.League:
    request = urllib.request.Request(
        f"{base}/api/v1/meets/{night['meet']}",
        headers={"Authorization": f"Bearer {night['token']}"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        board = json_object(response.read())
    return nights_client.League(
        slug=night["league"],
        token=night["token"],
        season=night["season"],
        meet=night["meet"],
        groups=tuple(groups_of(board)),
    )


def _play(server: ProductionServer, leagues: list[nights_client.League], redis_url: str) -> Round:
    parts = urlsplit(server.url)
    context = multiprocessing.get_context("spawn")
    ready = [context.Event() for _ in range(min(CLIENTS, len(leagues)))]
    go, answers = context.Event(), context.Queue()
    clients = [
        context.Process(
            target=nights_client.run,
            args=(
                nights_client.Plan(
                    host=parts.hostname or "127.0.0.1",
                    port=parts.port or 80,
                    leagues=tuple(leagues[n :: len(ready)]),
                    viewers=VIEWERS,
                    night_seconds=NIGHT_SECONDS,
                ),
                ready[n],
                go,
                answers,
            ),
        )
        for n in range(len(ready))
    ]
    for client in clients:
        client.start()
    for event in ready:  # every stream open
        while not event.wait(timeout=1):
            _alive(clients)
    monitor = Monitor(server, redis_url)
    started = time.monotonic()
    go.set()
    outcomes: list[nights_client.Outcome] = []
    while len(outcomes) < len(clients):
        try:
            outcomes.append(answers.get(timeout=1))
        except queue.Empty:
            _alive(clients)
    seconds = time.monotonic() - started
    usage = monitor.stop()
    for client in clients:
        client.join(timeout=60)
    timings = {kind: Timings() for kind in nights_client.KINDS}
    for outcome in outcomes:
        for kind, each in outcome.timings.items():
            timings[kind].merge(each)
    night = Round(
        leagues=len(leagues),
        seconds=seconds,
        timings=timings,
        delays=[d for outcome in outcomes for d in outcome.delays],
        streams=sum(outcome.streams for outcome in outcomes),
        reconnections=sum(outcome.reconnections for outcome in outcomes),
        parts=(
            sum(outcome.parts_taken for outcome in outcomes),
            sum(outcome.parts_refused for outcome in outcomes),
        ),
        clients_rss_mb=[outcome.peak_rss_mb for outcome in outcomes],
        clients_cpu=sum(outcome.cpu_seconds for outcome in outcomes),
        usage=usage,
    )
    night.broken = _broken(night)
    return night


def _alive(clients: list[Any]) -> None:
    """Stop the night when a client process died (it printed why)."""
    if any(client.exitcode not in (None, 0) for client in clients):
        raise SystemExit("bench_nights: a client process failed")


class Monitor:
    """Over a night: the server processes' CPU (from its start to `stop`), the peak
    PostgreSQL connections to this database and its backends' CPU (polled), Redis's figures."""

    def __init__(self, server: ProductionServer, redis_url: str) -> None:
        self.server = server
        self.redis_url = redis_url
        self.cpu_at_start = {pid: cpu_seconds(pid) for pid in server.processes()}
        self.redis_at_start = self._redis()
        self.usage = Usage()
        self.backends: dict[int, tuple[float, float]] = {}  # pid -> (first, last CPU seen)
        self.over = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)
        self.thread.start()

    def _poll(self) -> None:
        import psycopg

        name = urlsplit(DATABASE_URL).path.lstrip("/")
        admin = urlsplit(DATABASE_URL)._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as connection:
            while not self.over.wait(POLL_SECONDS):
                rows = connection.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,)
                ).fetchall()
                self.usage.peak_connections = max(self.usage.peak_connections, len(rows))
                for (pid,) in rows:
                    used = _postgres_cpu(pid)
                    if used is not None:
                        first = self.backends.get(pid, (used, used))[0]
                        self.backends[pid] = (first, used)

    def _redis(self) -> dict[str, Any]:
        if not self.redis_url:
            return {}
        import redis

        info: dict[str, Any] = redis.Redis.from_url(self.redis_url).info()
        return info

    def stop(self) -> Usage:
        processes = self.server.processes()
        self.usage.server_cpu = sum(
            cpu_seconds(pid) - self.cpu_at_start.get(pid, 0.0) for pid in processes
        )
        self.usage.server_rss_mb = [peak_rss_mb(pid) for pid in processes]
        self.over.set()
        self.thread.join(timeout=10)
        if self.backends:
            self.usage.postgres_cpu = sum(last - first for first, last in self.backends.values())
        after = self._redis()
        if after:
            self.usage.redis = {
                "commands": after["total_commands_processed"]
                - self.redis_at_start["total_commands_processed"],
                "peak_mb": after["used_memory_peak"] / 2**20,
                "clients": after["connected_clients"],
            }
        return self.usage


def _postgres_cpu(pid: int) -> float | None:
    """A PostgreSQL backend's CPU seconds when it runs on this machine (its /proc entry is a
    postgres process), else None."""
    try:
        if Path(f"/proc/{pid}/comm").read_text().strip() != "postgres":
            return None
    except OSError:
        return None
    return cpu_seconds(pid)


def _broken(night: Round) -> list[str]:
    """The goals this night did not meet."""
    broken = []
    if _errors(night):
        broken.append("no errors")
    if percentile(_latencies(night, nights_client.WRITE_KINDS), 0.99) >= GOAL_WRITE_P99_MS:
        broken.append("write p99")
    if _delivery_p99(night.delays) >= GOAL_DELIVERY_P99_S:
        broken.append("score-to-screen p99")
    if percentile(_latencies(night, nights_client.PAGE_KINDS), 0.99) >= GOAL_PAGE_P99_MS:
        broken.append("page p99")
    return broken


def _errors(night: Round) -> list[str]:
    return [error for timings in night.timings.values() for error in timings.errors]


def _latencies(night: Round, kinds: tuple[str, ...]) -> list[float]:
    return [ms for kind in kinds for ms in night.timings[kind].latencies_ms]


def _delivery_p99(delays: list[float | None]) -> float:
    """The p99 delay, a missed delivery counted as endless."""
    return percentile([float("inf") if d is None else d for d in delays], 0.99)


def _writes(night: Round) -> int:
    return sum(len(night.timings[kind].latencies_ms) for kind in nights_client.WRITE_KINDS)


def _report(night: Round) -> None:
    print(f"  the night lasted {night.seconds:.0f} s (planned {NIGHT_SECONDS:.0f} s)")
    print(f"  {'request':<20}{'count':>7}{'errors':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind in nights_client.KINDS:
        timings = night.timings[kind]
        values = timings.latencies_ms
        print(
            f"  {kind:<20}{len(values):>7}{len(timings.errors):>8}"
            f"{percentile(values, 0.5):>9.1f}{percentile(values, 0.99):>9.1f}"
            f"{max(values, default=0):>9.1f}"
        )
    for error in _errors(night)[:5]:
        print(f"  error: {error}")
    heard = [d for d in night.delays if d is not None]
    print(
        f"  live streams: {night.streams} opened for {night.leagues * VIEWERS} viewers "
        f"({night.reconnections} reopened: ended by the server or dropped); score-to-screen, "
        f"{len(night.delays)} (confirmation, stream) pairs: p50 "
        f"{percentile(heard, 0.5) * 1e3:.0f} ms, p99 {_delivery_p99(night.delays) * 1e3:.0f} ms, "
        f"missed {len(night.delays) - len(heard)}"
    )
    print(
        f"  pages' parts in the events: taken {night.parts[0]} times, not taken "
        f"{night.parts[1]} (the page fetched instead); fetches: board "
        f"{len(night.timings['meet board'].latencies_ms)}, standings "
        f"{len(night.timings['standings'].latencies_ms)}"
    )
    _report_usage(night)
    _report_goals(night)


def _report_usage(night: Round) -> None:
    usage, writes = night.usage, max(_writes(night), 1)
    requests = max(sum(len(t.latencies_ms) for t in night.timings.values()), 1)
    print(
        f"  server CPU over the night: {usage.server_cpu:.1f} s, "
        f"{usage.server_cpu / writes * 1e3:.0f} ms per write all in ({writes} writes; the "
        f"reads they cause included), {usage.server_cpu / requests * 1e3:.1f} ms per request"
    )
    if usage.postgres_cpu is not None:
        print(
            f"  PostgreSQL backends' CPU: {usage.postgres_cpu:.1f} s, "
            f"{usage.postgres_cpu / writes * 1e3:.0f} ms per write all in"
        )
    print(f"  clients' CPU: {night.clients_cpu:.1f} s (they share the server's cores)")
    print(f"  peak PostgreSQL connections to this database: {usage.peak_connections}")
    master, *workers = usage.server_rss_mb or [0.0]
    shown = ", ".join(f"{mb:.0f}" for mb in workers)
    print(
        f"  peak memory (MB): server master {master:.0f}, workers {shown}; "
        f"clients {', '.join(f'{mb:.0f}' for mb in night.clients_rss_mb)}"
    )
    if usage.redis:
        print(
            f"  Redis: {usage.redis['commands']} commands over the night (the whole server's, "
            f"others' included), {usage.redis['commands'] / writes:.0f} per write; peak "
            f"memory {usage.redis['peak_mb']:.1f} MB; {usage.redis['clients']} clients"
        )


def _report_goals(night: Round) -> None:
    errors = len(_errors(night))
    writes = percentile(_latencies(night, nights_client.WRITE_KINDS), 0.99)
    fetched = _latencies(night, nights_client.PAGE_KINDS)
    pages = percentile(fetched, 0.99)
    delivery = _delivery_p99(night.delays)
    print(f"  goal: no errors: {met(not errors)} ({errors} errors)")
    print(
        f"  goal: write p99 < {GOAL_WRITE_P99_MS:.0f} ms: "
        f"{met(writes < GOAL_WRITE_P99_MS)} ({writes:.0f} ms)"
    )
    print(
        f"  goal: score-to-screen p99 < {GOAL_DELIVERY_P99_S:.0f} s: "
        f"{met(delivery < GOAL_DELIVERY_P99_S)} ({delivery * 1e3:.0f} ms)"
    )
    print(
        f"  goal: page p99 < {GOAL_PAGE_P99_MS:.0f} ms: "
        f"{met(pages < GOAL_PAGE_P99_MS)} "
        + (f"({pages:.0f} ms)" if fetched else "(no page fetched: every change came as parts)")
    )


def _capacity(tried: dict[int, bool]) -> None:
    shown = ", ".join(f"{n}: {'met' if ok else 'broke'}" for n, ok in sorted(tried.items()))
    good = max((n for n, ok in tried.items() if ok), default=0)
    bad = min((n for n, ok in tried.items() if not ok), default=None)
    if bad is None:
        found = f"at least {good} leagues (no count tried broke a goal)"
    elif bad - good > 1:
        found = f"{good} leagues (between {good} and {bad - 1}: the search stopped)"
    else:
        found = f"{good} leagues"
    print(f"\ncapacity of this machine: {found}; nights tried (every goal): {shown}")


if __name__ == "__main__":
    exit_on_sigterm()  # a killed run leaves no server behind
    main()
