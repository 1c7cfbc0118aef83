"""Signing up for the next season on the pages (issue 37 §2): the question on a player's
personal link, the league's public sign-up form, and the console's next-season page that
shows who answered what and builds the roster from the answers."""

from __future__ import annotations

import html
import re

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.player_link_tokens import token_for
from tests import factories as f
from tests.league.season_calls import NEXT, Winter, first_meet, winter

pytestmark = pytest.mark.django_db


@pytest.fixture
def asked() -> Winter:
    """Winter 2026's players asked about Spring 2027."""
    last = winter()
    last.ask()
    return last


def _me(last: Winter, n: int = 0) -> str:
    return f"/me/{token_for(last.links[n])}/"


def _next_page(last: Winter) -> str:
    return f"/manage/tuesday/seasons/{last.season.pk}/next/"


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


# --- the personal link -------------------------------------------------------------------------


def test_personal_link_asks_the_question_with_the_seasons_night_date_and_dues(client, asked):
    page = client.get(_me(asked)).text
    start = first_meet()

    assert f"Playing in {NEXT}?" in page
    assert f"Tuesdays from {start:%a} {start.day} {start:%b %Y}; dues 30.00." in page
    assert [v for v in ("yes", "no", "maybe") if f'name="answer" value="{v}"' in page] == [
        "yes", "no", "maybe",
    ]  # fmt: skip


def test_personal_link_answer_is_saved_and_shown_back(client, asked):
    response = client.post(_me(asked), {"action": "answer", "answer": "yes"}, follow=True)

    text = _text(response.text)
    assert f"Your answer for {NEXT} is saved: Yes." in text
    assert "You answered Yes on" in text
    assert ": you play." in text
    assert 'value="yes" aria-pressed="true"' in response.text
    assert m.SeasonAnswer.objects.get().answer == "yes"


def test_personal_link_answer_refused_shows_why(client, asked):
    response = client.post(_me(asked), {"action": "answer", "answer": "perhaps"})

    assert response.status_code == 400
    assert "Answer yes, no or not sure." in response.text


def test_personal_link_answer_closes_when_the_first_meet_has_started(client, asked):
    spring = services.start_next_season(
        season=asked.season, name=NEXT, leave_out=asked.players, actor=asked.official
    )  # nobody carried: a meet under way folds without their groups
    f.MeetFactory(season=spring, number=1, date=first_meet(), status=m.Meet.Status.OPEN)

    page = _text(client.get(_me(asked)).text)

    assert f"The first meet of {NEXT} has started: tell a league official" in page
    assert 'name="answer"' not in page


def test_personal_link_without_a_question_asks_nothing(client):
    last = winter()

    assert "Playing in" not in client.get(_me(last)).text


# --- the public sign-up form -------------------------------------------------------------------


def test_signup_form_closed_says_so(client, asked):
    response = client.get("/leagues/tuesday/sign-up/")

    assert response.status_code == 200
    assert "Sign-ups for Tuesday Flippers are closed" in response.text
    assert "<form" not in response.text


def test_signup_form_open_signs_a_newcomer_up(client, asked):
    services.set_signups_open(call=asked.season.call, open_now=True, actor=asked.official)

    form = client.get("/leagues/tuesday/sign-up/")
    sent = client.post(
        "/leagues/tuesday/sign-up/",
        {"first_name": "Eve", "last_name": "Newcomer", "email": "eve@example.org",
         "ifpa_number": "4242"},
    )  # fmt: skip

    assert f"Playing in {NEXT}?" in form.text
    assert sent.status_code == 200
    assert "Thank you, Eve: your sign-up for Spring 2027 is sent." in sent.text
    signup = m.SignUp.objects.get()
    assert (signup.first_name, signup.ifpa_number, len(signup.address_hash)) == ("Eve", 4242, 32)


@pytest.mark.parametrize(
    ("posted", "message"),
    [
        ({"first_name": "", "last_name": "Newcomer", "email": "eve@example.org"},
         "Give your first name."),
        ({"first_name": "Eve", "last_name": "Newcomer", "email": "eve"},
         "This is not an e-mail address (like name@example.org)."),
        ({"first_name": "Eve", "last_name": "Newcomer", "email": "eve@example.org",
          "ifpa_number": "0"}, "An IFPA number is a whole number from 1 (as on your IFPA page)."),
        ({"first_name": "Bo", "last_name": "Flipper", "email": "bo@example.org"},
         "Bo Flipper played in Winter 2026: answer on your personal link, or ask a league "
         "official for it."),
    ],
    ids=["no first name", "not an address", "IFPA number 0", "a player of the last season"],
)  # fmt: skip
def test_signup_form_refused_says_what_is_wrong(client, asked, posted, message):
    services.set_signups_open(call=asked.season.call, open_now=True, actor=asked.official)

    response = client.post("/leagues/tuesday/sign-up/", posted)

    assert response.status_code == 400
    assert message in _text(response.text)
    assert m.SignUp.objects.count() == 0


