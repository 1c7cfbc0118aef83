"""Short functions: none over `LIMIT` lines anywhere in flipwell (issue 35).

Words:
- *length*: a function's lines from its ``def`` line to its last line, docstring and blank
  lines included (decorators not). Nested functions and methods are measured too.
- *checked modules*: every module under ``src/flipwell`` but the exempt ones (`EXEMPT_FOLDERS`,
  `EXEMPT`): the migrations (Django writes them) and the demo league's data. A long function
  is a few named steps (parse, build facts, ask the rules, persist, finish) written as one.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import flipwell

SRC = Path(flipwell.__file__).parent
LIMIT = 60
EXEMPT_FOLDERS = ("migrations",)
"""Folders (at any depth under src/flipwell) whose functions are not measured."""
EXEMPT = ("league/exchange/demo.py",)
"""Modules (under src/flipwell) whose functions are not measured: data, not code."""
FOLDERS = (
    "league/services",
    "web/views",
    "api/endpoints",
)
"""Folders that must hold functions (a renamed folder would silently check nothing)."""


def long_functions(source: str, *, limit: int = LIMIT) -> list[tuple[str, int]]:
    """(name, length) of every function in `source` longer than `limit` lines."""
    return [
        (node.name, length)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > limit
    ]


def _checked_files() -> list[Path]:
    """Every module under src/flipwell but the exempt ones."""
    return sorted(
        path
        for path in SRC.rglob("*.py")
        if not any(part in EXEMPT_FOLDERS for part in path.relative_to(SRC).parts)
        and path.relative_to(SRC).as_posix() not in EXEMPT
    )


def _long_functions_by_module() -> list[tuple[str, str, int]]:
    """(module under src/flipwell, function, length) of every function over `LIMIT` lines."""
    return [
        (path.relative_to(SRC).as_posix(), name, length)
        for path in _checked_files()
        for name, length in long_functions(path.read_text(encoding="utf-8"))
    ]


def test_no_function_over_60_lines() -> None:
    too_long = [
        f"src/flipwell/{module}: {name} has {length} lines"
        for module, name, length in _long_functions_by_module()
    ]
    assert too_long == [], f"functions over {LIMIT} lines (split them into steps): {too_long}"


def test_the_exempt_modules_exist_and_are_left_out() -> None:
    checked = {path.relative_to(SRC).as_posix() for path in _checked_files()}
    assert [name for name in EXEMPT if not (SRC / name).exists()] == []
    assert not checked & set(EXEMPT)
    assert not any("/migrations/" in name for name in checked)
    assert {"rules/season.py", "league/selectors/standings.py", "web/charts.py"} <= checked


def test_every_checked_folder_exists_and_has_functions() -> None:
    for folder in FOLDERS:
        files = list((SRC / folder).rglob("*.py"))
        assert files, f"{folder} has no Python file"
        assert any("def " in path.read_text(encoding="utf-8") for path in files), folder


def _function(lines: int) -> str:
    """A function of exactly `lines` lines (def line to last line)."""
    body = "\n".join(f"    x{i} = {i}" for i in range(lines - 2))
    return f"def f():\n    '''Doc.'''\n{body}\n"


def test_scanner_catches_a_61_line_function() -> None:
    assert long_functions(_function(61)) == [("f", 61)]


def test_scanner_passes_a_60_line_function() -> None:
    assert long_functions(_function(60)) == []


def test_scanner_measures_methods_and_nested_functions() -> None:
    nested = "def outer():\n" + textwrap.indent(_function(61), "    ")
    method = "class C:\n" + textwrap.indent(_function(61).replace("f()", "m(self)"), "    ")
    assert long_functions(nested) == [("outer", 62), ("f", 61)]
    assert long_functions(method) == [("m", 61)]
