"""Benchmark: photo uploads beside a public page, under the real server.

Starts gunicorn as bench_http does (``WORKERS`` workers of ``THREADS`` threads, production
settings, flipwell's gunicorn configuration) on a fresh SQLite database holding the demo league
and a league night (``tests.chaos.seed night``: meet 1 started, a game waiting for scores in
every group). It times the public standings page alone, one request after another, for
``BENCH_SECONDS`` (3 by default), then again while ``UPLOADS`` (8) uploads are sent at once,
in two kinds:

- *bombs*: PNGs of a few KB that would decode to 7,740 x 7,740 pixels (60 megapixels, more
  than a phone camera makes). The pixel cap refuses them from the header, undecoded (422);
- *phone photos*: JPEGs of 4,032 x 3,024 (12 megapixels, a phone's camera), which are decoded
  (with ``Image.draft``) and kept; at most ``FLIPWELL_PHOTO_DECODES`` per worker at once.

Each upload kind is sent in rounds, eight at once, for as long as the page is timed. It prints
the page's p50/p99 alone and beside each kind, their ratio, the uploads' answers and p50/p99,
and the workers' peak resident memory (from /proc). Goals: a bomb is never decoded (every
bomb answered 422, the workers' memory does not grow by the 200 MB one decode costs), and the
page's p99 beside the uploads stays under ``GOAL_PAGE_P99_MS`` (the public pages' goal).

Client and server share this machine's cores, as in bench_http. A benchmark, not a test: it
never fails on a missed goal.
"""

from __future__ import annotations

import io
import itertools
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from PIL import Image  # noqa: E402
from tests.chaos.live import Database, LiveServer, exit_on_sigterm  # noqa: E402
from tests.photo_files import png_bomb  # noqa: E402

import bench_http  # noqa: E402

WORKERS = bench_http.WORKERS
THREADS = bench_http.THREADS
UPLOADS = 8
GAMES = 24  # photos rotate over the games: at most 4 are kept a game
SECONDS = float(os.environ.get("BENCH_SECONDS", "3"))
GOAL_PAGE_P99_MS = 100.0


def main() -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="flipwell-bench-photos-"))
    os.environ["FLIPWELL_BENCH_URLS"] = "1"
    os.environ.setdefault("FLIPWELL_PHOTO_REFUSALS_PER_GAME", "100000")  # measure, not limit
    database = Database(url=f"sqlite:///{data_dir / 'flipwell.sqlite3'}", data_dir=data_dir)
    bench_http._manage(database, "migrate", "--verbosity", "0")
    bench_http._manage(database, "demo")
    night = database.run("night", str(4 * GAMES))
    database.collect_static()
    server = LiveServer(
        database=database, log=data_dir / "gunicorn.log", workers=WORKERS, threads=THREADS
    )
    server.start()
    try:
        page = server.url + f"/leagues/{night['league']}/"
        _get(page)  # first-request costs paid
        games = [g["id"] for g in night["games"]]
        uploads = {"bombs": png_bomb(), "phone photos": _phone_jpeg()}
        print(
            f"gunicorn: {WORKERS} workers x {THREADS} threads, SQLite; {UPLOADS} uploads at "
            f"once beside the standings page ({SECONDS:g} s each)"
        )
        print(f"memory before: {_workers_memory_mb(server):.0f} MB (workers' resident, summed)")
        alone = _time_page(page, SECONDS)
        _report_page("page alone", alone, alone)
        for name, content in uploads.items():
            send = _sender(server.url, night["token"], games, content)
            beside, answers, peak = _beside(page, send, server)
            _report_page(f"page beside {name}", beside, alone)
            _report_uploads(name, answers, len(content), peak)
    finally:
        server.kill()
        shutil.rmtree(data_dir, ignore_errors=True)


def _phone_jpeg() -> bytes:
    """A phone camera's photo: 12 megapixels of noise-free colour, as a JPEG."""
    image = Image.new("RGB", (4_032, 3_024), (180, 40, 40))
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90)
    return out.getvalue()


