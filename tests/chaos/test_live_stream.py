"""The live streams under the real server (gunicorn, two workers of several threads): handed
off to each worker's hub, they hold no thread, and a score entered reaches every one of them."""

from __future__ import annotations

import json
import time

import pytest

from tests.chaos.conftest import NewDatabase, NewServer
from tests.chaos.live import last_id, open_stream, read_until

pytestmark = pytest.mark.django_db

STREAMS = 40
"""More than the server's threads (2 workers x 8): held by threads, most would never open."""


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
        json.loads(n.split(b"data: ", 1)[1].split(b"\n", 1)[0]).keys() == {"revision", "standings"}
        for n in news
    )
    latest = {last_id(n) for n in news}
    assert len(latest) == 1
    assert latest not in (first, {""})

    again, head = open_stream(server.url, night["league"], last_event_id=latest.pop())
    assert last_id(head) == ""  # it has the latest already: nothing to replay
    for sock, _head in [*opened, (again, b"")]:
        sock.close()
