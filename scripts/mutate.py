"""`make mutate`: both phases of mutation testing, always, and both phases' survivors at the
end.

1. The permission checks (`mutate_permissions`): each deleted in turn, against the permission
   matrices, then the whole suite for the ones they let live.
2. mutmut (``[tool.mutmut]`` in pyproject.toml) on ``league/services`` and ``rules/``, narrowed
   by the arguments (``MUTMUT_ARGS``: mutant names or globs, e.g. ``flipwell.rules.match*``);
   its survivors are the mutants ``mutmut results`` lists as survived.

The second phase runs whatever the first found. Exits 1 when either phase has a survivor, 2
when a phase could not run (tests failing on the source as it is, mutmut failing).

    .venv/bin/python scripts/mutate.py [mutmut names or globs]
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import mutate_permissions

ROOT = Path(__file__).resolve().parents[1]
MUTMUT = str(Path(sys.executable).parent / "mutmut")


@dataclass(frozen=True)
class Phase:
    """A phase's outcome: its survivors, each one line; None when it could not run."""

    name: str
    survivors: list[str] | None
    hint: str = ""


def permissions_phase() -> Phase:
    """Phase 1: the permission checks' survivors (`mutate_permissions.survivors`)."""
    every = mutate_permissions.permission_mutants()
    tests = mutate_permissions.TESTS
    print(f"Phase 1: {len(every)} permission checks; tests: {' '.join(tests)}", flush=True)
    found = mutate_permissions.survivors(tests, every)
    lines = None if found is None else [f"{m.where} {m.what}" for m in found]
    return Phase("permission checks", lines)


def mutmut_phase(args: Sequence[str]) -> Phase:
    """Phase 2: mutmut's run (narrowed by `args`), then its survivors."""
    print(f"\nPhase 2: mutmut run {' '.join(args)}".rstrip(), flush=True)
    run = subprocess.run([MUTMUT, "run", "--max-children", "2", *args], cwd=ROOT)
    if run.returncode != 0:
        print(f"mutmut run failed (exit {run.returncode}).")
        return Phase("mutmut", None)
    results = subprocess.run([MUTMUT, "results"], cwd=ROOT, capture_output=True, text=True)
    if results.returncode != 0:
        print(f"mutmut results failed (exit {results.returncode}):\n{results.stderr}")
        return Phase("mutmut", None)
    return Phase("mutmut", survived(results.stdout), "mutmut show NAME shows one")


def survived(results: str) -> list[str]:
    """The mutants ``mutmut results`` lists as survived (one ``name: status`` a line)."""
    found = []
    for line in results.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if name and status == "survived":
            found.append(name)
    return found


def main(
    argv: Sequence[str],
    *,
    first: Callable[[], Phase] = permissions_phase,
    second: Callable[[Sequence[str]], Phase] = mutmut_phase,
) -> int:
    """Both phases, then both phases' survivors; 1 when there is one, 2 when a phase could
    not run."""
    phases = [first(), second(argv)]
    print("\nSurvivors of both phases:")
    for phase in phases:
        hint = f" ({phase.hint})" if phase.hint and phase.survivors else ""
        if phase.survivors is None:
            print(f"- {phase.name}: could not run (see above).")
            continue
        print(f"- {phase.name}: {len(phase.survivors) or 'none'}{hint}")
        for line in phase.survivors:
            print(f"    {line}")
    if any(phase.survivors is None for phase in phases):
        return 2
    return 1 if any(phase.survivors for phase in phases) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
