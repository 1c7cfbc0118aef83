"""league/limits: the web form field and the API schema field of each input have the same
bounds, the ones `flipwell.league.limits` defines (no database)."""

from decimal import Decimal

import annotated_types
import pytest
from django import forms
from django.core.exceptions import ValidationError
from pydantic import BaseModel

from flipwell.api.schemas.corrections import CorrectedScoreIn, CorrectionIn
from flipwell.api.schemas.incidents import CompensatoryGameIn, ForfeitIn, MalfunctionIn
from flipwell.api.schemas.ledger import LedgerIn, ReversalIn
from flipwell.api.schemas.machines import DeclarationIn, MachineProblemIn
from flipwell.api.schemas.meets import CloseMeetIn, ScheduleMeetIn, StartMeetIn
from flipwell.api.schemas.officials import InvitationIn
from flipwell.api.schemas.players import ImportIn, RegisterIn
from flipwell.api.schemas.playoffs import NoShowIn, PlayoffScoreIn, QualifyIn, WithdrawalIn
from flipwell.api.schemas.rulings import AmendRulingIn, SpecialRulingIn
from flipwell.api.schemas.setup import MachineIn, SeasonIn, SeasonScheduleIn
from flipwell.api.schemas.sheets import ScoreIn, SubmitScoresIn
from flipwell.api.schemas.violations import ViolationIn
from flipwell.league import limits, players_csv
from flipwell.rules.match import GAMES_PER_MATCH
from flipwell.web import forms as f


def _form_bounds(field: forms.Field) -> tuple[object, object]:
    """(min, max) of a number field, in cents for money; (0, max length) of a text field."""
    if isinstance(field, forms.DecimalField):
        return (int(Decimal(field.min_value) * 100), int(Decimal(field.max_value) * 100))
    if isinstance(field, forms.IntegerField):
        return (field.min_value, field.max_value)
    assert isinstance(field, forms.CharField)
    return (0, field.max_length)


def _schema_bounds(schema: type[BaseModel], name: str) -> tuple[object, object]:
    """(ge, le) of a number field; (0, max length) of a text field."""
    found: dict[str, object] = {}
    for meta in schema.model_fields[name].metadata:
        if isinstance(meta, annotated_types.Ge):
            found["min"] = meta.ge
        elif isinstance(meta, annotated_types.Le):
            found["max"] = meta.le
        elif isinstance(meta, annotated_types.MaxLen):
            found["min"], found["max"] = 0, meta.max_length
    return (found.get("min"), found.get("max"))


def _bounds(limit: limits.Bound | int) -> tuple[int, int]:
    return (limit.minimum, limit.maximum) if isinstance(limit, limits.Bound) else (0, limit)


PAIRS = [
    # (limit, web form, its field, API schema, its field)
    (limits.BALL, f.MalfunctionForm, "ball", MalfunctionIn, "ball"),
    (limits.GAMES_COMPLETED, f.ViolationForm, "games_completed", ViolationIn, "games_completed"),
    (limits.TARGET_GAME, f.ViolationForm, "target_game", ViolationIn, "target_game"),
    (limits.MEET_NUMBER, f.ScheduleMeetForm, "number", ScheduleMeetIn, "number"),
    (limits.MEET_NUMBER, f.ScheduleMeetForm, "number", StartMeetIn, "number"),
    (limits.MEET_NUMBER, f.RegisterPlayerForm, "joined_at_meet", RegisterIn, "joined_at_meet"),
    (limits.IFPA, f.RegisterPlayerForm, "ifpa_number", RegisterIn, "ifpa_number"),
    (limits.IFPA, f.RegisterPlayerForm, "ifpa_rank", RegisterIn, "ifpa_rank"),
    (limits.SEED, f.StartMeetForm, "seed", StartMeetIn, "seed"),
    (limits.QUALIFIERS, f.QualifyForm, "cut", QualifyIn, "cut"),
    (limits.AMOUNT_CENTS, f.LedgerEntryForm, "amount_cents", LedgerIn, "amount_cents"),
    (limits.NUMBER_OF_MEETS, f.SeasonForm, "number_of_meets", SeasonIn, "number_of_meets"),
    (
        limits.NUMBER_OF_MEETS,
        f.SeasonForm,
        "number_of_meets",
        SeasonScheduleIn,
        "number_of_meets",
    ),
    (limits.TITLE_LENGTH, f.MachineForm, "title", MachineIn, "title"),
    (limits.NAME_LENGTH, f.RegisterPlayerForm, "first_name", RegisterIn, "first_name"),
    (limits.NAME_LENGTH, f.RegisterPlayerForm, "last_name", RegisterIn, "last_name"),
    (limits.TITLE_LENGTH, f.SpecialRulingForm, "machine_title", SpecialRulingIn, "machine_title"),
    (limits.PROBLEM_LENGTH, f.MachineProblemForm, "problem", MachineProblemIn, "problem"),
    (limits.PROBLEM_LENGTH, f.MalfunctionForm, "problem", MalfunctionIn, "problem"),
    (limits.TEXT_LENGTH, f.MalfunctionForm, "note", MalfunctionIn, "note"),
    (limits.TEXT_LENGTH, f.ForfeitForm, "note", ForfeitIn, "note"),
    (limits.TEXT_LENGTH, f.ViolationForm, "reason", ViolationIn, "reason"),
    (limits.TEXT_LENGTH, f.CloseMeetForm, "override_reason", CloseMeetIn, "override_reason"),
    (limits.TEXT_LENGTH, f.CorrectionRequestForm, "reason", CorrectionIn, "reason"),
    (limits.TEXT_LENGTH, f.ConsoleCorrectionForm, "reason", CorrectionIn, "reason"),
    (
        limits.TEXT_LENGTH,
        f.ConsoleCorrectionForm,
        "override_reason",
        CorrectionIn,
        "override_reason",
    ),
    (limits.TEXT_LENGTH, f.CompensatoryGameForm, "reason", CompensatoryGameIn, "reason"),
    (limits.TEXT_LENGTH, f.MachineDeclarationForm, "reason", DeclarationIn, "reason"),
    (limits.TEXT_LENGTH, f.LedgerEntryForm, "note", LedgerIn, "note"),
    (limits.TEXT_LENGTH, f.ReverseEntryForm, "reason", ReversalIn, "reason"),
    (limits.TEXT_LENGTH, f.AmendSpecialRulingForm, "reason", AmendRulingIn, "reason"),
    (limits.TEXT_LENGTH, f.QualifyForm, "cut_reason", QualifyIn, "cut_reason"),
    (limits.TEXT_LENGTH, f.NoShowForm, "note", NoShowIn, "note"),
    (limits.TEXT_LENGTH, f.WithdrawalForm, "note", WithdrawalIn, "note"),
    (limits.RULING_TEXT_LENGTH, f.SpecialRulingForm, "text", SpecialRulingIn, "text"),
    (
        limits.RULING_TEXT_LENGTH,
        f.SpecialRulingForm,
        "reproduction",
        SpecialRulingIn,
        "reproduction",
    ),
    (
        limits.RULING_TEXT_LENGTH,
        f.SpecialRulingForm,
        "cause_and_effect",
        SpecialRulingIn,
        "cause_and_effect",
    ),
    (limits.KEY_LENGTH, f.ScoreEntryForm, "idempotency_key", SubmitScoresIn, "idempotency_key"),
    # issue 26 §5: the console's roster upload had no limit; the API's was 1 MB.
    (limits.ROSTER_CSV_LENGTH, f.PlayersCsvForm, "csv_text", ImportIn, "csv_text"),
    (limits.INVITEE_LENGTH, f.InviteOfficialForm, "who", InvitationIn, "who"),
]


