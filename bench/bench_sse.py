"""Benchmark: the live streams (Server-Sent Events, `flipwell.serving.live`) under the real server.

Starts gunicorn as bench_http does (``WORKERS`` workers of ``THREADS`` threads, production
settings, flipwell's gunicorn configuration) on a fresh SQLite database holding the demo league
and a league night (``tests.chaos.seed night``: meet 1 started, a game waiting for scores in
every group), opens ``STREAMS`` streams of the night's league (``BENCH_SSE_STREAMS``, 500 by
default) from one asyncio client, then in ``ROUNDS`` rounds enters a game's scores through the
API, waits until every stream has heard of it, and confirms them: the *delivery time* of a
stream is from the moment the confirmation is sent to the moment that stream reads the new
revision. Then, with every stream still open, it loads the public pages with wrk beside the
bare view, as bench_http does (``BENCH_SECONDS`` per page, ``BENCH_ROUNDS`` rounds; 3 s and 2
by default here).

Goals (issue 23): the 500 streams open (each answered 200 ``text/event-stream``), a confirmed
score reaches every stream in under 1 s at p99 (a stream that never hears of it counts as
missed), and the pages' own goals (bench_http: every public page at least half the bare
view's requests per second; p99 under 100 ms) still met with the streams open.

Client and server share this machine's cores, as in bench_http. A benchmark, not a test: it
never fails on a missed goal.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests.chaos.live import Database, LiveServer, exit_on_sigterm  # noqa: E402

import bench_http  # noqa: E402

WORKERS = bench_http.WORKERS
THREADS = bench_http.THREADS
STREAMS = int(os.environ.get("BENCH_SSE_STREAMS", "500"))
ROUNDS = int(os.environ.get("BENCH_SSE_ROUNDS", "5"))
PLAYERS = 4 * max(ROUNDS, 2)
OPEN_AT_ONCE = 50
DELIVERY_WAIT_SECONDS = 5.0
GOAL_P99_SECONDS = 1.0


class Streams:
    """`STREAMS` open streams read by one asyncio loop in a thread of its own: what each one
    heard, as (time.monotonic(), revision) in order."""

    def __init__(self, base: str, slug: str) -> None:
        host = base.removeprefix("http://")
        self.address = host.split(":")
        self.request = (
            f"GET /live/{slug}/events/ HTTP/1.1\r\nHost: {host}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        ).encode()
        self.heard: list[list[tuple[float, int]]] = []
        self.opened = 0
        self.refused: list[str] = []
        self.writers: list[asyncio.StreamWriter] = []  # kept, so their streams stay open
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def open(self, count: int) -> None:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open(count), self.loop).result(timeout=120)

    async def _open(self, count: int) -> None:
        for start in range(0, count, OPEN_AT_ONCE):
            batch = range(start, min(count, start + OPEN_AT_ONCE))
            opened = await asyncio.gather(*(self._one() for _ in batch))
            for reader in opened:
                if reader is not None:
                    self.opened += 1
                    self.heard.append([])
                    self.loop.create_task(self._read(reader, self.heard[-1]))

    async def _one(self) -> asyncio.StreamReader | None:
        try:
            reader, writer = await asyncio.open_connection(self.address[0], int(self.address[1]))
            writer.write(self.request)
            await writer.drain()
            status = (await reader.readline()).decode("latin-1")
            headers = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
        except (OSError, asyncio.IncompleteReadError) as error:
            self.refused.append(str(error))
            return None
        if " 200 " not in status or "content-type: text/event-stream" not in headers:
            self.refused.append(status.strip())
            return None
        self.writers.append(writer)
        return reader

    async def _read(self, reader: asyncio.StreamReader, heard: list[tuple[float, int]]) -> None:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                heard.append((time.monotonic(), int(line[4:])))

    def last(self) -> list[int | None]:
        return [h[-1][1] if h else None for h in self.heard]

    def wait_all(self, revision_not: list[int | None], seconds: float) -> None:
        """Until every stream heard a revision other than its `revision_not` (or `seconds`)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if all(now != before for now, before in zip(self.last(), revision_not, strict=True)):
                return
            time.sleep(0.02)

    def deliveries(self, since: float, before: list[int | None]) -> list[float | None]:
        """Each stream's delay from `since` to its first revision other than `before`."""
        found: list[float | None] = []
        for heard, old in zip(self.heard, before, strict=True):
            found.append(next((t - since for t, rev in heard if t >= since and rev != old), None))
        return found