def test_signup_form_of_no_league_is_404(client):
    assert client.get("/leagues/nowhere/sign-up/").status_code == 404


# --- the console's next-season page ------------------------------------------------------------


def test_next_season_page_asks_the_players(client):
    last = winter()
    client.force_login(last.official)
    start = first_meet()

    response = client.post(
        _next_page(last),
        {"action": "ask", "name": NEXT, "weekday": "1", "starts_on": start.isoformat(),
         "dues_cents": "30.00"},
        follow=True,
    )  # fmt: skip

    call = m.SeasonCall.objects.get()
    assert (call.name, call.starts_on, call.dues_cents) == (NEXT, start, 3000)
    assert f"Question asked: Playing in {NEXT}?" in response.text


def test_next_season_page_shows_who_answered_what_and_ticks_the_yeses(client, asked):
    ana, _bo, _cy, di = asked.players
    services.answer_next_season(link=asked.links[0], answer="no")
    services.answer_next_season(link=asked.links[0], answer="yes")
    services.answer_next_season(link=asked.links[1], answer="no")
    services.answer_next_season(link=asked.links[3], answer="yes")
    client.force_login(asked.official)

    response = client.get(_next_page(asked))

    text = _text(response.text)
    for label in ("Yes: 2", "No: 1", "Not sure: 0", "Not answered: 1"):
        assert label in text
    assert "(changed 1 time)" in text
    assert "Cy Flipper Not answered" in text
    form = response.context["form"]
    assert form.initial["carried"] == [ana.pk, di.pk]
    assert form.initial["name"] == NEXT
    assert "Ana Flipper (Yes)" in text
    assert "Cy Flipper (not answered)" in text


def test_next_season_page_accepts_refuses_and_builds_with_the_newcomers(client, asked):
    services.set_signups_open(call=asked.season.call, open_now=True, actor=asked.official)
    eve = services.sign_up(
        league=asked.league, first_name="Eve", last_name="Newcomer", email="eve@example.org"
    )
    fay = services.sign_up(
        league=asked.league, first_name="Fay", last_name="Later", email="fay@example.org"
    )
    services.answer_next_season(link=asked.links[0], answer="yes")
    client.force_login(asked.official)
    page = _next_page(asked)

    accepted = client.post(page, {"action": "accept", "signup": str(eve.pk)}, follow=True)
    no_reason = client.post(page, {"action": "refuse", "signup": str(fay.pk), "reason": ""})
    refused = client.post(
        page, {"action": "refuse", "signup": str(fay.pk), "reason": "Full"}, follow=True
    )
    form = refused.context["form"]
    built = client.post(
        page,
        {"action": "next", "name": NEXT, "weekday": "1",
         "carried": [str(pk) for pk in form.initial["carried"]],
         "newcomers": [str(pk) for pk in form.initial["newcomers"]]},
        follow=True,
    )  # fmt: skip

    assert "Eve Newcomer's sign-up is accepted." in html.unescape(accepted.text)
    assert no_reason.status_code == 400
    assert "Fay Later's sign-up is refused." in html.unescape(refused.text)
    assert form.initial["newcomers"] == [eve.pk]
    spring = m.Season.objects.get(name=NEXT)
    assert sorted(str(e.player) for e in spring.entries.select_related("player")) == [
        "Ana Flipper", "Eve Newcomer",
    ]  # fmt: skip
    assert f"{NEXT} is prepared from Winter 2026 with 1 of its 4 players and 1 newcomer." in (
        built.text
    )


def test_next_season_page_refuses_a_sign_up_of_another_league(client, asked):
    other = winter(slug="thursday", ifpa_base=2000)
    other.ask()
    services.set_signups_open(call=other.season.call, open_now=True, actor=other.official)
    theirs = services.sign_up(
        league=other.league, first_name="Eve", last_name="Newcomer", email="eve@example.org"
    )
    client.force_login(asked.official)

    response = client.post(_next_page(asked), {"action": "accept", "signup": str(theirs.pk)})

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.decision == ""
