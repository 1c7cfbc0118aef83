"""Every function of the web's views is at most 60 lines (issue 22 §1): a view parses the
request, calls one service or selector per action and renders; a longer one is split into
small steps (one function per posted action, a context builder).

Words: a function's *length* is its lines from ``def`` to its last line, docstring included
(decorators not counted); nested functions count in their parent's length and are checked
on their own too.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import flipwell.web.views

VIEWS = Path(flipwell.web.views.__file__).parent
LONGEST = 60


def too_long(source: str, *, limit: int = LONGEST) -> list[tuple[str, int]]:
    """(name, length) of each function of `source` longer than `limit` lines."""
    return [
        (node.name, length)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > limit
    ]


def _function(lines: int) -> str:
    """A function of exactly `lines` lines, docstring included, under a decorator."""
    body = "\n".join(f"    x{n} = {n}" for n in range(lines - 2))
    return f'@decorated\ndef long_view():\n    """Its docstring counts."""\n{body}\n'


def test_every_view_function_is_at_most_60_lines():
    found = {
        f"{path.relative_to(VIEWS)}:{name}": length
        for path in sorted(VIEWS.rglob("*.py"))
        for name, length in too_long(path.read_text(encoding="utf-8"))
    }

    assert found == {}


def test_scanner_catches_a_61_line_function():
    assert too_long(_function(61)) == [("long_view", 61)]


def test_scanner_lets_a_60_line_function_pass():
    assert too_long(_function(60)) == []


def test_scanner_catches_a_long_method_and_a_long_nested_function():
    source = textwrap.dedent(
        """
        class Page:
            def render(self):
        """
    ) + textwrap.indent(_function(61), "        ")

    assert too_long(source) == [("render", 63), ("long_view", 61)]


def test_scanner_scans_the_views():
    scanned = {path.name for path in VIEWS.rglob("*.py")}

    assert {"scoresheet.py", "meets.py", "playoffs.py", "ledger.py", "leagues.py"} <= scanned
