"""`make mutate`'s first step finds the permission checks it deletes (issue 26 §6): a script
that found none would report "no survivor" and prove nothing. A mutant the permission matrices
let live is run against the whole suite before it is called a survivor, and the mutmut phase
runs whatever the first found, both phases' survivors printed at the end (issue 34 §4): here
with fake test runners, on a service of a temporary file."""

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

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
    """issue 26 §6: the write protocol's check is a mutant (`check_actor`: the check of
    schedule_meet, close_meet, record_violation and every service through `league_write`),
    and so are the services' own checks and the console's gate; the services' packages are
    read too."""
    found = {(m.path.name, m.function) for path in mutate.SOURCES for m in mutate.mutants(path)}

    assert {
        ("_protocol.py", "check_actor"),
        ("_edge.py", "require_scorekeeping"),
        ("auth.py", "wrapper"),
    } <= found
    # Fewer with each service moved to the write protocol (its check is the protocol's one),
    # but never so few that the services' and the console's own checks went unread.
    assert len(found) >= 15


def test_mutant_deletes_the_check_and_still_parses():
    """issue 26 §6: the mutated module is valid Python without its permission check."""
    path = ROOT / "src" / "flipwell" / "league" / "services" / "_protocol.py"
    original = path.read_text()
    (mutant,) = [
        m
        for m in mutate.mutants(path)
        if m.function == "check_actor" and m.what.startswith("require_official")
    ]

    mutated = mutate.apply(mutant, original)

    ast.parse(mutated)
    assert mutated.count("require_official(") == original.count("require_official(") - 1


# --- A survivor is one the whole suite lets live too (issue 34 §4) --------------------------

_spec_all = importlib.util.spec_from_file_location("mutate", ROOT / "scripts" / "mutate.py")
assert _spec_all is not None
assert _spec_all.loader is not None
both = importlib.util.module_from_spec(_spec_all)
sys.modules["mutate"] = both
_spec_all.loader.exec_module(both)  # imports mutate_permissions: the module loaded above

SERVICE = """\
def schedule(actor):
    require_official(actor)
    if not actor.is_active:
        raise PermissionDenied("Not active.")
    return 1
"""


@pytest.fixture
def service(tmp_path):
    path = tmp_path / "service.py"
    path.write_text(SERVICE)
    return path


def _matrix_lets_everything_live(tests, only):
    return False


def test_mutant_the_matrices_let_live_and_the_suite_kills_is_no_survivor(service):
    """issue 34 §4: three checks the matrices miss are caught by other tests; the suite runs
    against each before it is called a survivor."""
    seen = []

    def suite():
        text = service.read_text()
        seen.append(text)
        return "require_official(" not in text  # another test refuses through this check

    found = mutate.survivors(
        ["matrix"], mutate.mutants(service), matrix=_matrix_lets_everything_live, suite=suite
    )

    assert [m.what for m in found] == ["refusal never made"]
    assert seen[0] == SERVICE  # the suite first passes on the source as it is
    assert len(seen) == 3
    assert service.read_text() == SERVICE  # every mutant undone


def test_mutant_the_matrices_kill_never_runs_the_suite(service):
    def suite():
        raise AssertionError("the suite ran")

    found = mutate.survivors(
        ["matrix"],
        mutate.mutants(service),
        matrix=lambda tests, only: service.read_text() != SERVICE,
        suite=suite,
    )

    assert found == []


def test_suite_failing_on_the_source_as_it_is_is_no_verdict(service, capsys):
    """A suite that fails anyway would kill every mutant: it must pass first."""
    found = mutate.survivors(
        ["matrix"], mutate.mutants(service), matrix=_matrix_lets_everything_live, suite=lambda: True
    )

    assert found is None
    assert "The whole suite fails on the source as it is" in capsys.readouterr().out
    assert service.read_text() == SERVICE


def test_killed_by_restores_the_source_when_the_run_fails(service):
    (mutant, _) = mutate.mutants(service)

    def interrupted():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        mutate.killed_by(mutant, interrupted)

    assert service.read_text() == SERVICE


def test_suite_is_every_test_but_the_browsers():
    assert mutate.SUITE == ["tests", "--ignore=tests/browser"]


# --- make mutate: both phases, always; both phases' survivors at the end ---------------------


def _phase(name, survivors):
    return both.Phase(name, survivors)


def test_make_mutate_runs_mutmut_after_permission_survivors_and_fails(capsys):
    """issue 34 §4: a permission survivor stopped `make mutate` before mutmut ran."""
    ran = []

    def second(args):
        ran.append(list(args))
        return both.Phase("mutmut", ["flipwell.rules.match.x__mutmut_3"], "mutmut show NAME")

    status = both.main(
        ["flipwell.rules.match*"],
        first=lambda: _phase("permission checks", ["src/a.py:3 refusal never made"]),
        second=second,
    )

    out = capsys.readouterr().out
    assert (status, ran) == (1, [["flipwell.rules.match*"]])
    tail = out[out.index("Survivors of both phases:") :]
    assert "src/a.py:3 refusal never made" in tail
    assert "flipwell.rules.match.x__mutmut_3" in tail


def test_make_mutate_fails_on_a_mutmut_survivor_alone():
    status = both.main(
        [],
        first=lambda: _phase("permission checks", []),
        second=lambda args: _phase("mutmut", ["flipwell.rules.x__mutmut_1"]),
    )

    assert status == 1


def test_make_mutate_passes_without_survivors(capsys):
    status = both.main(
        [],
        first=lambda: _phase("permission checks", []),
        second=lambda args: _phase("mutmut", []),
    )

    assert status == 0
    assert "- permission checks: none" in capsys.readouterr().out


def test_make_mutate_phase_that_could_not_run_is_exit_2():
    status = both.main(
        [],
        first=lambda: _phase("permission checks", None),
        second=lambda args: _phase("mutmut", []),
    )

    assert status == 2


def test_mutmut_survivors_are_read_from_its_results():
    results = (
        "    flipwell.rules.match.x_score__mutmut_3: survived\n"
        "    flipwell.rules.match.x_score__mutmut_4: no tests\n"
        "    flipwell.rules.ties.x_rank__mutmut_1: survived\n"
        "    flipwell.rules.ties.x_rank__mutmut_2: not checked\n"
    )

    assert both.survived(results) == [
        "flipwell.rules.match.x_score__mutmut_3",
        "flipwell.rules.ties.x_rank__mutmut_1",
    ]


def test_makefile_mutate_is_one_command_that_runs_both_phases():
    """A recipe of several lines stops at the first failing one: one command runs both."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile[makefile.index("\nmutate:") :].strip().split("\n\n")[0].splitlines()[1:]

    assert recipe == ["\t$(BIN)/python scripts/mutate.py $(MUTMUT_ARGS)"]
