"""`make run HOST=0.0.0.0` as a new official runs it: the production server on the venue's
network (issue 23 §1).

One real `make run`, on a fresh data directory and a free port, with the environment a
newcomer's shell has (no SECRET_KEY, no site address: make run makes them). It is asked, at the
address it prints, for a page, a missing page, a failing page (``FLIPWELL_TEST_URLS``) and a
page under a forged host, then stopped with SIGTERM.
"""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.chaos.live import free_port

ROOT = Path(__file__).parents[1]
STARTUP_SECONDS = 240
SETTINGS = ("SECRET_KEY", "DEBUG", "DATABASE_URL", "ALLOWED_HOSTS", "ALLOWED_PORTS")


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def _wait_for_address(process: subprocess.Popen[bytes], out: Path) -> str:
    """The address make run prints for phones (or for this machine, without a network), once
    the server answers there."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"make run exited:\n{out.read_text()}")
        found = re.search(r"(?:QR codes use|Open) (http://\S+?)/ ", out.read_text())
        if found:
            try:
                _get(found.group(1) + "/healthz")
                return found.group(1)
            except OSError:
                pass
        time.sleep(0.5)
    raise AssertionError(f"make run did not answer in {STARTUP_SECONDS} s:\n{out.read_text()}")


def test_make_run_serves_the_venue_network_with_debug_off(tmp_path: Path) -> None:
    """issue 23 §1: `make run HOST=0.0.0.0` served the venue's Wi-Fi with runserver and
    DEBUG on: a 404 listed the URL patterns, a 500 showed a traceback and the settings."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PYTEST", "FLIPWELL_")) and key not in SETTINGS
    }
    env.update(WEB_CONCURRENCY="2", GRACEFUL_TIMEOUT="5", FLIPWELL_TEST_URLS="yes")
    out = tmp_path / "make-run.out"
    data = tmp_path / "var"
    with out.open("wb") as log:
        process = subprocess.Popen(
            [
                *("make", "--no-print-directory", "-o", ".venv/.installed", "run"),
                *("HOST=0.0.0.0", f"PORT={port}", f"RUN_DATA={data}"),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: make, its shell and gunicorn
        )
    try:
        address = _wait_for_address(process, out)
        host = address.removeprefix("http://")
        home = _get(address + "/")
        missing = _get(address + "/no-such-page/")
        failed = _get(address + "/test/error/", **{"X-Request-ID": "venue-night-500"})
        forged_port = _get(address + "/", Host=f"{host.rsplit(':', 1)[0]}:31337")
        forged_name = _get(address + "/", Host=f"evil.example:{port}")
        time.sleep(0.5)  # the worker writes its log line after answering
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    printed = out.read_text()

    assert (home[0], home[1]["Server"]) == (200, "gunicorn")
    assert missing[0] == 404
    assert "<h1>Page not found</h1>" in missing[2]
    assert [word for word in ("URLconf", "api/v1/") if word in missing[2]] == []
    assert (failed[0], failed[1]["X-Request-ID"]) == (500, "venue-night-500")
    assert "<code>venue-night-500</code>" in failed[2]
    assert [word for word in ("Traceback", "SECRET_KEY") if word in failed[2]] == []
    assert "ERROR django.request [venue-night-500] Internal Server Error: /test/error/" in printed
    assert "Traceback (most recent call last):" in printed
    assert (forged_port[0], forged_name[0]) == (400, 400)
    assert "Demo league official's login" in printed
    assert stat.S_IMODE((data / "secret_key").stat().st_mode) == 0o600
    assert stat.S_IMODE((data / "demo-login.txt").stat().st_mode) == 0o600
