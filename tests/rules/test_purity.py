"""flipwell.rules is pure: standard library only, and importing flipwell never imports Django."""

import ast
import subprocess
import sys
from pathlib import Path

import flipwell.rules

RULES_DIR = Path(flipwell.rules.__file__).parent


def _imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_rules_modules_import_only_stdlib_and_themselves():
    allowed = set(sys.stdlib_module_names) | {"flipwell", "__future__"}
    offenders = {
        path.name: sorted(_imported_roots(path) - allowed) for path in RULES_DIR.glob("*.py")
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_rules_flipwell_modules_are_rules_only():
    for path in RULES_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.level == 0
                and (node.module or "").startswith("flipwell")
            ):
                assert (node.module or "").startswith("flipwell.rules"), (path.name, node.module)


def test_importing_flipwell_rules_loads_no_third_party_module():
    code = (
        "import sys, flipwell, flipwell.rules\n"
        "std = set(sys.stdlib_module_names)\n"
        "mods = {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(m for m in mods\n"
        "             if m not in std and m != 'flipwell' and not m.startswith('_')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
