"""A benchmark stopped with ``kill`` leaves no server behind (`tests.chaos.live.exit_on_sigterm`).

The benchmarks start `flipwell serve` or gunicorn in process groups of their own (so that one
SIGKILL reaches every worker); a SIGTERM to the benchmark alone used to end it without its
``finally: server.kill()``, and the server kept its port, its database and the cores.
"""

from __future__ import annotations

import ast
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.chaos.live import ROOT

BENCH = ROOT / "bench"
STARTS_A_SERVER = ("LiveServer(", "ProductionServer(", "Database(")


def test_sigterm_runs_the_finally_that_kills_the_server(tmp_path: Path) -> None:
    cleaned = tmp_path / "cleaned"
    script = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from tests.chaos.live import exit_on_sigterm
        exit_on_sigterm()
        try:
            print("ready", flush=True)
            time.sleep(60)
        finally:
            open({str(cleaned)!r}, "w").write("server killed")
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready"

        process.send_signal(signal.SIGTERM)

        assert process.wait(timeout=30) == 128 + signal.SIGTERM
    assert cleaned.read_text() == "server killed"


def test_every_benchmark_that_starts_a_server_exits_through_its_finally_on_sigterm() -> None:
    starting = [
        path
        for path in sorted(BENCH.glob("bench_*.py"))
        if any(start in path.read_text() for start in STARTS_A_SERVER)
    ]
    assert len(starting) >= 5  # bench_http, bench_sse, bench_photos, bench_night, bench_nights

    missing = [path.name for path in starting if not _main_block_calls(path, "exit_on_sigterm")]

    assert missing == []


def _main_block_calls(path: Path, name: str) -> bool:
    """Whether the script's ``if __name__ == "__main__":`` block calls `name` before `main`."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            calls = [
                ast.unparse(statement.value.func)
                for statement in node.body
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
            ]
            return name in calls and calls.index(name) < calls.index("main")
    return False