@pytest.mark.parametrize(
    ("limit", "form", "form_field", "schema", "schema_field"),
    PAIRS,
    ids=[f"{p[1].__name__}.{p[2]}~{p[3].__name__}.{p[4]}" for p in PAIRS],
)
def test_web_and_api_field_bounds_are_the_limit(limit, form, form_field, schema, schema_field):
    web = _form_bounds(form.base_fields[form_field])
    api = _schema_bounds(schema, schema_field)

    assert (web, api) == (_bounds(limit), _bounds(limit))


SCORE_FIELDS = [
    (ScoreIn, "machine_score"),
    (CorrectedScoreIn, "machine_score"),
    (PlayoffScoreIn, "machine_score"),
    (CompensatoryGameIn, "new_score"),
    (CompensatoryGameIn, "leading_subtracted"),
    (CompensatoryGameIn, "state_subtracted"),
]


@pytest.mark.parametrize(("schema", "name"), SCORE_FIELDS, ids=lambda x: getattr(x, "__name__", x))
def test_machine_score_bounds_same_on_web_and_api(schema, name):
    top = limits.MACHINE_SCORE.maximum
    f.parse_machine_score(str(top))
    with pytest.raises(ValidationError):
        f.parse_machine_score(str(top + 1))

    assert _schema_bounds(schema, name) == (0, top)


def test_tie_place_bounds_same_on_web_and_api():
    """A tie place names a place among a group's players (R3.2-i); the API's tie orders hold
    at most as many ties."""
    sheet = f.ScoreEntryForm(players=[(1, "Ann Bell")], forfeits=frozenset())
    playoff = f.PlayoffScoresForm(players=[(1, "Ann Bell")])

    assert _form_bounds(sheet.fields["tie_1"]) == _bounds(limits.TIE_PLACE)
    assert _form_bounds(playoff.fields["tie_1"]) == _bounds(limits.TIE_PLACE)
    assert _schema_bounds(SubmitScoresIn, "tie_order") == (0, limits.MAX_GROUP_SIZE)
    assert _schema_bounds(CorrectionIn, "tie_order") == (0, limits.MAX_GROUP_SIZE)


def test_limits_derived_from_the_rules():
    """R4-b: a match is four games; R7.1-a: a 3-ball machine has one allowable extra ball, and
    a league's machines have at most 10 balls."""
    assert (limits.GAMES_COMPLETED.maximum, limits.TARGET_GAME.maximum) == (GAMES_PER_MATCH,) * 2
    assert limits.LAST_BALL == 10


def test_roster_csv_ifpa_bound_is_the_limit():
    """issue 26 §5: the roster CSV's own copy of the IFPA bound (its parser loads no models)."""
    assert limits.IFPA.maximum == players_csv.MAX_IFPA
