"""issue 36 §3: a second app server changes nothing. Two `flipwell serve` processes (each its
own gunicorn master, on its own port) on one database and one Redis behave as one: a score
confirmed on server A reaches a live stream opened on server B within a second
(through Redis pub/sub: the hubs read the revisions themselves only every few seconds), an API
write sent again with its Idempotency-Key to B is answered with A's answer, and a console form
key is used once whichever server it is posted to; a rate limit counts the requests of both.

Words:
- *the servers*: A and B, one worker process each, started once for the module on a fresh
  PostgreSQL database (``DATABASE_URL``: `make test`'s second pass; on SQLite, the one app
  server of a venue, the module is skipped) and the Redis at ``FLIPWELL_TEST_REDIS_URL`` (default
  database 13 of the local server), under a key prefix of this run's own
  (``REDIS_KEY_PREFIX``: pub/sub channels are seen from every database number). Without a
  Redis server there, the module is skipped, saying so.
- *browser*: a cookie jar that follows no redirect: one signed-in session, whose cookie both
  servers read (sessions are in the database, form keys signed with the one ``SECRET_KEY``).
"""

from __future__ import annotations

import contextlib
import html
import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.chaos.conftest import NewDatabase
from tests.chaos.live import (
    LOOPBACK,
    Database,
    LiveServer,
    free_port,
    last_id,
    open_stream,
    read_until,
)

pytestmark = pytest.mark.django_db

REDIS_URL = os.environ.get("FLIPWELL_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
PASSWORD = "correct horse battery staple"  # tests.factories.UserFactory's
STARTUP_SECONDS = 60
SCORE_TO_SCREEN_SECONDS = 1.0
LINKS_PER_ACCOUNT = 2
"""The servers' forgot-password limit per e-mail address (an hour's window)."""
FORM_KEY = re.compile(r'name="form_key" value="([^"]+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _redis_or_skip() -> None:
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis server at {REDIS_URL} (FLIPWELL_TEST_REDIS_URL)")


def _serve(database: Database, prefix: str, name: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **database.env(),
        "REDIS_URL": REDIS_URL,
        "REDIS_KEY_PREFIX": prefix,
        "FORGOT_PASSWORD_PER_ACCOUNT": str(LINKS_PER_ACCOUNT),
        "WEB_CONCURRENCY": "1",  # a hub per process: one process per server shows it
    }
    with (database.data_dir / f"{name}.log").open("wb") as log:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "flipwell.cli", "serve"),
                *("--bind", f"{LOOPBACK}:{port}", "--no-collectstatic"),
            ],
            cwd=database.data_dir,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the master and its workers
        )
    return process, f"http://{LOOPBACK}:{port}"