def main() -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="flipwell-bench-sse-"))
    os.environ["FLIPWELL_BENCH_URLS"] = "1"
    database = Database(url=f"sqlite:///{data_dir / 'flipwell.sqlite3'}", data_dir=data_dir)
    bench_http._manage(database, "migrate", "--verbosity", "0")
    bench_http._manage(database, "demo")
    night = database.run("night", str(PLAYERS))
    database.collect_static()
    server = LiveServer(
        database=database, log=data_dir / "gunicorn.log", workers=WORKERS, threads=THREADS
    )
    server.start()
    try:
        print(
            f"gunicorn: {WORKERS} workers x {THREADS} threads, SQLite; {STREAMS} streams of "
            f"one league, {ROUNDS} confirmed scores"
        )
        streams = Streams(server.url, night["league"])
        started = time.monotonic()
        streams.open(STREAMS)
        opening = time.monotonic() - started
        streams.wait_all([None] * streams.opened, 10)  # each stream's first revision
        delays = _rounds(server.url, night, streams)
        pages = bench_http._pages(server.url)
        loads = _load_pages(server.url, pages)
        still_open = sum(1 for h in streams.heard if h) if streams.opened else 0
    finally:
        server.kill()
        shutil.rmtree(data_dir, ignore_errors=True)
    _report(streams, opening, delays)
    print("The public pages with the streams open (bench_http's measure):")
    bench_http._report(loads)
    print(f"streams still read at the end: {still_open} of {streams.opened}")


def _rounds(base: str, night: dict[str, Any], streams: Streams) -> list[float | None]:
    delays: list[float | None] = []
    for number, game in enumerate(night["games"][:ROUNDS]):
        players = game["players"]
        before = streams.last()
        entered = _post(
            base,
            night["token"],
            f"/api/v1/games/{game['id']}/scores",
            {
                "entered_by": players[0],
                "scores": [
                    {"player": p, "machine_score": 1_000_000 * (i + 1) + number}
                    for i, p in enumerate(players)
                ],
                "idempotency_key": f"bench-sse-{game['id']}",
            },
        )
        streams.wait_all(before, DELIVERY_WAIT_SECONDS)
        time.sleep(0.5)
        before = streams.last()
        sent = time.monotonic()
        _post(
            base,
            night["token"],
            f"/api/v1/submissions/{entered['submission']['id']}/confirm",
            {"confirmed_by": players[1]},
        )
        streams.wait_all(before, DELIVERY_WAIT_SECONDS)
        delays += streams.deliveries(sent, before)
    return delays


def _post(base: str, token: str, path: str, body: object) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
        },
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _load_pages(base: str, pages: dict[str, str]) -> dict[str, list[bench_http.Load]]:
    wrk = shutil.which("wrk")
    rounds: dict[str, list[bench_http.Load]] = {name: [] for name in pages}
    if wrk is None:
        print("bench_sse: wrk is missing; run scripts/install-wrk.sh (apt-get install wrk).")
        return rounds
    seconds = int(os.environ.get("BENCH_SECONDS", "3"))
    for path in pages.values():
        bench_http._settle(base)
        bench_http._wrk(wrk, base + path, seconds=1)
    for _ in range(int(os.environ.get("BENCH_ROUNDS", "2"))):
        for name, path in pages.items():
            bench_http._settle(base)
            rounds[name].append(bench_http._wrk(wrk, base + path, seconds=seconds))
    return rounds


def _report(streams: Streams, opening: float, delays: list[float | None]) -> None:
    heard = sorted(d for d in delays if d is not None)
    missed = len(delays) - len(heard)
    print(
        f"streams open: {streams.opened} of {STREAMS} in {opening:.1f} s"
        + (f" (refused: {streams.refused[:3]})" if streams.refused else "")
    )
    if not heard:
        print("no stream heard a confirmed score")
        return
    p50 = bench_http_percentile(heard, 0.50)
    p99 = bench_http_percentile([*heard, *[float("inf")] * missed], 0.99)
    print(
        f"delivery of a confirmed score, {len(delays)} (stream, score) pairs: "
        f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {heard[-1] * 1000:.0f} ms, "
        f"missed {missed}"
    )
    print(
        f"goal: {STREAMS} streams open: {_met(streams.opened == STREAMS)}; "
        f"goal: p99 delivery < {GOAL_P99_SECONDS:.0f} s: {_met(p99 < GOAL_P99_SECONDS)}"
    )


def bench_http_percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of sorted `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def _met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


if __name__ == "__main__":
    exit_on_sigterm()  # a killed run leaves no server behind
    main()
