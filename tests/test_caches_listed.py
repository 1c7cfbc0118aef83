"""Every cache in flipwell is named in one of the two tables: the derived data's
(`flipwell.league.derived`) and the servers' (`flipwell.serving`) (issue 35).

Words:
- *cache*, as this test finds one in a module of ``src/flipwell`` (migrations aside): a
  function memoized with ``functools.cache`` or ``lru_cache``; a module-level private name
  (``_name``) made an empty container (``{}``, ``[]``, ``dict()``, ``set()``...) or a
  `LeastRecentlyUsed`, to be filled while the process runs; a module-level name a function
  rebinds (``global``); and a module that makes a `CompiledQuery` at import.
- *named*: the cache's module (its last part) and name, as ``module.name`` (``caches._folds``),
  appear in a table's docstring; a module of compiled queries by its whole dotted name.
- *not a cache*: process state that holds nothing derived and is dropped by nothing
  (`NOT_CACHES`, each with why).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import flipwell
import flipwell.league.derived
import flipwell.serving

SRC = Path(flipwell.__file__).parent
TABLES = (flipwell.league.derived, flipwell.serving)
MEMOIZERS = frozenset({"cache", "lru_cache", "functools.cache", "functools.lru_cache"})
CONTAINERS = frozenset(
    {"dict", "list", "set", "OrderedDict", "defaultdict", "WeakValueDictionary", "WeakSet"}
)
CACHE_CLASSES = frozenset({"LeastRecentlyUsed"})
NOT_CACHES = {
    "flipwell.league.notices._writers": "the notice writers the web registers at its start",
    "flipwell.league.photos._decodes": "the photo decoding slots, a limit made on first use",
}
COMPILED = " (compiled queries)"
"""How a module that makes compiled queries at import is shown."""
LISTED_AT = "a table of flipwell.league.derived or flipwell.serving (their __init__ docstrings)"


def _called(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return ast.unparse(target)


def _fills_later(value: ast.expr | None) -> bool:
    """Whether `value` starts empty, to be filled while the process runs."""
    if isinstance(value, ast.Dict | ast.List | ast.Set):
        return not (getattr(value, "keys", None) or getattr(value, "elts", None))
    if isinstance(value, ast.Call):
        name = _called(value).rpartition(".")[2]
        return name in CACHE_CLASSES or (name in CONTAINERS and not value.args)
    return False


def caches_of(module: str, source: str) -> list[str]:
    """The caches of `module` (its text `source`), as ``module.name``, in order."""
    tree = ast.parse(source)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            _called(d) in MEMOIZERS for d in node.decorator_list
        ):
            found.append(f"{module}.{node.name}")
        if isinstance(node, ast.Global):
            found += [f"{module}.{name}" for name in node.names]
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and _fills_later(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [
                f"{module}.{t.id}"
                for t in targets
                if isinstance(t, ast.Name) and t.id.startswith("_") and not t.id.startswith("__")
            ]
    made_at_import = any(
        isinstance(call, ast.Call) and _called(call).rpartition(".")[2] == "CompiledQuery"
        for node in tree.body
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for call in ast.walk(node)
    )
    if made_at_import:
        found.append(module + COMPILED)
    return list(dict.fromkeys(found))


def listed(cache: str, tables: str) -> bool:
    """Whether `cache` (``module.name``, or ``module`` of compiled queries) is named in
    `tables`: its module's last part and its name, or a module by its whole name."""
    if cache.endswith(COMPILED):
        return f"`{cache.removesuffix(COMPILED)}`" in tables
    module, _, name = cache.rpartition(".")
    return f"{module.rpartition('.')[2]}.{name}" in tables


def _every_cache() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
        found += caches_of(module.removesuffix(".__init__"), path.read_text())
    return found


def test_every_cache_is_named_in_a_table():
    tables = "\n".join(package.__doc__ or "" for package in TABLES)
    unlisted = [
        cache for cache in _every_cache() if cache not in NOT_CACHES and not listed(cache, tables)
    ]
    assert unlisted == [], f"name each in {LISTED_AT}"


def test_the_finder_finds_the_known_caches():
    found = set(_every_cache())
    assert {
        "flipwell.league.derived.caches._folds",
        "flipwell.league.derived.caches.build",
        "flipwell.league.derived.compiled._EVERY",
        "flipwell.serving.live._hubs",
        "flipwell.serving.health._migrations_applied",
        "flipwell.league.selectors.revisions (compiled queries)",
    } <= found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from functools import cache\n@cache\ndef zones(): ...", ["m.zones"]),
        ("import functools\n@functools.lru_cache(maxsize=8)\ndef f(x): ...", ["m.f"]),
        ("_seen: dict[int, str] = {}", ["m._seen"]),
        ("_order = OrderedDict()\n_memo = LeastRecentlyUsed(4)", ["m._order", "m._memo"]),
        ("_ok = False\ndef f():\n    global _ok\n    _ok = True", ["m._ok"]),
        ("Q = {'a': CompiledQuery(lambda v: v)}", ["m (compiled queries)"]),
    ],
)
def test_the_finder_finds_a_cache(source, expected):
    assert caches_of("m", source) == expected


@pytest.mark.parametrize(
    "source",
    [
        "_TITLES = {'a': 'A'}",
        "__all__ = []",
        "def f():\n    seen = {}\n    return seen",
        "def f():\n    return CompiledQuery(lambda v: v)",
        "PUBLIC: dict[str, int] = {}",
    ],
)
def test_the_finder_leaves_the_rest(source):
    assert caches_of("m", source) == []


def test_a_cache_missing_from_the_tables_is_not_listed():
    assert not listed("flipwell.web.time_zones.other_zones", "time_zones.geographic_zones")
    assert listed("flipwell.web.time_zones.geographic_zones", "| time_zones.geographic_zones |")
    assert not listed("flipwell.league.x (compiled queries)", "x._QUERIES, `flipwell.league.y`")
    assert listed("flipwell.league.x (compiled queries)", "made at import: `flipwell.league.x`")
