"""The live streams under the real server (gunicorn, two workers of several threads): handed
off to each worker's hub, they hold no thread, and a score entered reaches every one of them;
a meet board's stream is sent the board's parts that changed (flipwell.serving.live_parts),
rendered by the hub's thread."""

from __future__ import annotations

import json
import time
from typing import Any

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


def _sheet(game: dict[str, Any], key: str) -> dict[str, Any]:
    return {
        "entered_by": game["players"][0],
        "scores": [
            {"player": p, "machine_score": 1000 * n} for n, p in enumerate(game["players"], 1)
        ],
        "idempotency_key": key,
    }


def _entries(sock: Any) -> dict[str, dict[str, Any]]:
    """The entries of the stream's next event, by their watch."""
    news = read_until(sock, lambda got: b"\n\n" in got, seconds=5)
    data = json.loads(news.split(b"data: ", 1)[1].split(b"\n", 1)[0])
    return {entry.pop("watch"): entry for entry in data["parts"]}


def test_a_viewers_stream_is_sent_every_part_then_the_parts_that_changed(
    new_database: NewDatabase, new_server: NewServer
):
    """A viewer of the board and the standings: the first event has every part of both, the
    next the group's card and the machines line, and the standings again (a score confirmed).
    A viewer behind (a reconnection) has its first event, with every part, from the hub at
    once, not a revision alone that would have its pages fetched."""
    database = new_database()
    night = database.run("night", "8")
    server = new_server(database)
    board, standings = f"board={night['meet']}", f"standings={night['season']}"
    query = f"{board}&{standings}"
    late, head = open_stream(server.url, night["league"], "1", query, behind=True)
    late.close()
    (caught_up,) = [line for line in head.split(b"\n") if line.startswith(b"data: ")]
    entries = json.loads(caught_up.removeprefix(b"data: "))["parts"]
    assert [(e["watch"], e["base"]) for e in entries] == [(board, None), (standings, None)]
    now = last_id(head)
    opened = [
        open_stream(server.url, night["league"], last_event_id=now, query=query) for _ in range(6)
    ]
    game, token = night["games"][0], night["token"]
    try:
        entered = server.post(f"/api/v1/games/{game['id']}/scores", _sheet(game, "p-1"), token)
        assert entered.status == 201, entered.body
        first = [_entries(sock) for sock, _head in opened]
        confirmed = server.post(
            f"/api/v1/submissions/{entered.body['submission']['id']}/confirm",
            {"confirmed_by": game["players"][1]},
            token,
        )
        assert confirmed.status == 200, confirmed.body
        second = [_entries(sock) for sock, _head in opened]
    finally:
        for sock, _head in opened:
            sock.close()

    # The same parts for every stream: the same board; the same standings, rendered once per
    # worker and again only when they change (a worker that rendered them for the stream that
    # was behind keeps that revision's, the others render them after the entry).
    for event in (first, second):
        assert all(entries[board] == event[0][board] for entries in event)
        assert all(entries[standings]["html"] == event[0][standings]["html"] for entries in event)
    everything, table = first[0][board], first[0][standings]
    assert everything["base"] is None
    assert next(iter(everything["html"])) == "board-machines"
    cards = [html for key, html in everything["html"].items() if key.startswith("board-group-")]
    assert len(cards) == 2  # eight players: two groups
    assert sum("entered, waiting for confirmation" in card for card in cards) == 1
    assert list(table["html"]) == ["standings-body"]

    changed = second[0][board]
    assert changed["base"] == everything["revision"]
    # The group's card, whole, and the machines line: its machine is free again.
    (card_id,) = [key for key in changed["html"] if key.startswith("board-group-")]
    assert set(changed["html"]) == {"board-machines", card_id}
    assert "waiting for confirmation" not in changed["html"][card_id]
    assert 'class="num winner"' in changed["html"][card_id]
    assert [e[standings]["base"] for e in second] == [e[standings]["revision"] for e in first]
    assert second[0][standings]["html"]["standings-body"] != table["html"]["standings-body"]
