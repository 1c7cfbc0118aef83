"""A real `make run`, as a new official starts it, for the tests that use its server
(tests/test_make_run.py, tests/browser/test_make_run.py; issue 23 §1).

Words:
- *newcomer's environment*: this process's environment without flipwell's settings and the
  test run's (no SECRET_KEY, no site address, no DATABASE_URL: make run makes its own), with
  two gunicorn workers and ``/test/error/`` mounted (``FLIPWELL_TEST_URLS``).
- *address*: the one make run prints for phones (``HOST=0.0.0.0``: the LAN address), or for
  this machine when it has no network; the server answers there before `running` yields.
- *log*: everything make run printed (its own lines, gunicorn's and flipwell's logs).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.chaos.live import free_port

ROOT = Path(__file__).parents[1]
STARTUP_SECONDS = 240
SETTINGS = ("SECRET_KEY", "DEBUG", "DATABASE_URL", "ALLOWED_HOSTS", "ALLOWED_PORTS")


@dataclass(frozen=True)
class MakeRun:
    address: str
    port: int
    data: Path
    log: Path

    def printed(self) -> str:
        return self.log.read_text()


def get(url: str, **headers: str) -> tuple[int, dict[str, str], str]:
    """The status, headers and text of a GET of `url`."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def _wait_for_address(process: subprocess.Popen[bytes], log: Path) -> str:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"make run exited:\n{log.read_text()}")
        found = re.search(r"(?:QR codes use|Open) (http://\S+?)/ ", log.read_text())
        if found:
            with contextlib.suppress(OSError):
                get(found.group(1) + "/healthz")
                return found.group(1)
        time.sleep(0.5)
    raise AssertionError(f"make run did not answer in {STARTUP_SECONDS} s:\n{log.read_text()}")


@contextlib.contextmanager
def running(tmp_path: Path, host: str = "0.0.0.0") -> Iterator[MakeRun]:
    """`make run HOST=host` on a free port and a fresh data directory; SIGTERM at the end."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PYTEST", "FLIPWELL_")) and key not in SETTINGS
    }
    env.update(WEB_CONCURRENCY="2", GRACEFUL_TIMEOUT="5", FLIPWELL_TEST_URLS="yes")
    log, data = tmp_path / "make-run.out", tmp_path / "var"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                *("make", "--no-print-directory", "-o", ".venv/.installed", "run"),
                *(f"HOST={host}", f"PORT={port}", f"RUN_DATA={data}"),
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: make, its shell and gunicorn
        )
    try:
        yield MakeRun(_wait_for_address(process, log), port, data, log)
        time.sleep(0.5)  # a worker writes its log line after answering
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
