"""Delete each permission check of the services and the console in turn, and run the
permission matrix: a check whose deletion no test notices (a survivor) is a check nobody
tests (issue 26 §6).

A permission check is a statement of ``src/flipwell/league/services/**/*.py``,
``src/flipwell/web/auth.py`` or ``src/flipwell/web/views/manage/*.py`` that

- calls ``require_official``, ``require_scorekeeping``, ``require_role`` or a helper whose name
  starts with ``_require_`` (the mutant: the statement becomes ``pass``), or
- is an ``if`` whose body ends raising ``PermissionDenied`` or returning a redirect to sign in
  (the mutant: its test becomes ``False``).

Each mutant is written over the source file, the matrix tests run (``pytest -x``: the first
failure kills it), and the file is restored, also on Ctrl+C. A mutant the matrices let live is
then run against the whole suite (every test but the browser's, ``-x``, on
``MUTATE_WORKERS`` cores, default ``auto``; once first on the source as it is, which must
pass) before it is called a survivor: a check another test refuses somebody through is tested.
Prints every mutant's fate, then the survivors; exits 1 when there is one (2 when the tests
cannot run).

    .venv/bin/python scripts/mutate_permissions.py [pytest args, default: the matrix tests]
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVICES = ROOT / "src" / "flipwell" / "league" / "services"
WEB = ROOT / "src" / "flipwell" / "web"
# Where the permission checks are: the services, and the console's own gate (console_page,
# signed_in) and views.
SOURCES = [*sorted(SERVICES.rglob("*.py")), WEB / "auth.py", *sorted(WEB.glob("views/manage/*.py"))]
CHECKS = {"require_official", "require_scorekeeping", "require_role"}
# Checks whose deletion changes nothing a person can do (equivalent mutants), with the reason.
EQUIVALENT = {
    ("_common.py", "official"): "a second guard: console_page lets nobody signed out reach it",
}
# -x: the first failure kills the mutant; the tables made from the models, not by migrating
# (a mutant runs in seconds, not a minute).
PYTEST = ["-x", "-q", "-p", "no:cacheprovider", "--no-migrations"]
TESTS = [
    "tests/league/services/test_permission_matrix.py",
    "tests/web/test_console_permissions.py",
]
# The whole suite, as `make unit`'s first pass runs it (migrations included): every test but
# the browser's.
SUITE = ["tests", "--ignore=tests/browser"]


@dataclass(frozen=True)
class Mutant:
    """One permission check deleted: the file, its lines (1-based, inclusive), the new text."""

    path: Path
    first: int
    last: int
    text: str
    what: str
    function: str

    @property
    def where(self) -> str:
        path = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{path}:{self.first}"


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        fn = node.func
        if isinstance(fn, ast.Name):
            return fn.id
        if isinstance(fn, ast.Attribute):
            return fn.attr
    return None


def _is_check(name: str | None) -> bool:
    return name is not None and (name in CHECKS or name.startswith("_require_"))


def _refuses(body: list[ast.stmt]) -> bool:
    """Whether a block ends refusing: raising PermissionDenied, or sending to sign in."""
    last = body[-1]
    if isinstance(last, ast.Raise) and last.exc is not None:
        return _called(last.exc) == "PermissionDenied"
    if isinstance(last, ast.Return) and last.value is not None:
        return _called(last.value) == "redirect_to_login"
    return False


def mutants(path: Path) -> list[Mutant]:
    """The permission checks of one module, as mutants (definitions of the checks excluded)."""
    source = path.read_text()
    lines = source.splitlines()
    found = []
    tree = ast.parse(source)
    owner = {
        child: function.name
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef)
        for child in ast.walk(function)
    }
    for node in ast.walk(tree):
        name = owner.get(node, "")
        if isinstance(node, ast.Expr) and _is_check(_called(node.value)):
            indent = lines[node.lineno - 1][: node.col_offset]
            end = node.end_lineno or node.lineno
            found.append(
                Mutant(
                    path,
                    node.lineno,
                    end,
                    f"{indent}pass",
                    f"{_called(node.value)}() deleted",
                    name,
                )
            )
        elif isinstance(node, ast.If) and _refuses(node.body):
            # Only the test's own lines change: `if <test>:` becomes `if False:`.
            first, last = node.test.lineno, node.test.end_lineno or node.test.lineno
            head = lines[first - 1][: node.test.col_offset]
            tail = lines[last - 1][node.test.end_col_offset :]
            found.append(
                Mutant(path, first, last, f"{head}False{tail}", "refusal never made", name)
            )
    return sorted(found, key=lambda mutant: mutant.first)


def apply(mutant: Mutant, original: str) -> str:
    lines = original.splitlines(keepends=True)
    lines[mutant.first - 1 : mutant.last] = [mutant.text + "\n"]
    return "".join(lines)


def killed(tests: list[str], only: str = "") -> bool | None:
    """Whether the tests fail on the mutated source (pytest's exit 1: a test failed); None
    when `only` (a ``-k`` expression) selects no test."""
    select = ["-k", only] if only else []
    returncode, output = _pytest([*PYTEST, *select, *tests])
    if returncode == 5 and only:
        return None
    if returncode not in (0, 1):
        sys.exit(f"pytest could not run the tests (exit {returncode}):\n{output[-3000:]}")
    return returncode == 1


def killed_by_suite() -> bool:
    """Whether the whole suite (`SUITE`) fails on the source as it is now: ``-x``, on
    ``MUTATE_WORKERS`` cores (pytest-xdist; default ``auto``, ``0``: one process)."""
    workers = os.environ.get("MUTATE_WORKERS", "auto")
    returncode, output = _pytest(["-x", "-q", "-p", "no:cacheprovider", "-n", workers, *SUITE])
    if returncode not in (0, 1):
        sys.exit(f"pytest could not run the suite (exit {returncode}):\n{output[-3000:]}")
    return returncode == 1


def _pytest(args: list[str]) -> tuple[int, str]:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *args], cwd=ROOT, capture_output=True, text=True
    )
    return run.returncode, run.stdout


Matrix = Callable[[list[str], str], "bool | None"]
Suite = Callable[[], bool]


def permission_mutants() -> list[Mutant]:
    """Every permission check's mutant but those of the checks' definitions
    (``permissions.py``) and the `EQUIVALENT` ones."""
    return [
        mutant
        for path in SOURCES
        for mutant in mutants(path)
        if mutant.path.name != "permissions.py"
        and (mutant.path.name, mutant.function) not in EQUIVALENT
    ]


def killed_by(mutant: Mutant, run: Callable[[], bool | None]) -> bool:
    """Whether `run` kills `mutant`: its source mutated while `run` runs, then restored (also
    when interrupted)."""
    original = mutant.path.read_text()
    try:
        mutant.path.write_text(apply(mutant, original))
        return bool(run())
    finally:
        mutant.path.write_text(original)


def survivors(
    tests: list[str],
    every: list[Mutant],
    *,
    matrix: Matrix = killed,
    suite: Suite = killed_by_suite,
) -> list[Mutant] | None:
    """The mutants of `every` that neither `tests` (the matrices) nor the whole suite kill,
    each fate printed; None when the tests fail on the source as it is."""
    if matrix(tests, ""):
        print("The tests fail on the source as it is: fix them before mutating.")
        return None
    lived = []
    for number, mutant in enumerate(every, 1):
        started = time.monotonic()

        def run(mutant: Mutant = mutant) -> bool:
            # The mutated service's own tests first (fast); then all of them.
            only = mutant.function if not mutant.function.startswith("_") else ""
            return bool((matrix(tests, only) if only else None) or matrix(tests, ""))

        dead = killed_by(mutant, run)
        fate = "killed" if dead else "lives"
        print(
            f"[{number}/{len(every)}] {fate:8} {mutant.where} {mutant.what}"
            f" ({time.monotonic() - started:.0f} s)",
            flush=True,
        )
        if not dead:
            lived.append(mutant)
    return _against_the_suite(lived, suite)


def _against_the_suite(lived: list[Mutant], suite: Suite) -> list[Mutant] | None:
    """The mutants the matrices let live that the whole suite does not kill either."""
    if not lived:
        return []
    print(f"\n{len(lived)} mutant(s) the matrices let live: the whole suite runs against each.")
    if suite():
        print("The whole suite fails on the source as it is: fix it before mutating.")
        return None
    found = []
    for mutant in lived:
        started = time.monotonic()
        dead = killed_by(mutant, suite)
        fate = "killed" if dead else "SURVIVED"
        print(
            f"  {fate:8} by the suite: {mutant.where} {mutant.what}"
            f" ({time.monotonic() - started:.0f} s)",
            flush=True,
        )
        if not dead:
            found.append(mutant)
    return found


def main(argv: list[str]) -> int:
    tests = argv or TESTS
    every = permission_mutants()
    print(
        f"{len(every)} permission checks in the services and the console; tests: {' '.join(tests)}"
    )
    found = survivors(tests, every)
    if found is None:
        return 2
    print()
    if found:
        print(f"{len(found)} survivor(s): permission checks no test refuses anybody through:")
        for mutant in found:
            print(f"  {mutant.where} {mutant.what}")
        return 1
    print(f"No survivor: each of the {len(every)} permission checks is tested.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
