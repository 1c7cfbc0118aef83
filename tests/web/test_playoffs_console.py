"""The console's playoff night page (§6) records through each of its forms: the qualification,
a seed playoff (R6.1-e), a withdrawal (R6.6-b), a match's game started and recorded with its
tie places, a tiebreaker (R6.5-a), a no-show (R6.6-c), and the close; each form's fields are
its service's arguments, so a name spelt apart would fail here."""

from __future__ import annotations

import re

import pytest

from flipwell.league import models as m
from flipwell.league.services import (
    qualify_for_playoffs,
    start_playoff_game,
)
from tests import factories as f
from tests.form_keys import KeyedClient
from tests.playoff_night import NIGHT, player, tie_qf1

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(official):
    client = KeyedClient()
    client.force_login(official.user)
    return client


def _order(tiebreaker):
    return list(tiebreaker.places.order_by("place").values_list("player_id", flat=True))


def _url(season):
    league = m.League.objects.get(pk=season.league_id)
    return f"/manage/{league.slug}/seasons/{season.pk}/playoffs/"


def test_playoffs_page_qualifies(console, golden):
    response = console.post(_url(golden), {"action": "qualify", "date": NIGHT.isoformat()})

    assert response.status_code == 302
    assert m.PlayoffNight.objects.get(season=golden).date == NIGHT


def test_playoffs_page_records_a_seed_playoff_r6_1_e(console, golden, official):
    qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)

    response = console.post(
        _url(golden),
        {"action": "seed", "tie": "1", "place_1": player("Dee").pk, "place_2": player("Bea").pk},
    )

    assert response.status_code == 302
    assert _order(m.Tiebreaker.objects.get()) == [player("Dee").pk, player("Bea").pk]


def test_playoffs_page_refuses_a_player_listed_twice(console, golden, official):
    qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)

    response = console.post(
        _url(golden),
        {"action": "seed", "tie": "1", "place_1": player("Dee").pk, "place_2": player("Dee").pk},
    )

    assert response.status_code == 400
    assert "A player is listed twice." in response.text
    assert m.Tiebreaker.objects.count() == 0


def test_playoffs_page_records_a_withdrawal_r6_6_b(console, seeded):
    response = console.post(
        _url(seeded), {"action": "withdraw", "player": player("Ned").pk, "note": "Away"}
    )

    assert response.status_code == 302
    assert m.Withdrawal.objects.get().player == player("Ned")


def test_playoffs_page_starts_and_records_a_game_with_tie_places(console, qualified):
    url = _url(qualified)
    match = {"division": "A", "match": "QF1"}
    started = console.post(url, {"action": "start", **match})
    scores = {
        f"score_{player('Ivy').pk}": "9,000",
        f"score_{player('Pia').pk}": "5,000",
        f"score_{player('Hal').pk}": "5,000",
        f"score_{player('Kim').pk}": "1,000",
        f"tie_{player('Hal').pk}": "1",
        f"tie_{player('Pia').pk}": "2",
    }

    recorded = console.post(url, {"action": "game", **match, **scores})

    assert (started.status_code, recorded.status_code) == (302, 302)
    places = m.PlayoffResult.objects.values_list("player__first_name", "machine_score", "tie_place")
    assert sorted(places) == [
        ("Hal", 5000, 1),
        ("Ivy", 9000, None),
        ("Kim", 1000, None),
        ("Pia", 5000, 2),
    ]


def test_playoffs_page_records_a_tiebreaker_r6_5_a(console, qualified, official):
    tie_qf1(qualified, official)

    response = console.post(
        _url(qualified),
        {"action": "tiebreaker", "division": "A", "match": "QF1",
         "place_1": player("Hal").pk, "place_2": player("Pia").pk},
    )  # fmt: skip

    assert response.status_code == 302
    row = m.Tiebreaker.objects.get(purpose="match")
    assert _order(row) == [player("Hal").pk, player("Pia").pk]


def test_playoffs_page_records_a_no_show_r6_6_c(console, qualified):
    response = console.post(
        _url(qualified),
        {"action": "noshow", "division": "A", "match": "QF2", "player": player("Eli").pk},
    )

    assert response.status_code == 302
    assert m.PlayoffNoShow.objects.get().player == player("Eli")