def _wait_until_up(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"flipwell serve exited:\n{log.read_text()}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(url + "/healthz", timeout=5) as answer,
        ):
            if answer.status == 200:
                return
        time.sleep(0.2)
    raise AssertionError(f"flipwell serve did not answer in {STARTUP_SECONDS} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the master and its worker at once: nothing of theirs needs a clean end."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


@dataclass(frozen=True)
class TwoServers:
    database: Database
    night: dict[str, Any]
    a: LiveServer
    b: LiveServer


@pytest.fixture(scope="module")
def two(new_database: NewDatabase) -> Iterator[TwoServers]:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        # Once per `make test`, where it belongs: more than one app server is a hosted
        # installation's set-up, on PostgreSQL; SQLite serves one app server at a venue.
        pytest.skip("two app servers run on PostgreSQL: make test runs this in that pass")
    _redis_or_skip()
    database = new_database()
    with ThreadPoolExecutor(1) as aside:  # at once: each is a process of its own
        collected = aside.submit(database.collect_static)  # for both: one data folder
        night = database.run("night", "8")
        collected.result()
    prefix = f"flipwell-test-{uuid.uuid4().hex[:12]}:"
    started = [_serve(database, prefix, name) for name in ("a", "b")]
    try:
        for (process, url), name in zip(started, "ab", strict=True):
            _wait_until_up(process, url, database.data_dir / f"{name}.log")
        a, b = (
            LiveServer(database=database, log=database.data_dir / f"{name}.log", url=url)
            for (_process, url), name in zip(started, "ab", strict=True)
        )
        yield TwoServers(database, night, a, b)
    finally:
        for process, _url in started:
            _stop(process)


def _sheet(game: dict[str, Any], key: str) -> dict[str, Any]:
    players = game["players"]
    return {
        "entered_by": players[0],
        "scores": [{"player": p, "machine_score": 1000 * n} for n, p in enumerate(players, 1)],
        "idempotency_key": key,
    }


def _next_event(sock: Any, answered: float) -> tuple[str, float]:
    """The id of the stream's next event, and how long after the write's answer (at
    `answered`) it came: 0 when it came first (it is sent once the write commits, before the
    answer leaves the other server)."""
    news = read_until(sock, lambda got: b"\n\n" in got, seconds=5)
    return last_id(news), max(0.0, time.monotonic() - answered)


def test_a_score_on_one_server_reaches_a_stream_on_the_other_within_a_second(two):
    game, token = two.night["games"][0], two.night["token"]
    sock, head = open_stream(two.b.url, two.night["league"])
    try:
        seen = [last_id(head)]
        entered = two.a.post(f"/api/v1/games/{game['id']}/scores", _sheet(game, "two-1"), token)
        assert entered.status == 201, entered.body
        seen_now, after_entry = _next_event(sock, time.monotonic())
        seen.append(seen_now)

        confirmed = two.a.post(
            f"/api/v1/submissions/{entered.body['submission']['id']}/confirm",
            {"confirmed_by": game["players"][1]},
            token,
            {"Idempotency-Key": "two-2"},
        )
        assert confirmed.status == 200, confirmed.body
        seen_now, after_confirmation = _next_event(sock, time.monotonic())
        seen.append(seen_now)
    finally:
        sock.close()

    assert "" not in seen
    assert len(set(seen)) == 3  # the revision before, after the entry, after the confirmation
    assert after_entry < SCORE_TO_SCREEN_SECONDS
    assert after_confirmation < SCORE_TO_SCREEN_SECONDS


def test_an_api_write_sent_again_to_the_other_server_is_answered_as_the_first(two):
    url = f"/api/v1/leagues/{two.night['league']}/ledger"
    body = {"kind": "kitty_in", "account": "kitty", "amount_cents": 500, "note": "two-servers"}
    headers = {"Idempotency-Key": "two-servers"}

    first = two.a.post(url, body, two.night["token"], headers)
    again = two.b.post(url, body, two.night["token"], headers)

    assert (first.status, again.status) == (201, 201)
    assert first.headers.get("Idempotent-Replayed") is None
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.body == first.body
    booked = [row for row in two.database.ledger() if row[2] == "two-servers"]
    assert [row[0] for row in booked] == [first.body["id"]]


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Browser:
    """One session's cookies, sent to whichever server is asked (cookies name no port)."""

    def __init__(self) -> None:
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirects()
        )

    def ask(self, url: str, fields: dict[str, str] | None = None) -> tuple[int, str, str]:
        """The status, Location and text of a GET (a POST of `fields`) of `url`."""
        data = urllib.parse.urlencode(fields).encode() if fields is not None else None
        try:
            with self._opener.open(url, data=data, timeout=30) as answer:
                return answer.status, answer.headers.get("Location", ""), answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", ""), error.read().decode()

    def sign_in(self, server: str, username: str) -> None:
        _status, _where, page = self.ask(server + "/manage/login/")
        fields = {"csrfmiddlewaretoken": _csrf(page), "username": username, "password": PASSWORD}
        status, where, _page = self.ask(server + "/manage/login/", fields)
        assert (status, where) == (302, "/manage/"), "the official could not sign in"


def _csrf(page: str) -> str:
    found = CSRF.search(page)
    assert found, "no CSRF token on the page"
    return html.unescape(found.group(1))


def test_a_console_form_key_is_used_once_whichever_server_it_is_posted_to(two):
    browser = Browser()
    browser.sign_in(two.a.url, two.night["official"])
    ledger = f"/manage/{two.night['league']}/ledger/"

    def entry_form(server: LiveServer, note: str) -> dict[str, str]:
        status, _where, page = browser.ask(server.url + ledger)
        assert status == 200
        key = FORM_KEY.search(page)
        assert key, "no form key on the ledger page"
        return {
            "csrfmiddlewaretoken": _csrf(page),
            "form_key": html.unescape(key.group(1)),
            "action": "entry",
            "kind": "kitty_in",
            "account": "kitty",
            "amount_cents": "5.00",
            "note": note,
        }

    used_on_a = entry_form(two.a, "key-of-a")  # issued by A, used on A, then sent to B
    first = browser.ask(two.a.url + ledger, used_on_a)
    replayed = browser.ask(two.b.url + ledger, used_on_a)
    told = browser.ask(two.b.url + replayed[1])

    used_on_b = entry_form(two.a, "key-for-b")  # issued by A, used on B, then sent to A
    second = browser.ask(two.b.url + ledger, used_on_b)
    replayed_on_a = browser.ask(two.a.url + ledger, used_on_b)

    assert [first[0], replayed[0], second[0], replayed_on_a[0]] == [302] * 4
    assert "Already recorded" in told[2]
    notes = [row[2] for row in two.database.ledger() if row[1] == two.night["league"]]
    assert sorted(n for n in notes if n.startswith("key-")) == ["key-for-b", "key-of-a"]


def test_a_rate_limit_counts_the_requests_of_both_servers(two):
    browser = Browser()
    asked = f"nobody-{uuid.uuid4().hex[:8]}@example.org"

    def ask_for_a_link(server: LiveServer) -> int:
        _status, _where, page = browser.ask(server.url + "/manage/forgot-password/")
        fields = {"csrfmiddlewaretoken": _csrf(page), "email": asked}
        return browser.ask(server.url + "/manage/forgot-password/", fields)[0]

    answers = [ask_for_a_link(server) for server in (two.a, two.b, two.b)]

    assert answers == [302] * LINKS_PER_ACCOUNT + [429]
