"""`make test` never passes silently (issue 26 §6): without PostgreSQL it fails under CI, and
on a developer's machine it skips, saying so."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOWHERE = "POSTGRES_TEST_URL=postgres://postgres@127.0.0.1:1/flipwell_test"  # nothing listens


def make_test_postgres(ci: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CI": ci}
    return subprocess.run(
        # -o: the venv is taken as installed (a test never reinstalls it).
        ["make", "--no-print-directory", "-o", ".venv/.installed", "test-postgres", NOWHERE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_make_test_postgres_fails_under_ci_without_postgres():
    """issue 26 §6: under CI a run without PostgreSQL is red, not a skip."""
    run = make_test_postgres("true")

    assert run.returncode != 0
    assert "FAILED: PostgreSQL not reachable at postgres://postgres@127.0.0.1:1/" in run.stdout


def test_make_test_postgres_skips_loudly_on_a_developers_machine():
    """issue 26 §6: on a developer's machine without PostgreSQL it skips, and says so."""
    run = make_test_postgres("")

    assert run.returncode == 0
    assert "SKIPPED: PostgreSQL not reachable at postgres://postgres@127.0.0.1:1/" in run.stdout


def test_ci_run_sets_ci_so_make_test_cannot_skip_postgres(tmp_path):
    """issue 34 §4: `.ci/run` runs `make test` with CI=1, so PostgreSQL missing is red there."""
    fake_make = tmp_path / "make"
    fake_make.write_text('#!/bin/sh\necho "make $* CI=${CI:-unset}"\n')
    fake_make.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PATH"] = f"{tmp_path}:{env['PATH']}"

    run = subprocess.run(
        [str(ROOT / ".ci" / "run")], env=env, capture_output=True, text=True, timeout=60
    )

    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "make test CI=1"


def test_make_test_runs_hypothesis_derandomized():
    """issue 34 §4: `make test` draws the same examples on every run (no random search, no
    example database replaying another run's failures); `make chaos` searches at random."""
    from hypothesis import settings

    assert settings.default.derandomize
    assert settings.default.database is None
    assert not settings.get_profile("chaos").derandomize


def test_make_writes_bytecode_where_the_environment_says_not_to():
    """The test passes start many Python processes: every one of them (the targets' recipes)
    writes and reuses bytecode, whatever PYTHONDONTWRITEBYTECODE the machine sets."""
    probe = "probe:\n\t@printenv PYTHONDONTWRITEBYTECODE || echo writes-bytecode\n"
    run = subprocess.run(
        ["make", "--no-print-directory", "-f", "Makefile", "-f", "-", "probe"],
        cwd=ROOT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        input=probe,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "writes-bytecode"
