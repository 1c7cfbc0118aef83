"""Many clients at once against a real server (gunicorn, two workers of several threads).

A league night has every group's phone, the console and the API writing at the same moment.
These tests send 24 and more requests at once (released together by a barrier) and check that
none fails: writers wait for each other instead of answering 500 "database is locked"
(SQLite), two confirmations of a game give exactly one winner (R3-a) and the loser a 409 in
the API's error shape, and a request repeated with its idempotency key is stored once.
They run on the suite's database: SQLite, or PostgreSQL under `make test-postgres`.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.chaos.conftest import NewDatabase, NewServer
from tests.chaos.live import Answer, Database, LiveServer

# pytest-django sets its test database up only when a test asks for it; these tests' databases
# are copies of it (see `template_database`), and the server never uses it.
pytestmark = pytest.mark.django_db

WRITERS = 24


@pytest.fixture(scope="module")
def served(new_database: NewDatabase, new_server: NewServer) -> tuple[Database, LiveServer]:
    """One database and its server for the module; each test seeds a league of its own."""
    database = new_database()
    return database, new_server(database)


def all_at_once(calls: Sequence[Callable[[], Answer]]) -> list[Answer]:
    """Run every call in its own thread, released together; their answers in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Answer]) -> Answer:
        barrier.wait(timeout=60)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def sheet(players: Sequence[int], *, key: str, base: int) -> dict[str, Any]:
    """A score sheet entered by the group's first player, no ties."""
    return {
        "entered_by": players[0],
        "scores": [{"player": p, "machine_score": base * 10 + i} for i, p in enumerate(players, 1)],
        "idempotency_key": key,
    }


def test_concurrent_score_submissions_all_stored_without_error(served):
    database, server = served
    night = database.run("night", "48")  # 12 groups, 12 games waiting for scores
    games = night["games"]
    calls = []
    for writer in range(WRITERS):
        game = games[writer % len(games)]
        for n in range(3):
            body = sheet(game["players"], key=f"writer-{writer}-{n}", base=writer * 10 + n)
            calls.append(
                lambda g=game["id"], b=body: server.post(
                    f"/api/v1/games/{g}/scores", b, night["token"]
                )
            )

    answers = all_at_once(calls)

    statuses = Counter(a.status for a in answers)
    errors = [a.body for a in answers if a.status != 201][:3]
    keys = {row[1] for row in database.stored()}
    assert (statuses, errors) == (Counter({201: len(calls)}), [])
    assert {f"writer-{w}-{n}" for w in range(WRITERS) for n in range(3)} <= keys


def test_concurrent_confirmations_have_exactly_one_winner_per_game(served):
    """R3-a: a game's sheet is confirmed once; the other confirmers get a 409 naming him."""
    database, server = served
    night = database.run("night", "32")  # 8 games
    token = night["token"]
    entries = {}
    for game in night["games"]:
        body = sheet(game["players"], key=f"entry-{game['id']}", base=game["id"])
        entries[game["id"]] = server.post(f"/api/v1/games/{game['id']}/scores", body, token)
    calls = [
        lambda s=entries[g["id"]].body["submission"]["id"], p=player: server.post(
            f"/api/v1/submissions/{s}/confirm", {"confirmed_by": p}, token
        )
        for g in night["games"]
        for player in g["players"][1:]  # everyone but who entered it, at once
    ]

    answers = all_at_once(calls)

    per_game = len(night["games"][0]["players"]) - 1
    outcomes = [
        sorted(a.status for a in answers[i : i + per_game])
        for i in range(0, len(answers), per_game)
    ]
    losers = [a.body["error"]["code"] for a in answers if a.status == 409]
    confirmed = [row for row in database.stored() if row[4] is not None]
    games = {g["id"] for g in night["games"]}
    assert {e.status for e in entries.values()} == {201}
    assert outcomes == [[200] + [409] * (per_game - 1)] * len(night["games"])
    assert losers == ["game_already_confirmed"] * (len(calls) - len(night["games"]))
    assert sorted(row[2] for row in confirmed if row[2] in games) == sorted(games)


def test_concurrent_repeats_of_one_key_store_it_once(served):
    database, server = served
    night = database.run("night", "8")
    game = night["games"][0]
    body = sheet(game["players"], key="the-same-key", base=7)

    answers = all_at_once(
        [
            lambda: server.post(f"/api/v1/games/{game['id']}/scores", body, night["token"])
            for _ in range(WRITERS)
        ]
    )

    statuses = Counter(a.status for a in answers)
    replayed = Counter(a.headers.get("Idempotent-Replayed") for a in answers)
    ids = {a.body["submission"]["id"] for a in answers if a.status == 201}
    stored = [row for row in database.stored() if row[1] == "the-same-key"]
    assert statuses == Counter({201: WRITERS})
    assert replayed == Counter({None: 1, "true": WRITERS - 1})
    assert [a.body for a in answers] == [answers[0].body] * WRITERS  # the first answer's
    assert (len(ids), len(stored)) == (1, 1)


def test_concurrent_repeats_of_one_idempotency_key_book_once(served):
    """issue 26 §2: a ledger entry sent many times at once with one Idempotency-Key is booked
    once; every other answer is the first one, replayed (the key's row is inserted before the
    write, in its transaction: a duplicate waits on it, then finds the stored answer)."""
    database, server = served
    night = database.run("night", "8")
    body = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500, "note": "the-same-key"}
    url = f"/api/v1/leagues/{night['league']}/ledger"
    headers = {"Idempotency-Key": "the-same-key"}

    answers = all_at_once(
        [lambda: server.post(url, body, night["token"], headers) for _ in range(WRITERS)]
    )

    statuses = Counter(a.status for a in answers)
    replayed = Counter(a.headers.get("Idempotent-Replayed") for a in answers)
    booked = [row for row in database.ledger() if row[1] == night["league"]]
    assert statuses == Counter({201: WRITERS})
    assert replayed == Counter({None: 1, "true": WRITERS - 1})
    assert {a.body["id"] for a in answers} == {booked[0][0]}
    assert len(booked) == 1
