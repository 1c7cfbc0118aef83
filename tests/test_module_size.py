"""Small rooms: no module of flipwell over `LIMIT` lines (issue 35, STYLE.md convention 14).

Words:
- *length*: a module's lines, as ``wc -l`` counts them (its docstring, imports and blank lines
  included).
- *exempt*: `EXEMPT`, what is data rather than code: the migrations (Django writes them) and
  the demo league's data (`flipwell.league.exchange.demo`).
"""

from __future__ import annotations

from pathlib import Path

import flipwell

SRC = Path(flipwell.__file__).parent
LIMIT = 500
EXEMPT_FOLDERS = ("migrations",)
"""Folders (at any depth under src/flipwell) whose modules are not measured."""
EXEMPT = ("league/exchange/demo.py",)
"""Modules (under src/flipwell) that are not measured: data, not code."""

HOW_TO_SPLIT = (
    "split it by use case: a package per concern and a module per use case (as Zulip's "
    "zerver/actions/), each module named for what it does and opening with a docstring that "
    "defines its words; move the importers to the new modules (no re-export shim)"
)


def line_count(path: Path) -> int:
    """The lines of `path`, as ``wc -l`` counts them."""
    return path.read_bytes().count(b"\n")


def measured_modules() -> list[Path]:
    """Every module under src/flipwell but the exempt ones, relative to src/flipwell."""
    return sorted(
        path.relative_to(SRC)
        for path in SRC.rglob("*.py")
        if not any(part in EXEMPT_FOLDERS for part in path.relative_to(SRC).parts)
        and path.relative_to(SRC).as_posix() not in EXEMPT
    )


def too_long(modules: list[Path], *, limit: int = LIMIT) -> list[str]:
    """A message for each of `modules` over `limit` lines, naming it and how to split it."""
    return [
        f"src/flipwell/{module.as_posix()} has {lines} lines (limit {limit}): {HOW_TO_SPLIT}"
        for module in modules
        if (lines := line_count(SRC / module)) > limit
    ]


def test_no_module_over_500_lines() -> None:
    assert too_long(measured_modules()) == []


def test_the_exempt_modules_exist() -> None:
    """An exemption names a real module (a renamed one would exempt nothing)."""
    assert [name for name in EXEMPT if not (SRC / name).exists()] == []
    assert any(SRC.rglob("migrations/*.py"))


def test_measured_modules_leave_out_the_migrations_and_the_demo_data() -> None:
    names = {module.as_posix() for module in measured_modules()}
    assert "league/exchange/demo.py" not in names
    assert not any("/migrations/" in name for name in names)
    assert "rules/__init__.py" in names


def test_too_long_names_the_module_and_how_to_split_it() -> None:
    found = too_long([Path("rules/__init__.py")], limit=10)
    lines = line_count(SRC / "rules/__init__.py")
    assert found == [f"src/flipwell/rules/__init__.py has {lines} lines (limit 10): {HOW_TO_SPLIT}"]


def test_line_count_counts_lines_as_wc_does(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text('"""Doc."""\n\nx = 1\n', encoding="utf-8")
    assert line_count(path) == 3
