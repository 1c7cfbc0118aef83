"""The question about the next season read through the API (scope read_private): who
answered what and the newcomers' sign-ups, the league's own only (issue 37 §2)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league import services
from tests.api.conftest import bearer, token
from tests.league.season_calls import NEXT, first_meet, winter

pytestmark = pytest.mark.django_db


def test_official_reads_the_answers_and_the_sign_ups(client):
    last = winter()
    call = services.set_signups_open(call=last.ask(), open_now=True, actor=last.official)
    services.answer_next_season(link=last.links[0], answer="maybe")
    services.answer_next_season(link=last.links[0], answer="yes")
    eve = services.sign_up(
        league=last.league, first_name="Eve", last_name="Newcomer", email="eve@example.org"
    )
    secret = token(m.LeagueOfficial.objects.get(user=last.official), "read_private")

    answer = client.get(f"/api/v1/seasons/{last.season.pk}/next-season", **bearer(secret))

    body = answer.json()
    assert answer.status_code == 200
    assert body["call"]["name"] == NEXT
    assert (body["call"]["starts_on"], body["call"]["signups_open"]) == (
        first_meet().isoformat(),
        call.signups_open,
    )
    assert [(a["player"], a["answer"], a["changes"]) for a in body["answers"]] == [
        ("Ana Flipper", "yes", 1),
        ("Bo Flipper", None, 0),
        ("Cy Flipper", None, 0),
        ("Di Flipper", None, 0),
    ]
    assert [(s["id"], s["email"], s["decision"]) for s in body["signups"]] == [
        (eve.pk, "eve@example.org", "")
    ]


def test_another_leagues_token_reads_no_answer(client):
    last = winter()
    last.ask()
    other = winter(slug="thursday", ifpa_base=2000)
    secret = token(m.LeagueOfficial.objects.get(user=other.official), "read_private")

    answer = client.get(f"/api/v1/seasons/{last.season.pk}/next-season", **bearer(secret))

    assert answer.status_code == 403
