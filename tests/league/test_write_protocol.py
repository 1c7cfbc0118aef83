"""One write path (issue 35, STYLE.md convention 15): every service writes through the protocol
of `flipwell.league.services._protocol` (`league_write`, `official_write`), whoever acts, so
the order lock, check, facts, refold, audit, notices is written once. A service that opens its
own ``transaction.atomic`` (a call, a ``with`` or a decorator) hand-rolls that order: this
test names it.

Words: an *opening* is any use of ``transaction.atomic`` (or ``atomic`` imported from
``django.db.transaction``) in a module of ``src/flipwell/league/services/``, found by walking
the module's syntax tree; the *function* that holds it is the outermost ``def`` around it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import flipwell.league.services

SERVICES = Path(flipwell.league.services.__file__).parent
PROTOCOL = "_protocol.py"

# (module, function) pairs that still open their own transaction. Each is a module another
# helper of issue 35 converts at the same time as the protocol lands; the merger empties this
# set once they are all on `league_write`/`official_write`. Do not add to it: write through
# the protocol instead.
NOT_YET_ON_THE_PROTOCOL: set[tuple[str, str]] = set()


def _is_atomic(node: ast.AST, names: set[str]) -> bool:
    """Whether `node` is ``transaction.atomic`` or a bare name bound to it."""
    if isinstance(node, ast.Attribute):
        return (
            node.attr == "atomic"
            and isinstance(node.value, ast.Name)
            and (node.value.id == "transaction")
        )
    return isinstance(node, ast.Name) and node.id in names


def _atomic_names(tree: ast.AST) -> set[str]:
    """The names ``atomic`` is imported under (``from django.db.transaction import atomic``)."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "django.db.transaction"
        for alias in node.names
        if alias.name == "atomic"
    }


def openings(path: Path) -> list[tuple[int, str]]:
    """(line, outermost function or "<module>") of every ``transaction.atomic`` in `path`."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names = _atomic_names(tree)
    owner: dict[ast.AST, str] = {}
    for top in ast.walk(tree):
        if isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef):
            for child in ast.walk(top):
                owner.setdefault(child, top.name)  # ast.walk visits outer defs first
    return sorted(
        (node.lineno, owner.get(node, "<module>"))
        for node in ast.walk(tree)
        if _is_atomic(node, names)
    )


def _modules() -> list[Path]:
    return sorted(p for p in SERVICES.rglob("*.py") if p.name != PROTOCOL)


def test_no_service_opens_its_own_transaction():
    found = [
        f"src/flipwell/league/services/{path.relative_to(SERVICES)}:{line} ({function})"
        for path in _modules()
        for line, function in openings(path)
        if (path.name, function) not in NOT_YET_ON_THE_PROTOCOL
    ]

    assert found == [], (
        "These services open their own transaction.atomic: write through the protocol "
        "instead (`with league_write(league=..., actor=Actor.<kind>(user), action=..., "
        "season=<the season whose numbers may change, or None>) as write:`, or "
        "`official_write` for an official; `savepoint()` for a part that may hit a "
        "constraint), and record events and notices through `write`:\n" + "\n".join(found)
    )


def test_the_allowlist_names_only_transactions_that_still_exist():
    """An entry the conversion made stale is removed, so the list only shrinks."""
    opened = {(path.name, function) for path in _modules() for _, function in openings(path)}

    assert NOT_YET_ON_THE_PROTOCOL - opened == set()


def test_the_walk_finds_a_with_a_call_and_a_decorator(tmp_path):
    source = tmp_path / "service.py"
    source.write_text(
        "from django.db import transaction\n"
        "from django.db.transaction import atomic as at\n"
        "def a():\n    with transaction.atomic():\n        pass\n"
        "@transaction.atomic\ndef b():\n    pass\n"
        "def c():\n    at()(lambda: None)()\n"
    )

    assert openings(source) == [(4, "a"), (6, "b"), (10, "c")]
