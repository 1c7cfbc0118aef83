"""Every COMPUTE and ENFORCE rule of RULES.md is asserted about by at least one test.

A rule is *asserted about* where its id is in a test function (``test_*``) that checks
something (an ``assert`` or ``pytest.raises``): in the function's name, docstring,
``parametrize`` values or its code's strings. A comment, a module's docstring or a helper's
text does not count: the id must stand beside a check (issue 26 §6).
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "docs" / "rules" / "RULES.md"
ROW = re.compile(r"^\|\s*(R[0-9A.]+-[a-z])\s*\|[^|]*\|[^|]*\|\s*([^|]*)\|", re.MULTILINE)
RULE_ID = re.compile(r"R[0-9A.]+-[a-z](?![a-z])")


@pytest.fixture
def catalogue() -> str:
    """RULES.md's text; the tests that need it skip, saying so, where it is absent."""
    if not CATALOGUE.exists():
        pytest.skip(f"the rules catalogue {CATALOGUE.relative_to(ROOT)} is absent")
    return CATALOGUE.read_text()


def catalogued_rules(text: str) -> dict[str, str]:
    """Rule ID -> its class column, from the catalogue's tables."""
    return {m.group(1): m.group(2) for m in ROW.finditer(text)}


def _checks(function: ast.AST) -> bool:
    """Whether a test function checks something: an assert, or pytest.raises."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assert):
            return True
        called = node.func if isinstance(node, ast.Call) else None
        if isinstance(called, ast.Attribute) and called.attr == "raises":
            return True
    return False


def asserted_in(source: str) -> set[str]:
    """The rule ids a module's checking tests name (comments are not in the syntax tree)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        is_test = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        )
        if not is_test or not _checks(node):
            continue
        texts = [node.name] + [
            inner.value
            for inner in ast.walk(node)  # the decorators (parametrize) and the docstring too
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str)
        ]
        found |= {rule for text in texts for rule in RULE_ID.findall(text)}
    return found


def asserted_in_tests() -> set[str]:
    """The rule ids the test suite asserts about (this file's examples of sources aside)."""
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p != Path(__file__).resolve()]
    return set().union(*(asserted_in(p.read_text()) for p in tests))


def test_catalogue_has_all_188_rules(catalogue):
    assert len(catalogued_rules(catalogue)) == 188


def test_every_compute_and_enforce_rule_is_asserted_about_by_a_test(catalogue):
    required = {
        rule
        for rule, cls in catalogued_rules(catalogue).items()
        if "COMPUTE" in cls or "ENFORCE" in cls
    }
    missing = sorted(required - asserted_in_tests(), key=_natural)
    assert missing == []


def test_rule_named_only_in_a_comment_is_not_covered():
    """issue 26 §6: a comment beside a check, or a test that checks nothing, covers no rule."""
    source = '''
def test_comment():
    # R1.1-a
    assert 1 == 1

def test_docstring_without_a_check():
    """R1.1-b"""
'''

    assert asserted_in(source) == set()


def test_rule_named_in_a_checking_test_is_covered():
    """issue 26 §6: the docstring, the parametrize values or a raises test cover the rule."""
    source = '''
def test_docstring():
    """R1.1-a: the rule."""
    assert 1 == 1

@pytest.mark.parametrize("rule", ["R1.1-b"])
def test_parametrized(rule):
    with pytest.raises(ValueError):
        int(rule)
'''

    assert asserted_in(source) == {"R1.1-a", "R1.1-b"}


def test_catalogue_copy_matches_shared_rules(catalogue):
    shared = ROOT.parent / "shared" / "rules" / "RULES.md"
    if not shared.exists():
        pytest.skip(f"no shared copy of the rules at {shared} to compare with")
    assert shared.read_text() == catalogue


def _natural(rule: str) -> list[object]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", rule)]
