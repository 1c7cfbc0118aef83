"""league/enums: each set of values is the rules' Literal, and the models, the web forms and the
API schemas all use that one definition (no database)."""

from typing import Literal, get_type_hints

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from flipwell.api.schemas.corrections import CorrectionOut, CorrectionOutcomeOut
from flipwell.api.schemas.incidents import ForfeitIn, MalfunctionIn, RulingOut
from flipwell.api.schemas.ledger import LedgerIn, LedgerLineOut
from flipwell.api.schemas.machines import DeclarationOut, MachineOut
from flipwell.api.schemas.meets import MeetBoardOut, MeetOut
from flipwell.api.schemas.playoffs import PlayoffGameOut, PlayoffNightOut
from flipwell.api.schemas.rulings import SpecialRulingIn
from flipwell.api.schemas.violations import RemedyIn, RemedyOut, ViolationIn
from flipwell.league import enums
from flipwell.league import models as m
from flipwell.league.enums import LITERALS, literal_values
from flipwell.rules import Ruleset
from flipwell.rules.machine_replacement import Replacement
from flipwell.rules.playoffs import ROUND_NAMES
from flipwell.rules.treasury import EntryKind
from flipwell.web import forms as f
from flipwell.web.forms.fields import plain_choices


@pytest.mark.parametrize("enum", list(LITERALS), ids=lambda e: e.__name__)
def test_enum_values_equal_their_literal(enum: type[models.TextChoices]):
    literal = literal_values(LITERALS[enum])

    assert (len(enum.values), set(enum.values)) == (len(literal), set(literal))


def test_labelled_choices_take_the_literals_values_with_their_labels():
    class Light(enums.LabelledChoices, values=Literal["green", "amber"]):
        GREEN = "Go"
        AMBER = "Slow down"

    assert Light.choices == [("green", "Go"), ("amber", "Slow down")]
    assert (Light.GREEN == "green", Light.AMBER.label, LITERALS[Light]) == (
        True,
        "Slow down",
        Literal["green", "amber"],
    )


def test_labelled_choices_without_a_label_for_each_value_fail_at_import():
    with pytest.raises(TypeError, match="Light labels green; its Literal holds"):

        class Light(enums.LabelledChoices, values=Literal["green", "amber"]):
            GREEN = "Go"


def test_league_literals_equal_the_rules_values():
    """The sets the rules hold as data or inline types, not as a named Literal."""
    by = get_type_hints(Replacement)["by"]
    penalty = get_type_hints(Ruleset)["serious_violation_penalty"]

    assert set(literal_values(enums.PlayoffRoundValue)) == set(ROUND_NAMES.values())
    assert literal_values(enums.ReplacementByValue) == literal_values(by)
    assert set(literal_values(enums.NewEntryKind)) == set(literal_values(EntryKind)) - {"reversal"}
    assert literal_values(enums.GamePenalty) == literal_values(penalty)
    assert set(literal_values(enums.RecordedForfeitReason)) == set(
        literal_values(enums.ForfeitReasonValue)
    ) - {"penalty"}


MODEL_FIELDS = [
    (m.Meet, "status", enums.MeetStatus),
    (m.PlayoffNight, "status", enums.MeetStatus),
    (m.Forfeit, "reason", enums.ForfeitReason),
    (m.CorrectionRequest, "status", enums.CorrectionStatus),
    (m.Machine, "status", enums.MachineStatus),
    (m.MachineDeclaration, "kind", enums.DeclarationKind),
    (m.MachineReplacement, "by", enums.ReplacementBy),
    (m.SpecialRuling, "kind", enums.SpecialRulingKind),
    (m.Malfunction, "kind", enums.MalfunctionKind),
    (m.Malfunction, "reason_code", enums.MalfunctionReason),
    (m.Violation, "kind", enums.ViolationKind),
    (m.VictimRemedy, "announced", enums.RemedyChoice),
    (m.LedgerEntry, "account", enums.LedgerAccount),
    (m.LedgerEntry, "reason", enums.LedgerReason),
    (m.PlayoffMatch, "round", enums.PlayoffRound),
]


@pytest.mark.parametrize(
    ("model", "name", "enum"), MODEL_FIELDS, ids=lambda x: getattr(x, "__name__", str(x))
)
def test_model_field_choices_are_the_enum(model, name, enum):
    assert model._meta.get_field(name).choices == enum.choices


