"""League record writes with a token: late entrants' forfeits, ledger reversals, special
rulings."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league.services.ledger import record_ledger_entry, reverse_ledger_entry
from flipwell.league.services.special_rulings import add_special_ruling
from tests import factories as f
from tests.api.conftest import post

pytestmark = pytest.mark.django_db

RULING = {
    "machine_title": "Cosmic Gunfight",
    "kind": "not_a_malfunction",
    "text": "A ball trapped on the upper flipper for 30 seconds is not a malfunction.",
    "reproducible": True,
    "reproduction": "Cradle on the upper flipper.",
    "cause_and_effect": "The ball search waits for the flipper to be released.",
}


def test_designate_late_join_forfeits(client, night, manage_secret):
    late = f.SeasonEntryFactory(season=night.season, joined_at_meet=3).player

    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players/{late.pk}/late-join-forfeits",
        {"countable": False, "reason": "Joined after a move"},
        manage_secret,
    )

    assert response.status_code == 200
    assert response.json() == {
        "season_id": night.season.pk,
        "player_id": late.pk,
        "late_join_forfeits_countable": False,
    }


def test_designate_late_join_forfeits_of_a_first_meet_player_refused(client, night, manage_secret):
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players/{night.players[0].pk}/late-join-forfeits",
        {"countable": False, "reason": "No"},
        manage_secret,
    )

    assert response.status_code == 422


def _kitty_in(night):
    return record_ledger_entry(
        league=night.league, kind="kitty_in", account="kitty", amount_cents=500, actor=night.user
    )


def test_reverse_ledger_entry(client, night, manage_secret):
    entry = _kitty_in(night)

    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger/{entry.pk}/reversal",
        {"reason": "Entered twice"},
        manage_secret,
    )

    assert response.status_code == 201
    assert response.json()["amount_cents"] == -500
    assert m.LedgerEntry.objects.get(pk=response.json()["id"]).reverses == entry


def test_reverse_ledger_entry_twice_refused(client, night, manage_secret):
    entry = _kitty_in(night)
    reverse_ledger_entry(entry=entry, reason="Twice", actor=night.user)

    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger/{entry.pk}/reversal",
        {"reason": "Again"},
        manage_secret,
    )

    assert (response.status_code, response.json()["error"]["code"]) == (409, "reversal_refused")
    assert m.LedgerEntry.objects.count() == 2


def test_reverse_ledger_entry_of_another_league_is_404(client, night, manage_secret):
    other = f.LeagueOfficialFactory()
    entry = record_ledger_entry(
        league=other.league, kind="kitty_in", account="kitty", amount_cents=500, actor=other.user
    )

    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger/{entry.pk}/reversal",
        {"reason": "Not ours"},
        manage_secret,
    )

    assert response.status_code == 404
    assert m.LedgerEntry.objects.count() == 1


def test_load_appendix_a_then_again_inserts_nothing(client, night, manage_secret):
    url = f"/api/v1/leagues/{night.league.slug}/special-rulings/appendix-a"

    first = post(client, url, {}, manage_secret)
    again = post(client, url, {}, manage_secret)

    assert first.status_code == 200
    assert len(first.json()) == m.SpecialRuling.objects.count() > 0
    assert (again.status_code, again.json()) == (200, [])


def test_add_special_ruling(client, night, manage_secret):
    response = post(
        client, f"/api/v1/leagues/{night.league.slug}/special-rulings", RULING, manage_secret
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["ruling_id"], body["kind"], body["version"]) == (
        "Cosmic Gunfight #1",
        "not_a_malfunction",
        1,
    )


def test_add_special_ruling_not_reproducible_refused(client, night, manage_secret):
    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/special-rulings",
        {**RULING, "reproducible": False},
        manage_secret,
    )

    assert response.status_code == 422
    assert m.SpecialRuling.objects.count() == 0


def test_amend_special_ruling(client, night, manage_secret):
    add_special_ruling(league=night.league, actor=night.user, **RULING)

    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/special-rulings/amendments",
        {**RULING, "number": 1, "kind": "major_malfunction", "reason": "Reconsidered"},
        manage_secret,
    )

    assert response.status_code == 201
    assert (response.json()["version"], response.json()["kind"]) == (2, "major_malfunction")


def test_amend_unknown_special_ruling_is_404(client, night, manage_secret):
    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/special-rulings/amendments",
        {**RULING, "number": 7, "reason": "Reconsidered"},
        manage_secret,
    )

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
