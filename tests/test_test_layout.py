"""The tests share their fixtures in one place (STYLE.md convention 18, issue 35 "Tests"): a
fixture two modules need lives once in a ``conftest.py`` (the nearest directory both are
under), never copied, and a test module never imports from another test module.

Words:
- *test module*: a ``test_*.py`` file under tests/; the other modules there are *helper
  modules* (``factories.py``, ``golden.py``, ``league/league_night.py``...) and
  ``conftest.py`` files.
- *fixture*: a function decorated with ``pytest.fixture`` (with or without arguments).
- *shadowing fixture*: a test module's fixture named as one of a conftest.py it sees: two
  things under one name, the module's silently winning.
- *copied fixture*: a fixture whose name, decorator and body (docstring left out) are the same
  as another module's: it belongs in a conftest.py.
- *shadowed name*: a ``noqa`` comment for ruff's F811 ("redefinition of an unused name"): the
  mark a fixture imported from another module and then requested as an argument leaves.

Every import counts, at any depth of a module, relative ones resolved against its package.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SHADOWED = "noqa: " + "F811"  # spelt apart, so this module holds no such comment
MODULES = sorted(p for p in TESTS.rglob("*.py") if "vendor" not in p.relative_to(TESTS).parts)


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Each module `path` imports from, and the names it takes from it."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.append((module, tuple(alias.name for alias in node.names)))
    return found


def _is_fixture(node: ast.AST) -> bool:
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if ast.unparse(target) in ("pytest.fixture", "fixture"):
            return True
    return False


def _fixtures(path: Path) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_fixture(node)
    }


def _module_file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _without_docstring(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    decorators = [ast.unparse(d) for d in node.decorator_list]
    return "\n".join([*decorators, ast.unparse(node.args), *(ast.unparse(s) for s in body)])


def test_no_test_module_silences_a_shadowed_name():
    marked = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in MODULES
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if SHADOWED in line
    ]

    assert marked == [], "a fixture imported and shadowed: share it in a conftest.py instead"


def test_no_module_imports_from_a_test_module():
    imports = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in MODULES
        for module, _ in _imported(path)
        if module.startswith("tests.") and module.rpartition(".")[2].startswith("test_")
    ]

    assert imports == [], "move what is shared to a helper module or a conftest.py"


def test_no_module_imports_a_fixture():
    imports = []
    for path in MODULES:
        for module, names in _imported(path):
            source = _module_file(module) if module.startswith("tests") else None
            if source is None:
                continue
            fixtures = _fixtures(source)
            imports += [
                f"{path.relative_to(ROOT)} imports {module}.{n}" for n in names if n in fixtures
            ]

    assert imports == [], "pytest finds a conftest.py's fixtures: request them by name"


def test_no_fixture_is_copied_into_two_modules():
    places: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in MODULES:
        for name, node in _fixtures(path).items():
            places[(name, _without_docstring(node))].append(str(path.relative_to(ROOT)))
    copied = {name: where for (name, _), where in places.items() if len(where) > 1}

    assert copied == {}, "share each of these once, in the nearest common conftest.py"


def test_no_test_module_shadows_a_conftest_fixture():
    conftests = {
        path.parent: set(_fixtures(path)) for path in MODULES if path.name == "conftest.py"
    }
    shadowing = {}
    for path in MODULES:
        if not path.name.startswith("test_"):
            continue
        seen = set().union(*(names for d, names in conftests.items() if path.is_relative_to(d)))
        if mine := sorted(set(_fixtures(path)) & seen):
            shadowing[str(path.relative_to(ROOT))] = mine

    assert shadowing == {}, "name the module's own fixture for what it builds"


def test_layout_guard_sees_the_tests():
    """The scans above read every module: the shared fixtures' conftest among them."""
    names = {_name(path) for path in MODULES}

    assert {"tests.conftest", "tests.web.conftest", "tests.test_test_layout"} <= names
    assert "night" in _fixtures(TESTS / "conftest.py")


def test_the_long_modules_run_first_are_test_modules_of_this_suite():
    """tests/conftest.py's `LONG_MODULES` (the run starts them first) names modules that exist:
    a module renamed or moved would otherwise fall back to its place in the queue unseen."""
    from tests.conftest import LONG_MODULES

    missing = [name for name in LONG_MODULES if not (ROOT / name).is_file()]

    assert missing == []
    assert len(set(LONG_MODULES)) == len(LONG_MODULES)