def test_playoffs_page_refuses_another_leagues_machine(console, qualified, official):
    start_playoff_game(season=qualified, division="A", match="QF1", actor=official.user)
    elsewhere = f.MachineFactory(title="Cyclone")  # a machine of another league

    response = console.post(
        _url(qualified),
        {"action": "start", "division": "A", "match": "QF2", "machine": elsewhere.pk},
    )

    assert response.status_code == 400
    assert "that machine is not one of the machines offered here" in response.text
    assert m.PlayoffGame.objects.count() == 1


def test_playoffs_page_close_refused_before_the_finals_says_why(console, qualified):
    response = console.post(_url(qualified), {"action": "close"})

    assert response.status_code == 400
    assert 'class="form-errors"' in response.text
    assert m.PlayoffNight.objects.get(season=qualified).status != "closed"


def _closed(season):
    m.PlayoffNight.objects.filter(season=season).update(status=m.PlayoffNight.Status.CLOSED)


def test_playoffs_page_of_a_closed_night_offers_no_form(console, qualified):
    """issue 33 §3: after the night closed, the page still offered Qualify, Withdrawal and
    Close."""
    _closed(qualified)

    response = console.get(_url(qualified))

    assert response.status_code == 200
    assert "The playoff night is closed" in response.text
    for gone in ("Qualify", "Record the withdrawal", "Close the playoff night", "Record for"):
        assert gone not in response.text


@pytest.mark.parametrize(
    "posted",
    [
        {"action": "qualify", "date": NIGHT.isoformat()},
        {"action": "withdraw", "player": "Ivy"},
        {"action": "close"},
    ],
)
def test_playoffs_page_of_a_closed_night_refuses_its_forms_saying_why(console, qualified, posted):
    _closed(qualified)
    if "player" in posted:
        posted = {**posted, "player": player(posted["player"]).pk}

    response = console.post(_url(qualified), posted)

    assert response.status_code in (400, 409)
    assert "The playoff night is closed: its bracket and places are final." in response.text
    assert m.Withdrawal.objects.count() == 1  # Ned's, before


def _options(html, field_id):
    """The names a select offers (its blank choice left out)."""
    select = re.search(rf'<select name="[^"]+"[^>]*id="{field_id}"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, field_id
    return [n for v, n in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)<', select[1]) if v]


def test_playoffs_page_offers_one_seed_form_per_tie_r6_1_e(console, golden, official):
    """issue 33 §3: the seed-tie form offered every player of the season in each place."""
    qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)

    page = console.get(_url(golden)).text

    assert page.count('name="tie"') == 2
    tied = {
        (_options(page, f"id_tie{n}_place_1")[0], _options(page, f"id_tie{n}_place_1")[1])
        for n in (1, 2)
    }
    assert {frozenset(t) for t in tied} == {
        frozenset({str(player("Bea")), str(player("Dee"))}),
        frozenset({str(player("Hal")), str(player("Pia"))}),
    }  # fmt: skip
    assert len(_options(page, "id_tie1_place_2")) == 2
    assert 'id="id_tie1_place_3"' not in page


def test_playoffs_page_refuses_a_player_of_another_tie_r6_1_e(console, golden, official):
    qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)
    page = console.get(_url(golden)).text
    number = 1 if str(player("Dee")) in _options(page, "id_tie1_place_1") else 2

    response = console.post(
        _url(golden),
        {"action": "seed", "tie": str(number), "place_1": player("Dee").pk,
         "place_2": player("Pia").pk},
    )  # fmt: skip

    assert response.status_code == 400
    assert "Place 2: that player is not one of the players offered here" in response.text
    assert m.Tiebreaker.objects.count() == 0


def test_playoffs_page_says_a_tie_settled_meanwhile_is_gone(console, seeded):

    response = console.post(
        _url(seeded),
        {"action": "seed", "tie": "1", "place_1": player("Dee").pk, "place_2": player("Bea").pk},
    )

    assert response.status_code == 400
    assert "That tie is settled already, or the page is out of date: reload it." in response.text
    assert m.Tiebreaker.objects.count() == 2  # the two settled before