FORM_FIELDS = [
    (f.ForfeitForm, "reason", enums.ForfeitReason, enums.RecordedForfeitReason),
    (f.MalfunctionForm, "reason_code", enums.MalfunctionReason, None),
    (f.MalfunctionForm, "kind", enums.MalfunctionKind, None),
    (f.ViolationForm, "kind", enums.ViolationKind, None),
    (f.MachineDeclarationForm, "kind", enums.DeclarationKind, None),
    (f.MachineStatusForm, "status", enums.MachineStatus, None),
    (f.LedgerEntryForm, "kind", enums.NewLedgerEntryKind, None),
    (f.LedgerEntryForm, "account", enums.LedgerAccount, None),
    (f.LedgerEntryForm, "reason", enums.LedgerReason, None),
    (f.SpecialRulingForm, "kind", enums.SpecialRulingKind, None),
]


@pytest.mark.parametrize(
    ("form", "name", "enum", "within"), FORM_FIELDS, ids=lambda x: getattr(x, "__name__", "")
)
def test_form_field_choices_are_the_enum(form, name, enum, within):
    field = form.base_fields[name]
    offered = [(value, label) for value, label in field.choices if value != ""]

    assert isinstance(field, forms.ChoiceField)
    # The labels as a person reads them: a rule the enum's label cites is left out.
    assert offered == plain_choices(enums.choices_of(enum, within=within))


SCHEMA_FIELDS = [
    (MeetOut, "status", enums.MeetStatus),
    (MeetBoardOut, "status", enums.MeetStatus),
    (PlayoffNightOut, "status", enums.MeetStatus),
    (ForfeitIn, "reason", enums.RecordedForfeitReason),
    (CorrectionOut, "status", enums.CorrectionStatus),
    (CorrectionOutcomeOut, "status", enums.CorrectionStatus),
    (MachineOut, "status", enums.MachineStatus),
    (DeclarationOut, "kind", enums.DeclarationKind),
    (SpecialRulingIn, "kind", enums.SpecialRulingKind),
    (MalfunctionIn, "reason_code", enums.MalfunctionReason),
    (MalfunctionIn, "kind", enums.MalfunctionKind),
    (RulingOut, "kind", enums.MalfunctionKind),
    (ViolationIn, "kind", enums.ViolationKind),
    (RemedyIn, "announced", enums.RemedyChoice),
    (RemedyOut, "choice", enums.RemedyChoice),
    (LedgerIn, "kind", enums.NewLedgerEntryKind),
    (LedgerIn, "account", enums.LedgerAccount),
    (LedgerIn, "reason", enums.LedgerReason),
    (LedgerLineOut, "account", enums.LedgerAccount),
    (PlayoffGameOut, "round", enums.PlayoffRound),
]


@pytest.mark.parametrize(
    ("schema", "name", "enum"), SCHEMA_FIELDS, ids=lambda x: getattr(x, "__name__", str(x))
)
def test_schema_field_values_are_the_enum(schema, name, enum):
    annotation = schema.model_fields[name].annotation
    allowed = [v for v in literal_values(annotation) if v not in (type(None), "")]

    if isinstance(enum, type):
        assert sorted(allowed) == sorted(enum.values)
    else:
        assert allowed == list(literal_values(enum))


def test_one_of_returns_an_allowed_value():
    assert enums.one_of("kitty", enums.ACCOUNTS, field="account") == "kitty"


def test_one_of_unknown_value_refused_naming_field_and_allowed_values():
    with pytest.raises(ValidationError) as error:
        enums.one_of("bank", enums.ACCOUNTS, field="account", what="ledger account")

    assert error.value.message_dict == {
        "account": ["Unknown ledger account 'bank'; use dues, kitty, treasury."]
    }


@pytest.mark.parametrize(
    ("values", "literal"),
    [
        (enums.ACCOUNTS, enums.AccountValue),
        (enums.LEDGER_REASONS, enums.LedgerReasonValue),
        (enums.MALFUNCTION_REASONS, enums.MalfunctionReasonValue),
        (enums.MALFUNCTION_KINDS, enums.MalfunctionKindValue),
        (enums.VIOLATION_KINDS, enums.ViolationKindValue),
        (enums.REMEDY_CHOICES, enums.RemedyChoiceValue),
    ],
)
def test_one_of_value_tuples_are_their_literals_values(values, literal):
    assert values == literal_values(literal)
