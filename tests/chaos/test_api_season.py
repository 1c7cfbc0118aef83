"""A whole small season run through the API alone (issue 23 §2), against a real server.

gunicorn serves a copy of the migrated test database (SQLite, or PostgreSQL under `make
test-postgres`). The only step outside the API is the one a host does once on the command
line: an account that may open leagues (``flipwell createofficial``) and its installation
token (``flipwell issue-api-token`` without a league). Then an HTTP client (urllib) opens the
league, reads and changes a reading, creates the season and moves its league night, builds
the machine pool (one machine retired), enters eight players, and plays both meets: every
game's machine chosen by its picker, every sheet entered and confirmed by the group's
players, each meet closed. Every write carries an Idempotency-Key. The standings the API
serves are then checked against the season folded again, in another process, from the facts
stored.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from tests.chaos.conftest import NewDatabase, NewServer
from tests.chaos.live import ROOT, Database

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough password for the season test"
GAMES_PER_MATCH = 4
PLAYERS = 8
MEETS = 2


def command(database: Database, *args: str) -> str:
    """Run a ``flipwell`` command on the server's database, as its host would; its output."""
    done = subprocess.run(
        [sys.executable, "-m", "flipwell.cli", *args],
        cwd=ROOT,
        env={**database.env(), "FW_SEASON_TEST_PASSWORD": PASSWORD},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@dataclass
class Client:
    """A program using the API with one token: JSON in, JSON out, a new key every write."""

    url: str
    token: str

    def send(self, method: str, path: str, body: object = None) -> tuple[int, Any, dict[str, str]]:
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if method != "GET":
            headers["Idempotency-Key"] = str(uuid.uuid4())
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read()), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read()), dict(error.headers)

    def ok(self, method: str, path: str, body: object = None, status: int = 200) -> Any:
        """The answer's body, once its status is checked."""
        got, answer, headers = self.send(method, path, body)
        assert got == status, (method, path, got, answer)
        if status == 201:
            assert headers["Location"].startswith(self.url + "/api/v1/")
        return answer


def test_a_season_runs_through_the_api_alone(new_database: NewDatabase, new_server: NewServer):
    database = new_database()
    command(database, "createofficial", "host", "--password-from-env", "FW_SEASON_TEST_PASSWORD")
    secret = command(
        database,
        *("issue-api-token", "--as", "host", "--scope", "leagues"),
        *("--scope", "manage", "--scope", "scores", "season script"),
    ).strip()
    api = Client(new_server(database).url, secret)

    season_id, players = _set_up(api)
    for number in range(1, MEETS + 1):
        _play_meet(api, season_id, number, players)

    standings = api.ok("GET", f"/api/v1/seasons/{season_id}/standings")
    folded = database.run("fold", str(season_id))  # another process, the facts stored
    served = [
        [line["player"]["id"], line["league_points_exact"], line["games_played"]]
        for line in standings["lines"]
    ]
    assert (standings["meets_played"], standings["meets_left"]) == (MEETS, 0)
    assert served == folded["standings"]
    assert {games for _, _, games in served} == {MEETS * GAMES_PER_MATCH}
    assert len({points for _, points, _ in served}) > 1


def night_of(number: int) -> datetime.date:
    """Meet `number`'s date: weekly, the last one today (a meet starts on its day, not
    before), in the league's time zone (UTC)."""
    today = datetime.datetime.now(datetime.UTC).date()
    return today - datetime.timedelta(weeks=MEETS - number)