def _get(url: str) -> None:
    with urllib.request.urlopen(url, timeout=60) as response:
        response.read()


def _time_page(url: str, seconds: float) -> list[float]:
    """The page fetched one request after another for `seconds`: each request's time in ms."""
    times: list[float] = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        started = time.perf_counter()
        _get(url)
        times.append((time.perf_counter() - started) * 1000)
    return times


Answer = tuple[int, float]  # (status, milliseconds)


def _sender(base: str, token: str, games: list[int], content: bytes) -> Callable[[int], Answer]:
    """A function that uploads `content` to the `index`-th game and times its answer."""

    sent = itertools.count()

    def send(_: int) -> Answer:
        game = games[next(sent) % len(games)]
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; '
                f'filename="score.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'
            ).encode()
            + content
            + f"\r\n--{boundary}--\r\n".encode()
        )
        request = urllib.request.Request(
            f"{base}/api/v1/games/{game}/photos",
            data=body,
            method="POST",
            headers={
                "Authorization": f"Bearer {token}",
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Idempotency-Key": uuid.uuid4().hex,
            },
        )
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            error.read()
            status = error.code
        return status, (time.perf_counter() - started) * 1000

    return send


def _beside(
    page: str, send: Callable[[int], Answer], server: LiveServer
) -> tuple[list[float], list[Answer], float]:
    """The page timed while rounds of `UPLOADS` uploads at once run: the page's times, every
    upload's answer, and the workers' peak memory (MB) seen meanwhile."""
    answers: list[Answer] = []
    stop = threading.Event()
    peak = [_workers_memory_mb(server)]

    def upload_rounds() -> None:
        while not stop.is_set():
            with ThreadPoolExecutor(UPLOADS) as pool:
                answers.extend(pool.map(send, range(UPLOADS)))

    def watch_memory() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _workers_memory_mb(server))
            time.sleep(0.05)

    helpers = [threading.Thread(target=upload_rounds), threading.Thread(target=watch_memory)]
    for helper in helpers:
        helper.start()
    time.sleep(0.2)  # the first round is on its way
    times = _time_page(page, SECONDS)
    stop.set()
    for helper in helpers:
        helper.join()
    return times, answers, peak[0]


def _workers_memory_mb(server: LiveServer) -> float:
    """The resident memory of gunicorn's master and workers, summed, in MB."""
    master = server.pid
    if master is None:
        return 0.0
    pids = [master, *_children(master)]
    total_kb = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total_kb += int(line.split()[1])
    return total_kb / 1024


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _report_page(name: str, times: list[float], alone: list[float]) -> None:
    p50, p99 = _percentile(times, 0.5), _percentile(times, 0.99)
    ratio = p99 / _percentile(alone, 0.99)
    met = "met" if p99 < GOAL_PAGE_P99_MS else "MISSED"
    print(
        f"  {name:<28} {len(times):>5} requests  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms "
        f"(x{ratio:.2f} of alone; goal p99 < {GOAL_PAGE_P99_MS:g} ms: {met})"
    )


def _report_uploads(name: str, answers: list[Answer], size: int, peak_mb: float) -> None:
    statuses: dict[int, int] = {}
    for status, _ in answers:
        statuses[status] = statuses.get(status, 0) + 1
    times = [ms for _, ms in answers]
    shown = ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items()))
    print(
        f"  {name} ({size / 1024:.0f} KB each): {len(answers)} sent, answers {shown}; "
        f"p50 {_percentile(times, 0.5):.0f} ms, p99 {_percentile(times, 0.99):.0f} ms; "
        f"workers' peak memory {peak_mb:.0f} MB"
    )
    if name == "bombs":
        refused = statuses.get(422, 0) == len(answers)
        print(f"  every bomb refused undecoded (422): {'met' if refused else 'MISSED'}")


if __name__ == "__main__":
    exit_on_sigterm()  # a killed run leaves no server behind
    main()
