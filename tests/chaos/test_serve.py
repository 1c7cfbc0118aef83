"""`flipwell serve` as a host runs it: a real process, production settings (DEBUG off).

On the suite's database kind (`make test-postgres`: PostgreSQL), a copy of the migrated test
database. One server answers every check, in order: /healthz, a page, its hashed static file
with a far-future cache header, a 500 logged on stdout with its traceback and request id, its
workers each listening on a socket of their own, a second server on its address refused, then
a clean exit on SIGTERM (gunicorn's graceful shutdown).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.chaos.conftest import NewDatabase
from tests.chaos.live import LOOPBACK, ROOT, Database, free_port

pytestmark = pytest.mark.django_db

STARTUP_SECONDS = 90
ONE_YEAR = 365 * 24 * 3600


def _serve(
    database: Database, port: int, name: str = "serve", *options: str
) -> tuple[subprocess.Popen[bytes], Path, Path]:
    stdout, stderr = database.data_dir / f"{name}.out", database.data_dir / f"{name}.err"
    env = {
        **database.env(),
        "FLIPWELL_TEST_URLS": "yes",
        "WEB_CONCURRENCY": "2",
        "GRACEFUL_TIMEOUT": "5",
    }
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "flipwell.cli", "serve"),
                *("--bind", f"{LOOPBACK}:{port}", *options),
            ],
            cwd=database.data_dir,
            env=env,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
    return process, stdout, stderr


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _wait_until_up(process: subprocess.Popen[bytes], url: str, stderr: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"flipwell serve exited:\n{stderr.read_text()}")
        try:
            _get(url + "/healthz")
            return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"flipwell serve did not answer in {STARTUP_SECONDS} s")


def _listening_sockets(port: int, workers: int) -> int:
    """How many sockets listen on TCP `port` (Linux's /proc/net/tcp, state 0A), once there are
    `workers` of them or after 20 s (a worker opens its own when it boots)."""
    deadline = time.monotonic() + 20
    while True:
        rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
        found = sum(
            1 for row in rows if row.split()[1].endswith(f":{port:04X}") and row.split()[3] == "0A"
        )
        if found >= workers or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def _second_serve(database: Database, port: int) -> tuple[int | None, str]:
    """Start another flipwell serve on `port`: its exit status (None if it kept running) and
    what it wrote on stderr."""
    process, _, stderr = _serve(database, port, "second", "--no-collectstatic")
    try:
        status = process.wait(timeout=STARTUP_SECONDS)
    except subprocess.TimeoutExpired:
        status = None
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return status, stderr.read_text()


def test_serve_answers_health_pages_static_logs_a_500_and_stops_on_sigterm(
    new_database: NewDatabase,
) -> None:
    database = new_database()
    port = free_port()
    url = f"http://{LOOPBACK}:{port}"
    process, stdout, stderr = _serve(database, port)
    try:
        _wait_until_up(process, url, stderr)

        health = _get(url + "/healthz")
        page = _get(url + "/")
        (css,) = re.findall(rb'href="(/static/flipwell/app\.[0-9a-f]{12}\.css)"', page[2])
        static = _get(url + css.decode(), **{"Accept-Encoding": "br"})
        failed = _get(url + "/test/error/", **{"X-Request-ID": "serve-test-500"})
        listening = _listening_sockets(port, workers=2)
        second = _second_serve(database, port)
        time.sleep(0.5)  # the worker writes its log line after answering
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    out, err = stdout.read_text(), stderr.read_text()

    assert (health[0], health[1]["Content-Type"], health[2]) == (
        200,
        "application/json",
        b'{"status": "ok", "database": "ok", "migrations": "applied"}',
    )
    assert page[0] == 200
    assert static[0] == 200
    assert static[1]["Content-Encoding"] == "br"
    max_age = re.search(r"max-age=(\d+)", static[1]["Cache-Control"])
    assert int(max_age.group(1) if max_age else 0) >= ONE_YEAR
    assert (failed[0], failed[1]["X-Request-ID"]) == (500, "serve-test-500")
    assert "ERROR django.request [serve-test-500] Internal Server Error: /test/error/" in out
    assert "Traceback (most recent call last):" in out
    assert "DeliberateFailureError: a deliberate failure" in out
    assert '"GET /test/error/ HTTP/1.1" 500' in out  # gunicorn's access log, on stdout too
    assert listening == 2  # a socket per worker (flipwell.gunicorn_conf): connections spread
    assert re.search(rf"Listening at: {LOOPBACK}:{port}, a socket per worker \(\d+\)", err)
    assert "Listening at:  (" not in err  # gunicorn's own line, with no address
    assert second[0] == 1
    assert f"Error: {LOOPBACK}:{port} is in use by another program" in second[1]
    assert status == 0
    assert "Shutting down: Master" in err


def test_serve_refuses_to_start_with_unapplied_migrations(tmp_path: Path) -> None:
    database = Database(url=f"sqlite:///{tmp_path / 'empty.sqlite3'}", data_dir=tmp_path)

    done = subprocess.run(
        [sys.executable, "-m", "flipwell.cli", "serve"],
        cwd=ROOT,
        env=database.env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 1
    assert done.stderr.startswith("flipwell serve: the database lacks ")
    assert "run `flipwell migrate` first" in done.stderr


def test_serve_warns_at_start_up_without_a_site_address(new_database: NewDatabase) -> None:
    """issue 26 §5: with no site address, notice e-mails linked to `http://127.0.0.1/`; serve
    now says at start-up that e-mails send no link until FLIPWELL_SITE_URL is set."""
    database = new_database()
    env = {key: value for key, value in database.env().items() if key != "FLIPWELL_SITE_URL"}
    not_a_socket = database.data_dir / "not-a-socket"
    not_a_socket.write_text("")

    done = subprocess.run(
        # An address gunicorn refuses (a file, not a socket): serve warns, gunicorn exits.
        [
            *(sys.executable, "-m", "flipwell.cli", "serve", "--no-collectstatic"),
            *("--bind", f"unix:{not_a_socket}"),
        ],
        cwd=database.data_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.stderr.startswith(
        "flipwell serve: warning: FLIPWELL_SITE_URL is not set: e-mails have no address to link to"
    )
