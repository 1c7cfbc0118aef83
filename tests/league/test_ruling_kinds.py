"""Every kind of Ruling a service records is in `enums.RulingKindValue`, the enum the API's
meet rulings list answers (an unlisted kind would fail the answer's schema)."""

import ast
from pathlib import Path
from typing import get_args

from flipwell.league import enums
from flipwell.league.turn_rulings import KINDS
from flipwell.rules.malfunctions import MALFUNCTION_RULING_KINDS

SERVICES = Path(__file__).parents[2] / "src" / "flipwell" / "league" / "services"
RULING_CALLS = {"ruling", "record_ruling"}


def _recorded_kinds() -> set[str]:
    """The literal kinds passed to a ruling call, or named by a dict built for one."""
    found: set[str] = set()
    for path in SERVICES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) in RULING_CALLS
            ):
                found |= {
                    k.value.value
                    for k in node.keywords
                    if k.arg == "kind" and isinstance(k.value, ast.Constant)
                }
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_ruling"):
                for d in ast.walk(node):
                    if isinstance(d, ast.Dict):
                        found |= {
                            v.value
                            for k, v in zip(d.keys, d.values, strict=True)
                            if isinstance(k, ast.Constant) and k.value == "kind"
                            and isinstance(v, ast.Constant)
                        }  # fmt: skip
    return found


def test_every_recorded_ruling_kind_is_in_the_enum():
    kinds = set(get_args(enums.RulingKindValue))

    assert _recorded_kinds() - kinds == set()
    assert set(KINDS) <= kinds
    assert {f"malfunction_{k}" for k in MALFUNCTION_RULING_KINDS} <= kinds
    assert {"special_ruling.added", "special_ruling.amended", "special_ruling.copied"} <= kinds
