"""Special-ruling services (Appendix A, RA-a, RA-e): seed, add, amend as new versions."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.selectors.machines import special_rulings_in_force
from flipwell.league.services.special_rulings import (
    add_special_ruling,
    amend_special_ruling,
    load_appendix_a,
)
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_load_appendix_a_seeds_the_rulebook_rulings(official):
    """RA.1-a..RA.4-a: eight rulings, numbered within their title."""
    created = load_appendix_a(league=official.league, actor=official.user)

    assert [(r.machine_title, r.number, r.kind) for r in created] == [
        ("The Addams Family", 1, "not_a_malfunction"),
        ("The Addams Family", 2, "major_malfunction"),
        ("The Addams Family", 3, "positive_malfunction"),
        ("Demolition Man", 1, "not_a_malfunction"),
        ("Demolition Man", 2, "major_malfunction"),
        ("F-14 Tomcat", 1, "not_an_extra_ball"),
        ("F-14 Tomcat", 2, "not_a_malfunction"),
        ("Ghostbusters", 1, "major_malfunction"),
    ]
    assert m.AuditEvent.objects.filter(action="special_rulings.appendix_a_loaded").count() == 1


def test_load_appendix_a_twice_adds_nothing(official):
    load_appendix_a(league=official.league, actor=official.user)

    assert load_appendix_a(league=official.league, actor=official.user) == []
    assert m.SpecialRuling.objects.count() == 8


def test_load_appendix_a_by_a_stranger_refused():
    with pytest.raises(PermissionDenied):
        load_appendix_a(league=f.LeagueFactory(), actor=f.UserFactory())


def test_add_ruling_takes_the_next_number_of_its_title(official):
    """RA-a: officials add to the list; titles match ignoring a leading "The" and case."""
    load_appendix_a(league=official.league, actor=official.user)

    row = add_special_ruling(
        league=official.league,
        machine_title="addams family",
        kind="major_malfunction",
        text="Ball trapped behind the bookcase.",
        reproducible=True,
        reproduction="Shoot the bookcase while it turns.",
        cause_and_effect="The bookcase closes on the ball; the player loses it.",
        actor=official.user,
    )

    assert (row.machine_title, row.number, row.version, row.kind) == (
        "The Addams Family",
        4,
        1,
        "major_malfunction",
    )
    assert m.Ruling.objects.get().kind == "special_ruling.added"
    in_force = special_rulings_in_force(official.league, "The Addams Family")
    assert [r.kind for r in in_force] == [
        "not_a_malfunction",
        "major_malfunction",
        "positive_malfunction",
        "major_malfunction",
    ]


def test_add_ruling_not_reproducible_refused(official):
    """RA-e: a special ruling needs a reproducible glitch."""
    with pytest.raises(ValidationError) as error:
        add_special_ruling(
            league=official.league,
            machine_title="Twilight Zone",
            kind="major_malfunction",
            text="The clock stopped once.",
            reproducible=False,
            reproduction="",
            cause_and_effect="Unknown.",
            actor=official.user,
        )

    assert "reproducible" in error.value.message_dict["reproduction"][0]
    assert m.SpecialRuling.objects.count() == 0


def test_add_ruling_without_cause_and_effect_refused(official):
    with pytest.raises(ValidationError) as error:
        add_special_ruling(
            league=official.league,
            machine_title="Twilight Zone",
            kind="major_malfunction",
            text="Ball stuck in the gumball machine.",
            reproducible=True,
            reproduction="Happens after three gumballs.",
            cause_and_effect=" ",
            actor=official.user,
        )

    assert "cause and effect" in error.value.message_dict["cause_and_effect"][0]


def test_amend_adds_a_new_version_and_keeps_the_old(official):
    """RA-a: an amendment is a new version; the latest is in force."""
    load_appendix_a(league=official.league, actor=official.user)
    ghostbusters = m.SpecialRuling.objects.get(machine_title="Ghostbusters")

    amended = amend_special_ruling(
        league=official.league,
        ruling=ghostbusters,
        kind="not_a_malfunction",
        text="A ball stuck on the PKE ramp after the ramp was fixed is not a malfunction.",
        reproducible=True,
        reproduction="The ramp was repaired in March; stuck balls now free themselves.",
        cause_and_effect="The ball frees itself with a nudge.",
        reason="The ramp was repaired.",
        actor=official.user,
    )

    assert (amended.number, amended.version) == (1, 2)
    assert m.SpecialRuling.objects.filter(machine_title="Ghostbusters").count() == 2
    assert [
        (r.version, r.kind) for r in special_rulings_in_force(official.league, "Ghostbusters")
    ] == [(2, "not_a_malfunction")]
    assert m.Ruling.objects.get().reason == "The ramp was repaired."


def test_amend_without_reason_refused(official):
    load_appendix_a(league=official.league, actor=official.user)
    ghostbusters = m.SpecialRuling.objects.get(machine_title="Ghostbusters")

    with pytest.raises(ValidationError, match="needs a reason"):
        amend_special_ruling(
            league=official.league,
            ruling=ghostbusters,
            kind="major_malfunction",
            text="Same.",
            reproducible=True,
            reproduction="Same.",
            cause_and_effect="Same.",
            reason="",
            actor=official.user,
        )
    assert m.SpecialRuling.objects.filter(machine_title="Ghostbusters").count() == 1
