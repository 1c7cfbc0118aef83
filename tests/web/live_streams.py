"""Reading live streams in tests: their events, a socket read to a mark, and a stand-in for
the database's revisions (used by the hub's tests and the live parts' tests)."""

from __future__ import annotations

import json
import socket
import time


def events_of(body: bytes) -> list[dict[str, object]]:
    """Each event of an event-stream body: its id and its data, read as JSON."""
    found = []
    for block in body.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in fields:
            found.append({"id": fields.get("id"), "data": json.loads(fields["data"])})
    return found


class Revisions:
    """A stand-in for the database: each league's revision, and how often it was read."""

    def __init__(self, **revisions: int) -> None:
        self.now = {int(k.removeprefix("league")): v for k, v in revisions.items()}
        self.reads = 0
        self.asked: list[set[int]] = []  # the leagues of each read

    def __call__(self, league_ids):
        self.reads += 1
        self.asked.append(set(league_ids))
        return {i: self.now[i] for i in league_ids if i in self.now}


def read_until(sock: socket.socket, wanted: bytes, seconds: float = 3.0) -> bytes:
    sock.settimeout(seconds)
    got = b""
    deadline = time.monotonic() + seconds
    while wanted not in got and time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            break
        if not chunk:
            break
        got += chunk
    return got
