"""Short functions where the writes and the front ends are: none over `LIMIT` lines.

Words:
- *length*: a function's lines from its ``def`` line to its last line, docstring and blank
  lines included (decorators not). Nested functions and methods are measured too.
- *checked folders*: `FOLDERS`, under ``src/flipwell``: the services (each a few named steps:
  parse, build facts, ask the rules, persist, finish) and the front ends' entry points.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import flipwell

SRC = Path(flipwell.__file__).parent
LIMIT = 60
FOLDERS = (
    "league/services",
    "web/views",
    "api/endpoints",
)
"""The folders (under src/flipwell) whose every function is at most `LIMIT` lines."""


def long_functions(source: str, *, limit: int = LIMIT) -> list[tuple[str, int]]:
    """(name, length) of every function in `source` longer than `limit` lines."""
    return [
        (node.name, length)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > limit
    ]


def _checked_files() -> list[Path]:
    return sorted(path for folder in FOLDERS for path in (SRC / folder).rglob("*.py"))


def test_no_function_over_60_lines_in_services_views_and_endpoints() -> None:
    too_long = [
        f"{path.relative_to(SRC.parents[1])}: {name} has {length} lines"
        for path in _checked_files()
        for name, length in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert too_long == [], f"functions over {LIMIT} lines (split them into steps): {too_long}"


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
