"""change_ifpa_figure: a league's own IFPA figures, with who, when and why (IFPA league
definitions, endorsement fee; `flipwell.rules.ifpa_parameters`)."""

from __future__ import annotations

from dataclasses import fields

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.ifpa import FIGURE_WORDS, season_ifpa_compliance
from flipwell.rules import IfpaCheckName, IfpaParameters
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def lo() -> m.LeagueOfficial:
    return f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)


def test_change_ifpa_figure_stores_it_with_a_ruling_and_an_event(lo):
    services.change_ifpa_figure(
        league=lo.league, figure="fee_currency", value=" eur ", reason="Euro fee", actor=lo.user
    )

    lo.league.refresh_from_db()
    assert lo.league.ifpa_figures == {"fee_currency": "EUR"}
    ruling = m.Ruling.objects.get(league=lo.league)
    assert (ruling.kind, ruling.subject) == ("ifpa_figure", "IFPA fee_currency: USD -> EUR")
    event = m.AuditEvent.objects.get(action="league.ifpa_figure_changed")
    assert event.data == {
        "figure": "fee_currency",
        "from": "USD",
        "to": "EUR",
        "reason": "Euro fee",
    }


def test_change_ifpa_figure_empty_returns_to_the_ifpas(lo):
    lo.league.ifpa_figures = {"min_sessions": 8, "finals_percent": 20}
    lo.league.save()

    services.change_ifpa_figure(
        league=lo.league, figure="min_sessions", value="", reason="Back", actor=lo.user
    )

    lo.league.refresh_from_db()
    assert lo.league.ifpa_figures == {"finals_percent": 20}


def test_change_ifpa_figure_refuses_an_unknown_figure_and_no_reason(lo):
    with pytest.raises(ValidationError) as unknown:
        services.change_ifpa_figure(
            league=lo.league, figure="sessions", value="5", reason="x", actor=lo.user
        )
    with pytest.raises(ValidationError) as silent:
        services.change_ifpa_figure(
            league=lo.league, figure="min_sessions", value="5", reason=" ", actor=lo.user
        )

    assert unknown.value.message_dict == {"figure": ["No IFPA figure is called 'sessions'."]}
    assert list(silent.value.message_dict) == ["reason"]
    assert m.Ruling.objects.count() == 0


def test_change_ifpa_figure_refuses_a_value_outside_its_bounds(lo):
    with pytest.raises(ValidationError) as refused:
        services.change_ifpa_figure(
            league=lo.league, figure="finals_percent", value="150", reason="x", actor=lo.user
        )

    assert refused.value.message_dict == {
        "value": [
            "IFPA parameter finals_percent cannot be 150; allowed: a whole number from 0 to 100."
        ]
    }


def test_season_ifpa_compliance_uses_the_leagues_figures(lo):
    lo.league.ifpa_figures = {"min_sessions": 12}
    lo.league.save()
    season = f.SeasonFactory(league=lo.league, number_of_meets=10)

    held = season_ifpa_compliance(season).compliance.check(IfpaCheckName.SESSIONS_HELD)

    assert (held.passed, dict(held.figures)["needed"]) == (False, "12")


def test_every_ifpa_figure_has_words():
    assert list(FIGURE_WORDS) == [x.name for x in fields(IfpaParameters)]


def test_a_stored_figure_outside_its_bounds_is_refused_by_the_model(lo):
    lo.league.ifpa_figures = {"min_sessions": 0}

    with pytest.raises(ValidationError):
        lo.league.full_clean()