def _set_up(api: Client) -> tuple[int, list[int]]:
    """League, a reading, season (its night moved), machine pool, players: the season's id and
    its players' ids."""
    api.ok("POST", "/api/v1/leagues", {"name": "API Flippers", "slug": "api-flippers"}, 201)
    league = "/api/v1/leagues/api-flippers"
    change = {"setting": "season_forfeit_limit", "value": "6", "reason": "A short season"}
    readings = api.ok("PATCH", f"{league}/ruleset", change)
    assert readings["changeable"] is True
    first_night = night_of(1)
    body = {
        "name": "API season",
        "weekday": (first_night.weekday() + 1) % 7,
        "start_time": "19:00",
        "number_of_meets": 3,
    }
    season = api.ok("POST", f"{league}/seasons", body, 201)
    schedule = {"weekday": first_night.weekday(), "number_of_meets": MEETS}
    moved = api.ok("PATCH", f"/api/v1/seasons/{season['id']}", schedule)
    assert (moved["weekday"], moved["number_of_meets"]) == (first_night.weekday(), MEETS)
    titles = ["Attack from Mars", "Medieval Madness", "Twilight Zone", "Theatre of Magic"]
    machines = [
        api.ok("POST", f"{league}/machines", {"title": t, "balls_per_game": 3}, 201)
        for t in [*titles, "Monster Bash", "Cirqus Voltaire", "Broken Bally"]
    ]
    retired = {"status": "unplayable", "reason": "Sold before the season"}
    api.ok("POST", f"{league}/machines/{machines[-1]['id']}/status", retired, 201)
    api.ok("PATCH", f"{league}/machines/{machines[0]['id']}", {"location": "by the door"})
    players = [
        api.ok(
            "POST",
            f"/api/v1/seasons/{season['id']}/players",
            {"first_name": f"Player{n}", "last_name": "Test", "ifpa_rank": n * 10},
            201,
        )["player_id"]
        for n in range(1, PLAYERS + 1)
    ]
    return season["id"], players


def _play_meet(api: Client, season_id: int, number: int, players: list[int]) -> None:
    """Start meet `number`, play every group's match to the end, close the meet."""
    on = night_of(number)
    start = {"number": number, "date": on.isoformat(), "seed": number}
    started = api.ok("POST", f"/api/v1/seasons/{season_id}/meets/start", start, 201)
    meet_id = started["meet"]["id"]
    while True:  # one step at a time, each on the board as it is now
        board = api.ok("GET", f"/api/v1/meets/{meet_id}")
        pending = [g for g in board["groups"] if not _match_over(g)]
        if not pending:
            break
        group = pending[0]
        _next_step(api, board, group, seed=players.index(group["players"][0]["id"]))
    closed = api.ok("POST", f"/api/v1/meets/{meet_id}/close", {})
    assert closed["meet"]["status"] == "closed"


def _match_over(group: dict[str, Any]) -> bool:
    games = group["games"]
    return len(games) == GAMES_PER_MATCH and all(g["confirmed"] for g in games)


def _next_step(api: Client, board: dict[str, Any], group: dict[str, Any], seed: int) -> None:
    """One step of a group's match: enter and confirm its current game's sheet, or have its
    picker choose the next machine (one the group has not played and nobody else uses)."""
    members = [p["id"] for p in group["players"]]
    current = group["games"][-1] if group["games"] else None
    if current is not None and not current["confirmed"]:
        scores = [
            {"player": p, "machine_score": 1_000_000 * ((i + seed + current["number"]) % 4 + 1)}
            for i, p in enumerate(members)
        ]
        sheet = {"entered_by": members[0], "scores": scores, "idempotency_key": uuid.uuid4().hex}
        entered = api.ok("POST", f"/api/v1/games/{current['id']}/scores", sheet, 201)
        confirm = {"confirmed_by": members[1]}
        api.ok("POST", f"/api/v1/submissions/{entered['submission']['id']}/confirm", confirm)
        return
    played = {g["machine_id"] for g in group["games"]}
    free = [
        machine["id"]
        for machine in board["machines"]
        if machine["in_use_by_group"] is None
        and not machine["unplayable"]
        and machine["id"] not in played
    ]
    choice = {"machine": free[0], "chosen_by": group["next_picker"]}
    api.ok("POST", f"/api/v1/groups/{group['id']}/next-game", choice, 201)
