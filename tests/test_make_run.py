"""`make run HOST=0.0.0.0` as a new official runs it: the production server on the venue's
network (issue 23 §1).

One real `make run` (`tests.make_run`), on a fresh data directory and a free port, is asked,
at the address it prints, for a page, a missing page, a failing page and a page under a
forged host, then stopped with SIGTERM.
"""

from __future__ import annotations

import stat
from pathlib import Path

from tests.make_run import get, running


def test_make_run_serves_the_venue_network_with_debug_off(tmp_path: Path) -> None:
    """issue 23 §1: `make run HOST=0.0.0.0` served the venue's Wi-Fi with runserver and
    DEBUG on: a 404 listed the URL patterns, a 500 showed a traceback and the settings."""
    with running(tmp_path) as run:
        host = run.address.removeprefix("http://").rsplit(":", 1)[0]
        home = get(run.address + "/")
        missing = get(run.address + "/no-such-page/")
        failed = get(run.address + "/test/error/", **{"X-Request-ID": "venue-night-500"})
        forged_port = get(run.address + "/", Host=f"{host}:31337")
        forged_name = get(run.address + "/", Host=f"evil.example:{run.port}")
    printed = run.printed()

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
    assert stat.S_IMODE((run.data / "secret_key").stat().st_mode) == 0o600
    assert stat.S_IMODE((run.data / "demo-login.txt").stat().st_mode) == 0o600
