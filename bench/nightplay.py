"""What the league-night benchmarks share (bench_night: one league; bench_nights: many at once).

Words:
- *timings*: every request's latency and status of one kind, with its errors and slowest.
- *group*: one group of a started meet as the public meet board shows it, given machines of
  its own for its games 2-4 (no group ever wants another's, so no pick is refused, R5-c).
- *sheet*: the body of a game's score entry, distinct scores (no ties) drawn from the group's
  own random generator, so a night is the same every run.
- *production server*: `flipwell serve` (gunicorn with flipwell's configuration, production
  settings) on a database prepared by `tests.chaos.live.Database`, with ``WEB_CONCURRENCY``
  and ``GUNICORN_THREADS`` as given, else the configuration's own defaults.
- *process usage*: a process's CPU time (user + system, its reaped children's included) and
  its peak resident memory (``VmHWM``), read from /proc.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.chaos.live import LiveServer, free_port, postgres_execute  # noqa: E402

GAMES_PER_MATCH = 4
GOAL_WRITE_P99_MS = 150.0
OK_WRITES = frozenset({200, 201})
OK_READS = frozenset({200, 304})
SLOWEST_SHOWN = 3
STARTUP_SECONDS = 300


@dataclass(frozen=True)
class Reply:
    status: int
    body: dict[str, Any]
    etag: str | None


@dataclass
class Timings:
    """Every request's latency and status of one kind, from many threads."""

    latencies_ms: list[float] = field(default_factory=list)
    slowest: list[tuple[float, str]] = field(default_factory=list)
    """The slowest requests, slowest first, with what each was (`SLOWEST_SHOWN` of them)."""
    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, reply: Reply, milliseconds: float, what: str, ok: frozenset[int]) -> bool:
        """Record one request; whether its status is one of `ok`."""
        with self._lock:
            self.latencies_ms.append(milliseconds)
            if len(self.slowest) < SLOWEST_SHOWN or milliseconds > self.slowest[-1][0]:
                self.slowest = sorted([*self.slowest, (milliseconds, what)], reverse=True)
                del self.slowest[SLOWEST_SHOWN:]
            self.statuses[reply.status] = self.statuses.get(reply.status, 0) + 1
            if reply.status in ok:
                return True
            shown = json.dumps(reply.body)[:300] if reply.body else ""
            self.errors.append(f"{what}: {reply.status or 'no answer'} {shown}")
            return False

    def merge(self, other: Timings) -> None:
        """Add `other`'s requests to these (another client process's)."""
        self.latencies_ms += other.latencies_ms
        self.slowest = sorted([*self.slowest, *other.slowest], reverse=True)[:SLOWEST_SHOWN]
        for status, count in other.statuses.items():
            self.statuses[status] = self.statuses.get(status, 0) + count
        self.errors += other.errors

    def __getstate__(self) -> dict[str, Any]:  # sent between processes without its lock
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _lock=threading.Lock())


@dataclass(frozen=True)
class Group:
    """One group of the started meet, as the public meet board shows it."""

    id: int
    number: int
    players: tuple[int, ...]
    first_game: int
    machines: tuple[int, ...]  # the machines it picks for games 2-4, its own


def groups_of(meet: dict[str, Any]) -> list[Group]:
    """The groups of the meet board `meet` (the API's answer), each given three machines of
    its own that no group played game 1 on."""
    drawn = {g["games"][0]["machine_id"] for g in meet["groups"]}
    spare = [m["id"] for m in meet["machines"] if m["id"] not in drawn and not m["unplayable"]]
    picks = GAMES_PER_MATCH - 1
    return [
        Group(
            id=g["id"],
            number=g["number"],
            players=tuple(p["id"] for p in g["players"]),
            first_game=g["games"][0]["id"],
            machines=tuple(spare[i * picks : (i + 1) * picks]),
        )
        for i, g in enumerate(meet["groups"])
    ]


def sheet(group: Group, number: int, rng: random.Random, key: str) -> dict[str, Any]:
    """Game `number`'s score entry by one of the group's players (each game another)."""
    scores = rng.sample(range(1_000, 5_000_000), len(group.players))  # distinct: no ties
    return {
        "entered_by": group.players[(number - 1) % len(group.players)],
        "scores": [
            {"player": p, "machine_score": s * 10}
            for p, s in zip(group.players, scores, strict=True)
        ],
        "idempotency_key": key,
    }


def confirmer(group: Group, number: int) -> int:
    """Another player of the group than game `number`'s enterer (R3-a)."""
    return group.players[number % len(group.players)]


def picker(points: dict[str, int]) -> int:
    """Who picks the next game's machine: last place of the game (R5-c)."""
    return int(min(points, key=lambda player: points[player]))


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of `values` (0 when there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def json_object(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


# --- the database, Redis and the server ---------------------------------------------------


def postgres_up(url: str) -> bool:
    try:
        postgres_execute(url, "SELECT 1")
    except Exception:  # any failure to connect means: no PostgreSQL to measure
        return False
    return True


def reset_postgres(url: str) -> None:
    """Drop and create the database `url` names (its server's other databases untouched)."""
    name = urlsplit(url).path.lstrip("/")
    postgres_execute(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    postgres_execute(url, f'CREATE DATABASE "{name}"')


def redis_up(url: str) -> bool:
    """Whether Redis answers at `url` (its database there is emptied: pages of an earlier run
    are never asked for again, but a clean start measures the same night each time)."""
    if not url:
        return False
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.flushdb()
    except redis.RedisError:
        return False
    return True


def safe(url: str) -> str:
    parts = urlsplit(url)
    return url.replace(f":{parts.password}@", ":***@") if parts.password else url


@dataclass
class ProductionServer(LiveServer):
    """`flipwell serve` on `database` (static files collected already), bound to a free port
    of 127.0.0.1; `workers` and `threads` of 0 leave the configuration's defaults."""

    extra_env: dict[str, str] = field(default_factory=dict)

    def start(self) -> ProductionServer:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        env = {**self.database.env(), **self.extra_env, "FLIPWELL_SITE_URL": self.url}
        if self.workers:
            env["WEB_CONCURRENCY"] = str(self.workers)
        if self.threads:
            env["GUNICORN_THREADS"] = str(self.threads)
        serve = "from flipwell.cli import main; raise SystemExit(main())"
        bind = ("--bind", f"127.0.0.1:{port}", "--no-collectstatic")
        with self.log.open("ab") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-c", serve, "serve", *bind],
                cwd=self.database.data_dir,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: kill() reaches every worker
            )
        try:
            self._wait_until_up()
        except AssertionError:
            self.kill()
            raise
        return self

    def _wait_until_up(self) -> None:
        """As `LiveServer`'s, with more time: `flipwell serve` checks the migrations first,
        and a busy machine can take a minute to boot every worker."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                raise AssertionError(f"flipwell serve exited:\n{self.log.read_text()}")
            if self.get("/api/v1/leagues").status == 200:
                return
            time.sleep(0.5)
        raise AssertionError(f"flipwell serve did not answer in {STARTUP_SECONDS} s: {self.log}")

    def processes(self) -> list[int]:
        """The master's process id and its workers'."""
        return [self.pid, *children(self.pid)] if self.pid else []


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def cpu_seconds(pid: int) -> float:
    """Process `pid`'s CPU time so far (user and system, its reaped children's included);
    0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    """Process `pid`'s peak resident memory (VmHWM) in MB; 0 when it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0
