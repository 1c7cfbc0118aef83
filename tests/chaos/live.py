"""A real flipwell server for the concurrency and crash tests: gunicorn on its own database.

Words:
- *database*: a fresh database of the kind the suite runs on (``DATABASE_URL``): a SQLite file
  in the test's temporary folder, or a PostgreSQL database ``test_<name>_chaos_<n>`` on the
  suite's server (dropped at the end), copied from the suite's migrated, empty test database.
- *static files*: the production settings link hashed names; a server that renders pages
  (not only the API's JSON) needs `Database.collect_static` first, as `flipwell serve` does.
- *server*: ``gunicorn flipwell.wsgi`` with the production settings (``DEBUG=0``) and
  gunicorn configuration (`flipwell.gunicorn_conf`: a socket per worker, the access log), two
  worker processes of several threads each, bound to 127.0.0.1 on a free port, in a process group of
  its own so that `LiveServer.kill` can SIGKILL the master and every worker at once, as the
  OOM killer or a crash would.
- *answer*: an HTTP status and the JSON body, or status 0 when the connection failed (the
  server was killed before it answered).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
SECRET_KEY = "chaos-tests-only-not-a-secret-0123456789"
WORKERS = 2
THREADS = 8
STARTUP_SECONDS = 60
REQUEST_SECONDS = 60


def exit_on_sigterm() -> None:
    """Make SIGTERM end this process as an exception would (SystemExit), so its ``finally:``
    blocks run: a benchmark stopped with ``kill`` or by a time limit kills the servers it
    started (`LiveServer.kill`), which live in process groups of their own and would
    otherwise keep their port, database and cores. Only a script's main thread may call it."""
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Database:
    """A database the server uses; `url` is its DATABASE_URL."""

    url: str
    data_dir: Path

    def env(self) -> dict[str, str]:
        """The environment of a process (server, seed script) that uses this database."""
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DJANGO_", "PYTEST", "DATABASE_URL"))
        }
        env.update(
            DJANGO_SETTINGS_MODULE="flipwell.settings",
            PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
            DEBUG="0",
            SECRET_KEY=SECRET_KEY,
            ALLOWED_HOSTS=LOOPBACK,
            FLIPWELL_DATA_DIR=str(self.data_dir),
            DATABASE_URL=self.url,
        )
        return env

    def collect_static(self) -> None:
        """Collect the static files, as `flipwell serve` does: the production settings name
        pages' static files by their hash, so a server that renders pages needs them."""
        subprocess.run(
            [sys.executable, "-m", "django", "collectstatic", "--noinput", "--verbosity", "0"],
            cwd=self.data_dir,
            env=self.env(),
            check=True,
            timeout=300,
        )

    def run(self, *args: str) -> dict[str, Any]:
        """Run ``tests.chaos.seed`` with `args` on this database; its JSON answer."""
        done = subprocess.run(
            [sys.executable, "-m", "tests.chaos.seed", *args],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            raise AssertionError(f"seed {args} failed:\n{done.stderr}")
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    def ledger(self) -> list[list[Any]]:
        """Every stored ledger entry: [id, league slug, note]."""
        rows: list[list[Any]] = self.run("stored")["ledger"]
        return rows

    def stored(self) -> list[list[Any]]:
        """Every stored score submission: [id, key, game id, version, confirmed_by]."""
        rows: list[list[Any]] = self.run("stored")["submissions"]
        return rows


def postgres_admin_url(url: str) -> str:
    """The suite's PostgreSQL server, database ``postgres`` (to create and drop databases)."""
    return urlsplit(url)._replace(path="/postgres").geturl()


def postgres_execute(url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(postgres_admin_url(url), autocommit=True, connect_timeout=10) as conn:
        conn.execute(statement)  # type: ignore[arg-type]


def postgres_url(url: str, name: str) -> str:
    return urlsplit(url)._replace(path=f"/{name}", query="").geturl()


def copy_sqlite(source: Path, target: Path) -> None:
    """Copy a SQLite database with SQLite's backup API (consistent even with a WAL file)."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class LiveServer:
    """A gunicorn serving flipwell on `database`; `start` it, `kill` it, start it again."""

    database: Database
    log: Path
    workers: int = WORKERS
    threads: int = THREADS
    url: str = ""
    _process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def start(self) -> LiveServer:
        port = free_port()
        self.url = f"http://{LOOPBACK}:{port}"
        with self.log.open("ab") as log:
            self._process = subprocess.Popen(
                [
                    *(sys.executable, "-m", "gunicorn", "flipwell.wsgi"),
                    *("--config", "python:flipwell.gunicorn_conf"),
                    *("--bind", f"{LOOPBACK}:{port}"),
                    *("--workers", str(self.workers), "--threads", str(self.threads)),
                    *("--timeout", "120", "--graceful-timeout", "2", "--no-control-socket"),
                ],
                cwd=self.database.data_dir,
                env=self.database.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: kill() reaches every worker
            )
        self._wait_until_up()
        return self

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                raise AssertionError(f"gunicorn exited:\n{self.log.read_text()}")
            if self.get("/api/v1/leagues").status == 200:
                return
            time.sleep(0.2)
        raise AssertionError(f"gunicorn did not answer in {STARTUP_SECONDS} s:\n{self.log}")

    @property
    def pid(self) -> int | None:
        """The gunicorn master's process id while it runs."""
        return self._process.pid if self._process is not None else None

    def kill(self) -> None:
        """SIGKILL the master and its workers at once (no shutdown, no cleanup)."""
        if self._process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait(timeout=30)
        self._process = None

    def get(self, path: str) -> Answer:
        return self._request(urllib.request.Request(self.url + path, method="GET"))

    def post(
        self, path: str, body: object, token: str, headers: dict[str, str] | None = None
    ) -> Answer:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {token}",
                **(headers or {}),
            },
        )
        return self._request(request)

    def _request(self, request: urllib.request.Request) -> Answer:
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
                return Answer(response.status, _json(response.read()), dict(response.headers))
        except urllib.error.HTTPError as error:
            return Answer(error.code, _json(error.read()), dict(error.headers))
        except (OSError, http.client.HTTPException):
            return Answer(0, {})


def _json(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError:
        return {"raw": raw.decode(errors="replace")[:500]}
    return value if isinstance(value, dict) else {"value": value}


# --- live streams opened by hand --------------------------------------------------------------


def open_stream(
    base: str, slug: str, last_event_id: str = "", query: str = "", *, behind: bool = False
) -> tuple[socket.socket, bytes]:
    """A stream opened by hand (``?query``, such as ``board=12``): its socket and its head, up
    to its first event when one comes at once (no `last_event_id`, or the client `behind`)."""
    host = base.removeprefix("http://")
    address, port = host.split(":")
    sock = socket.create_connection((address, int(port)), timeout=10)
    extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
    sock.sendall(
        f"GET /live/{slug}/events/{'?' + query if query else ''} HTTP/1.1\r\n"
        f"Host: {host}\r\n{extra}"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    wanted = 2 if behind or not last_event_id else 1  # the retry block, then the event
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
