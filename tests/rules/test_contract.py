"""The public contract of flipwell.rules: exact names and keyword names (the issue's §2).

An external conformance suite calls these; renaming a keyword is a breaking change.
"""

import ast
import inspect
import sys
import typing
from dataclasses import fields, is_dataclass
from fractions import Fraction
from types import ModuleType

import pytest

import flipwell.rules as rules

SIGNATURES = {
    "group_sizes": "(n, *, ruleset=FWPL_V1)",
    "initial_ladder": "(entrants, *, ruleset=FWPL_V1)",
    "ladder": "(points, *, previous, ruleset=FWPL_V1)",
    "game_points": "(scores, *, tie_order=(), ruleset=FWPL_V1)",
    "match_bonus_points": "(results, *, ladder_order, ruleset=FWPL_V1)",
    "night_forfeit_credit": "(prior_nights, *, credit_used, ruleset=FWPL_V1)",
    "compensatory_score": (
        "(original, new, *, leading_subtracted=0, state_subtracted=0, ruleset=FWPL_V1)"
    ),
    "reduced_score": "(score, *, ruleset=FWPL_V1)",
    "penalty_game": "(points_by_game, *, current_game=None)",
    "playoff_divisions": "(n, *, ruleset=FWPL_V1)",
    "playoff_first_round": "(bracket)",
    "papa_points": "(finishing_order)",
    "fold_season": "(facts, *, ruleset=FWPL_V1, explain=False)",
}
VALUE_FIELDS = {
    "Entrant": ["player", "first_name", "last_name", "ifpa_rank"],
    "Finish": ["points", "place"],
    "PlayoffDivision": ["name", "first_rank", "last_rank", "bracket"],
}


def _plain(signature: inspect.Signature) -> str:
    """A signature without annotations, with FWPL_V1 shown by name."""
    parts, star = [], False
    for p in signature.parameters.values():
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        if p.default is p.empty:
            parts.append(p.name)
        else:
            default = "FWPL_V1" if p.default is rules.FWPL_V1 else repr(p.default)
            parts.append(f"{p.name}={default}")
    return "(" + ", ".join(parts) + ")"


@pytest.mark.parametrize(("name", "expected"), SIGNATURES.items())
def test_contract_function_signature(name, expected):
    assert _plain(inspect.signature(getattr(rules, name))) == expected


@pytest.mark.parametrize(("name", "expected"), VALUE_FIELDS.items())
def test_contract_value_fields(name, expected):
    assert [f.name for f in fields(getattr(rules, name))] == expected


def test_contract_rule_error_is_value_error():
    assert issubclass(rules.RuleError, ValueError)


def test_contract_fwpl_v1_is_default_ruleset():
    assert rules.Ruleset() == rules.FWPL_V1


def test_contract_credit_is_exact_fraction():
    """R2.4-d, A14.2: 50% of an average of 39 and 40 is 19.75, kept exact."""
    credit = rules.night_forfeit_credit([39, 40], credit_used=False)
    assert (type(credit), credit) == (Fraction, Fraction(79, 4))


def _is_rules_type(name: str, value: object) -> bool:
    """A class defined in flipwell.rules, or a type alias (``Literal[...]``) written there."""
    if isinstance(value, type):
        return value.__module__.startswith("flipwell.rules")
    alias = typing.get_origin(value) is not None
    return alias and getattr(typing, name, None) is not value


def _named_types(obj: object) -> dict[str, object]:
    """The rules types that `obj`'s annotations (parameters, return, fields) name, by name."""
    namespace = vars(sys.modules[obj.__module__])
    found = {}
    for annotation in inspect.get_annotations(obj).values():
        text = annotation if isinstance(annotation, str) else annotation.__name__
        for node in ast.walk(ast.parse(text, mode="eval")):
            if isinstance(node, ast.Name) and _is_rules_type(node.id, namespace.get(node.id)):
                found[node.id] = namespace[node.id]
    return found


def unexported_types(package: ModuleType) -> dict[str, list[str]]:
    """Types a caller needs but cannot import from `package` -> where they are needed.

    Starts from the functions and classes in ``package.__all__`` and follows the fields of
    every dataclass they name, so that a caller can build every argument and read every
    result with names imported from the package alone.
    """
    public = [getattr(package, name) for name in package.__all__]
    todo = [obj for obj in public if inspect.isfunction(obj) or inspect.isclass(obj)]
    seen: set[int] = set()
    missing: dict[str, list[str]] = {}
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        for name, value in _named_types(obj).items():
            if getattr(package, name, None) is not value or name not in package.__all__:
                missing.setdefault(name, []).append(obj.__qualname__)
            if is_dataclass(value):
                todo.append(value)
    return {name: sorted(users) for name, users in sorted(missing.items())}


def test_contract_exports_every_type_its_functions_name():
    """A caller imports every parameter, return and field type from `flipwell.rules` itself."""
    assert unexported_types(rules) == {}


class _Hidden:
    """A type only a submodule has: standing in for a rules type not exported at top level."""


def _uses_hidden(facts: _Hidden) -> _Hidden:
    return facts


def test_contract_check_names_an_unexported_parameter_type(monkeypatch):
    monkeypatch.setattr(_Hidden, "__module__", "flipwell.rules.hidden")
    package = ModuleType("flipwell.rules.fake")
    package.__dict__.update(_uses_hidden=_uses_hidden, __all__=["_uses_hidden"])

    assert unexported_types(package) == {"_Hidden": ["_uses_hidden"]}
