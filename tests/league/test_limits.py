"""league/limits: the web form field and the API schema field of each input have the same
bounds, the ones `flipwell.league.limits` defines (no database)."""

from decimal import Decimal

import annotated_types
import pytest
from django import forms
from django.core.exceptions import ValidationError
from pydantic import BaseModel

from flipwell.api import schemas as s
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
    (limits.BALL, f.MalfunctionForm, "ball", s.MalfunctionIn, "ball"),
    (limits.GAMES_COMPLETED, f.ViolationForm, "games_completed", s.ViolationIn, "games_completed"),
    (limits.TARGET_GAME, f.ViolationForm, "target_game", s.ViolationIn, "target_game"),
    (limits.MEET_NUMBER, f.ScheduleMeetForm, "number", s.ScheduleMeetIn, "number"),
    (limits.MEET_NUMBER, f.ScheduleMeetForm, "number", s.StartMeetIn, "number"),
    (limits.MEET_NUMBER, f.RegisterPlayerForm, "joined_at_meet", s.RegisterIn, "joined_at_meet"),
    (limits.IFPA, f.RegisterPlayerForm, "ifpa_number", s.RegisterIn, "ifpa_number"),
    (limits.IFPA, f.RegisterPlayerForm, "ifpa_rank", s.RegisterIn, "ifpa_rank"),
    (limits.SEED, f.StartMeetForm, "seed", s.StartMeetIn, "seed"),
    (limits.QUALIFIERS, f.QualifyForm, "cut", s.QualifyIn, "cut"),
    (limits.AMOUNT_CENTS, f.LedgerEntryForm, "amount_cents", s.LedgerIn, "amount_cents"),
    (limits.NUMBER_OF_MEETS, f.SeasonForm, "number_of_meets", s.SeasonIn, "number_of_meets"),
    (
        limits.NUMBER_OF_MEETS,
        f.SeasonForm,
        "number_of_meets",
        s.SeasonScheduleIn,
        "number_of_meets",
    ),
    (limits.TITLE_LENGTH, f.MachineForm, "title", s.MachineIn, "title"),
    (limits.NAME_LENGTH, f.RegisterPlayerForm, "first_name", s.RegisterIn, "first_name"),
    (limits.NAME_LENGTH, f.RegisterPlayerForm, "last_name", s.RegisterIn, "last_name"),
    (limits.TITLE_LENGTH, f.SpecialRulingForm, "machine_title", s.SpecialRulingIn, "machine_title"),
    (limits.PROBLEM_LENGTH, f.MachineProblemForm, "problem", s.MachineProblemIn, "problem"),
    (limits.PROBLEM_LENGTH, f.MalfunctionForm, "problem", s.MalfunctionIn, "problem"),
    (limits.TEXT_LENGTH, f.MalfunctionForm, "note", s.MalfunctionIn, "note"),
    (limits.TEXT_LENGTH, f.ForfeitForm, "note", s.ForfeitIn, "note"),
    (limits.TEXT_LENGTH, f.ViolationForm, "reason", s.ViolationIn, "reason"),
    (limits.TEXT_LENGTH, f.CloseMeetForm, "override_reason", s.CloseMeetIn, "override_reason"),
    (limits.TEXT_LENGTH, f.CorrectionRequestForm, "reason", s.CorrectionIn, "reason"),
    (limits.TEXT_LENGTH, f.ConsoleCorrectionForm, "reason", s.CorrectionIn, "reason"),
    (
        limits.TEXT_LENGTH,
        f.ConsoleCorrectionForm,
        "override_reason",
        s.CorrectionIn,
        "override_reason",
    ),
    (limits.TEXT_LENGTH, f.CompensatoryGameForm, "reason", s.CompensatoryGameIn, "reason"),
    (limits.TEXT_LENGTH, f.MachineDeclarationForm, "reason", s.DeclarationIn, "reason"),
    (limits.TEXT_LENGTH, f.LedgerEntryForm, "note", s.LedgerIn, "note"),
    (limits.TEXT_LENGTH, f.ReverseEntryForm, "reason", s.ReversalIn, "reason"),
    (limits.TEXT_LENGTH, f.AmendSpecialRulingForm, "reason", s.AmendRulingIn, "reason"),
    (limits.TEXT_LENGTH, f.QualifyForm, "cut_reason", s.QualifyIn, "cut_reason"),
    (limits.TEXT_LENGTH, f.NoShowForm, "note", s.NoShowIn, "note"),
    (limits.TEXT_LENGTH, f.WithdrawalForm, "note", s.WithdrawalIn, "note"),
    (limits.RULING_TEXT_LENGTH, f.SpecialRulingForm, "text", s.SpecialRulingIn, "text"),
    (
        limits.RULING_TEXT_LENGTH,
        f.SpecialRulingForm,
        "reproduction",
        s.SpecialRulingIn,
        "reproduction",
    ),
    (
        limits.RULING_TEXT_LENGTH,
        f.SpecialRulingForm,
        "cause_and_effect",
        s.SpecialRulingIn,
        "cause_and_effect",
    ),
    (limits.KEY_LENGTH, f.ScoreEntryForm, "idempotency_key", s.SubmitScoresIn, "idempotency_key"),
    # issue 26 §5: the console's roster upload had no limit; the API's was 1 MB.
    (limits.ROSTER_CSV_LENGTH, f.PlayersCsvForm, "csv_text", s.ImportIn, "csv_text"),
    (limits.INVITEE_LENGTH, f.InviteOfficialForm, "who", s.InvitationIn, "who"),
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
    (s.ScoreIn, "machine_score"),
    (s.CorrectedScoreIn, "machine_score"),
    (s.PlayoffScoreIn, "machine_score"),
    (s.CompensatoryGameIn, "new_score"),
    (s.CompensatoryGameIn, "leading_subtracted"),
    (s.CompensatoryGameIn, "state_subtracted"),
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
    assert _schema_bounds(s.SubmitScoresIn, "tie_order") == (0, limits.MAX_GROUP_SIZE)
    assert _schema_bounds(s.CorrectionIn, "tie_order") == (0, limits.MAX_GROUP_SIZE)


def test_limits_derived_from_the_rules():
    """R4-b: a match is four games; R7.1-a: a 3-ball machine has one allowable extra ball, and
    a league's machines have at most 10 balls."""
    assert (limits.GAMES_COMPLETED.maximum, limits.TARGET_GAME.maximum) == (GAMES_PER_MATCH,) * 2
    assert limits.LAST_BALL == 10


def test_roster_csv_ifpa_bound_is_the_limit():
    """issue 26 §5: the roster CSV's own copy of the IFPA bound (its parser loads no models)."""
    assert limits.IFPA.maximum == players_csv.MAX_IFPA
