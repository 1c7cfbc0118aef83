"""The public contract of flipwell.rules: exact names and keyword names (the issue's §2).

An external conformance suite calls these; renaming a keyword is a breaking change.
"""

import inspect
from dataclasses import fields
from fractions import Fraction

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
