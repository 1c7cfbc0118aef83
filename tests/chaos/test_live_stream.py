"""The live streams under the real server (gunicorn, two workers of several threads): handed
off to each worker's hub, they hold no thread, and a score entered reaches every one of them."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable

import pytest

from tests.chaos.conftest import NewDatabase, NewServer

pytestmark = pytest.mark.django_db

STREAMS = 40
"""More than the server's threads (2 workers x 8): held by threads, most would never open."""


def open_stream(base: str, slug: str, last_event_id: str = "") -> tuple[socket.socket, bytes]:
    """A stream opened by hand: its socket and its head (up to its first event, if any)."""
    host = base.removeprefix("http://")
    address, port = host.split(":")
    sock = socket.create_connection((address, int(port)), timeout=10)
    extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
    sock.sendall(
        f"GET /live/{slug}/events/ HTTP/1.1\r\nHost: {host}\r\n{extra}"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    wanted = 1 if last_event_id else 2  # the retry block, then the event
    return sock, read_until(
        sock, lambda got: got.partition(b"\r\n\r\n")[2].count(b"\n\n") >= wanted
    )


def read_until(sock: socket.socket, done: Callable[[bytes], bool], seconds: float = 10.0) -> bytes:
    """What `sock` sends until `done` says so (or `seconds` pass, or it closes)."""
    got = b""
    deadline = time.monotonic() + seconds
    while not done(got) and time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            break
        if not chunk:
            break
        got += chunk
    return got


def last_id(data: bytes) -> str:
    ids = [line[4:] for line in data.decode("latin-1").splitlines() if line.startswith("id: ")]
    return ids[-1] if ids else ""


def test_streams_hold_no_thread_and_hear_a_score_at_once(
    new_database: NewDatabase, new_server: NewServer
):
    database = new_database()
    night = database.run("night", "8")
    server = new_server(database)

    opened = [open_stream(server.url, night["league"]) for _ in range(STREAMS)]
    for _sock, head in opened:
        assert head.startswith(b"HTTP/1.1 200 OK\r\n")
        assert b"Content-Type: text/event-stream" in head
        assert b"Connection: close" in head
        assert b"Transfer-Encoding" not in head
        assert b"X-Request-ID" in head  # Django's middleware answered it
    first = {last_id(head) for _sock, head in opened}
    assert len(first) == 1
    assert first != {""}

    started = time.monotonic()
    assert server.get("/api/v1/leagues").status == 200  # a thread was free at once
    assert time.monotonic() - started < 5

    game = night["games"][0]
    entered = server.post(
        f"/api/v1/games/{game['id']}/scores",
        {
            "entered_by": game["players"][0],
            "scores": [
                {"player": p, "machine_score": 1000 * n} for n, p in enumerate(game["players"], 1)
            ],
            "idempotency_key": "live-stream-1",
        },
        token=night["token"],
    )
    assert entered.status == 201, entered.body
    news = [read_until(sock, lambda got: b"\n\n" in got, seconds=5) for sock, _head in opened]
    assert all(
        json.loads(n.split(b"data: ", 1)[1].split(b"\n", 1)[0]).keys() == {"revision"} for n in news
    )
    latest = {last_id(n) for n in news}
    assert len(latest) == 1
    assert latest not in (first, {""})

    again, head = open_stream(server.url, night["league"], last_event_id=latest.pop())
    assert last_id(head) == ""  # it has the latest already: nothing to replay
    for sock, _head in [*opened, (again, b"")]:
        sock.close()
