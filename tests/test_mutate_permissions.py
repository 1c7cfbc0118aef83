"""`make mutate`'s first step finds the permission checks it deletes (issue 26 §6): a script
that found none would report "no survivor" and prove nothing."""

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "mutate_permissions", ROOT / "scripts" / "mutate_permissions.py"
)
assert _spec is not None
assert _spec.loader is not None
mutate = importlib.util.module_from_spec(_spec)
sys.modules["mutate_permissions"] = mutate  # its dataclasses look their module up there
_spec.loader.exec_module(mutate)


def test_mutate_permissions_finds_the_checks_the_issue_names():
    """issue 26 §6: schedule_meet's check is a mutant, and so are the write protocol's (the
    check of close_meet, record_violation and every service through `official_write`) and
    the console's own gate."""
    found = {(m.path.name, m.function) for path in mutate.SOURCES for m in mutate.mutants(path)}

    assert {
        ("meets.py", "schedule_meet"),
        ("_protocol.py", "official_write"),
        ("auth.py", "wrapper"),
    } <= found
    assert len(found) >= 50


def test_mutant_deletes_the_check_and_still_parses():
    """issue 26 §6: the mutated module is valid Python without its permission check."""
    path = ROOT / "src" / "flipwell" / "league" / "services" / "meets.py"
    original = path.read_text()
    (mutant,) = [m for m in mutate.mutants(path) if m.function == "schedule_meet"]

    mutated = mutate.apply(mutant, original)

    ast.parse(mutated)
    assert mutated.count("require_official(") == original.count("require_official(") - 1
