"""What a server worker's process holds once `flipwell.wsgi` is loaded: a fresh Python runs a
script that imports it, with the production settings and a database nobody can reach (loading
it connects to nothing), and prints one JSON line as its last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import tests

ROOT = Path(tests.__file__).resolve().parents[1]  # the checkout, wherever this module is


def worker_state(script: str) -> Any:
    """The JSON `script` prints last, run in a fresh process as a worker loads."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "flipwell.settings",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/unreachable",
        "SECRET_KEY": "worker-process-test-" + "k3J9aQz7LmN2pR5sT8vW1xY4bC6dF0gH",
        "DEBUG": "0",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
