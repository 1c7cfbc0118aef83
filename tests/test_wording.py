"""What players read speaks of a player as "they" (issue #11, item 11): no "he", "his" or "him"
in a message, an explanation or a page. The check reads the source: every string literal of
the code that writes text for people (docstrings and comments aside) and every template."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).parents[1] / "src" / "flipwell"
TEXT_CODE = ("rules", "league/services", "league/selectors", "league/enums.py", "web")
GENDERED = re.compile(r"\b(he|his|him|himself)\b", re.IGNORECASE)


def _python_files() -> list[Path]:
    found: list[Path] = []
    for part in TEXT_CODE:
        path = SRC / part
        found.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (of a module, class or function), or
    an attribute's docstring (a bare string statement)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            found.add(id(node.value))
    return found


def _gendered_strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and id(node) not in skip and GENDERED.search(text):
            found.append(f"{path.relative_to(SRC)}:{node.lineno}: {text!r}")
    return found


def _template_text(path: Path) -> str:
    """A template without its comments."""
    text = re.sub(r"{#.*?#}", "", path.read_text())
    return re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.S)


def test_wording_no_he_his_or_him_in_messages():
    found = [line for path in _python_files() for line in _gendered_strings(path)]

    assert not found, "\n".join(found)


def test_wording_no_he_his_or_him_in_templates():
    found = [
        f"{path.relative_to(SRC)}: {match.group(0)!r}"
        for path in sorted((SRC / "web" / "templates").rglob("*.html"))
        for match in GENDERED.finditer(_template_text(path))
    ]

    assert not found, "\n".join(found)
