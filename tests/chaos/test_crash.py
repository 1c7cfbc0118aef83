"""The crash test: a real server killed with SIGKILL while it takes score submissions.

Concurrent clients submit score sheets (each with its own idempotency key) to gunicorn, which
is SIGKILLed, master and workers at once, while requests are in flight; it is restarted and
the clients retry what got no answer. Afterwards every request that got a 2xx is stored
exactly once, as the entry it was answered with, and retrying every request with its key
writes nothing twice: each key ends stored once. Nothing may answer anything but 200/201 (a
request in flight at the kill gets no answer at all).

``make test`` runs the short form (40 submissions, one kill); ``make chaos`` sets
``FLIPWELL_CHAOS=long``: 200 concurrent submissions and several kills. Both run on the suite's
database (SQLite, or PostgreSQL under ``DATABASE_URL``).
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest

from tests.chaos.live import Answer, LiveServer

# pytest-django sets its test database up only when a test asks for it; these tests' databases
# are copies of it (see `template_database`), and the server never uses it.
pytestmark = pytest.mark.django_db

LONG = os.environ.get("FLIPWELL_CHAOS", "").strip().lower() == "long"
SUBMISSIONS = 200 if LONG else 40
KILLS = 4 if LONG else 1
PLAYERS = 40  # 10 groups of four: 10 games take the submissions, new versions each time
CLIENTS = 50


@dataclass(frozen=True)
class Submission:
    key: str
    game: int
    body: dict[str, Any]

    def send(self, server: LiveServer, token: str) -> Answer:
        return server.post(f"/api/v1/games/{self.game}/scores", self.body, token)


def submissions(night: dict[str, Any]) -> list[Submission]:
    games = night["games"]
    made = []
    for n in range(SUBMISSIONS):
        game = games[n % len(games)]
        scores = [
            {"player": p, "machine_score": 1000 * n + i} for i, p in enumerate(game["players"])
        ]
        key = f"crash-{n}"
        body = {"entered_by": game["players"][0], "scores": scores, "idempotency_key": key}
        made.append(Submission(key=key, game=game["id"], body=body))
    return made


def send_and_kill(
    server: LiveServer, token: str, batch: list[Submission], *, kill_after: int | None
) -> dict[str, Answer]:
    """Send `batch` at once; SIGKILL the server once `kill_after` answers came back."""
    answered = threading.Semaphore(0)
    killer = None
    if kill_after is not None:

        def kill() -> None:
            for _ in range(kill_after):
                answered.acquire(timeout=120)
            server.kill()

        killer = threading.Thread(target=kill)
        killer.start()

    def send(submission: Submission) -> tuple[str, Answer]:
        answer = submission.send(server, token)
        answered.release()
        return submission.key, answer

    with ThreadPoolExecutor(max_workers=min(CLIENTS, len(batch))) as pool:
        answers = dict(pool.map(send, batch))
    if killer is not None:
        killer.join(timeout=120)
    return answers


def test_server_killed_mid_run_keeps_every_answered_submission_once(new_database, new_server):
    database = new_database()
    night = database.run("night", str(PLAYERS))
    token = night["token"]
    every = submissions(night)
    server = new_server(database)
    acked: dict[str, int] = {}  # key -> the submission id a 2xx answered with
    statuses: Counter[int] = Counter()

    for _ in range(KILLS):
        batch = [s for s in every if s.key not in acked]
        answers = send_and_kill(server, token, batch, kill_after=max(1, len(batch) // 3))
        statuses.update(a.status for a in answers.values())
        for key, answer in answers.items():
            if answer.status in (200, 201):
                acked[key] = answer.body["submission"]["id"]
        server.start()
    stored_after_kills = database.stored()
    retried = send_and_kill(server, token, every, kill_after=None)
    stored = database.stored()

    by_key = Counter(row[1] for row in stored_after_kills)
    surviving = {row[1]: row[0] for row in stored_after_kills}
    assert set(statuses) <= {0, 200, 201}, statuses
    assert 0 < len(acked) < len(every)  # some answered, some cut off by the kill
    assert {key: by_key[key] for key in acked} == dict.fromkeys(acked, 1)
    assert {key: surviving[key] for key in acked} == acked
    assert Counter(a.status for a in retried.values()) == Counter({201: len(every)})
    replayed = [k for k, a in retried.items() if a.headers.get("Idempotent-Replayed") == "true"]
    assert sorted(replayed) == sorted(surviving)
    assert {key: retried[key].body["submission"]["id"] for key in acked} == acked
    assert sorted(Counter(row[1] for row in stored).values()) == [1] * len(every)
    assert {row[1] for row in stored} == {s.key for s in every}
