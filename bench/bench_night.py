"""Benchmark: a league night on PostgreSQL, phones writing while viewers poll (issue 10).

Resets the database ``flipwell_bench_night`` (``BENCH_NIGHT_URL`` names another), migrates it,
makes a league of 48 players and 48 machines with meet 1 started (12 groups of 4, game 1 of
each drawn; `tests.chaos.seed night`) and serves it with gunicorn (``WORKERS`` workers of
``THREADS`` threads, production settings; ``BENCH_NIGHT_WORKERS`` and ``BENCH_NIGHT_THREADS``
set others), with Redis as the shared cache when one answers at ``BENCH_NIGHT_REDIS`` (as a
hosted installation has it: a changed board is rendered by one worker, not each; set it empty
to measure without). Then, for ``BENCH_NIGHT_SECONDS`` (180 by default):

- *phones*: the group's four players' phones play its match through the API's write
  endpoints (a token with the ``scores`` scope): after each game one phone enters the score
  sheet, another player's phone confirms it (R3-a), and the picker, last in that game
  (R5-c), chooses the next game's machine; four games per group, spread over the night.
  Each group picks from machines of its own, so no two groups ever want the same one.
- *viewers*: ``VIEWERS`` browsers with the meet board open, each polling its htmx fragment
  every ``POLL_SECONDS`` like the page does (``HX-Request``); when the board sends an ETag
  the viewer sends it back in ``If-None-Match`` as a browser does, and a 304 counts as an
  answer.

Prints the errors (goal: none), and the p50/p99 latency of the writes (goal: p99 < 150 ms)
and of the reads. The clients run on the server's machine and share its cores. A benchmark,
not a test: it never fails on a missed goal, and says so and stops when PostgreSQL is not
reachable.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

from tests.chaos.live import Database, LiveServer, exit_on_sigterm  # noqa: E402

from nightplay import (  # noqa: E402
    GAMES_PER_MATCH,
    GOAL_WRITE_P99_MS,
    OK_READS,
    OK_WRITES,
    Group,
    Reply,
    Timings,
    confirmer,
    groups_of,
    json_object,
    met,
    percentile,
    picker,
    postgres_up,
    redis_up,
    reset_postgres,
    safe,
    sheet,
)

DATABASE_URL = os.environ.get(
    "BENCH_NIGHT_URL", "postgres://postgres@127.0.0.1:5432/flipwell_bench_night"
)
NIGHT_SECONDS = float(os.environ.get("BENCH_NIGHT_SECONDS", "180"))
REDIS_URL = os.environ.get("BENCH_NIGHT_REDIS", "redis://127.0.0.1:6379/14")
WORKERS = int(os.environ.get("BENCH_NIGHT_WORKERS", "4"))
THREADS = int(os.environ.get("BENCH_NIGHT_THREADS", "4"))
PLAYERS = 48
VIEWERS = 200
POLL_SECONDS = 10.0


class Client:
    """HTTP/1.1 to the server, one connection per request (a phone or a browser polling every
    few seconds finds its keep-alive connection closed anyway)."""

    def __init__(self, base: str, token: str) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.token = token

    def request(
        self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
    ) -> tuple[Reply, float]:
        """The reply and its latency in milliseconds; status 0 when the connection failed."""
        sent = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        if method != "GET":  # as a careful client: every write its own key
            sent.setdefault("Idempotency-Key", uuid.uuid4().hex)
        data = None
        if body is not None:
            data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        started = time.perf_counter()
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            raw = response.read()
            reply = Reply(response.status, json_object(raw), response.getheader("ETag"))
        except (OSError, http.client.HTTPException):
            reply = Reply(0, {}, None)
        finally:
            connection.close()
        return reply, (time.perf_counter() - started) * 1e3


def main() -> None:
    if not postgres_up(DATABASE_URL):
        print(f"bench_night: SKIPPED, PostgreSQL not reachable at {safe(DATABASE_URL)}")
        return
    data_dir = Path(tempfile.mkdtemp(prefix="flipwell-bench-night-"))
    database = Database(url=DATABASE_URL, data_dir=data_dir)
    reset_postgres(DATABASE_URL)
    database.run("migrate")
    night = database.run("night", str(PLAYERS))
    database.collect_static()  # the viewers poll the meet board, a page
    shared = redis_up(REDIS_URL)
    if shared:
        os.environ["REDIS_URL"] = REDIS_URL  # the server's environment is this one's
    cache = "Redis shared cache" if shared else "no shared cache"
    server = LiveServer(
        database=database, log=data_dir / "gunicorn.log", workers=WORKERS, threads=THREADS
    )
    server.start()
    try:
        client = Client(server.url, night["token"])
        board, groups = _board(client, night["games"][0]["id"])
        print(
            f"gunicorn: {WORKERS} workers x {THREADS} threads, PostgreSQL, {cache}; "
            f"{PLAYERS} players in "
            f"{len(groups)} groups, {GAMES_PER_MATCH} games each over {NIGHT_SECONDS:.0f} s; "
            f"{VIEWERS} viewers polling the meet board every {POLL_SECONDS:.0f} s"
        )
        started = time.monotonic()
        writes, reads = _night(client, board, groups)
        lasted = time.monotonic() - started
    finally:
        server.kill()
    print(f"the night lasted {lasted:.0f} s (planned {NIGHT_SECONDS:.0f} s)")
    _report(writes, reads)


def _board(client: Client, game_id: int) -> tuple[str, list[Group]]:
    """The meet board's page path and the groups, each given three machines of its own that
    no group played game 1 on (so no pick is ever refused as in use, R5-c)."""
    game, _ = client.request("GET", f"/api/v1/games/{game_id}")
    meet_id = game.body["meet_id"]
    meet, _ = client.request("GET", f"/api/v1/meets/{meet_id}")
    leagues, _ = client.request("GET", "/api/v1/leagues")
    slug = leagues.body["results"][0]["slug"]
    groups = groups_of(meet.body)
    return f"/leagues/{slug}/meets/{meet_id}/", groups


def _night(client: Client, board: str, groups: list[Group]) -> tuple[Timings, Timings]:
    writes, reads = Timings(), Timings()
    over = threading.Event()
    viewers = [
        threading.Thread(target=_viewer, args=(client, board, reads, over, n), daemon=True)
        for n in range(VIEWERS)
    ]
    phones = [
        threading.Thread(target=_match, args=(client, group, writes), daemon=True)
        for group in groups
    ]
    for thread in viewers + phones:
        thread.start()
    for thread in phones:
        thread.join()
    over.set()
    for thread in viewers:
        thread.join()
    return writes, reads


def _viewer(client: Client, board: str, reads: Timings, over: threading.Event, n: int) -> None:
    """A browser with the meet board open: polls its fragment every POLL_SECONDS."""
    rng = random.Random(n)
    etag: str | None = None
    if over.wait(rng.uniform(0, POLL_SECONDS)):  # viewers opened the page at different times
        return
    while not over.is_set():
        headers = {"HX-Request": "true"}
        if etag:
            headers["If-None-Match"] = etag
        started = time.monotonic()
        reply, ms = client.request("GET", board, headers=headers)
        reads.add(reply, ms, "meet board", OK_READS)
        etag = reply.etag or etag
        over.wait(max(0.0, POLL_SECONDS - (time.monotonic() - started)))


def _match(client: Client, group: Group, writes: Timings) -> None:
    """A group's four games: enter, confirm, pick the next machine, as its phones would."""
    rng = random.Random(group.id)
    game_seconds = NIGHT_SECONDS / GAMES_PER_MATCH
    game_id = group.first_game
    for number in range(1, GAMES_PER_MATCH + 1):
        time.sleep(game_seconds * rng.uniform(0.6, 0.95))  # the game is played
        body = sheet(group, number, rng, f"bench-night-{group.id}-{number}")
        entered = _write(
            client,
            writes,
            f"group {group.number} game {number} scores",
            body,
            f"/api/v1/games/{game_id}/scores",
        )
        if entered is None:
            return
        time.sleep(rng.uniform(1.0, 4.0))  # another player reads the sheet on his phone
        confirmed = _write(
            client,
            writes,
            f"group {group.number} game {number} confirm",
            {"confirmed_by": confirmer(group, number)},
            f"/api/v1/submissions/{entered['submission']['id']}/confirm",
        )
        if confirmed is None or number == GAMES_PER_MATCH:
            return
        time.sleep(rng.uniform(1.0, 3.0))
        chosen = _write(
            client,
            writes,
            f"group {group.number} game {number + 1} machine",
            {"machine": group.machines[number - 1], "chosen_by": picker(entered["points"])},
            f"/api/v1/groups/{group.id}/next-game",
        )
        if chosen is None:
            return
        game_id = chosen["game_id"]


