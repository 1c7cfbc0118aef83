"""The services' edge to the rules (`_edge.rules_edge`): a RuleError becomes a ValidationError."""

import pytest
from django.core.exceptions import ValidationError

from flipwell.league.refusals import ConflictError
from flipwell.league.services._edge import rules_edge
from flipwell.rules import RuleError


def test_rules_edge_rule_error_becomes_a_sentence_on_its_field():
    with pytest.raises(ValidationError) as caught, rules_edge("seed", code="invalid_seed"):
        raise RuleError("no playable machine left")

    assert caught.value.message_dict == {"seed": ["No playable machine left."]}


def test_rules_edge_keeps_the_rules_text_and_code_when_asked():
    with pytest.raises(ValidationError) as caught, rules_edge(code="invalid", message=str):
        raise RuleError("unknown kind")

    assert caught.value.messages == ["unknown kind"]
    assert caught.value.code == "invalid"


def test_rules_edge_field_chosen_from_the_message():
    with (
        pytest.raises(ValidationError) as caught,
        rules_edge(lambda text: text.split()[0], code="text_too_long", message=str),
    ):
        raise RuleError("note too long")

    assert caught.value.message_dict == {"note": ["note too long"]}


def test_rules_edge_other_errors_pass_through():
    with pytest.raises(KeyError), rules_edge("seed", code="invalid_seed"):
        raise KeyError("seed")


def test_rules_edge_keeps_its_code_on_a_field_and_may_be_a_conflict():
    """issue 34 §1: Django drops the code of a ValidationError made from a dict; a Refusal
    keeps it, and a state's refusal is a ConflictError (409)."""
    with pytest.raises(ConflictError) as caught, rules_edge("x", code="overdraft", conflict=True):
        raise RuleError("not enough in the kitty")

    assert (caught.value.refusal, caught.value.status) == ("overdraft", 409)
    assert caught.value.message_dict == {"x": ["Not enough in the kitty."]}