def _write(
    client: Client, writes: Timings, what: str, body: object, path: str
) -> dict[str, Any] | None:
    reply, ms = client.request("POST", path, body)
    return reply.body if writes.add(reply, ms, what, OK_WRITES) else None


def _report(writes: Timings, reads: Timings) -> None:
    for name, timings in (("writes", writes), ("reads", reads)):
        statuses = ", ".join(f"{s or 'failed'}: {n}" for s, n in sorted(timings.statuses.items()))
        print(
            f"{name:<7} {len(timings.latencies_ms):5d} requests ({statuses}); "
            f"p50 {percentile(timings.latencies_ms, 0.5):7.1f} ms, "
            f"p99 {percentile(timings.latencies_ms, 0.99):7.1f} ms, "
            f"max {max(timings.latencies_ms, default=0):7.1f} ms"
        )
        slowest = ", ".join(f"{what} {ms:.0f} ms" for ms, what in timings.slowest)
        print(f"        slowest: {slowest}")
    errors = writes.errors + reads.errors
    for error in errors[:5]:
        print(f"  error: {error}")
    print(f"goal: no errors: {met(not errors)} ({len(errors)} errors)")
    write_p99 = percentile(writes.latencies_ms, 0.99)
    print(
        f"goal: write p99 < {GOAL_WRITE_P99_MS:.0f} ms: "
        f"{met(write_p99 < GOAL_WRITE_P99_MS)} ({write_p99:.0f} ms)"
    )


if __name__ == "__main__":
    exit_on_sigterm()  # a killed run leaves no server behind
    main()
